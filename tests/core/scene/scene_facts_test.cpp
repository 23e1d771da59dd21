// Each default scene's numbers are the source text's, computed through the scene.
#include "core/scene/scene_facts.h"
#include "core/model/units.h"
#include "core/scene/deck.h"
#include "core/session/format/bundled_session.h"
#include "core/session/format/session_json.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ridgeline;

namespace {

const Scene& sceneById(const Deck& deck, const char* id)
{
    for (const Scene& scene : deck.scenes)
        if (scene.id == QLatin1String(id))
            return scene;
    ADD_FAILURE() << "no scene " << id;
    return deck.scenes.front();
}

class DefaultScenes : public ::testing::Test {
protected:
    void SetUp() override
    {
        const Result<Deck> deck = defaultDeck();
        ASSERT_TRUE(deck.ok()) << deck.error().message.toStdString();
        m_deck = deck.value();
        const Result<Session> session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
        ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
        m_session = session.value();
    }

    SceneFacts facts(const char* id, const Session* session = nullptr)
    {
        const Result<SceneFacts> result = computeSceneFacts(sceneById(m_deck, id), session);
        EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error().message.toStdString());
        return result.ok() ? result.value() : SceneFacts{};
    }

    Deck m_deck;
    Session m_session;
};

}  // namespace

TEST_F(DefaultScenes, EveryCaptionFillsFromComputedNumbers)
{
    for (const Scene& scene : m_deck.scenes) {
        const Result<SceneFacts> result = computeSceneFacts(scene, &m_session);
        ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
        EXPECT_FALSE(result.value().caption.contains(u'{')) << result.value().caption.toStdString();
        EXPECT_FALSE(result.value().caption.contains(QStringLiteral("nan"))) << result.value().caption.toStdString();
    }
}

// The speaker's notes of every default scene are filled by the same rule as its caption, and say more than nothing.
TEST_F(DefaultScenes, EverySceneHasNotesFilledFromComputedNumbers)
{
    for (const Scene& scene : m_deck.scenes) {
        const Result<SceneFacts> result = computeSceneFacts(scene, &m_session);
        ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
        const QString& notes = result.value().notes;
        EXPECT_GT(notes.size(), 80) << scene.id.toStdString();
        EXPECT_FALSE(notes.contains(u'{')) << notes.toStdString();
        EXPECT_FALSE(notes.contains(QStringLiteral("nan")) || notes.contains(QStringLiteral("inf ")))
            << notes.toStdString();
    }
    // The first scene's notes quote the session's ridge, the same text its caption shows.
    const SceneFacts first = facts("two-kinds", &m_session);
    EXPECT_TRUE(first.notes.contains(first.text(QStringLiteral("ridge")))) << first.notes.toStdString();
}

TEST_F(DefaultScenes, TheIntensityTable)
{
    const SceneFacts f = facts("intensity-table");
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("balance")), 150.0);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("add_intensity")), 1.0 / 6.0);
    EXPECT_EQ(f.text(QStringLiteral("add_intensity")), QStringLiteral("0.17"));
    EXPECT_EQ(f.text(QStringLiteral("matmul_512")), QStringLiteral("171"));
    EXPECT_EQ(f.text(QStringLiteral("matmul_4096")), QStringLiteral("1,365"));
    EXPECT_TRUE(f.caption.contains(QStringLiteral("balances at 150 FLOP/byte"))) << f.caption.toStdString();
}

TEST_F(DefaultScenes, OneTokenReads14GBAtIntensityOne)
{
    const SceneFacts f = facts("one-token");
    EXPECT_NEAR(*f.value(QStringLiteral("weights_gb")), 13.48, 0.005);
    EXPECT_EQ(f.text(QStringLiteral("weights_gb")), QStringLiteral("13.5 GB"));
    EXPECT_NEAR(*f.value(QStringLiteral("intensity")), 1.0, 1e-3);
    EXPECT_EQ(f.text(QStringLiteral("intensity")), QStringLiteral("1 FLOP/byte"));
    EXPECT_GT(*f.value(QStringLiteral("idle_percent")), 99.0) << "idle more than 99 per cent of the time";
}

