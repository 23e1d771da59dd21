// The batching and KV-cache explorer (panel part): real widgets at slide size, asserting on the
// numbers the panel shows and on pixels probed at chart coordinates; PNGs left for a human to look at.

#include "ui/panels/batching_panel.h"
#include "core/session/format/session_json.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/chart/memory_bar.h"
#include "ui/widgets/log_slider.h"

#include <QLineSeries>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <string_view>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

const QSize kSlide(1920, 1080);

InferenceRequest sourceTextInputs(const QString& gpu, std::int64_t batch)
{
    InferenceRequest in;
    in.modelId = QStringLiteral("llama-2-7b");
    in.gpuId = gpu;
    in.weights = NumberFormat::Bf16;
    in.kv = NumberFormat::Bf16;
    in.batch = batch;
    in.context = 8192;
    return in;
}

bool containsText(const QStringList& texts, const QString& needle)
{
    for (const QString& t : texts)
        if (t.contains(needle))
            return true;
    return false;
}

std::string joined(const QStringList& texts)
{
    return texts.join(QStringLiteral(" | ")).toStdString();
}

// "nan", "inf", "-inf" as words: what QString::number prints for non-finite values. "InfiniBand" is fine.
const QRegularExpression kNonFinite(QStringLiteral("\\b(nan|inf|infinity)\\b"),
                                    QRegularExpression::CaseInsensitiveOption);

}  // namespace

TEST(UiBatchingPanel, MovingTheBatchSliderChangesTokensPerSecondAndMovesTheRooflinePoint)
{
    BatchingPanel panel;
    InferenceRequest in = sourceTextInputs(QStringLiteral("h100-sxm"), 4);
    in.context = 512;  // short: the weights dominate the traffic, as in the source text's table
    panel.setInputs(in);
    fixtures::layoutNow(panel, kSlide);

    const double tokensBefore = panel.scenario().report.tokensPerSecond;
    const QPoint pointBefore = panel.rooflineChart()->currentPointPosition();
    const QPoint markerBefore =
        panel.throughputChart()->viewportPosition(QPointF(4.0, panel.scenario().throughput.tokensPerSecond));
    QSignalSpy spy(&panel, &BatchingPanel::scenarioChanged);

    // A user's page step on the slider: one octave, 4 -> 8.
    panel.batchSlider()->slider()->triggerAction(QAbstractSlider::SliderPageStepAdd);
    ASSERT_EQ(spy.count(), 1);
    EXPECT_EQ(panel.inputs().batch, 8);
    EXPECT_EQ(panel.batchSlider()->spinBox()->value(), 8);

    const double tokensAfter = panel.scenario().report.tokensPerSecond;
    EXPECT_GT(tokensAfter, 1.8 * tokensBefore);  // memory-bound: twice the batch, nearly twice the tokens
    const QPoint pointAfter = panel.rooflineChart()->currentPointPosition();
    EXPECT_GT(pointAfter.x(), pointBefore.x() + 10);  // higher intensity: to the right
    EXPECT_LT(pointAfter.y(), pointBefore.y() - 10);  // more TFLOP/s: up
    const QPoint markerAfter =
        panel.throughputChart()->viewportPosition(QPointF(8.0, panel.scenario().throughput.tokensPerSecond));
    EXPECT_GT(markerAfter.x(), markerBefore.x());

    // The dot is drawn where the chart says it is, in the highlight colour.
    const QImage roofline = fixtures::grabImage(*panel.rooflineChart());
    const QColor highlight = panel.throughputChart()->theme().highlight;
    EXPECT_TRUE(fixtures::colorNear(roofline, pointAfter, highlight, 3));
    const QImage throughput = fixtures::grabImage(*panel.throughputChart());
    EXPECT_TRUE(fixtures::colorNear(throughput, markerAfter, highlight, 3));
}

