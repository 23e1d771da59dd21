#include "core/scene/deck.h"

#include "core/message_text.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <set>

// Q_INIT_RESOURCE must be used outside any namespace; without it a linker may drop the static
// library's resources.
static void initSceneResources()
{
    Q_INIT_RESOURCE(scenes);
}

namespace ridgeline {

namespace {

constexpr qsizetype kMaxDeckBytes = 16 * 1024 * 1024;
constexpr qsizetype kMaxScenes = 1000;
constexpr qsizetype kMaxText = 4096;

// Reads one JSON object's fields, remembering the first problem with its place ("scenes[2].batch").
class Reader {
public:
    Reader(QJsonObject object, QString where, QString& problem)
        : m_object(std::move(object)), m_where(std::move(where)), m_problem(problem)
    {
    }

    QString text(const char* key, bool required = false)
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined()) {
            if (required)
                fail(key, QStringLiteral("is missing"));
            return {};
        }
        if (!value.isString())
            return fail(key, QStringLiteral("must be a string")), QString();
        if (value.toString().size() > kMaxText)
            return fail(key, QStringLiteral("is longer than %1 characters").arg(kMaxText)), QString();
        return value.toString();
    }

    double number(const char* key, double min, double max, double fallback)
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined())
            return fallback;
        const double x = value.toDouble(std::nan(""));
        if (!value.isDouble() || !std::isfinite(x) || x < min || x > max)
            return fail(key, QStringLiteral("must be a number from %1 to %2").arg(min).arg(max)), fallback;
        return x;
    }

    std::int64_t integer(const char* key, double min, double max, std::int64_t fallback)
    {
        const double x = number(key, min, max, static_cast<double>(fallback));
        if (std::trunc(x) != x)
            return fail(key, QStringLiteral("must be a whole number")), fallback;
        return static_cast<std::int64_t>(x);
    }

    bool boolean(const char* key)
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (!value.isUndefined() && !value.isBool())
            fail(key, QStringLiteral("must be true or false"));
        return value.toBool(false);
    }

    QStringList texts(const char* key)
    {
        QStringList list;
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined())
            return list;
        if (!value.isArray())
            return fail(key, QStringLiteral("must be an array of strings")), list;
        for (const QJsonValue& item : value.toArray()) {
            if (!item.isString() || item.toString().size() > kMaxText)
                return fail(key, QStringLiteral("must be an array of strings")), QStringList();
            list.append(item.toString());
        }
        return list;
    }

    std::optional<QJsonObject> object(const char* key)
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined())
            return std::nullopt;
        if (!value.isObject())
            return fail(key, QStringLiteral("must be an object")), std::nullopt;
        return value.toObject();
    }

    std::optional<QJsonArray> array(const char* key)
    {
        const QJsonValue value = m_object.value(QLatin1String(key));
        if (value.isUndefined())
            return std::nullopt;
        if (!value.isArray())
            return fail(key, QStringLiteral("must be an array")), std::nullopt;
        return value.toArray();
    }

    QString where(const char* key) const
    {
        const QString name = QLatin1String(key);
        return m_where.isEmpty() ? name : QString(m_where + u'.' + name);
    }
    void fail(const char* key, const QString& what)
    {
        if (m_problem.isEmpty())
            m_problem = where(key) + u' ' + what;
    }
    bool failed() const { return !m_problem.isEmpty(); }

private:
    QJsonObject m_object;
    QString m_where;
    QString& m_problem;
};

std::optional<AxisRange> rangeFrom(Reader& in, const char* key, QString& problem)
{
    const auto array = in.array(key);
    if (!array)
        return std::nullopt;
    if (array->size() != 2 || !array->at(0).isDouble() || !array->at(1).isDouble() || array->at(0).toDouble() <= 0.0 ||
        array->at(1).toDouble() <= array->at(0).toDouble()) {
        in.fail(key, QStringLiteral("must be [min, max] with 0 < min < max (log axes)"));
        return std::nullopt;
    }
    (void)problem;
    return AxisRange{array->at(0).toDouble(), array->at(1).toDouble()};
}

