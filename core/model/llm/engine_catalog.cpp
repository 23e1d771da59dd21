#include "core/model/llm/engine_catalog.h"

#include "core/message_text.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/catalog/user_catalog_file.h"
#include "core/model/llm/engine_catalog_json.h"

#include <QVersionNumber>

#include <algorithm>
#include <mutex>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// A name or version quoted in a message: a hostile file's megabyte of text must not make a megabyte of message.
constexpr qsizetype kMaxQuotedChars = 80;

bool answersTo(const EngineProfile& e, QStringView name)
{
    if (name.compare(e.id, Qt::CaseInsensitive) == 0)
        return true;
    return std::any_of(e.aliases.begin(), e.aliases.end(),
                       [&](const QString& alias) { return name.compare(alias, Qt::CaseInsensitive) == 0; });
}

std::shared_ptr<const UserEngines> loadUserEngines(const QString& directory, std::uint64_t generation)
{
    auto loaded = std::make_shared<UserEngines>();
    loaded->directory = directory;
    loaded->generation = generation;
    const QString path = directory + u"/engines.json"_s;
    const Result<std::optional<QByteArray>> bytes = readUserCatalogFile(path);
    if (!bytes) {
        loaded->problems << bytes.error().message;
        return loaded;
    }
    if (!bytes.value())
        return loaded;
    Result<std::vector<EngineProfile>> engines = parseUserEngineCatalog(*bytes.value(), path);
    if (engines)
        loaded->engines = std::move(engines).value();
    else
        loaded->problems << engines.error().message;
    return loaded;
}

// One of the user's engines, kept alive by the catalog it was read with.
std::shared_ptr<const EngineProfile> userProfile(const std::shared_ptr<const UserEngines>& user, const EngineProfile& e)
{
    return std::shared_ptr<const EngineProfile>(user, &e);
}

// A built-in engine lives as long as the program: nothing to own.
std::shared_ptr<const EngineProfile> builtinProfile(const EngineProfile& e)
{
    return std::shared_ptr<const EngineProfile>(std::shared_ptr<const EngineProfile>(), &e);
}

}  // namespace

QString userEngineCatalogPath()
{
    return userCatalogDirectory() + u"/engines.json"_s;
}

std::shared_ptr<const UserEngines> userEngines()
{
    static std::mutex mutex;
    static std::shared_ptr<const UserEngines> cached;
    const QString directory = userCatalogDirectory();
    const std::uint64_t generation = userCatalogGeneration();
    const std::lock_guard<std::mutex> lock(mutex);
    if (!cached || cached->directory != directory || cached->generation != generation)
        cached = loadUserEngines(directory, generation);
    return cached;
}

Result<std::vector<EngineProfile>> parseUserEngineCatalog(const QByteArray& json, const QString& label)
{
    Result<std::vector<EngineProfile>> engines = parseEngineCatalog(json);
    if (!engines)
        return makeError(engines.error().code, label + u": "_s + oneLine(engines.error().message));
    for (std::size_t i = 0; i < engines.value().size(); ++i) {
        const QString& id = engines.value()[i].id;
        for (const EngineProfile& builtin : builtinEngines())
            if (answersTo(builtin, id))
                return makeError(Error::Code::Schema,
                                 label + u": engines["_s + QString::number(i) + u"].id \""_s + id +
                                     u"\" is the built-in engine "_s + builtin.name +
                                     u"; an engine of your own takes an id of its own and never changes a "
                                     u"built-in one"_s);
    }
    return engines;
}

std::vector<EngineProfile> allEngines()
{
    std::vector<EngineProfile> engines = builtinEngines();
    const std::shared_ptr<const UserEngines> user = userEngines();
    engines.insert(engines.end(), user->engines.begin(), user->engines.end());
    return engines;
}

bool isUserEngine(const QString& id)
{
    const std::shared_ptr<const UserEngines> user = userEngines();
    return std::any_of(user->engines.begin(), user->engines.end(),
                       [&](const EngineProfile& e) { return sameCatalogId(e.id, id); });
}

QString engineIds()
{
    QStringList ids;
    for (const EngineProfile& e : allEngines())
        ids << e.id;
    return ids.join(u", "_s);
}

Result<QString> saveUserEngine(const EngineProfile& engine)
{
    return addUserCatalogEntry<EngineProfile>(engine, userEngineCatalogPath(), &parseUserEngineCatalog,
                                              &engineCatalogToJson, "an engine");
}

QString EngineSelection::versionNumber() const
{
    const bool prefixed =
        version.startsWith(u'v', Qt::CaseInsensitive) || version.startsWith(u'b', Qt::CaseInsensitive);
    return prefixed ? version.mid(1) : version;
}

bool EngineSelection::splitsDecodeAttention() const
{
    return !profile || profile->splitsDecodeAttention(versionNumber());
}

AllReduceKernels EngineSelection::allReduceKernels(const LinkSpec& link, int gpus) const
{
    return profile ? profile->allReduceKernels(link, gpus, versionNumber()) : AllReduceKernels::Nccl;
}

EngineSelection genericEngine()
{
    return EngineSelection{builtinProfile(builtinEngines().front()), QString(), QString()};
}

Result<EngineSelection> selectEngine(QStringView spec)
{
    const qsizetype at = spec.indexOf(u'@');
    const QStringView name = (at < 0 ? spec : spec.left(at)).trimmed();
    const QString version = at < 0 ? QString() : spec.mid(at + 1).trimmed().toString();
    std::shared_ptr<const EngineProfile> found;
    for (const EngineProfile& e : builtinEngines())
        if (!found && answersTo(e, name))
            found = builtinProfile(e);
    const std::shared_ptr<const UserEngines> user = userEngines();
    for (const EngineProfile& e : user->engines)
        if (!found && answersTo(e, name))
            found = userProfile(user, e);
    if (!found) {
        QString message = u"no engine \""_s + name.left(kMaxQuotedChars).toString() + u"\"; known: "_s + engineIds() +
                          u" (as NAME or NAME@VERSION)"_s;
        for (const QString& problem : user->problems)
            message += u"; your engines were not read: "_s + problem;
        return makeError(Error::Code::InvalidArgument, message);
    }
    // "v0.6.3" as releases are tagged, "b4732" as llama.cpp numbers its builds.
    const bool prefixed =
        version.startsWith(u'v', Qt::CaseInsensitive) || version.startsWith(u'b', Qt::CaseInsensitive);
    const QString number = prefixed ? version.mid(1) : version;
    qsizetype suffix = 0;
    if (at >= 0 &&
        (number.isEmpty() || QVersionNumber::fromString(number, &suffix).isNull() || suffix != number.size()))
        return makeError(Error::Code::InvalidArgument,
                         u"engine "_s + found->id +
                             u": the version must be dotted numbers such as 0.6, v0.10.2 or "_s
                             u"b4732; got \""_s +
                             version.left(kMaxQuotedChars) + u'"');
    EngineSelection selection{found, version, QString()};
    if (!version.isEmpty())
        selection.fallbackNote = versionNote(*found, version, number);
    return selection;
}

}  // namespace ridgeline
