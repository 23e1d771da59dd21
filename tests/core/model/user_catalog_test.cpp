// The user's own GPU and model catalogs: $XDG_CONFIG_HOME/ridgeline/{gpus,models}.json beside the bundled
// ones, read as strictly as a session, never taking a bundled id, and written only through a save that refuses to
// overwrite a file it cannot read. Each test has a temporary XDG_CONFIG_HOME of its own.

#include "core/model/catalog/user_catalog.h"
#include "core/model/catalog/catalog.h"
#include "core/model/catalog/catalog_json.h"
#include "core/model/llm/inference_request.h"
#include "core/model/llm/llm_model.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <utility>
#include <vector>

using namespace ridgeline;

namespace {

class UserCatalog : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_home.isValid());
        m_previous = qgetenv("XDG_CONFIG_HOME");
        qputenv("XDG_CONFIG_HOME", m_home.path().toLocal8Bit());
        reloadUserCatalogs();
    }
    void TearDown() override
    {
        qputenv("XDG_CONFIG_HOME", m_previous);
        reloadUserCatalogs();
    }
    QString dir() const { return m_home.path() + QStringLiteral("/ridgeline"); }
    void write(const QString& name, const QByteArray& bytes) const
    {
        QDir().mkpath(dir());
        QFile file(dir() + QLatin1Char('/') + name);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
    }
    QByteArray read(const QString& name) const
    {
        QFile file(dir() + QLatin1Char('/') + name);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    QTemporaryDir m_home;
    QByteArray m_previous;
};

GpuSpec myGpu(const QString& id)
{
    GpuSpec gpu = customGpu(250.0, 1.5, 48.0).value();
    for (const NumberFormat precision : kAllNumberFormats)
        if (tensorPrecisionOf(precision) != precision)
            gpu.setPeakTflops(precision, 0.0);
    gpu.id = id;
    gpu.name = QStringLiteral("Lab card");
    gpu.source = QStringLiteral("our own datasheet");
    return gpu;
}

const QByteArray kGpuFile = R"({"format": "ridgeline-gpu-catalog", "schema_version": 1, "gpus": [
  {"id": "lab-card", "name": "Lab card", "memory_gib": 48, "bandwidth_tbs": 1.5,
   "dense_tflops": {"bf16": 250, "fp8": 500}, "source": "our own datasheet"}]})";

const QByteArray kModelFile = R"({"format": "ridgeline-model-catalog", "schema_version": 1, "models": [
  {"id": "tiny-moe", "name": "Tiny MoE", "layers": 4, "hidden": 512, "heads": 8, "kv_heads": 2, "head_dim": 64,
   "ffn": 1024, "vocab": 32000, "moe": {"experts": 8, "active": 2, "expert_ffn": 256},
   "source": "made up for a test"}]})";

}  // namespace

TEST_F(UserCatalog, TheDirectoryFollowsXdgConfigHomeAndFallsBackToDotConfig)
{
    EXPECT_EQ(userCatalogDirectory(), dir());
    EXPECT_EQ(userGpuCatalogPath(), dir() + QStringLiteral("/gpus.json"));
    qputenv("XDG_CONFIG_HOME", "relative/path");  // the XDG rule: not absolute, not used
    EXPECT_EQ(userCatalogDirectory(), QDir::homePath() + QStringLiteral("/.config/ridgeline"));
    qunsetenv("XDG_CONFIG_HOME");
    EXPECT_EQ(userCatalogDirectory(), QDir::homePath() + QStringLiteral("/.config/ridgeline"));
}

TEST_F(UserCatalog, EntriesOfTheUsersOwnAreFoundAfterTheBundledOnes)
{
    EXPECT_TRUE(userCatalogs()->gpus.empty());
    EXPECT_FALSE(findGpu(u"lab-card").ok());
    write(QStringLiteral("gpus.json"), kGpuFile);
    write(QStringLiteral("models.json"), kModelFile);
    reloadUserCatalogs();
    ASSERT_TRUE(userCatalogs()->problems.isEmpty()) << userCatalogs()->problems.join(u'\n').toStdString();
    const Result<GpuSpec> gpu = findGpu(u"LAB-CARD");  // ids compare without case, as the bundled ones do
    ASSERT_TRUE(gpu.ok()) << gpu.error().message.toStdString();
    EXPECT_DOUBLE_EQ(gpu.value().peakTflops(NumberFormat::Fp8), 500.0);
    EXPECT_TRUE(isUserGpu(QStringLiteral("lab-card")));
    EXPECT_FALSE(isUserGpu(QStringLiteral("h100-sxm")));
    const std::vector<GpuSpec> gpus = allGpus();
    ASSERT_EQ(gpus.size(), builtinGpus().value().size() + 1);
    EXPECT_EQ(gpus.back().id, QStringLiteral("lab-card"));

    // The model and the card go through the one resolver like bundled ones.
    InferenceRequest request;
    request.modelId = QStringLiteral("tiny-moe");
    request.gpuId = QStringLiteral("lab-card");
    request.batch = 8;
    const Result<InferenceConfig> config = resolveInference(request);
    ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
    EXPECT_EQ(config.value().model.experts, 8);
    const Result<InferenceReport> report = evaluateInference(config.value());
    ASSERT_TRUE(report.ok()) << report.error().message.toStdString();
    EXPECT_GT(report.value().tokensPerSecond, 0.0);
}