Scene sceneFrom(const QJsonObject& object, const QString& where, QString& problem)
{
    Reader in(object, where, problem);
    Scene scene;
    scene.id = in.text("id", true);
    scene.kind = in.text("kind", true);
    if (!in.failed() && !sceneKinds().contains(scene.kind))
        in.fail("kind", QStringLiteral("is \"%1\"; expected one of: %2").arg(scene.kind, sceneKinds().join(u", ")));
    scene.view = in.text("view", true);
    if (!in.failed() && scene.view != QLatin1String("roofline") && scene.view != QLatin1String("batching"))
        in.fail("view", QStringLiteral("must be \"roofline\" or \"batching\""));
    scene.title = in.text("title", true);
    scene.caption = in.text("caption");
    scene.modelId = in.text("model");
    scene.ideal = in.boolean("ideal");
    scene.batch = in.integer("batch", 1, 65536, 1);
    scene.context = in.integer("context", 0, 1e7, 0);
    scene.tensorParallel = static_cast<int>(in.integer("tensor_parallel", 1, 1024, 1));
    scene.links = in.texts("links");
    scene.highlight = in.texts("highlight");
    scene.hiddenKinds = in.texts("hidden_kinds");
    if (const auto batches = in.array("batches")) {
        for (const QJsonValue& value : *batches) {
            const double b = value.toDouble(0.0);
            if (!value.isDouble() || b < 1 || b > 65536 || std::trunc(b) != b) {
                in.fail("batches", QStringLiteral("must hold whole numbers from 1 to 65536"));
                break;
            }
            scene.batches.push_back(static_cast<std::int64_t>(b));
        }
    }
    if (const auto gpu = in.object("gpu")) {
        Reader gpuIn(*gpu, in.where("gpu"), problem);
        scene.gpu.catalogId = gpuIn.text("id");
        scene.gpu.label = gpuIn.text("label");
        scene.gpu.peakTflops = gpuIn.number("peak_tflops", 0.0, 1e6, 0.0);
        scene.gpu.bandwidthTbs = gpuIn.number("bandwidth_tbs", 0.0, 1e4, 0.0);
        scene.gpu.memoryGib = gpuIn.number("memory_gib", 0.0, 1e6, 0.0);
        if (!gpuIn.failed() && scene.gpu.catalogId.isEmpty() &&
            (scene.gpu.peakTflops <= 0 || scene.gpu.bandwidthTbs <= 0))
            gpuIn.fail("id", QStringLiteral("is missing: name a catalog GPU, or give peak_tflops and bandwidth_tbs"));
    }
    scene.intensityRange = rangeFrom(in, "intensity_range", problem);
    scene.performanceRange = rangeFrom(in, "performance_range", problem);
    return scene;
}

QJsonObject sceneTo(const Scene& scene)
{
    QJsonObject object{{QStringLiteral("id"), scene.id},
                       {QStringLiteral("kind"), scene.kind},
                       {QStringLiteral("view"), scene.view},
                       {QStringLiteral("title"), scene.title},
                       {QStringLiteral("caption"), scene.caption}};
    if (!scene.modelId.isEmpty())
        object.insert(QStringLiteral("model"), scene.modelId);
    if (scene.ideal)
        object.insert(QStringLiteral("ideal"), true);
    if (scene.batch != 1)
        object.insert(QStringLiteral("batch"), static_cast<double>(scene.batch));
    if (scene.context != 0)
        object.insert(QStringLiteral("context"), static_cast<double>(scene.context));
    if (scene.tensorParallel != 1)
        object.insert(QStringLiteral("tensor_parallel"), scene.tensorParallel);
    if (!scene.links.isEmpty())
        object.insert(QStringLiteral("links"), QJsonArray::fromStringList(scene.links));
    if (!scene.highlight.isEmpty())
        object.insert(QStringLiteral("highlight"), QJsonArray::fromStringList(scene.highlight));
    if (!scene.hiddenKinds.isEmpty())
        object.insert(QStringLiteral("hidden_kinds"), QJsonArray::fromStringList(scene.hiddenKinds));
    if (!scene.batches.empty()) {
        QJsonArray batches;
        for (std::int64_t b : scene.batches)
            batches.append(static_cast<double>(b));
        object.insert(QStringLiteral("batches"), batches);
    }
    if (!scene.gpu.catalogId.isEmpty() || scene.gpu.peakTflops > 0) {
        QJsonObject gpu;
        if (!scene.gpu.catalogId.isEmpty())
            gpu.insert(QStringLiteral("id"), scene.gpu.catalogId);
        if (!scene.gpu.label.isEmpty())
            gpu.insert(QStringLiteral("label"), scene.gpu.label);
        if (scene.gpu.peakTflops > 0) {
            gpu.insert(QStringLiteral("peak_tflops"), scene.gpu.peakTflops);
            gpu.insert(QStringLiteral("bandwidth_tbs"), scene.gpu.bandwidthTbs);
            gpu.insert(QStringLiteral("memory_gib"), scene.gpu.memoryGib);
        }
        object.insert(QStringLiteral("gpu"), gpu);
    }
    if (scene.intensityRange)
        object.insert(QStringLiteral("intensity_range"),
                      QJsonArray{scene.intensityRange->min, scene.intensityRange->max});
    if (scene.performanceRange)
        object.insert(QStringLiteral("performance_range"),
                      QJsonArray{scene.performanceRange->min, scene.performanceRange->max});
    return object;
}

Error deckError(const QString& sourceName, Error::Code code, const QString& what)
{
    return Error{code, sourceName + QStringLiteral(": ") + oneLine(what)};
}

}  // namespace

