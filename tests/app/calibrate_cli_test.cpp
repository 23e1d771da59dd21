// `ridgeline calibrate`: the real executable on the benchmark fixtures.
#include "tests/app/cli_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "core/session/format/session_json.h"

#include <gtest/gtest.h>

#include <cmath>

namespace ridgeline {
namespace {

using test::runRidgeline;

QString fixture(const char* name)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bench/") + QLatin1String(name);
}

TEST(CalibrateCli, FitsAServingSweepAndPrintsTheTermsAndEachRunsPrediction)
{
    const auto run = runRidgeline({QStringLiteral("calibrate"), fixture("vllm_bench_serve_2025_sweep.json"),
                                   QStringLiteral("--gpu"), QStringLiteral("h100-sxm"), QStringLiteral("--tp"),
                                   QStringLiteral("1"), QStringLiteral("--weights"), QStringLiteral("bf16")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.err.isEmpty()) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(u"vllm_bench_serve_2025_sweep.json: vLLM serving result, 3 runs"));
    EXPECT_TRUE(run.out.contains(u"Model Llama 3.1 8B on NVIDIA H100 SXM5 80GB, bf16 weights, bf16 KV cache"));
    EXPECT_TRUE(run.out.contains(u"Fit: least squares on the log error, 6 measured figures"));
    EXPECT_TRUE(run.out.contains(u"layer_seconds"));
    EXPECT_TRUE(run.out.contains(u"Predicted vs measured: vllm_bench_serve_2025_sweep.json"));
    for (const char* row : {"  1 concurrency 1   serving_tpot_s", "  3 concurrency 16  serving_tokens_per_s"})
        EXPECT_TRUE(run.out.contains(QLatin1String(row))) << row << '\n' << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(u"serving_tpot_s"));
    EXPECT_TRUE(run.out.contains(u"serving_tokens_per_s"));
    EXPECT_FALSE(run.out.contains(u"nan")) << run.out.toStdString();
    EXPECT_FALSE(run.out.contains(u"inf ")) << run.out.toStdString();
}