TEST_F(DefaultScenes, BatchingKeepsTheStepFlatThenTurnsComputeBound)
{
    const SceneFacts f = facts("batch-fills");
    EXPECT_LT(*f.value(QStringLiteral("step_x_4")), 1.03);
    EXPECT_LT(*f.value(QStringLiteral("step_x_16")), 1.1) << "about the same";
    EXPECT_GT(*f.value(QStringLiteral("step_x_64")), *f.value(QStringLiteral("step_x_16"))) << "rising by 64";
    EXPECT_GT(*f.value(QStringLiteral("speedup_16")), 14.0);
    EXPECT_LT(*f.value(QStringLiteral("speedup_64")), 64.0);
    EXPECT_EQ(f.text(QStringLiteral("bound_1")), QStringLiteral("memory"));
    EXPECT_EQ(f.text(QStringLiteral("bound_256")), QStringLiteral("compute"));
    EXPECT_LT(*f.value(QStringLiteral("speedup_256")), 256.0 * 0.75) << "tokens/s flattens";
    EXPECT_NEAR(*f.value(QStringLiteral("intensity_64")), 64.0, 0.01) << "intensity proportional to batch";
}

TEST_F(DefaultScenes, SixteenLongSequencesNeed64GiBOfKvCache)
{
    const SceneFacts f = facts("kv-cost");
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("kv_per_token_kib")), 512.0);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("kv_per_sequence_gib")), 4.0);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("kv_total_gib")), 64.0);
    EXPECT_NEAR(*f.value(QStringLiteral("weights_gib")), 12.55, 0.005);
    EXPECT_TRUE(f.caption.contains(QStringLiteral("64 GiB of KV cache"))) << f.caption.toStdString();
    EXPECT_TRUE(f.caption.contains(QStringLiteral("12.6 GiB of weights"))) << f.caption.toStdString();
}

TEST_F(DefaultScenes, FusionCountsSixTransfersAgainstOneAndShowsTheMeasuredSpeedup)
{
    const SceneFacts f = facts("fusion", &m_session);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("unfused_transfers")), 6.0);
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("fused_transfers")), 1.0);
    EXPECT_EQ(f.text(QStringLiteral("saved_percent")), QStringLiteral("83 %"));
    EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("measured_speedup")), m_session.fusion.speedup);
}

TEST_F(DefaultScenes, TheRidgeAndTheCpuExperimentComeFromTheSession)
{
    const SceneFacts ridge = facts("two-kinds", &m_session);
    double best = 0.0;
    for (const ComputeCeiling& c : m_session.computeCeilings)
        best = std::max(best, c.gflops);
    double dram = 0.0;
    for (const BandwidthCeiling& c : m_session.bandwidthCeilings)
        if (c.level == QLatin1String("DRAM"))
            dram = std::max(dram, c.gbps);
    EXPECT_DOUBLE_EQ(*ridge.value(QStringLiteral("ridge")), best / dram);

    const SceneFacts cpu = facts("cpu-experiment", &m_session);
    for (const KernelResult& k : m_session.kernels)
        if (k.name == QLatin1String("add 8192")) {
            EXPECT_DOUBLE_EQ(*cpu.value(QStringLiteral("add_8192_gbps")), k.gbps);
        }
}

TEST_F(DefaultScenes, MeasuredScenesNeedASession)
{
    const Result<SceneFacts> result = computeSceneFacts(sceneById(m_deck, "two-kinds"), nullptr);
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("open or measure a session")));
}

TEST_F(DefaultScenes, TensorParallelismInsideTheBoxBeatsAcrossBoxes)
{
    const SceneFacts f = facts("tensor-parallel");
    const double nvlink = *f.value(QStringLiteral("tokens_s_nvlink4"));
    const double infiniband = *f.value(QStringLiteral("tokens_s_infiniband_ndr"));
    const double ethernet = *f.value(QStringLiteral("tokens_s_ethernet_100g"));
    EXPECT_GT(nvlink, 1.5 * infiniband);
    EXPECT_GT(infiniband, ethernet);
}