TEST(UiBatchingPanel, TypingABatchMovesTheSliderToTheNearestStep)
{
    BatchingPanel panel;
    panel.batchSlider()->spinBox()->setValue(100);
    EXPECT_EQ(panel.inputs().batch, 100);
    EXPECT_EQ(panel.scenario().throughput.batch, 100);
    const std::vector<std::int64_t>& steps = panel.batchSlider()->steps();
    EXPECT_EQ(steps[static_cast<std::size_t>(panel.batchSlider()->slider()->value())], 96);
}

TEST(UiBatchingPanel, TheKneeIsTheSmallestComputeBoundBatch)
{
    // Llama 2 7B (MHA) never crosses the H100's ridge at any context: its KV reads grow with the batch
    // as fast as its FLOPs. Llama 3 8B's GQA cache is four times smaller, and it does at short context.
    BatchingPanel panel;
    InferenceRequest in = sourceTextInputs(QStringLiteral("h100-sxm"), 1);
    in.modelId = QStringLiteral("llama-3-8b");
    in.context = 128;
    panel.setInputs(in);
    fixtures::layoutNow(panel, kSlide);
    const std::optional<std::int64_t> knee = panel.scenario().throughput.kneeBatch;
    ASSERT_TRUE(knee.has_value());
    panel.setBatch(*knee - 1);
    EXPECT_EQ(panel.scenario().report.step.bound, Bound::Memory);
    panel.setBatch(*knee);
    EXPECT_EQ(panel.scenario().report.step.bound, Bound::Compute);
    EXPECT_TRUE(containsText(panel.throughputChart()->texts(), QStringLiteral("compute-bound from B = %1").arg(*knee)));
}

TEST(UiBatchingPanel, EightPcieGpusWithAnEngineSayTheyCrossTwoSockets)
{
    // An eight-GPU PCIe server is two CPU sockets of four (links.cpp): with an engine, whose collectives cross
    // between them, the detail line says so; four GPUs stay on one socket.
    BatchingPanel panel;
    InferenceRequest in = sourceTextInputs(QStringLiteral("l40s"), 1);
    in.modelId = QStringLiteral("llama-2-70b");
    in.engine = QStringLiteral("tensorrt-llm");
    in.weights = in.kv = NumberFormat::Fp8;
    in.gpus = 8;
    panel.setInputs(in);
    fixtures::layoutNow(panel, kSlide);
    EXPECT_TRUE(panel.detailText().contains(QStringLiteral("two CPU sockets of 4 (16 GB/s between them)")))
        << panel.detailText().toStdString();
    fixtures::grabImage(panel).save(fixtures::outputPath(QStringLiteral("batching_l40s_x8_two_sockets.png")));
    panel.setGpuCount(4);
    EXPECT_FALSE(panel.detailText().contains(QStringLiteral("CPU sockets"))) << panel.detailText().toStdString();
}

TEST(UiBatchingPanel, TensorParallelismSplitsWeightsAndCacheAndPaysForTheLink)
{
    BatchingPanel panel;
    InferenceRequest in = sourceTextInputs(QStringLiteral("h100-sxm"), 16);
    in.modelId = QStringLiteral("llama-2-70b");
    in.context = 4096;
    panel.setInputs(in);
    fixtures::layoutNow(panel, kSlide);
    EXPECT_FALSE(panel.memoryBar()->fits());  // 128 GiB of bf16 weights on one 80 GiB card
    const std::int64_t weightsOnOne = panel.scenario().memory.weightsBytes;

    panel.setGpuCount(8);
    EXPECT_TRUE(panel.memoryBar()->fits()) << panel.memoryBar()->statusText().toStdString();
    EXPECT_NEAR(double(panel.scenario().memory.weightsBytes), double(weightsOnOne) / 8.0, 1.0);
    EXPECT_TRUE(panel.memoryBar()->titleText().contains(QStringLiteral("each of 8")));
    EXPECT_TRUE(panel.detailText().contains(QStringLiteral("all-reduces"))) << panel.detailText().toStdString();
    const double nvlink = panel.scenario().report.tokensPerSecond;

    // The same eight GPUs in eight boxes: the all-reduces cross the network, "unusable across boxes".
    panel.setLink(QStringLiteral("infiniband-ndr"));
    const double network = panel.scenario().report.tokensPerSecond;
    EXPECT_LT(network, 0.8 * nvlink);
    EXPECT_GT(panel.scenario().report.commFraction, 0.2);
}

