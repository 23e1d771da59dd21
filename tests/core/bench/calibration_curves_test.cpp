// The model's curves through a calibration's points: a user who measured five batch sizes sees
// the fitted curve bend through them, and between them it gives what the engine did at batches it was not fitted on.
#include "core/bench/calibration/calibration_curves.h"
#include "core/bench/calibration/calibration_points.h"
#include "core/bench/calibration/calibration_record_builder.h"
#include "core/model/llm/llm_model.h"
#include "core/session/format/session_json.h"
#include "tests/core/bench/bench_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

namespace ridgeline {
namespace {

using test::importFixtureFile;

// vLLM 0.10.0 benchmark_latency.py on 8 x MI300X, Llama 3.1 70B FP8 with an FP8 KV cache, TP 8, 128 tokens in and
// 2048 out: ROCm/vllm docs/dev-docker/README.md @040de12d, "Latency Measurements". tests/data/bench/
// latency_sweep_mi300x/ holds five of its batch sizes; these three were not given to the fit.
constexpr std::pair<std::int64_t, double> kMeasured[] = {
    {1, 17.236}, {4, 18.450}, {16, 22.072}, {64, 33.287}, {128, 46.484}};
constexpr std::pair<std::int64_t, double> kHeldOut[] = {{2, 18.057}, {8, 19.677}, {32, 24.932}};

double relative(double value, double reference)
{
    return value / reference - 1.0;
}

// What `ridgeline calibrate batch_1.json ... batch_128.json --batch 1,4,16,64,128 ...` keeps in the session.
Calibration fitTheSweep()
{
    std::vector<BenchImport> imports;
    std::vector<RunFacts> facts;
    for (const auto& [batch, seconds] : kMeasured) {
        imports.push_back(
            importFixtureFile(QStringLiteral("latency_sweep_mi300x/batch_%1.json").arg(batch), BenchFormat::Auto));
        RunFacts f;
        f.modelId = QStringLiteral("llama-3.1-70b");
        f.gpuId = QStringLiteral("mi300x");
        f.tensorParallel = 8;
        f.weights = NumberFormat::Fp8;
        f.kv = NumberFormat::Fp8;
        f.batch = batch;
        f.inputTokens = 128;
        f.outputTokens = 2048;
        facts.push_back(f);
    }
    const auto points = calibrationPointsPerFile(imports, facts);
    EXPECT_TRUE(points.ok()) << points.error().message.toStdString();
    if (!points)
        return {};
    const EngineTerms start = EngineTerms::measured();
    const auto before = evaluatePoints(points.value().points, start);
    FitOptions options;
    options.priorWeight = kUserFitPriorWeight;
    const auto fit = fitEngineTerms(points.value().points, start, options);
    EXPECT_TRUE(before.ok() && fit.ok());
    if (!before || !fit)
        return {};
    return calibrationRecord(imports, points.value(), start, fit.value(), before.value(), QStringLiteral("test"));
}

TEST(CalibrationCurves, FiveMeasuredBatchSizesAreOneCurveThatBendsThroughThemAndPredictsTheBatchesBetween)
{
    const Calibration calibration = fitTheSweep();
    ASSERT_EQ(calibration.points.size(), 5u);
    const std::vector<CalibrationSeries> series = calibrationSeries(calibration);
    ASSERT_EQ(series.size(), 1u);  // five files, one setup: one curve
    EXPECT_EQ(series[0].files.size(), 5);
    EXPECT_EQ(series[0].quantity, MeasuredQuantity::EndToEnd);
    EXPECT_EQ(series[0].batches, (std::vector<std::int64_t>{1, 4, 16, 64, 128}));
    const std::vector<std::int64_t> batches = curveBatches(series[0]);
    EXPECT_EQ(batches, (std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256}));

