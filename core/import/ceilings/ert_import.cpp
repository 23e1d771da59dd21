#include "core/import/ceilings/ert_import.h"

#include "core/import/text/import_text.h"
#include "core/json/strict_reader.h"
#include "core/physical_limits.h"

#include <QSet>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// Reads the file's objects with readers that share one Problem, so that the first problem anywhere is the one reported,
// at the line and column of the value it is about.
class ErtReader {
public:
    ErtReader(const JsonNode& root, ImportResult& result)
        : m_root(root, QString(), m_problem, ReadMode::Located), m_result(result)
    {
    }

    std::optional<Error> read()
    {
        const JsonNode* empirical = object(m_root, u"empirical", true);
        const JsonNode* gflops = empirical ? data(*empirical, u"empirical"_s, u"gflops", true) : nullptr;
        const JsonNode* gbytes = empirical ? data(*empirical, u"empirical"_s, u"gbytes", true) : nullptr;
        const auto computeEntries = entries(gflops, u"empirical.gflops.data"_s, PhysicalQuantity::ComputeGflops);
        const auto bandwidthEntries = entries(gbytes, u"empirical.gbytes.data"_s, PhysicalQuantity::BandwidthGbps);
        if (m_root.failed())
            return m_root.error();
        for (const auto& [name, value] : computeEntries) {
            ComputeCeiling ceiling;
            ceiling.name = name;
            ceiling.precision = precisionOf(name);
            ceiling.isa = u"ERT"_s;
            ceiling.gflops = value;
            m_result.computeCeilings.push_back(ceiling);
        }
        for (const auto& [name, value] : bandwidthEntries) {
            BandwidthCeiling ceiling;
            ceiling.level = name;
            ceiling.mix = u"ERT"_s;
            ceiling.gbps = value;
            m_result.bandwidthCeilings.push_back(ceiling);
        }
        if (m_result.computeCeilings.empty() && m_result.bandwidthCeilings.empty())
            m_root.refuse(*empirical,
                          u"empirical.gflops.data and empirical.gbytes.data hold no ceiling with a value "
                          "above 0"_s);
        if (const JsonNode* spec = object(m_root, u"spec", false))
            readSpec(*spec);
        return m_root.failed() ? std::optional<Error>(m_root.error()) : std::nullopt;
    }

private:
    using Entry = std::pair<QString, double>;

    // The object at `key` of `fields`; a missing required one means the file is not ERT's.
    const JsonNode* object(ObjectReader& fields, QStringView key, bool required)
    {
        const JsonNode* node = fields.object(key);
        if (!node && required && !fields.failed())
            fields.refuseMissing(key, u"not an ERT roofline.json"_s);
        return node;
    }

    // The "data" array of the object at path.key.
    const JsonNode* data(const JsonNode& parent, const QString& path, QStringView key, bool required)
    {
        ObjectReader parentFields(parent, path, m_problem, ReadMode::Located);
        const JsonNode* holder = object(parentFields, key, required);
        if (!holder)
            return nullptr;
        ObjectReader fields = parentFields.nested(*holder, key);
        const JsonNode* array = fields.array(u"data");
        if (!array && !fields.failed())
            fields.refuseMissing(u"data", u"the ceilings as [\"name\", number] pairs"_s);
        return array;
    }

    // [name, value] pairs; a value of 0 is skipped (ERT writes 0 for a test that did not run), any other keeps to
    // the physical rule of a GFLOP/s or GB/s figure.
    std::vector<Entry> entries(const JsonNode* array, const QString& path, PhysicalQuantity quantity)
    {
        std::vector<Entry> out;
        QSet<QString> names;
        for (qsizetype i = 0; array && i < array->size() && !m_root.failed(); ++i) {
            const JsonNode& entry = array->items()[static_cast<std::size_t>(i)];
            const bool pair = entry.isArray() && entry.size() == 2 && entry.items().front().isString();
            const QString name = pair ? entry.items().front().string().trimmed() : QString();
            const JsonNode& value = pair ? entry.items().back() : entry;
            const QString named = path + u" entry \""_s + name + u"\" "_s;
            const std::optional<QString> unphysical = physicalProblem(quantity, value.number());
            const QString where = path + u'[' + QString::number(i) + u']';
            if (!pair)
                m_root.refuse(entry, where + u" must be a [\"name\", number] pair, got "_s + entry.describe());
            else if (name.isEmpty() || name.size() > 200)
                m_root.refuse(entry, where + u" has an empty or overlong name"_s);
            else if (!value.isNumber())
                m_root.refuse(value, named + u"must have a number as its value, got "_s + value.describe());
            else if (value.number() != 0.0 && unphysical)
                m_root.refuse(value, named + *unphysical + u" (or 0 for a test that did not run)"_s);
            else if (names.contains(name))
                m_root.refuse(entry, path + u" names \""_s + name + u"\" twice"_s);
            if (m_root.failed())
                break;
            names.insert(name);
            if (value.number() == 0.0)
                m_result.skipped.push_back(SkippedRow{0, name, u"a ceiling of 0 (the ERT test did not run?)"_s});
            else
                out.emplace_back(name, value.number());
        }
        return out;
    }