TEST(CalibrateCli, JsonHasEveryPointWithMeasuredAndPredictedValuesAndTheFitImprovesThem)
{
    const auto run =
        runRidgeline({QStringLiteral("calibrate"), fixture("vllm_bench_serve_2025_sweep.json"), QStringLiteral("--gpu"),
                      QStringLiteral("h100-sxm"), QStringLiteral("--tp"), QStringLiteral("1"),
                      QStringLiteral("--weights"), QStringLiteral("bf16"), QStringLiteral("--json")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const QJsonObject fit = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const QJsonArray points = fit[u"points"].toArray();
    ASSERT_EQ(points.size(), 6);
    for (const QJsonValue& value : points) {
        const QJsonObject p = value.toObject();
        EXPECT_GT(p[u"measured"].toDouble(), 0);
        EXPECT_GT(p[u"predicted"].toDouble(), 0);
        EXPECT_GT(p[u"predicted_before"].toDouble(), 0);
        EXPECT_EQ(p[u"model"].toString(), QStringLiteral("llama-3.1-8b"));
        EXPECT_NEAR(p[u"relative_error"].toDouble(), p[u"predicted"].toDouble() / p[u"measured"].toDouble() - 1, 1e-9);
    }
    EXPECT_EQ(points[4].toObject()[u"batch"].toInt(), 16);
    EXPECT_LE(fit[u"after"][u"rms_log_error"].toDouble(), fit[u"before"][u"rms_log_error"].toDouble());
    EXPECT_TRUE(fit[u"terms"].toObject().contains(u"layer_seconds"));
    EXPECT_EQ(fit[u"files"].toArray()[0].toObject()[u"format"].toString(), QStringLiteral("vllm-serve"));
}

TEST(CalibrateCli, MissingFactsAreAskedForByOptionWithExitTwo)
{
    const auto run = runRidgeline({QStringLiteral("calibrate"), fixture("vllm_latency_2025.json")});
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.out.isEmpty());
    EXPECT_TRUE(run.err.startsWith(
        u"ridgeline calibrate: vllm_latency_2025.json: the file does not record the model, the GPU, the tensor "
        "parallel size, the weight format, the batch size, the input length, the output length; give --model ID, "
        "--gpu ID, --tp N, --weights FORMAT, --batch N, --input-len N, --output-len N"))
        << run.err.toStdString();
}

TEST(CalibrateCli, ALatencyRunWithItsShapeGiven)
{
    const auto run = runRidgeline(
        {QStringLiteral("calibrate"), fixture("vllm_latency_2025.json"), QStringLiteral("--model"),
         QStringLiteral("llama-3.1-8b"), QStringLiteral("--gpu"), QStringLiteral("h100-sxm"), QStringLiteral("--tp"),
         QStringLiteral("1"), QStringLiteral("--weights"), QStringLiteral("bf16"), QStringLiteral("--batch"),
         QStringLiteral("8"), QStringLiteral("--input-len"), QStringLiteral("32"), QStringLiteral("--output-len"),
         QStringLiteral("128"), QStringLiteral("--fit"), QStringLiteral("layer_seconds")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(u"e2e_latency_s"));
    EXPECT_TRUE(run.out.contains(u"1 measured figures, 1 free terms"));
}

TEST(CalibrateCli, BadFilesAndBadOptionsAreRefusedByName)
{
    const auto missing = runRidgeline({QStringLiteral("calibrate"), QStringLiteral("/nonexistent/run.json")});
    EXPECT_EQ(missing.exitCode, 1);
    EXPECT_EQ(missing.err, QStringLiteral("ridgeline calibrate: /nonexistent/run.json: no such file\n"));
    const auto term = runRidgeline({QStringLiteral("calibrate"), fixture("llama_bench_2025.csv"),
                                    QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"), QStringLiteral("--fit"),
                                    QStringLiteral("layer_seconds,warp_speed")});
    EXPECT_EQ(term.exitCode, 2);
    EXPECT_TRUE(term.err.contains(u"--fit: \"warp_speed\" is no engine term")) << term.err.toStdString();
    const auto tp = runRidgeline(
        {QStringLiteral("calibrate"), fixture("llama_bench_2025.csv"), QStringLiteral("--tp"), QStringLiteral("zero")});
    EXPECT_EQ(tp.exitCode, 2);
    EXPECT_TRUE(tp.err.contains(u"--tp must be a whole number from 1 to 4096, got \"zero\""));
    const auto format = runRidgeline({QStringLiteral("calibrate"), fixture("llama_bench_2025.csv"),
                                      QStringLiteral("--format"), QStringLiteral("vllm")});
    EXPECT_EQ(format.exitCode, 2);
    EXPECT_TRUE(format.err.contains(u"--format: \"vllm\" is none of"));
    const auto none = runRidgeline({QStringLiteral("calibrate")});
    EXPECT_EQ(none.exitCode, 2);
    const auto wrong = runRidgeline({QStringLiteral("calibrate"), fixture("llama_bench_2025.csv"),
                                     QStringLiteral("--format"), QStringLiteral("guidellm")});
    EXPECT_EQ(wrong.exitCode, 1);
    EXPECT_TRUE(wrong.err.startsWith(u"ridgeline calibrate: llama_bench_2025.csv (GuideLLM report): line 1, column 1:"))
        << wrong.err.toStdString();
}

TEST(CalibrateCli, LlamaBenchCsvWithTheModelGivenUsesTheRecordedGpuAndFormat)
{
    const auto run =
        runRidgeline({QStringLiteral("calibrate"), fixture("llama_bench_2025.csv"), QStringLiteral("--model"),
                      QStringLiteral("llama-3.1-8b"), QStringLiteral("--json")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const QJsonObject fit = QJsonDocument::fromJson(run.out.toUtf8()).object();
    const QJsonArray points = fit[u"points"].toArray();
    ASSERT_EQ(points.size(), 3);
    EXPECT_EQ(points[0].toObject()[u"gpu"].toString(), QStringLiteral("rtx-4090"));
    EXPECT_EQ(points[0].toObject()[u"weights_precision"].toString(), QStringLiteral("int4"));
    EXPECT_EQ(points[0].toObject()[u"quantity"].toString(), QStringLiteral("ttft_s"));
    EXPECT_EQ(points[1].toObject()[u"quantity"].toString(), QStringLiteral("decode_tokens_per_s"));
    ASSERT_EQ(fit[u"not_fitted"].toArray().size(), 1);
}

TEST(CalibrateCli, OutWritesASessionWithTheFitAndIntoAddsItToACopy)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString first = dir.filePath(QStringLiteral("calibrated.json"));
    const auto run =
        runRidgeline({QStringLiteral("calibrate"), fixture("llama_bench_2025.json"), QStringLiteral("--model"),
                      QStringLiteral("llama-3.1-8b"), QStringLiteral("--out"), first});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(
        run.out.contains(QStringLiteral("Wrote ") + first + QStringLiteral(" (the fit, its terms and 3 residuals)")));
    const auto saved = loadSession(first);
    ASSERT_TRUE(saved.ok()) << saved.error().message.toStdString();
    ASSERT_EQ(saved.value().calibrations.size(), 1u);
    EXPECT_EQ(saved.value().calibrations[0].points.size(), 3u);
    EXPECT_TRUE(saved.value().calibrations[0].generator.endsWith(u" calibrate"));

    const QByteArray before = [&] {
        QFile file(first);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    const QString second = dir.filePath(QStringLiteral("both.json"));
    const auto added =
        runRidgeline({QStringLiteral("calibrate"), fixture("llama_bench_2025.csv"), QStringLiteral("--model"),
                      QStringLiteral("llama-3.1-8b"), QStringLiteral("--into"), first, QStringLiteral("--out"), second,
                      QStringLiteral("--json")});
    ASSERT_EQ(added.exitCode, 0) << added.err.toStdString();
    EXPECT_TRUE(QJsonDocument::fromJson(added.out.toUtf8()).isObject());  // --json output stays pure JSON
    const auto both = loadSession(second);
    ASSERT_TRUE(both.ok());
    EXPECT_EQ(both.value().calibrations.size(), 2u);
    QFile file(first);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), before);  // --into is only read

    const auto alone =
        runRidgeline({QStringLiteral("calibrate"), fixture("llama_bench_2025.csv"), QStringLiteral("--into"), first});
    EXPECT_EQ(alone.exitCode, 2);
    EXPECT_TRUE(alone.err.contains(u"--into needs --out"));
    const auto nowhere = runRidgeline({QStringLiteral("calibrate"), fixture("llama_bench_2025.csv"),
                                       QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
                                       QStringLiteral("--out"), dir.filePath(QStringLiteral("no/such/folder/x.json"))});
    EXPECT_EQ(nowhere.exitCode, 1);
    EXPECT_TRUE(nowhere.err.startsWith(u"ridgeline calibrate: ")) << nowhere.err.toStdString();
    EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("no/such/folder/x.json"))));
    const auto badBase =
        runRidgeline({QStringLiteral("calibrate"), fixture("llama_bench_2025.csv"), QStringLiteral("--into"),
                      QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bad/calibration_measured_zero.json"),
                      QStringLiteral("--out"), second});
    EXPECT_EQ(badBase.exitCode, 1);
    EXPECT_TRUE(badBase.err.contains(u"calibrations[0].points[1].measured must be above 0"));
}

