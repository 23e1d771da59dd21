#include "core/model/catalog/user_catalog.h"

#include "core/model/catalog/catalog_json.h"
#include "core/model/catalog/user_catalog_file.h"
#include "core/read_file.h"
#include "core/save_file.h"

#include <QDir>
#include <QFileInfo>

#include <algorithm>
#include <mutex>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// A catalog of ten thousand entries is a few megabytes; anything far larger is another file.
constexpr qint64 kMaxUserCatalogBytes = 32 << 20;

QString idsKey(const QString& id)
{
    return id.toCaseFolded();
}

// The first entry whose id the bundled catalog (or "custom") already has: "gpus[2].id "h100-sxm" ...".
template <typename Spec>
std::optional<Error> bundledIdTaken(const std::vector<Spec>& entries, const Result<std::vector<Spec>>& bundled,
                                    QLatin1StringView listKey, const char* what)
{
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const QString key = idsKey(entries[i].id);
        const QString where = QString(listKey) + u'[' + QString::number(i) + u"].id \""_s + entries[i].id + u'"';
        if (key == idsKey(kCustomId))
            return makeError(Error::Code::Schema,
                             where +
                                 u" is the word the window and the command line use for a card or model of "_s
                                 u"their own; choose another id"_s);
        if (!bundled)
            continue;
        for (const Spec& spec : bundled.value())
            if (idsKey(spec.id) == key)
                return makeError(Error::Code::Schema,
                                 where + u" is a bundled "_s + QLatin1String(what) + u" (\""_s + spec.name +
                                     u"\"); a catalog of your own adds entries under ids of its own and never "_s
                                     u"changes a bundled one"_s);
    }
    return std::nullopt;
}

template <typename Spec>
Result<std::vector<Spec>> parseUser(const QByteArray& json, const QString& label,
                                    Result<std::vector<Spec>> (*parse)(const QByteArray&),
                                    const Result<std::vector<Spec>>& bundled, QLatin1StringView listKey,
                                    const char* what)
{
    Result<std::vector<Spec>> entries = parse(json);
    if (!entries)
        return makeError(entries.error().code, label + u": "_s + entries.error().message);
    if (const std::optional<Error> taken = bundledIdTaken(entries.value(), bundled, listKey, what))
        return makeError(taken->code, label + u": "_s + taken->message);
    return entries;
}

template <typename Spec>
std::vector<Spec> loadUser(const QString& path,
                           Result<std::vector<Spec>> (*parseFile)(const QByteArray&, const QString&),
                           QStringList& problems)
{
    const Result<std::optional<QByteArray>> bytes = readUserCatalogFile(path);
    if (!bytes) {
        problems << bytes.error().message;
        return {};
    }
    if (!bytes.value())
        return {};
    Result<std::vector<Spec>> entries = parseFile(*bytes.value(), path);
    if (!entries) {
        problems << entries.error().message;
        return {};
    }
    return std::move(entries).value();
}

struct Cache {
    std::mutex mutex;
    std::shared_ptr<const UserCatalogs> catalogs;
    std::uint64_t generation = 0;  // counts reloads, for the caches of other user files (engines)
};

Cache& cache()
{
    static Cache instance;
    return instance;
}

std::shared_ptr<const UserCatalogs> loadUserCatalogs(const QString& directory)
{
    auto loaded = std::make_shared<UserCatalogs>();
    loaded->directory = directory;
    loaded->gpus = loadUser<GpuSpec>(directory + u"/gpus.json"_s, &parseUserGpuCatalog, loaded->problems);
    loaded->models = loadUser<ModelSpec>(directory + u"/models.json"_s, &parseUserModelCatalog, loaded->problems);
    return loaded;
}

template <typename Spec>
bool containsId(const std::vector<Spec>& specs, const QString& id)
{
    return std::any_of(specs.begin(), specs.end(), [&](const Spec& spec) { return idsKey(spec.id) == idsKey(id); });
}

}  // namespace

Result<std::optional<QByteArray>> readUserCatalogFile(const QString& path)
{
    if (!QFileInfo::exists(path))
        return std::optional<QByteArray>();
    Result<QByteArray> bytes =
        readFileUpTo(path, u"catalog"_s, kMaxUserCatalogBytes, u"a catalog holds at most 32 MiB"_s);
    if (!bytes)
        return bytes.error();
    return std::optional<QByteArray>(std::move(bytes.value()));
}

std::optional<Error> writeUserCatalogFile(const QString& path, const QByteArray& json)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return makeError(Error::Code::Io, QFileInfo(path).absolutePath() + u": cannot be created; nothing written"_s);
    if (const std::optional<Error> failed = saveFile(path, json))
        return failed;
    reloadUserCatalogs();
    return std::nullopt;
}