TEST(SceneFacts, ACaptionNamingAnUncomputedNumberIsRefused)
{
    Scene scene;
    scene.id = QStringLiteral("typo");
    scene.kind = QStringLiteral("intensity-table");
    scene.view = QStringLiteral("roofline");
    scene.gpu.peakTflops = 300.0;
    scene.gpu.bandwidthTbs = 2.0;
    scene.caption = QStringLiteral("balance {balanse}");
    const Result<SceneFacts> result = computeSceneFacts(scene, nullptr);
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("{balanse}")));
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("balance")));

    // The notes are held to the same rule, and the message says which text named it.
    scene.caption = QStringLiteral("balance {balance}");
    scene.notes = QStringLiteral("say {balnce} aloud");
    const Result<SceneFacts> notes = computeSceneFacts(scene, nullptr);
    ASSERT_FALSE(notes.ok());
    EXPECT_TRUE(notes.error().message.contains(QStringLiteral("the notes name")))
        << notes.error().message.toStdString();
    EXPECT_TRUE(notes.error().message.contains(QStringLiteral("{balnce}")));
}

// The bundled session is a real, quiet, full measurement, and every default scene can show it.
TEST(BundledSession, IsAQuietFullMeasurementThatEveryDefaultSceneCanShow)
{
    const Result<Session> bundled = bundledSession();
    ASSERT_TRUE(bundled.ok()) << bundled.error().message.toStdString();
    const Session& session = bundled.value();
    EXPECT_FALSE(session.quick);
    EXPECT_FALSE(session.noisy()) << session.noisyMeasurements.join(QStringLiteral(", ")).toStdString();
    EXPECT_TRUE(session.generator.contains(QStringLiteral("ridgeline"))) << "made by ridgeline measure";
    const Deck deck = defaultDeck().value();
    for (const Scene& scene : deck.scenes) {
        const Result<SceneFacts> facts = computeSceneFacts(scene, &session);
        EXPECT_TRUE(facts.ok()) << (facts.ok() ? "" : facts.error().message.toStdString());
    }
}

TEST(SceneFacts, ASavedBatchingViewShowsTheModelsNumbersAtItsSettings)
{
    Scene scene;
    scene.id = QStringLiteral("my-view");
    scene.kind = QStringLiteral("view");
    scene.view = QStringLiteral("batching");
    scene.modelId = QStringLiteral("llama-2-7b");
    scene.gpu.peakTflops = 300.0;
    scene.gpu.bandwidthTbs = 2.0;
    scene.ideal = true;
    scene.batch = 16;
    scene.context = 8192;
    scene.caption = QStringLiteral("{batch} sequences: {kv_total_gib} of cache, {tokens_s}");
    const Result<SceneFacts> facts = computeSceneFacts(scene, nullptr);
    ASSERT_TRUE(facts.ok()) << facts.error().message.toStdString();
    EXPECT_DOUBLE_EQ(*facts.value().value(QStringLiteral("kv_total_gib")), 64.0);
    EXPECT_TRUE(facts.value().caption.startsWith(QStringLiteral("16 sequences: 64.0 GiB of cache")))
        << facts.value().caption.toStdString();

    scene.view = QStringLiteral("roofline");
    scene.caption = QStringLiteral("my roofline");
    const Result<SceneFacts> roofline = computeSceneFacts(scene, nullptr);
    ASSERT_TRUE(roofline.ok()) << "a saved roofline view needs no session";
    EXPECT_EQ(roofline.value().caption, QStringLiteral("my roofline"));
}