// Five benchmark_latency.py files, one per batch size, as a user runs them: published vLLM latencies on 8 x MI300X
// (tests/data/README.md, "latency_sweep_mi300x"). The output shows the model's curve along the batch before and
// after the fit, through the measured points and at the batches between them.
QStringList latencySweep()
{
    QStringList arguments{QStringLiteral("calibrate")};
    for (int batch : {1, 4, 16, 64, 128})
        arguments << QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bench/latency_sweep_mi300x/batch_%1.json").arg(batch);
    arguments << QStringLiteral("--model") << QStringLiteral("llama-3.1-70b") << QStringLiteral("--gpu")
              << QStringLiteral("mi300x") << QStringLiteral("--tp") << QStringLiteral("8")
              << QStringLiteral("--weights") << QStringLiteral("fp8") << QStringLiteral("--kv") << QStringLiteral("fp8")
              << QStringLiteral("--batch") << QStringLiteral("1,4,16,64,128") << QStringLiteral("--input-len")
              << QStringLiteral("128") << QStringLiteral("--output-len") << QStringLiteral("2048");
    return arguments;
}

TEST(CalibrateCli, FiveFilesAtFiveBatchSizesShowTheModelsCurveBeforeAndAfterTheFit)
{
    const auto run = runRidgeline(latencySweep());
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(
        run.out.contains(u"Model Llama 3.1 70B on AMD Instinct MI300X x8, fp8 weights, fp8 KV cache (5 figures)"))
        << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(u"  batch_16.json: one batch   e2e_latency_s")) << run.out.toStdString();
    EXPECT_TRUE(
        run.out.contains(u"Model curve: e2e_latency_s (median latency) vs batch, Llama 3.1 70B on AMD "
                         "Instinct MI300X x8, fp8 weights, fp8 KV cache, prompt 128, output 2048"))
        << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(u"  from batch_1.json ... batch_128.json (5 files)"));
    // A row per batch: measured ones with their residual, the batches between with "-" for measured.
    EXPECT_TRUE(run.out.contains(u"\n        1      17.24 s      20.75 s")) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(u"\n        2            -      20.87 s")) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(u"\n      256            -")) << run.out.toStdString();
    // The note every file shares is said once, with the files.
    EXPECT_EQ(run.out.count(u"benchmark_latency.py records no batch size"), 1) << run.out.toStdString();

    const QStringList json = latencySweep() << QStringLiteral("--json");
    const auto fitted = runRidgeline(json);
    ASSERT_EQ(fitted.exitCode, 0) << fitted.err.toStdString();
    const QJsonObject fit = QJsonDocument::fromJson(fitted.out.toUtf8()).object();
    const QJsonArray curves = fit[u"curves"].toArray();
    ASSERT_EQ(curves.size(), 1);
    const QJsonObject curve = curves[0].toObject();
    EXPECT_EQ(curve[u"quantity"].toString(), QStringLiteral("e2e_latency_s"));
    EXPECT_EQ(curve[u"files"].toArray().size(), 5);
    const QJsonArray samples = curve[u"samples"].toArray();
    ASSERT_EQ(samples.size(), 9);  // 1, 2, 4, ... 256
    int measured = 0;
    for (const QJsonValue& value : samples) {
        const QJsonObject sample = value.toObject();
        ASSERT_TRUE(sample.contains(u"predicted")) << sample[u"not_predicted"].toString().toStdString();
        if (!sample.contains(u"measured"))
            continue;
        ++measured;
        const double m = sample[u"measured"].toDouble();
        EXPECT_LT(std::fabs(sample[u"predicted"].toDouble() / m - 1), 0.04) << sample[u"batch"].toInt();
    }
    EXPECT_EQ(measured, 5);
    // Published but not given to the fit: batch 8 took 19.677 s.
    EXPECT_EQ(samples[3].toObject()[u"batch"].toInt(), 8);
    EXPECT_NEAR(samples[3].toObject()[u"predicted"].toDouble() / 19.677, 1.0, 0.02);
    EXPECT_GT(std::fabs(samples[3].toObject()[u"predicted_before"].toDouble() / 19.677 - 1), 0.05);
}

TEST(CalibrateCli, PerFileFactsNeedOneValueOrOnePerFile)
{
    QStringList arguments = latencySweep();
    arguments[arguments.indexOf(QStringLiteral("1,4,16,64,128"))] = QStringLiteral("1,4,16");
    const auto run = runRidgeline(arguments);
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(
        run.err.startsWith(u"ridgeline calibrate: --batch gives 3 values for 5 files: give one for every "
                           "file, or one per file in order"))
        << run.err.toStdString();
    arguments[arguments.indexOf(QStringLiteral("1,4,16"))] = QStringLiteral("1,4,x,64,128");
    const auto bad = runRidgeline(arguments);
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(
        bad.err.contains(u"--batch must be a whole number from 1 to 65536 (or one per file, comma-separated), "
                         "got \"x\""))
        << bad.err.toStdString();
}

}  // namespace
}  // namespace ridgeline