TEST_F(UserCatalog, ABundledIdOrABadFieldRefusesTheWholeFileNamingTheFileAndTheField)
{
    QByteArray bundled = kGpuFile;
    bundled.replace("lab-card", "H100-SXM");
    write(QStringLiteral("gpus.json"), bundled);
    QByteArray negative = kModelFile;
    negative.replace("\"layers\": 4", "\"layers\": -4");
    write(QStringLiteral("models.json"), negative);
    reloadUserCatalogs();
    const auto user = userCatalogs();
    EXPECT_TRUE(user->gpus.empty());
    EXPECT_TRUE(user->models.empty());
    ASSERT_EQ(user->problems.size(), 2) << user->problems.join(u'\n').toStdString();
    const QString gpuProblem = user->problems[0];
    EXPECT_TRUE(gpuProblem.startsWith(dir() + QStringLiteral("/gpus.json: gpus[0].id \"H100-SXM\" is a bundled GPU")))
        << gpuProblem.toStdString();
    EXPECT_TRUE(user->problems[1].startsWith(dir() + QStringLiteral("/models.json: ")));
    EXPECT_TRUE(user->problems[1].contains(QStringLiteral("models[0].layers"))) << user->problems[1].toStdString();
    // The bundled card keeps its meaning; an unknown id says why the user's file was not read.
    EXPECT_DOUBLE_EQ(findGpu(u"h100-sxm").value().memoryGib, 80.0);
    const Result<GpuSpec> unknown = findGpu(u"lab-card");
    ASSERT_FALSE(unknown.ok());
    EXPECT_TRUE(unknown.error().message.contains(QStringLiteral("your catalog was not read: ") + gpuProblem))
        << unknown.error().message.toStdString();

    write(QStringLiteral("gpus.json"), QByteArray(kGpuFile).replace("lab-card", "custom"));
    reloadUserCatalogs();
    ASSERT_EQ(userCatalogs()->problems.size(), 2);
    EXPECT_TRUE(userCatalogs()->problems[0].contains(QStringLiteral("\"custom\" is the word")))
        << userCatalogs()->problems[0].toStdString();
}

// A card whose ridge would overflow the chart (a bandwidth of 1e-305 TB/s, a denormal peak) is a typo: the file is
// refused by the one physical rule, naming the file and the field.
TEST_F(UserCatalog, AnAbsurdBandwidthOrPeakRefusesTheFileNamingTheField)
{
    const std::vector<std::pair<QByteArray, QString>> cases = {
        {QByteArray(kGpuFile).replace("\"bandwidth_tbs\": 1.5", "\"bandwidth_tbs\": 1e-305"),
         QStringLiteral("/gpus.json: gpus[0].bandwidth_tbs must be between 1e-09 and 1e+06 TB/s, got 1e-305")},
        {QByteArray(kGpuFile).replace("\"bf16\": 250", "\"bf16\": 5e-324"),
         QStringLiteral("/gpus.json: gpus[0].dense_tflops.bf16 must be between 1e-09 and 1e+06 TFLOP/s, got 5e-324")},
    };
    for (const auto& [bytes, message] : cases) {
        write(QStringLiteral("gpus.json"), bytes);
        reloadUserCatalogs();
        const auto user = userCatalogs();
        EXPECT_TRUE(user->gpus.empty());
        ASSERT_EQ(user->problems.size(), 1) << user->problems.join(u'\n').toStdString();
        EXPECT_EQ(user->problems[0], dir() + message);
        EXPECT_FALSE(findGpu(u"lab-card").ok());
    }
}