TEST_F(DefaultScenes, CaptionAndSlideAskTheModelTheSameQuestion)
{
    // The tensor-parallel scene: 8 H100s over the first link it compares, at its own batch and context.
    const InferenceRequest request = inferenceRequestFor(sceneById(m_deck, "tensor-parallel"));
    EXPECT_EQ(request.modelId, QStringLiteral("llama-2-70b"));
    EXPECT_EQ(request.gpuId, QStringLiteral("h100-sxm"));
    EXPECT_EQ(request.gpus, 8);
    EXPECT_EQ(request.linkId, QStringLiteral("nvlink4"));
    EXPECT_EQ(request.batch, 64);
    EXPECT_EQ(request.context, 2048);
    // The custom GPU of the source text, ideal, at the last batch of the sweep.
    const InferenceRequest sweep = inferenceRequestFor(sceneById(m_deck, "batch-fills"));
    EXPECT_EQ(sweep.gpuId, kCustomId);
    EXPECT_DOUBLE_EQ(sweep.customPeakTflops, 300.0);
    EXPECT_DOUBLE_EQ(sweep.customBandwidthTbs, 2.0);
    EXPECT_TRUE(sweep.ideal());
    EXPECT_EQ(sweep.batch, 256);
    // A scene that gives no context computes at the shared default, in the caption as on the slide.
    Scene view;
    view.id = QStringLiteral("v");
    view.kind = QStringLiteral("view");
    view.view = QStringLiteral("batching");
    view.modelId = QStringLiteral("llama-2-7b");
    view.gpu.catalogId = QStringLiteral("h100-sxm");
    view.caption = QStringLiteral("{kv_total_gib}");
    EXPECT_EQ(inferenceRequestFor(view).context, kDefaultContext);
    const Result<SceneFacts> facts = computeSceneFacts(view, nullptr);
    ASSERT_TRUE(facts.ok()) << facts.error().message.toStdString();
    EXPECT_EQ(facts.value().caption, QStringLiteral("4.0 GiB"));  // 512 KiB x 8,192 tokens
}

TEST_F(DefaultScenes, TheIntensityTableRowsAreWhatTheCaptionQuotes)
{
    const Result<IntensityTable> table = intensityTableFor(sceneById(m_deck, "intensity-table"));
    ASSERT_TRUE(table.ok()) << table.error().message.toStdString();
    ASSERT_EQ(table.value().rows.size(), 3u);
    EXPECT_EQ(table.value().gpu.name, QStringLiteral("300 TFLOP/s, 2 TB/s GPU"));
    const SceneFacts f = facts("intensity-table");
    EXPECT_DOUBLE_EQ(table.value().rows[0].intensity, *f.value(QStringLiteral("add_intensity")));
    EXPECT_DOUBLE_EQ(table.value().rows[2].intensity, *f.value(QStringLiteral("matmul_4096")));
    EXPECT_DOUBLE_EQ(table.value().rows[0].attainableGflops / 1000.0,
                     *f.value(QStringLiteral("add_attainable_tflops")));
}

TEST_F(DefaultScenes, TheMixedPrecisionRatioIsAMeasuredFact)
{
    // A session with the bf16 product beside sgemm of the same n, as `ridgeline measure` writes it.
    Session session = m_session;
    KernelResult sgemm;
    for (const KernelResult& k : session.kernels)
        if (k.kind == QLatin1String("sgemm") && k.size == QLatin1String("2048x2048"))
            sgemm = k;
    ASSERT_GT(sgemm.gflops, 0.0);
    KernelResult bf16 = sgemm;
    bf16.kind = QStringLiteral("bf16-gemm");
    bf16.name = QStringLiteral("bf16 gemm 2048");
    bf16.precision = QStringLiteral("bf16");
    bf16.gflops = 3.7 * sgemm.gflops;
    session.kernels.push_back(bf16);

    Scene scene = sceneById(m_deck, "cpu-experiment");
    scene.highlight = {QStringLiteral("bf16 gemm 2048")};
    scene.caption = QStringLiteral("bf16 on this CPU: {bf16_gemm_2048_gflops}, {bf16_gemm_2048_vs_sgemm} sgemm's");
    const Result<SceneFacts> result = computeSceneFacts(scene, &session);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_DOUBLE_EQ(*result.value().value(QStringLiteral("bf16_gemm_2048_vs_sgemm")), 3.7);
    EXPECT_TRUE(result.value().caption.endsWith(QStringLiteral(", 3.7x sgemm's")))
        << result.value().caption.toStdString();

    // Without the sgemm beside it there is no ratio to show: the scene says so.
    session.kernels.erase(std::remove_if(session.kernels.begin(), session.kernels.end(),
                                         [](const KernelResult& k) { return k.kind == QLatin1String("sgemm"); }),
                          session.kernels.end());
    const Result<SceneFacts> alone = computeSceneFacts(scene, &session);
    ASSERT_FALSE(alone.ok());
    EXPECT_TRUE(alone.error().message.contains(QStringLiteral("no sgemm of 2048x2048")))
        << alone.error().message.toStdString();
}

