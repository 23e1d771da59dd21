#include "core/scene/deck.h"

#include "core/json/strict_reader.h"
#include "core/message_text.h"
#include "core/model/training/training_config.h"
#include "core/physical_limits.h"
#include "core/read_file.h"
#include "core/save_file.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

// Q_INIT_RESOURCE must be used outside any namespace; without it a linker may drop the static
// library's resources.
static void initSceneResources()
{
    Q_INIT_RESOURCE(scenes);
}

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

constexpr qsizetype kMaxDeckBytes = 16 * 1024 * 1024;
constexpr qsizetype kMaxScenes = 1000;
constexpr qsizetype kMaxListItems = 1000;  // kernels highlighted, kinds hidden, links compared, batches swept

std::optional<AxisRange> rangeFrom(ObjectReader& in, QLatin1StringView key)
{
    const JsonNode* array = in.array(key, kMaxListItems, Need::Optional);
    if (!array)
        return std::nullopt;
    const std::vector<JsonNode>& ends = array->items();
    if (ends.size() != 2 || !ends[0].isNumber() || !ends[1].isNumber() || ends[0].number() <= 0.0 ||
        ends[1].number() <= ends[0].number()) {
        in.problem().report(Error::Code::Schema,
                            in.where(key) + u" must be [min, max] with 0 < min < max (log axes)"_s);
        return std::nullopt;
    }
    return AxisRange{ends[0].number(), ends[1].number()};
}

std::vector<std::int64_t> batchesFrom(ObjectReader& in)
{
    std::vector<std::int64_t> batches;
    const JsonNode* array = in.array("batches"_L1, kMaxListItems, Need::Optional);
    if (!array)
        return batches;
    for (const JsonNode& value : array->items()) {
        const double b = value.isNumber() ? value.number() : 0.0;
        if (!value.isNumber() || b < 1 || b > 65536 || std::trunc(b) != b) {
            in.problem().report(Error::Code::Schema,
                                in.where("batches"_L1) + u" must hold whole numbers from 1 to 65536"_s);
            return {};
        }
        batches.push_back(static_cast<std::int64_t>(b));
    }
    return batches;
}

SceneGpu gpuFrom(ObjectReader& in)
{
    SceneGpu gpu;
    gpu.catalogId = in.text("id"_L1);
    gpu.label = in.text("label"_L1);
    gpu.peakTflops = in.number("peak_tflops"_L1, 1e6);
    gpu.bandwidthTbs = in.number("bandwidth_tbs"_L1, 1e4);
    gpu.memoryGib = in.number("memory_gib"_L1, 1e6);
    // A figure given keeps to the physical rule, so that the scene's ridge and axes stay finite.
    for (const auto& [key, value, quantity, unit] :
         {std::tuple{"peak_tflops"_L1, gpu.peakTflops, PhysicalQuantity::ComputeGflops, u"TFLOP/s"},
          std::tuple{"bandwidth_tbs"_L1, gpu.bandwidthTbs, PhysicalQuantity::BandwidthGbps, u"TB/s"}})
        if (!in.problem().found() && value != 0.0)
            if (const std::optional<QString> bad = physicalProblem(quantity, value, 1000.0, unit))
                in.problem().report(Error::Code::Range, in.where(key) + u' ' + *bad);
    if (!in.problem().found() && gpu.catalogId.isEmpty() && (gpu.peakTflops <= 0 || gpu.bandwidthTbs <= 0))
        in.problem().report(
            Error::Code::Schema,
            in.where("id"_L1) + u" is missing: name a catalog GPU, or give peak_tflops and bandwidth_tbs"_s);
    return gpu;
}