QStringList sceneKinds()
{
    return {QStringLiteral("ridge"),     QStringLiteral("intensity-table"), QStringLiteral("cpu-experiment"),
            QStringLiteral("one-token"), QStringLiteral("batching"),        QStringLiteral("kv-cache"),
            QStringLiteral("fusion"),    QStringLiteral("tensor-parallel"), QStringLiteral("view")};
}

QByteArray deckToJson(const Deck& deck)
{
    QJsonArray scenes;
    for (const Scene& scene : deck.scenes)
        scenes.append(sceneTo(scene));
    const QJsonObject root{{QStringLiteral("format"), Deck::kFormat},
                           {QStringLiteral("schema_version"), Deck::kSchemaVersion},
                           {QStringLiteral("title"), deck.title},
                           {QStringLiteral("scenes"), scenes}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

Result<Deck> deckFromJson(const QByteArray& bytes, const QString& sourceName)
{
    if (bytes.size() > kMaxDeckBytes)
        return deckError(sourceName, Error::Code::Range, QStringLiteral("larger than 16 MiB; refused"));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return deckError(
            sourceName, Error::Code::Parse,
            QStringLiteral("invalid JSON at offset %1: %2").arg(parseError.offset).arg(parseError.errorString()));
    if (!document.isObject())
        return deckError(sourceName, Error::Code::Schema, QStringLiteral("not a Ridgeline deck: not a JSON object"));
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("format")).toString() != Deck::kFormat)
        return deckError(sourceName, Error::Code::Schema,
                         QStringLiteral("not a Ridgeline deck: \"format\" must be \"%1\"").arg(Deck::kFormat));
    const QJsonValue version = root.value(QStringLiteral("schema_version"));
    if (!version.isDouble() || version.toDouble() != std::trunc(version.toDouble()) || version.toDouble() < 1)
        return deckError(sourceName, Error::Code::Schema, QStringLiteral("schema_version must be a whole number >= 1"));
    if (version.toDouble() > Deck::kSchemaVersion)
        return deckError(sourceName, Error::Code::Unsupported,
                         QStringLiteral("written by a newer Ridgeline (deck schema %1); this build reads up to %2")
                             .arg(version.toDouble())
                             .arg(Deck::kSchemaVersion));

    QString problem;
    Reader in(root, QString(), problem);
    Deck deck;
    deck.title = in.text("title");
    const auto scenes = in.array("scenes");
    if (!scenes && !in.failed())
        in.fail("scenes", QStringLiteral("is missing"));
    if (scenes && scenes->size() > kMaxScenes)
        in.fail("scenes", QStringLiteral("has more than %1 scenes").arg(kMaxScenes));
    std::set<QString> ids;
    for (qsizetype i = 0; scenes && i < scenes->size() && !in.failed(); ++i) {
        const QString where = QStringLiteral("scenes[%1]").arg(i);
        if (!scenes->at(i).isObject()) {
            problem = where + QStringLiteral(" must be an object");
            break;
        }
        Scene scene = sceneFrom(scenes->at(i).toObject(), where, problem);
        if (problem.isEmpty() && !ids.insert(scene.id).second)
            problem = where + QStringLiteral(".id \"%1\" is used twice").arg(scene.id);
        deck.scenes.push_back(std::move(scene));
    }
    if (!problem.isEmpty())
        return deckError(sourceName, Error::Code::Schema, problem);
    if (deck.scenes.empty())
        return deckError(sourceName, Error::Code::Schema, QStringLiteral("scenes is empty"));
    return deck;
}

Result<Deck> loadDeck(const QString& path)
{
    QFile file(path);
    if (!QFileInfo(path).isFile())
        return deckError(path, Error::Code::NotFound, QStringLiteral("no such file"));
    if (file.size() > kMaxDeckBytes)
        return deckError(path, Error::Code::Range, QStringLiteral("larger than 16 MiB; refused"));
    if (!file.open(QIODevice::ReadOnly))
        return deckError(path, Error::Code::Io, file.errorString());
    return deckFromJson(file.readAll(), path);
}

std::optional<Error> saveDeck(const Deck& deck, const QString& path)
{
    QSaveFile file(path);
    const QByteArray bytes = deckToJson(deck);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return deckError(path, Error::Code::Io, QStringLiteral("not saved: %1").arg(file.errorString()));
    return std::nullopt;
}

Result<Deck> defaultDeck()
{
    initSceneResources();
    return loadDeck(QStringLiteral(":/scenes/default-deck.json"));
}

void appendScene(Deck& deck, Scene scene)
{
    static const QRegularExpression nonWord(QStringLiteral("[^a-z0-9]+"));
    QString base = scene.title.toLower();
    base.replace(nonWord, QStringLiteral("-"));
    base = base.isEmpty() ? QStringLiteral("scene") : base;
    scene.id = base;
    for (int n = 2;
         std::any_of(deck.scenes.begin(), deck.scenes.end(), [&](const Scene& s) { return s.id == scene.id; }); ++n)
        scene.id = base + u'-' + QString::number(n);
    deck.scenes.push_back(std::move(scene));
}

}  // namespace ridgeline