TEST(MixedPrecisionScene, ACaptionQuotesTheRatioARealMeasurementFound)
{
    // tests/data/decks/mixed-precision.json: one scene a speaker adds to a talk, against a session that
    // `ridgeline measure` wrote on an Intel Xeon with AMX.
    const Result<Deck> deck = loadDeck(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/decks/mixed-precision.json"));
    ASSERT_TRUE(deck.ok()) << deck.error().message.toStdString();
    const Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    const Scene& scene = deck.value().scenes.at(0);
    const Result<SceneFacts> facts = computeSceneFacts(scene, &xeon.value());
    ASSERT_TRUE(facts.ok()) << facts.error().message.toStdString();

    const KernelResult* bf16 = nullptr;
    const KernelResult* sgemm = nullptr;
    for (const KernelResult& k : xeon.value().kernels) {
        if (k.name == QLatin1String("bf16 gemm 2048"))
            bf16 = &k;
        if (k.name == QLatin1String("sgemm 2048"))
            sgemm = &k;
    }
    ASSERT_TRUE(bf16 && sgemm);
    const double ratio = bf16->gflops / sgemm->gflops;
    EXPECT_DOUBLE_EQ(*facts.value().value(QStringLiteral("bf16_gemm_2048_vs_sgemm")), ratio);
    EXPECT_TRUE(facts.value().caption.contains(QStringLiteral(", %1 as fast.").arg(formatGrouped(ratio, 1) + u'x')))
        << facts.value().caption.toStdString();
    EXPECT_FALSE(facts.value().caption.contains(u'{'));

    // A session without a bf16 product (the bundled Zen 4 measurement predates them) says which kernel it lacks.
    const Result<Session> bundled = bundledSession();
    ASSERT_TRUE(bundled.ok());
    const Result<SceneFacts> none = computeSceneFacts(scene, &bundled.value());
    ASSERT_FALSE(none.ok());
    EXPECT_TRUE(none.error().message.contains(QStringLiteral("no kernel \"bf16 gemm 2048\"")))
        << none.error().message.toStdString();
}

namespace {

// The serving scenes' question asked without the scene: Llama 2 7B on an H100 with the engine terms `ridgeline model`
// uses, requests of 1,024 + 1,024 tokens always in flight.
LlmModel servingModel()
{
    InferenceRequest request;
    request.modelId = QStringLiteral("llama-2-7b");
    request.gpuId = QStringLiteral("h100-sxm");
    request.context = 2048;
    setEngineChoice(request, kDefaultEngineChoice);
    return LlmModel::create(resolveInference(request).value()).value();
}

ServingLatency servedAt(const LlmModel& model, std::int64_t batch)
{
    return servingLatency(model, RequestMix{1024, 1024, batch, 0.0}).value();
}

}  // namespace

// A request waits for its batch: the more in flight, the more tokens/s per GPU and the longer the first token takes;
// past the slots the cache holds, a request queues for one.
TEST_F(DefaultScenes, ARequestWaitsForItsBatch)
{
    const Scene& scene = sceneById(m_deck, "batch-wait");
    const SceneFacts f = facts("batch-wait");
    const LlmModel model = servingModel();
    EXPECT_EQ(f.value(QStringLiteral("prompt")), 1024.0);
    EXPECT_EQ(f.value(QStringLiteral("output")), 1024.0);
    const std::int64_t held = largestRunning(model, 1024, 1024, {});
    EXPECT_EQ(f.value(QStringLiteral("largest_running")), static_cast<double>(held));
    const ServingLatency alone = servedAt(model, 1);
    double lastTtft = 0.0, lastTokens = 0.0;
    for (const std::int64_t batch : scene.batches) {
        const QString b = QString::number(batch);
        const ServingLatency served = servedAt(model, batch);
        EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("ttft_") + b), served.ttftSeconds) << batch;
        EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("itl_") + b), served.itlSeconds) << batch;
        EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("tokens_s_gpu_") + b), served.outputTokensPerSecond) << batch;
        EXPECT_DOUBLE_EQ(*f.value(QStringLiteral("throughput_x_") + b),
                         served.outputTokensPerSecond / alone.outputTokensPerSecond);
        EXPECT_GT(served.ttftSeconds, lastTtft) << batch;
        EXPECT_GE(served.outputTokensPerSecond, lastTokens) << batch;
        lastTtft = served.ttftSeconds;
        lastTokens = served.outputTokensPerSecond;
        EXPECT_EQ(served.queued > 0.0, batch > held) << batch;
    }
    const QString caption = f.caption;
    EXPECT_TRUE(caption.contains(formatSeconds(alone.ttftSeconds))) << caption.toStdString();
    EXPECT_TRUE(caption.contains(formatSeconds(servedAt(model, 128).ttftSeconds))) << caption.toStdString();
    EXPECT_TRUE(caption.contains(QStringLiteral("The KV cache holds %1:").arg(held))) << caption.toStdString();
    // The wait for a slot, not the step, is what the last batch adds: its throughput barely moves.
    EXPECT_GT(servedAt(model, 128).ttftSeconds, 100.0 * servedAt(model, 64).ttftSeconds);
    EXPECT_LT(servedAt(model, 128).outputTokensPerSecond, 1.05 * servedAt(model, 64).outputTokensPerSecond);
}