QString userCatalogDirectory()
{
    const QString xdg = qEnvironmentVariable("XDG_CONFIG_HOME");
    const QString base = !xdg.isEmpty() && QDir::isAbsolutePath(xdg) ? xdg : QDir::homePath() + u"/.config"_s;
    return QDir::cleanPath(base + u"/ridgeline"_s);
}

QString userGpuCatalogPath()
{
    return userCatalogDirectory() + u"/gpus.json"_s;
}

QString userModelCatalogPath()
{
    return userCatalogDirectory() + u"/models.json"_s;
}

std::shared_ptr<const UserCatalogs> userCatalogs()
{
    const QString directory = userCatalogDirectory();
    Cache& c = cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    if (!c.catalogs || c.catalogs->directory != directory)
        c.catalogs = loadUserCatalogs(directory);
    return c.catalogs;
}

void reloadUserCatalogs()
{
    Cache& c = cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    c.catalogs.reset();
    ++c.generation;
}

std::uint64_t userCatalogGeneration()
{
    Cache& c = cache();
    const std::lock_guard<std::mutex> lock(c.mutex);
    return c.generation;
}

Result<std::vector<GpuSpec>> parseUserGpuCatalog(const QByteArray& json, const QString& label)
{
    return parseUser<GpuSpec>(json, label, &parseGpuCatalog, builtinGpus(), "gpus"_L1, "GPU");
}

Result<std::vector<ModelSpec>> parseUserModelCatalog(const QByteArray& json, const QString& label)
{
    return parseUser<ModelSpec>(json, label, &parseModelCatalog, builtinModels(), "models"_L1, "model");
}

std::vector<GpuSpec> allGpus()
{
    std::vector<GpuSpec> gpus;
    if (const auto& bundled = builtinGpus())
        gpus = bundled.value();
    const std::shared_ptr<const UserCatalogs> user = userCatalogs();
    gpus.insert(gpus.end(), user->gpus.begin(), user->gpus.end());
    return gpus;
}

std::vector<ModelSpec> allModels()
{
    std::vector<ModelSpec> models;
    if (const auto& bundled = builtinModels())
        models = bundled.value();
    const std::shared_ptr<const UserCatalogs> user = userCatalogs();
    models.insert(models.end(), user->models.begin(), user->models.end());
    return models;
}

bool isUserGpu(const QString& id)
{
    return containsId(userCatalogs()->gpus, id);
}

bool isUserModel(const QString& id)
{
    return containsId(userCatalogs()->models, id);
}

Result<QString> saveUserGpu(const GpuSpec& gpu)
{
    return addUserCatalogEntry<GpuSpec>(gpu, userGpuCatalogPath(), &parseUserGpuCatalog, &gpuCatalogToJson, "a GPU");
}

Result<QString> saveUserModel(const ModelSpec& model)
{
    return addUserCatalogEntry<ModelSpec>(model, userModelCatalogPath(), &parseUserModelCatalog, &modelCatalogToJson,
                                          "a model");
}

namespace {

// The bundled entries, then the user's (user_catalog.h); an unknown id lists every known one and says why the
// user's file was not read when it was refused.
template <typename Spec>
Result<Spec> findIn(const Result<std::vector<Spec>>& bundled, const std::vector<Spec>& user,
                    const QStringList& userProblems, QStringView id, const char* what)
{
    if (!bundled)
        return bundled.error();
    QStringList known;
    for (const std::vector<Spec>* list : {&bundled.value(), &user})
        for (const Spec& spec : *list) {
            if (id.compare(spec.id, Qt::CaseInsensitive) == 0)
                return spec;
            known << spec.id;
        }
    QString message = QStringLiteral("unknown %1 \"%2\"; known: %3")
                          .arg(QLatin1String(what), id.toString(), known.join(QStringLiteral(", ")));
    for (const QString& problem : userProblems)
        message += QStringLiteral("; your catalog was not read: ") + problem;
    return makeError(Error::Code::NotFound, message);
}

}  // namespace

Result<GpuSpec> findGpu(QStringView id)
{
    const std::shared_ptr<const UserCatalogs> user = userCatalogs();
    return findIn(builtinGpus(), user->gpus, user->problems, id, "GPU");
}
Result<ModelSpec> findModel(QStringView id)
{
    const std::shared_ptr<const UserCatalogs> user = userCatalogs();
    return findIn(builtinModels(), user->models, user->problems, id, "model");
}

}  // namespace ridgeline