    const auto curve = seriesCurve(calibration, series[0], batches);
    ASSERT_TRUE(curve.ok()) << curve.error().message.toStdString();
    ASSERT_EQ(curve.value().size(), batches.size());
    double worstBefore = 0, worstAfter = 0;
    for (const CurveSample& sample : curve.value()) {
        SCOPED_TRACE(sample.batch);
        ASSERT_TRUE(sample.before && sample.after) << sample.refused.toStdString();
        EXPECT_TRUE(sample.fitsInMemory);
        for (const auto& [batch, seconds] : kMeasured) {
            if (batch != sample.batch)
                continue;
            ASSERT_TRUE(sample.measured);
            EXPECT_DOUBLE_EQ(*sample.measured, seconds);
            worstBefore = std::max(worstBefore, std::fabs(relative(*sample.before, seconds)));
            worstAfter = std::max(worstAfter, std::fabs(relative(*sample.after, seconds)));
        }
        for (const auto& [batch, seconds] : kHeldOut) {
            if (batch != sample.batch)
                continue;
            EXPECT_FALSE(sample.measured);  // not in the files
            // Between the measured batches the fitted curve gives what the engine did (the defaults miss batch 2
            // by 13 % and batch 8 by 8 %).
            EXPECT_LT(std::fabs(relative(*sample.after, seconds)), 0.02) << *sample.after << " s vs " << seconds;
        }
    }
    EXPECT_GT(worstBefore, 0.15);  // the defaults: +17 % at batch 1, -18 % at 128 (flatter than this engine)
    EXPECT_LT(worstAfter, 0.04);   // the fitted curve bends through every measured point
    // Where the points are, the curve is the stored prediction: the table and the window show the same figure.
    for (std::size_t i : series[0].points) {
        const CalibrationPoint& point = calibration.points[i];
        const auto at = std::find(batches.begin(), batches.end(), point.batch) - batches.begin();
        EXPECT_TRUE(test::nearly(*curve.value()[static_cast<std::size_t>(at)].after, point.predicted));
        EXPECT_TRUE(test::nearly(*curve.value()[static_cast<std::size_t>(at)].before, point.predictedBefore));
    }
}

TEST(CalibrationCurves, ASavedAndLoadedSessionRedrawsTheSameCurve)
{
    const Calibration calibration = fitTheSweep();
    ASSERT_FALSE(calibration.points.empty());
    const auto loaded = sessionFromJson(sessionToJson(sessionWithCalibration(std::nullopt, calibration)),
                                        QStringLiteral("calibrated.json"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    const Calibration& stored = loaded.value().calibrations.front();
    const auto series = calibrationSeries(stored);
    ASSERT_EQ(series.size(), 1u);
    const auto fresh = seriesCurve(calibration, calibrationSeries(calibration).front(), curveBatches(series[0]));
    const auto redrawn = seriesCurve(stored, series[0], curveBatches(series[0]));
    ASSERT_TRUE(fresh.ok() && redrawn.ok());
    for (std::size_t i = 0; i < fresh.value().size(); ++i) {
        EXPECT_TRUE(test::nearly(*redrawn.value()[i].after, *fresh.value()[i].after));
        EXPECT_TRUE(test::nearly(*redrawn.value()[i].before, *fresh.value()[i].before));
    }
}

TEST(CalibrationCurves, SetupsAreKeptApartAndOneBatchIsAOnePointSeries)
{
    const auto session = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/calibrated.json"));
    ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
    const Calibration& calibration = session.value().calibrations.front();
    // pp512 (a TTFT), tg128 after 1 token and tg128 after 4096: three setups of llama-bench, each at batch 1.
    const auto series = calibrationSeries(calibration);
    ASSERT_EQ(series.size(), 3u);
    EXPECT_EQ(series[0].quantity, MeasuredQuantity::Ttft);
    EXPECT_EQ(series[1].quantity, MeasuredQuantity::StaticDecodeRate);
    EXPECT_EQ(series[2].quantity, MeasuredQuantity::StaticDecodeRate);
    EXPECT_NE(series[1].setup.prompt, series[2].setup.prompt);
    for (const CalibrationSeries& s : series) {
        EXPECT_EQ(s.batches, (std::vector<std::int64_t>{1}));
        EXPECT_EQ(curveBatches(s), (std::vector<std::int64_t>{1, 2}));
        const auto curve = seriesCurve(calibration, s, {1});
        ASSERT_TRUE(curve.ok()) << curve.error().message.toStdString();
        EXPECT_TRUE(test::nearly(*curve.value()[0].after, calibration.points[s.points[0]].predicted));
    }
}

TEST(CalibrationCurves, TheBatchesStopAtTheModelsLimitAndAnUnknownModelStopsTheSeriesByName)
{
    Calibration calibration =
        loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/calibrated.json")).value().calibrations.front();
    calibration.points[1].batch = kMaxBatch;
    auto series = calibrationSeries(calibration);
    ASSERT_EQ(series.size(), 3u);
    EXPECT_EQ(curveBatches(series[1]).back(), kMaxBatch);
    EXPECT_EQ(curveBatches(series[1]).front(), kMaxBatch / 2);

    calibration.points[1].model = QStringLiteral("no-such-model");
    series = calibrationSeries(calibration);
    ASSERT_EQ(series.size(), 3u);
    const auto curve = seriesCurve(calibration, series[1], {1, 2});
    ASSERT_FALSE(curve.ok());
    EXPECT_TRUE(curve.error().message.startsWith(calibration.points[1].id + QStringLiteral(": ")))
        << curve.error().message.toStdString();
}

}  // namespace
}  // namespace ridgeline