TEST_F(UserCatalog, SavingAddsAnEntryAndNeverOverwritesAFileItCannotRead)
{
    const Result<QString> first = saveUserGpu(myGpu(QStringLiteral("lab-card")));
    ASSERT_TRUE(first.ok()) << first.error().message.toStdString();
    EXPECT_EQ(first.value(), userGpuCatalogPath());
    ASSERT_TRUE(findGpu(u"lab-card").ok());  // reloaded by the save
    ASSERT_TRUE(saveUserGpu(myGpu(QStringLiteral("lab-card-2"))).ok());
    ASSERT_EQ(userCatalogs()->gpus.size(), 2u);
    // What was saved reads back field for field, and gives the custom card's numbers.
    const GpuSpec back = findGpu(u"lab-card").value();
    EXPECT_EQ(back.name, QStringLiteral("Lab card"));
    EXPECT_EQ(back.source, QStringLiteral("our own datasheet"));
    EXPECT_DOUBLE_EQ(back.bandwidthTbs, 1.5);
    EXPECT_DOUBLE_EQ(back.peakTflops(NumberFormat::Fp8), 250.0);
    EXPECT_DOUBLE_EQ(back.peakTflops(NumberFormat::Mxfp4), 250.0);  // at the fp4 rate, as the custom card

    const QByteArray before = read(QStringLiteral("gpus.json"));
    const Result<QString> twice = saveUserGpu(myGpu(QStringLiteral("LAB-CARD")));
    ASSERT_FALSE(twice.ok());
    EXPECT_TRUE(twice.error().message.contains(QStringLiteral("already has a GPU with the id \"LAB-CARD\"")))
        << twice.error().message.toStdString();
    const Result<QString> bundled = saveUserGpu(myGpu(QStringLiteral("b200")));
    ASSERT_FALSE(bundled.ok());
    EXPECT_TRUE(bundled.error().message.contains(QStringLiteral("is a bundled GPU")))
        << bundled.error().message.toStdString();
    EXPECT_EQ(read(QStringLiteral("gpus.json")), before);

    // A file the reader refuses (here a key twice) is kept byte for byte, and the save says why.
    const QByteArray broken =
        QByteArray(kGpuFile).replace("\"memory_gib\": 48,", "\"memory_gib\": 48, \"memory_gib\": 4,");
    write(QStringLiteral("gpus.json"), broken);
    const Result<QString> refused = saveUserGpu(myGpu(QStringLiteral("third")));
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(refused.error().message.startsWith(userGpuCatalogPath() + QStringLiteral(": ")))
        << refused.error().message.toStdString();
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("gpus[0].memory_gib")))
        << refused.error().message.toStdString();
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("nothing written")));
    EXPECT_EQ(read(QStringLiteral("gpus.json")), broken);
}

// A price per GPU-hour is the user's own figure, saved with their GPU and read back; the bundled cards carry none of
// the user's kind (only examples: catalog_test), and a price of 0 or below, past $1,000 or not a number refuses the
// file naming the field.
TEST_F(UserCatalog, AGpuHourPriceIsSavedWithTheUsersGpuAndNoBundledCardHasOne)
{
    GpuSpec priced = myGpu(QStringLiteral("rented-card"));
    priced.gpuHourPrice = 2.75;
    ASSERT_TRUE(saveUserGpu(priced).ok());
    ASSERT_TRUE(saveUserGpu(myGpu(QStringLiteral("own-card"))).ok());
    EXPECT_DOUBLE_EQ(findGpu(u"rented-card").value().gpuHourPrice, 2.75);
    EXPECT_EQ(findGpu(u"own-card").value().gpuHourPrice, 0.0);
    const QByteArray file = read(QStringLiteral("gpus.json"));
    EXPECT_EQ(file.count("\"gpu_hour_price\": 2.75"), 1) << file.constData();

    ASSERT_TRUE(builtinGpus().ok());
    for (const GpuSpec& gpu : builtinGpus().value())
        EXPECT_EQ(gpu.gpuHourPrice, 0.0) << gpu.id.toStdString();

    for (const char* bad : {"0", "-1.5", "\"2.50\"", "3990"}) {
        write(QStringLiteral("gpus.json"),
              QByteArray(kGpuFile).replace("\"source\"",
                                           QByteArray(QByteArray("\"gpu_hour_price\": ") + bad + ", \"source\"")));
        reloadUserCatalogs();
        ASSERT_EQ(userCatalogs()->problems.size(), 1u) << bad;
        EXPECT_TRUE(userCatalogs()->problems.front().contains(QStringLiteral("gpus[0].gpu_hour_price")))
            << userCatalogs()->problems.front().toStdString();
    }
}