TEST(UiBatchingPanel, TheIdealDatasheetSwitchRaisesTheRoofTheModelUses)
{
    BatchingPanel panel;
    panel.setInputs(sourceTextInputs(QStringLiteral("h100-sxm"), 1));
    fixtures::layoutNow(panel, kSlide);
    const double measured = panel.scenario().report.tokensPerSecond;
    EXPECT_TRUE(panel.rooflineChart()->data().datasheet.has_value());
    EXPECT_TRUE(containsText(panel.rooflineChart()->texts(), QStringLiteral("used: ")));

    QSignalSpy spy(&panel, &BatchingPanel::scenarioChanged);
    panel.setIdeal(true);
    ASSERT_EQ(spy.count(), 1);
    // Memory-bound at batch 1: tokens/s scales with the bandwidth share, 75 % -> 100 %.
    EXPECT_NEAR(panel.scenario().report.tokensPerSecond / measured, 1.0 / kDefaultBandwidthEfficiency, 0.01);
    EXPECT_FALSE(panel.rooflineChart()->data().datasheet.has_value());
    EXPECT_TRUE(containsText(panel.rooflineChart()->texts(), QStringLiteral("datasheet: 989 TFLOP/s, 3.35 TB/s")))
        << joined(panel.rooflineChart()->texts());
}

