#include "core/model/llm/engine_catalog_json.h"

#include "core/json/strict_reader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <set>
#include <utility>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

const QString kEngineFormat = u"ridgeline-engine-catalog"_s;

constexpr qsizetype kMaxEngines = 10'000;
// Every term for every memory family is fewer than this; more is not a profile.
constexpr qsizetype kMaxOverrides = 1'000;
// The model's bound on a fixed time (checkTerms): a second per layer or step is a typo, not an engine.
constexpr double kMaxTermSeconds = 1.0;

// What --engine NAME[@VERSION] can take as a name: no '@', no spaces, no commas.
bool isEngineId(const QString& id)
{
    static const QRegularExpression pattern(u"^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$"_s);
    return pattern.match(id).hasMatch();
}

std::optional<MemoryFamily> parseFamily(const QString& name)
{
    for (MemoryFamily family : {MemoryFamily::Hbm, MemoryFamily::Gddr, MemoryFamily::Unified, MemoryFamily::Other})
        if (memoryFamilyName(family) == name)
            return family;
    return std::nullopt;
}

void requireNonEmpty(ObjectReader& in, QLatin1StringView key, const QString& value)
{
    if (!in.problem().found() && value.trimmed().isEmpty())
        in.problem().report(Error::Code::Schema, in.where(key) + u" must not be empty"_s);
}

TermOverride overrideFrom(ObjectReader& in)
{
    TermOverride o;
    const QString name = in.text("term"_L1, Need::Required);
    const std::optional<EngineTerm> term = parseTermName(name);
    if (!in.problem().found() && (!term || termName(*term) != name)) {
        QStringList names;
        for (const EngineTerm& known : allTerms())
            names << termName(known);
        in.problem().report(Error::Code::Schema, in.where("term"_L1) + u" \""_s + name.left(80) +
                                                     u"\" is no engine term; expected one of: "_s +
                                                     names.join(u", "_s));
    }
    if (term)
        o.term = *term;
    const bool share = term && term->isShare();
    o.value = in.number("value"_L1, share ? 1.0 : kMaxTermSeconds, Need::Required);
    if (!in.problem().found() && share && !(o.value > 0))
        in.problem().report(Error::Code::Range,
                            in.where("value"_L1) + u" is a share of a datasheet peak: above 0, at most 1"_s);
    if (in.has("memory_family"_L1)) {
        const QString family = in.text("memory_family"_L1, Need::Required);
        o.family = parseFamily(family);
        if (!in.problem().found() && !o.family)
            in.problem().report(Error::Code::Schema, in.where("memory_family"_L1) + u" \""_s + family.left(80) +
                                                         u"\" is none of HBM, GDDR, unified, other"_s);
    }
    o.source = in.text("source"_L1, Need::Required);
    requireNonEmpty(in, "source"_L1, o.source);
    return o;
}

EngineProfile engineFrom(ObjectReader& in)
{
    EngineProfile e;
    e.id = in.text("id"_L1, Need::Required);
    if (!in.problem().found() && !isEngineId(e.id))
        in.problem().report(Error::Code::Schema,
                            in.where("id"_L1) + u" \""_s + e.id.left(80) +
                                u"\" must be 1 to 64 letters, digits and . _ + - (it is what --engine takes), "
                                u"starting with a letter or digit"_s);
    e.name = in.text("name"_L1, Need::Required);
    requireNonEmpty(in, "name"_L1, e.name);
    e.coverage = in.text("coverage"_L1, Need::Required);
    requireNonEmpty(in, "coverage"_L1, e.coverage);
    e.overrides = readEntries<TermOverride>(in, "overrides"_L1, kMaxOverrides, Need::Required, overrideFrom);
    std::set<std::pair<QString, int>> seen;
    for (std::size_t i = 0; i < e.overrides.size() && !in.problem().found(); ++i) {
        const TermOverride& o = e.overrides[i];
        const int family = o.family ? static_cast<int>(*o.family) : -1;
        if (!seen.insert({termName(o.term), family}).second)
            in.problem().report(Error::Code::Schema, indexedPath(in.where("overrides"_L1), static_cast<qsizetype>(i)) +
                                                         u" sets "_s + termName(o.term) + u" a second time for "_s +
                                                         (o.family ? memoryFamilyName(*o.family) : u"every card"_s));
    }
    return e;
}

QJsonObject engineToJson(const EngineProfile& e)
{
    QJsonArray overrides;
    for (const TermOverride& o : e.overrides) {
        QJsonObject term{{u"term"_s, termName(o.term)}, {u"value"_s, o.value}, {u"source"_s, o.source}};
        if (o.family)
            term.insert("memory_family"_L1, memoryFamilyName(*o.family));
        overrides.append(term);
    }
    return QJsonObject{{u"id"_s, e.id}, {u"name"_s, e.name}, {u"coverage"_s, e.coverage}, {u"overrides"_s, overrides}};
}

}  // namespace

Result<std::vector<EngineProfile>> parseEngineCatalog(const QByteArray& json)
{
    const Result<JsonNode> root = parseStrictObject(json);
    if (!root)
        return root.error();
    Problem problem;
    ObjectReader in(root.value(), QString(), problem);
    readHeader(in, kEngineFormat, u"engine catalog"_s, kEngineCatalogSchemaVersion);
    in.text("notes"_L1);
    std::vector<EngineProfile> engines =
        readEntries<EngineProfile>(in, "engines"_L1, kMaxEngines, Need::Required, engineFrom);
    in.rejectUnknownKeys();
    std::set<QString> ids;
    for (std::size_t i = 0; i < engines.size() && !problem.found(); ++i)
        if (!ids.insert(engines[i].id.toCaseFolded()).second)
            problem.report(Error::Code::Schema, indexedPath(u"engines"_s, static_cast<qsizetype>(i)) + u".id \""_s +
                                                    engines[i].id + u"\" is used twice"_s);
    if (problem.found())
        return problem.error();
    return engines;
}

QByteArray engineCatalogToJson(const std::vector<EngineProfile>& engines)
{
    QJsonArray list;
    for (const EngineProfile& e : engines)
        list.append(engineToJson(e));
    const QJsonObject root{{u"format"_s, kEngineFormat},
                           {u"schema_version"_s, kEngineCatalogSchemaVersion},
                           {u"notes"_s,
                            u"Engine profiles of your own: each sets some of the model's engine terms (shares of a "
                            "datasheet peak in (0, 1], times in seconds) on every card or on one memory family (HBM, "
                            "GDDR, unified, other); every other term is the measured defaults'."_s},
                           {u"engines"_s, list}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace ridgeline
