// `ridgeline calibrate`: the real executable on the benchmark fixtures.
#include "tests/app/cli_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "core/session/session_json.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace ridgeline