TEST(UiBatchingPanel, ACustomModelByParameterCountAndACustomGpuAreEvaluated)
{
    BatchingPanel panel;
    panel.setCustomModelParams(7e9);
    panel.setCustomGpu(300.0, 2.0, 80.0);
    ASSERT_TRUE(panel.errorText().isEmpty()) << panel.errorText().toStdString();
    EXPECT_EQ(panel.scenario().report.params, 7'000'000'000);
    EXPECT_TRUE(panel.scenario().gpuName.contains(QStringLiteral("300 TFLOP/s")));
    EXPECT_TRUE(panel.memoryBar()->hasData());
}

TEST(UiBatchingMemory, SixteenSequencesOf8192TokensDoNotFitOnA40GbCardAndTheMaximumIsShown)
{
    BatchingPanel panel;
    panel.setInputs(sourceTextInputs(QStringLiteral("a100-40gb-sxm"), 16));
    fixtures::layoutNow(panel, kSlide);
    const MemoryBar* bar = panel.memoryBar();
    EXPECT_FALSE(bar->fits());
    EXPECT_TRUE(bar->statusText().startsWith(QStringLiteral("DOES NOT FIT"))) << bar->statusText().toStdString();
    EXPECT_TRUE(bar->statusText().contains(QStringLiteral("76.55 GiB"))) << bar->statusText().toStdString();
    EXPECT_TRUE(bar->statusText().contains(QStringLiteral("40.00 GiB"))) << bar->statusText().toStdString();
    // (40 - 12.55) GiB / 4 GiB per sequence = 6 sequences.
    EXPECT_EQ(panel.scenario().memory.maxFittingBatch, 6);
    EXPECT_TRUE(containsText(bar->texts(), QStringLiteral("Max batch at 8,192 tokens: 6"))) << joined(bar->texts());
    EXPECT_TRUE(containsText(bar->texts(), QStringLiteral("Over by 36.55 GiB"))) << joined(bar->texts());
    EXPECT_TRUE(containsText(panel.throughputChart()->texts(), QStringLiteral("B > 6 does not fit in memory")));

    // The hatched overflow is drawn in red right of the capacity line.
    const QImage image = fixtures::grabImage(*panel.memoryBar());
    const QColor red(0xc0, 0x10, 0x10);
    bool redFound = false;
    for (int x = image.width() * 3 / 4; x < image.width() - 20 && !redFound; ++x)
        for (int y = 30; y < 100 && !redFound; ++y)
            redFound = fixtures::colorDistance(image.pixelColor(x, y), red) < 60;
    EXPECT_TRUE(redFound);

    panel.setBatch(6);
    EXPECT_TRUE(panel.memoryBar()->fits());
    EXPECT_TRUE(panel.memoryBar()->statusText().startsWith(QStringLiteral("Fits")))
        << panel.memoryBar()->statusText().toStdString();
    panel.setBatch(7);
    EXPECT_FALSE(panel.memoryBar()->fits());
}

TEST(UiBatchingSourceText, Llama2SevenBFiguresThroughThePanel)
{
    BatchingPanel panel;
    panel.setInputs(sourceTextInputs(QStringLiteral("h100-sxm"), 16));
    const QStringList bar = panel.memoryBar()->texts();
    // 13.48 GB = 12.55 GiB of weights; 512 KiB per token x 8,192 = 4 GiB per sequence; 16 of them = 64 GiB.
    EXPECT_TRUE(containsText(bar, QStringLiteral("Weights 12.55 GiB (13.48 GB)"))) << joined(bar);
    EXPECT_TRUE(containsText(bar, QStringLiteral("KV cache 64.00 GiB = 16 \u00d7 4.00 GiB (8,192 tokens each)")))
        << joined(bar);
    EXPECT_TRUE(panel.memoryBar()->fits());  // 76.55 GiB on an 80 GiB card
    EXPECT_TRUE(panel.takeawayText().contains(QStringLiteral("the cache, not the model, fills the card")));

    // Intensity about 1 FLOP/byte at batch 1, proportional to batch (weights only, as the text counts).
    panel.setBatch(1);
    EXPECT_NEAR(panel.scenario().report.weightsOnlyIntensity, 1.0, 0.01);
    panel.setBatch(32);
    EXPECT_NEAR(panel.scenario().report.weightsOnlyIntensity, 32.0, 0.3);

    // The source text's GPU (300 TFLOP/s, 2 TB/s) balances at 150 FLOP/byte.
    fixtures::layoutNow(panel, kSlide);
    panel.setCustomGpu(300.0, 2.0, 80.0);
    panel.setIdeal(true);
    EXPECT_NEAR(panel.scenario().report.ridgeFlopPerByte, 150.0, 1e-9);
    EXPECT_TRUE(containsText(panel.rooflineChart()->texts(), QStringLiteral("ridge 150 FLOP/byte")))
        << joined(panel.rooflineChart()->texts());
    // Step time flat from 1 to 16 (within 10 %), rising by 64 at short context.
    panel.setContext(128);
    const auto stepAt = [&](std::int64_t b) {
        panel.setBatch(b);
        return panel.scenario().report.step.seconds;
    };
    const double one = stepAt(1);
    EXPECT_LT(stepAt(16) / one, 1.1);
    EXPECT_GT(stepAt(256) / one, 1.5);
}

TEST(UiBatchingPanel, AbsurdInputsShowTheModelsErrorAndNeverNanOrInf)
{
    BatchingPanel panel;
    fixtures::layoutNow(panel, kSlide);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    struct Case {
        const char* what;
        std::function<void()> apply;
        bool expectError;
    };
    const std::vector<Case> cases = {
        {"NaN peak", [&] { panel.setCustomGpu(nan, 2.0, 80.0); }, true},
        {"inf bandwidth", [&] { panel.setCustomGpu(300.0, inf, 80.0); }, true},
        {"negative memory", [&] { panel.setCustomGpu(300.0, 2.0, -1.0); }, true},
        {"zero everything", [&] { panel.setCustomGpu(0.0, 0.0, 0.0); }, true},
        {"1e300 peak", [&] { panel.setCustomGpu(1e300, 2.0, 80.0); }, true},
        {"tiny card", [&] { panel.setCustomGpu(1e-9, 1e-9, 1e-9); }, false},
        {"NaN params", [&] { panel.setCustomModelParams(nan); }, true},
        {"1e20 params", [&] { panel.setCustomModelParams(1e20); }, true},
        {"-inf params", [&] { panel.setCustomModelParams(-inf); }, true},
        {"64 GPUs for 32 heads",
         [&] {
             panel.setInputs(sourceTextInputs(QStringLiteral("h100-sxm"), 16));
             panel.setGpuCount(64);
         },
         true},
        {"unknown link",
         [&] {
             panel.setGpuCount(2);
             panel.setLink(QStringLiteral("carrier-pigeon"));
         },
         true},
        {"unknown model", [&] { panel.setModel(QStringLiteral("no-such-model")); }, true},
        {"batch and context past the sliders",
         [&] {
             InferenceRequest in = sourceTextInputs(QStringLiteral("l4"), 1'000'000'000);
             in.modelId = QStringLiteral("deepseek-v3");
             in.context = std::int64_t{1} << 40;
             panel.setInputs(in);
         },
         false},
        {"largest everything",
         [&] {
             InferenceRequest in = sourceTextInputs(QStringLiteral("b200"), kPanelMaxBatch);
             in.modelId = QStringLiteral("gpt-3-175b");
             in.context = kPanelMaxContext;
             in.weights = NumberFormat::Fp32;
             in.kv = NumberFormat::Fp32;
             in.gpus = 8;
             in.linkId = QStringLiteral("ethernet-100g");
             panel.setInputs(in);
         },
         false},
        {"fp8 on an A100",
         [&] {
             InferenceRequest in = sourceTextInputs(QStringLiteral("a100-80gb-sxm"), 64);
             in.weights = NumberFormat::Fp8;
             in.kv = NumberFormat::Int4;
             panel.setInputs(in);
         },
         false},
    };
    for (const Case& c : cases) {
        c.apply();
        const QStringList texts = panel.visibleTexts();
        for (const QString& t : texts)
            EXPECT_FALSE(t.contains(kNonFinite)) << c.what << ": " << t.toStdString();
        if (c.expectError) {
            EXPECT_FALSE(panel.errorText().isEmpty()) << c.what;
            EXPECT_TRUE(panel.detailText().contains(panel.errorText().mid(1))) << c.what;  // first letter capitalised
            EXPECT_FALSE(panel.throughputChart()->hasData()) << c.what;
            EXPECT_FALSE(panel.memoryBar()->hasData()) << c.what;
            EXPECT_TRUE(panel.memoryBar()->statusText().contains(panel.errorText())) << c.what;
        } else {
            EXPECT_TRUE(panel.errorText().isEmpty()) << c.what << ": " << panel.errorText().toStdString();
            EXPECT_TRUE(panel.throughputChart()->hasData()) << c.what;
        }
    }
    // Batch and context past the sliders are clamped to their ranges, not refused.
    const auto past = std::find_if(cases.begin(), cases.end(), [](const Case& c) {
        return std::string_view(c.what) == "batch and context past the sliders";
    });
    ASSERT_NE(past, cases.end());
    past->apply();
    EXPECT_EQ(panel.inputs().batch, kPanelMaxBatch);
    EXPECT_EQ(panel.inputs().context, kPanelMaxContext);
    EXPECT_EQ(panel.memoryBar()->data().maxFittingBatch, 0);  // 671 B parameters on a 24 GB card
    EXPECT_TRUE(containsText(panel.memoryBar()->texts(), QStringLiteral("Not even one sequence")));
}

TEST(UiBatchingSession, MeasuredCurveOverlaysThePredictionWhenASessionHasDecodeKernels)
{
    const Result<Session> loaded = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    BatchingPanel panel;
    fixtures::layoutNow(panel, kSlide);
    EXPECT_FALSE(panel.cpuChart()->hasOverlay());
    EXPECT_EQ(panel.cpuChart()->measuredSeries()->count(), 0);

    panel.setSession(loaded.value());
    ASSERT_TRUE(panel.cpuChart()->hasOverlay()) << panel.cpuChart()->data().reason.toStdString();
    const CpuBatchingData& d = panel.cpuChart()->data();
    EXPECT_EQ(panel.cpuChart()->measuredSeries()->count(), 9);  // decode B = 1 .. 256
    EXPECT_GT(panel.cpuChart()->predictedSeries()->count(), 20);
    EXPECT_EQ(d.matrixDim, 4096);
    EXPECT_DOUBLE_EQ(d.bandwidthGbps, 40.3);  // the best DRAM ceiling (read beats triad)
    // Batch 1 is memory-bound: 4 bytes per weight, 2 FLOPs: within 15 % of the measured 556 tokens/s.
    const QPointF predictedOne = QPointF(d.predicted.front());
    EXPECT_DOUBLE_EQ(predictedOne.x(), 1.0);
    EXPECT_NEAR(predictedOne.y() / d.measured.front().y(), 1.0, 0.15);
    ASSERT_TRUE(d.kneeBatch.has_value());
    EXPECT_GT(*d.kneeBatch, 8.0);
    EXPECT_LT(*d.kneeBatch, 16.0);
    EXPECT_TRUE(containsText(panel.cpuChart()->texts(), QStringLiteral("roofline knee")));

    // The measured triangle is drawn where the chart maps B = 16.
    const QImage image = fixtures::grabImage(*panel.cpuChart());
    const QPoint at = panel.cpuChart()->viewportPosition(d.measured[4]);
    EXPECT_TRUE(fixtures::colorNear(image, at, panel.cpuChart()->measuredSeries()->color(), 3));

    // The in-code Zen 4 fixture decodes a 16384 x 16384 matrix: the size follows from its FLOP count.
    panel.setSession(fixtures::zen4Session());
    EXPECT_EQ(panel.cpuChart()->data().matrixDim, 16384);

    Session noDecode = loaded.value();
    std::erase_if(noDecode.kernels, [](const KernelResult& k) { return k.kind == QLatin1String("decode"); });
    panel.setSession(noDecode);
    EXPECT_FALSE(panel.cpuChart()->hasOverlay());
    EXPECT_EQ(panel.cpuChart()->measuredSeries()->count(), 0);
    EXPECT_TRUE(containsText(panel.cpuChart()->texts(), QStringLiteral("no decode measurements")))
        << joined(panel.cpuChart()->texts());
}

TEST(UiBatchingScenario, SliderStepsAreRoundNumbersOnALogScale)
{
    const std::vector<std::int64_t> batch = logSliderSteps(1, 4096);
    EXPECT_EQ(batch.front(), 1);
    EXPECT_EQ(batch.back(), 4096);
    for (const std::int64_t wanted : {1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 96, 1024, 3072})
        EXPECT_NE(std::find(batch.begin(), batch.end(), wanted), batch.end()) << wanted;
    const std::vector<std::int64_t> context = logSliderSteps(128, std::int64_t{1} << 20);
    EXPECT_EQ(context.front(), 128);
    EXPECT_EQ(context.back(), 1 << 20);
    EXPECT_NE(std::find(context.begin(), context.end(), 8192), context.end());
    EXPECT_NE(std::find(context.begin(), context.end(), 32768), context.end());
}

TEST(UiBatchingGrab, RendersTheExplorerAtSlideSizeInLightAndDark)
{
    const Result<Session> loaded = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
    ASSERT_TRUE(loaded.ok());
    struct Shot {
        QString file;
        ThemeKind theme;
        InferenceRequest inputs;
    };
    InferenceRequest notFit = sourceTextInputs(QStringLiteral("a100-40gb-sxm"), 16);
    InferenceRequest shortContext = sourceTextInputs(QStringLiteral("h100-sxm"), 64);
    shortContext.context = 1024;
    InferenceRequest tensorParallel = sourceTextInputs(QStringLiteral("h100-sxm"), 64);
    tensorParallel.modelId = QStringLiteral("llama-2-70b");
    tensorParallel.context = 4096;
    tensorParallel.gpus = 8;
    tensorParallel.linkId = QStringLiteral("infiniband-ndr");
    const std::vector<Shot> shots = {
        {QStringLiteral("batching_light.png"), ThemeKind::Light, sourceTextInputs(QStringLiteral("h100-sxm"), 16)},
        {QStringLiteral("batching_dark.png"), ThemeKind::Dark, sourceTextInputs(QStringLiteral("h100-sxm"), 16)},
        {QStringLiteral("batching_does_not_fit_light.png"), ThemeKind::Light, notFit},
        {QStringLiteral("batching_short_context_dark.png"), ThemeKind::Dark, shortContext},
        {QStringLiteral("batching_tensor_parallel_light.png"), ThemeKind::Light, tensorParallel},
    };
    for (const Shot& shot : shots) {
        BatchingPanel panel;
        panel.setTheme(shot.theme);
        panel.setSession(loaded.value());
        panel.setInputs(shot.inputs);
        fixtures::layoutNow(panel, kSlide);
        const QImage image = fixtures::grabImage(panel);
        EXPECT_EQ(image.size(), kSlide);
        ASSERT_TRUE(image.save(fixtures::outputPath(shot.file))) << shot.file.toStdString();
        // The charts are in the theme's background, not the style's default.
        const QColor background = panel.throughputChart()->theme().background;
        const QPoint corner = panel.throughputChart()->mapTo(&panel, QPoint(4, 4));
        EXPECT_LT(fixtures::colorDistance(image.pixelColor(corner), background), 10) << shot.file.toStdString();
        const QPoint barCorner = panel.memoryBar()->mapTo(&panel, QPoint(2, 2));
        EXPECT_LT(fixtures::colorDistance(image.pixelColor(barCorner), background), 10) << shot.file.toStdString();
    }
    // The error state, for a look: the message where the numbers were.
    BatchingPanel panel;
    panel.setCustomGpu(0.0, 2.0, 80.0);
    fixtures::layoutNow(panel, kSlide);
    fixtures::grabImage(panel).save(fixtures::outputPath(QStringLiteral("batching_error_light.png")));
    EXPECT_FALSE(panel.errorText().isEmpty());
}

// The grid is painted behind the chart (AnnotatedChart::drawBackground), in the theme's colours: along the batch
// axis a major line at every power of 4 and a minor one at twice it, plain background between.
TEST(UiBatchingGrid, TheThroughputChartsGridLinesSitOnTheBatchAxissPowersInBothThemes)
{
    for (const ThemeKind kind : {ThemeKind::Light, ThemeKind::Dark}) {
        BatchingPanel panel;
        panel.setTheme(kind);
        // Batches up to about 250 fit at 512 tokens: no shading over the probed lines; the marker is at 10.
        InferenceRequest in = sourceTextInputs(QStringLiteral("h100-sxm"), 10);
        in.context = 512;
        panel.setInputs(in);
        fixtures::layoutNow(panel, kSlide);
        const QImage image = fixtures::grabImage(panel);
        const BatchThroughputChart* chart = panel.throughputChart();
        const ChartTheme& theme = chart->theme();
        const QRectF plot = chart->chart()->plotArea();
        // Three pixels above the batch axis, where no curve or label runs.
        const int y = chart->mapTo(&panel, chart->mapFromScene(chart->chart()->mapToScene(plot.bottomLeft()))).y() - 3;
        auto pixelAt = [&](double batch) {
            const int x = chart->mapTo(&panel, chart->viewportPosition({batch, 100.0})).x();
            return image.pixelColor(x, y);
        };
        for (const double power : {1.0, 4.0, 16.0, 64.0}) {
            const QColor major = pixelAt(power);
            const QColor minor = pixelAt(2.0 * power);
            const QColor between = pixelAt(1.4 * power);
            EXPECT_LT(fixtures::colorDistance(major, theme.grid), 12) << power << " " << major.name().toStdString();
            EXPECT_LT(fixtures::colorDistance(minor, theme.minorGrid), 12) << 2 * power;
            EXPECT_LT(fixtures::colorDistance(between, theme.plotBackground), 12) << 1.4 * power;
        }
    }
}

// No text covers other text on either chart, wherever the sliders are: the labels of the knee, the
// memory limit, the roofs and the batch marks are fixed, the current batch's move; at slide size and at
// the smallest size the window gives the panel. (Scene 5 once drew "B = 256: ..." over the knee label.)
TEST(UiBatchingLabels, NoTextOverlapsAnotherTextAcrossBatchAndContext)
{
    const auto overlapping = [](const std::vector<QRectF>& rects) -> std::optional<std::pair<QRectF, QRectF>> {
        for (std::size_t i = 0; i < rects.size(); ++i)
            for (std::size_t j = i + 1; j < rects.size(); ++j)
                if (rects[i].intersects(rects[j]))
                    return std::make_pair(rects[i], rects[j]);
        return std::nullopt;
    };
    const auto describe = [](const QRectF& r) {
        return QStringLiteral("(%1,%2 %3x%4)").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height()).toStdString();
    };
    for (const QSize size : {kSlide, QSize(1600, 1000), QSize(1280, 800)}) {
        BatchingPanel panel;
        InferenceRequest in = sourceTextInputs(QStringLiteral("h100-sxm"), 1);
        panel.setInputs(in);
        panel.setCustomGpu(300.0, 2.0, 80.0);  // the talk's GPU, as in scenes 4 to 6
        fixtures::layoutNow(panel, size);
        int checked = 0;
        for (const std::int64_t context : {1LL, 64LL, 8192LL, 131072LL}) {
            for (std::int64_t batch = 1; batch <= 4096; batch *= 4) {
                panel.setContext(context);
                panel.setBatch(batch);
                QCoreApplication::processEvents();
                ++checked;
                const std::string where = "size " + std::to_string(size.width()) + ", batch " + std::to_string(batch) +
                                          ", context " + std::to_string(context);
                const QStringList throughputTexts = panel.throughputChart()->texts();
                if (const auto hit = overlapping(panel.throughputChart()->textRects()))
                    ADD_FAILURE() << "throughput chart, " << where << ": " << describe(hit->first) << " and "
                                  << describe(hit->second) << " in " << joined(throughputTexts);
                if (const auto hit = overlapping(panel.rooflineChart()->textRects()))
                    ADD_FAILURE() << "roofline chart, " << where << ": " << describe(hit->first) << " and "
                                  << describe(hit->second) << " in " << joined(panel.rooflineChart()->texts());
                EXPECT_TRUE(containsText(
                    throughputTexts,
                    QStringLiteral("B = %1:").arg(batch == 1 ? QStringLiteral("1")
                                                             : QLocale(QLocale::English).toString(qlonglong(batch)))))
                    << where << ": the current batch is always labelled; " << joined(throughputTexts);
            }
        }
        EXPECT_EQ(checked, 4 * 7);
        // A laptop-sized panel stacks the two charts instead of squeezing them side by side.
        EXPECT_EQ(panel.chartsStacked(), size.width() < 1500) << size.width();
        if (panel.chartsStacked()) {
            EXPECT_GE(panel.throughputChart()->width(), 700);
            EXPECT_GT(panel.rooflineChart()->y(), panel.throughputChart()->geometry().bottom());
        }
    }
}