Scene sceneFrom(ObjectReader& in)
{
    Scene scene;
    scene.id = in.text("id"_L1, Need::Required);
    scene.kind = in.text("kind"_L1, Need::Required);
    if (!in.problem().found() && !sceneKinds().contains(scene.kind))
        in.problem().report(Error::Code::Schema, in.where("kind"_L1) + u" is \""_s + scene.kind +
                                                     u"\"; expected one of: "_s + sceneKinds().join(u", "));
    scene.view = in.text("view"_L1, Need::Required);
    if (!in.problem().found() && scene.view != u"roofline"_s && scene.view != u"batching"_s &&
        scene.view != u"training"_s)
        in.problem().report(Error::Code::Schema,
                            in.where("view"_L1) + u" must be \"roofline\", \"batching\" or \"training\""_s);
    scene.title = in.text("title"_L1, Need::Required);
    scene.caption = in.text("caption"_L1);
    scene.notes = in.text("notes"_L1);
    scene.modelId = in.text("model"_L1);
    scene.ideal = in.boolean("ideal"_L1, false);
    scene.batch = in.integer("batch"_L1, 1, 65536, 1);
    scene.context = in.integer("context"_L1, 0, 10'000'000, 0);
    scene.tensorParallel = in.smallInteger("tensor_parallel"_L1, 1, 1024, 1);
    scene.sequence = in.integer("sequence"_L1, 1, kMaxTrainingSequence, 0);
    scene.microBatch = in.integer("micro_batch"_L1, 1, kMaxTrainingBatch, 0);
    scene.globalBatch = in.integer("global_batch"_L1, 1, kMaxTrainingBatch, 0);
    scene.boxes = in.smallInteger("boxes"_L1, 1, kMaxTrainingGpus, 0);
    scene.links = textListFromJson(in, "links"_L1, kMaxListItems);
    scene.highlight = textListFromJson(in, "highlight"_L1, kMaxListItems);
    scene.hiddenKinds = textListFromJson(in, "hidden_kinds"_L1, kMaxListItems);
    scene.batches = batchesFrom(in);
    readObject(in, "gpu"_L1, [&scene](ObjectReader& gpu) { scene.gpu = gpuFrom(gpu); });
    if (in.has("gpu_hour_price"_L1)) {
        scene.gpuHourPrice = in.number("gpu_hour_price"_L1, 1e6);
        if (!in.problem().found() && !(*scene.gpuHourPrice > 0.0))
            in.problem().report(Error::Code::Range,
                                in.where("gpu_hour_price"_L1) + u" must be a number of US dollars above 0"_s);
    }
    scene.intensityRange = rangeFrom(in, "intensity_range"_L1);
    scene.performanceRange = rangeFrom(in, "performance_range"_L1);
    return scene;
}

QJsonObject sceneTo(const Scene& scene)
{
    QJsonObject object{{QStringLiteral("id"), scene.id},
                       {QStringLiteral("kind"), scene.kind},
                       {QStringLiteral("view"), scene.view},
                       {QStringLiteral("title"), scene.title},
                       {QStringLiteral("caption"), scene.caption}};
    if (!scene.notes.isEmpty())
        object.insert(QStringLiteral("notes"), scene.notes);
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
    for (const auto& [key, value] :
         {std::pair{"sequence", scene.sequence}, std::pair{"micro_batch", scene.microBatch},
          std::pair{"global_batch", scene.globalBatch}, std::pair{"boxes", static_cast<std::int64_t>(scene.boxes)}})
        if (value != 0)
            object.insert(QLatin1String(key), static_cast<double>(value));
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
    if (scene.gpuHourPrice)
        object.insert(QStringLiteral("gpu_hour_price"), *scene.gpuHourPrice);
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
    return {QStringLiteral("ridge"),        QStringLiteral("intensity-table"), QStringLiteral("cpu-experiment"),
            QStringLiteral("one-token"),    QStringLiteral("batching"),        QStringLiteral("kv-cache"),
            QStringLiteral("fusion"),       QStringLiteral("tensor-parallel"), QStringLiteral("serving-trade"),
            QStringLiteral("serving-cost"), QStringLiteral("training-moves"),  QStringLiteral("training-hierarchy"),
            QStringLiteral("view")};
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
        return deckError(sourceName, Error::Code::Range, u"larger than 16 MiB; refused"_s);
    const Result<JsonNode> root = parseStrictObject(bytes);
    if (!root)
        return deckError(sourceName, root.error().code, root.error().message);

    Problem problem;
    ObjectReader in(root.value(), QString(), problem);
    Deck deck;
    readHeader(in, Deck::kFormat, u"deck"_s, Deck::kSchemaVersion);
    deck.title = in.text("title"_L1);
    deck.scenes = readEntries<Scene>(in, "scenes"_L1, kMaxScenes, Need::Required, sceneFrom);
    in.rejectUnknownKeys();
    std::set<QString> ids;
    for (std::size_t i = 0; i < deck.scenes.size() && !problem.found(); ++i)
        if (!ids.insert(deck.scenes[i].id).second)
            problem.report(Error::Code::Schema, indexedPath(u"scenes"_s, static_cast<qsizetype>(i)) + u".id \""_s +
                                                    deck.scenes[i].id + u"\" is used twice"_s);
    if (problem.found())
        return deckError(sourceName, problem.error().code, problem.error().message);
    if (deck.scenes.empty())
        return deckError(sourceName, Error::Code::Schema, u"scenes is empty"_s);
    return deck;
}

Result<Deck> loadDeck(const QString& path)
{
    const Result<QByteArray> bytes = readFileUpTo(path, QStringLiteral("deck"), kMaxDeckBytes,
                                                  QStringLiteral("decks larger than 16 MiB are refused"));
    if (!bytes)
        return bytes.error();
    return deckFromJson(bytes.value(), path);
}

std::optional<Error> saveDeck(const Deck& deck, const QString& path)
{
    return saveFile(path, deckToJson(deck));
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