// Cost per million output tokens: the GPU-hour's price over the output tokens it makes, which the batch multiplies.
TEST_F(DefaultScenes, BatchingCutsTheCostPerMillionTokens)
{
    const Scene& scene = sceneById(m_deck, "cost-per-token");
    ASSERT_TRUE(scene.gpuHourPrice);
    const SceneFacts f = facts("cost-per-token");
    const LlmModel model = servingModel();
    const double price = *scene.gpuHourPrice;
    EXPECT_EQ(f.value(QStringLiteral("price")), price);
    double last = std::numeric_limits<double>::infinity();
    const double first = price / 3600.0 / servedAt(model, 1).outputTokensPerSecond * 1e6;
    for (const std::int64_t batch : scene.batches) {
        const QString b = QString::number(batch);
        const double cost = price / 3600.0 / servedAt(model, batch).outputTokensPerSecond * 1e6;
        EXPECT_NEAR(*f.value(QStringLiteral("cost_") + b), cost, 1e-9 * cost) << batch;
        EXPECT_NEAR(*f.value(QStringLiteral("cost_x_") + b), first / cost, 1e-9 * first / cost) << batch;
        EXPECT_LT(cost, last) << batch;
        last = cost;
        EXPECT_EQ(f.text(QStringLiteral("cost_") + b), formatDollars(cost));
    }
    const QString caption = f.caption;
    EXPECT_TRUE(caption.contains(formatDollars(price) + QStringLiteral(" per GPU-hour (an example price)")))
        << caption.toStdString();
    EXPECT_TRUE(caption.contains(formatDollars(first))) << caption.toStdString();
    // A cost scene without a price has nothing to show and says so.
    Scene unpriced = scene;
    unpriced.gpuHourPrice.reset();
    const Result<SceneFacts> refused = computeSceneFacts(unpriced, nullptr);
    ASSERT_FALSE(refused.ok());
    EXPECT_TRUE(refused.error().message.contains(QStringLiteral("gpu_hour_price")));
}