    // The vendor's specification: fills theoreticalGflops of a same-named ceiling, anything else is reported.
    void readSpec(const JsonNode& spec)
    {
        for (const QString& kind : {u"gflops"_s, u"gbytes"_s}) {
            const JsonNode* array = data(spec, u"spec"_s, kind, false);
            const auto specEntries =
                entries(array, u"spec."_s + kind + u".data"_s,
                        kind == u"gflops"_s ? PhysicalQuantity::ComputeGflops : PhysicalQuantity::BandwidthGbps);
            for (const auto& [name, value] : specEntries) {
                bool used = false;
                for (ComputeCeiling& ceiling : m_result.computeCeilings) {
                    if (kind == u"gflops"_s && ceiling.name == name) {
                        ceiling.theoreticalGflops = value;
                        used = true;
                    }
                }
                if (!used)
                    m_result.skipped.push_back(SkippedRow{0, u"spec "_s + kind + u' ' + name,
                                                          u"a specification without a measured counterpart"_s});
            }
        }
    }

    static QString precisionOf(const QString& name)
    {
        const QString upper = name.toUpper();
        if (upper.contains(u"FP64"_s) || upper.contains(u"DP"_s) || upper.contains(u"DOUBLE"_s))
            return u"fp64"_s;
        if (upper.contains(u"FP32"_s) || upper.contains(u"SP"_s) || upper.contains(u"SINGLE"_s))
            return u"fp32"_s;
        if (upper.contains(u"FP16"_s) || upper.contains(u"HALF"_s))
            return u"fp16"_s;
        return {};
    }

    Problem m_problem;
    ObjectReader m_root;
    ImportResult& m_result;
};

// One JSON value, Python's NaN tokens refused; where: "" or " of the JSON text inside the file's string", said
// after the line and column.
Result<JsonNode> parseJson(const QByteArray& json, const QString& where)
{
    JsonReadOptions options;
    options.pythonNumbers = false;
    Result<JsonNode> value = readOneJsonValue(json, options);
    if (!value) {
        QString message = value.error().message;
        const qsizetype place = message.startsWith(u"line "_s) ? message.indexOf(u": "_s) : -1;
        return makeError(value.error().code, place < 0 ? message + where : message.insert(place, where));
    }
    return value;
}

}  // namespace

Result<ImportResult> importErt(const QByteArray& bytes, const QString& fileName)
{
    const auto text = decodeImportText(bytes);
    if (!text.ok())
        return text.error();
    QByteArray json = text.value().toUtf8();
    QString where;
    // Some ERT scripts write the document json.dumps()-ed twice: a JSON string holding the JSON text.
    if (json.trimmed().startsWith('"')) {
        const auto wrapped = parseJson(json, QString());
        if (!wrapped.ok())
            return wrapped.error();
        json = wrapped.value().string().toUtf8();
        where = u" of the JSON text inside the file's string"_s;
    }
    const auto document = parseJson(json, where);
    if (!document.ok())
        return document.error();
    if (!document.value().isObject())
        return makeError(Error::Code::Schema, lineColumn(1, 1) + u": the top level must be a JSON object"_s);

    ImportResult result;
    result.fileName = fileName;
    result.format = ImportFormat::Ert;
    result.machineName = u"ERT: "_s + fileName;
    if (auto error = ErtReader(document.value(), result).read())
        return *error;
    result.notes.append(QString::number(result.computeCeilings.size()) + u" compute and "_s +
                        QString::number(result.bandwidthCeilings.size()) +
                        u" bandwidth ceilings of the machine ERT ran on"_s);
    return result;
}

}  // namespace ridgeline