TEST_F(UserCatalog, ModelsAreSavedAsTheirShapes)
{
    ModelSpec moe = findModel(u"qwen3-30b-a3b").value();
    moe.id = QStringLiteral("my-qwen");
    moe.name = QStringLiteral("My Qwen");
    ASSERT_TRUE(saveUserModel(moe).ok());
    const Result<ModelSpec> back = findModel(u"my-qwen");
    ASSERT_TRUE(back.ok()) << back.error().message.toStdString();
    EXPECT_EQ(countParams(back.value()).value().total, countParams(moe).value().total);
    EXPECT_EQ(back.value().activeExperts, moe.activeExperts);
    EXPECT_EQ(back.value().moeFfn, moe.moeFfn);
}

// The writer writes every shape field the reader reads: each bundled model (dense, GQA, MoE, MLA, GELU, biases,
// learned positions, sliding windows) comes back with the same shape and the same parameter counts.
TEST(ModelCatalogFile, TheWriterWritesWhatTheReaderReads)
{
    const std::vector<ModelSpec>& bundled = builtinModels().value();
    const Result<std::vector<ModelSpec>> back = parseModelCatalog(modelCatalogToJson(bundled));
    ASSERT_TRUE(back.ok()) << back.error().message.toStdString();
    ASSERT_EQ(back.value().size(), bundled.size());
    for (std::size_t i = 0; i < bundled.size(); ++i) {
        const ModelSpec& a = bundled[i];
        const ModelSpec& b = back.value()[i];
        SCOPED_TRACE(a.id.toStdString());
        EXPECT_EQ(a.id, b.id);
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.source, b.source);
        const std::array<std::pair<int, int>, 22> fields = {{
            {a.layers, b.layers},
            {a.hidden, b.hidden},
            {a.heads, b.heads},
            {a.kvHeads, b.kvHeads},
            {a.headDim, b.headDim},
            {a.ffn, b.ffn},
            {a.vocab, b.vocab},
            {a.tiedEmbeddings, b.tiedEmbeddings},
            {a.gatedFfn, b.gatedFfn},
            {a.qkvBias, b.qkvBias},
            {a.linearBias, b.linearBias},
            {int(a.norm), int(b.norm)},
            {a.learnedPositions, b.learnedPositions},
            {a.slidingWindow, b.slidingWindow},
            {a.maxContext, b.maxContext},
            {a.experts, b.experts},
            {a.activeExperts, b.activeExperts},
            {a.sharedExperts, b.sharedExperts},
            {a.moeFfn, b.moeFfn},
            {a.sharedExpertFfn, b.sharedExpertFfn},
            {a.denseLayers, b.denseLayers},
            {a.kvLoraRank, b.kvLoraRank},
        }};
        for (std::size_t f = 0; f < fields.size(); ++f)
            EXPECT_EQ(fields[f].first, fields[f].second) << "field " << f;
        EXPECT_EQ(a.routerBias, b.routerBias);
        EXPECT_EQ(a.qLoraRank, b.qLoraRank);
        EXPECT_EQ(a.qkRopeHeadDim, b.qkRopeHeadDim);
        EXPECT_EQ(a.qkNopeHeadDim, b.qkNopeHeadDim);
        EXPECT_EQ(a.vHeadDim, b.vHeadDim);
        EXPECT_EQ(a.allReducesPerLayer, b.allReducesPerLayer);
        EXPECT_EQ(countParams(a).value().total, countParams(b).value().total);
    }
}

TEST(ModelCatalogFile, AllReducesPerLayerAreOneOrTwoAndNamedWhenWrong)
{
    // Two unless the architecture's engines reduce attention and MLP together (Falcon); anything else is refused by
    // name, as every other shape field.
    EXPECT_EQ(findModel(u"falcon-180b").value().allReducesPerLayer, 1);
    EXPECT_EQ(findModel(u"llama-2-70b").value().allReducesPerLayer, 2);
    const QByteArray one =
        QByteArray(kModelFile).replace("\"layers\": 4", "\"layers\": 4, \"all_reduces_per_layer\": 1");
    const Result<std::vector<ModelSpec>> read = parseModelCatalog(one);
    ASSERT_TRUE(read.ok()) << read.error().message.toStdString();
    EXPECT_EQ(read.value().front().allReducesPerLayer, 1);
    for (const char* bad : {"0", "3", "1.5", "\"one\""}) {
        const QByteArray field = QByteArray("\"layers\": 4, \"all_reduces_per_layer\": ") + bad;
        const QByteArray wrong = QByteArray(kModelFile).replace("\"layers\": 4", field);
        const Result<std::vector<ModelSpec>> refused = parseModelCatalog(wrong);
        ASSERT_FALSE(refused.ok()) << bad;
        EXPECT_TRUE(refused.error().message.contains(QStringLiteral("models[0].all_reduces_per_layer")))
            << refused.error().message.toStdString();
    }
}
