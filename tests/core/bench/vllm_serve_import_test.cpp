// vLLM serving results (vllm bench serve / benchmark_serving.py --save-result), every version's keys.
#include "tests/core/bench/bench_test_support.h"

#include <QJsonObject>

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

using test::benchFixture;
using test::importError;
using test::importFixtureFile;
using test::nearly;
using test::qtJsonLine;
using test::replacedOnce;

const QString kSweep = QStringLiteral("vllm_bench_serve_2025_sweep.json");
const QString kColon = QStringLiteral("vllm_serve_2025_goodput_colon.json");
const QString kEarly = QStringLiteral("vllm_serve_2024_early.json");

TEST(VllmServeImport, AnAppendedSweepGivesOnePointPerRunWithTheFilesNumbers)
{
    const BenchImport imported = importFixtureFile(kSweep);
    EXPECT_EQ(imported.format, BenchFormat::VllmServe);
    EXPECT_EQ(imported.engine, QStringLiteral("vLLM"));
    EXPECT_EQ(imported.fileName, kSweep);
    ASSERT_EQ(imported.points.size(), 3u);
    EXPECT_TRUE(imported.skipped.empty());
    ASSERT_EQ(imported.versions.size(), 1);
    EXPECT_TRUE(imported.versions.front().contains(u"vllm bench serve, 2025"));
    const QByteArray bytes = benchFixture(kSweep);
    const std::int64_t caps[] = {1, 4, 16};
    for (int i = 0; i < 3; ++i) {
        const BenchPoint& point = imported.points[static_cast<std::size_t>(i)];
        const QJsonObject qt = qtJsonLine(bytes, i + 1);  // Qt's reader, as an independent reading of the line
        EXPECT_EQ(point.record, i + 1);
        EXPECT_EQ(point.line, i + 1);
        EXPECT_EQ(point.load, BenchLoad::Concurrency);
        EXPECT_EQ(point.concurrency, caps[i]);
        EXPECT_FALSE(point.requestRate);
        EXPECT_EQ(point.label, QStringLiteral("concurrency ") + QString::number(caps[i]));
        EXPECT_EQ(point.model, QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
        EXPECT_EQ(point.backend, QStringLiteral("openai"));
        EXPECT_EQ(point.requests, 8 * caps[i]);
        EXPECT_EQ(point.failedRequests, 0);
        EXPECT_EQ(point.inputTokens, 1024.0);  // total_input_tokens / completed
        EXPECT_EQ(point.outputTokens, 128.0);
        ASSERT_TRUE(point.outputTokensPerSecond);
        EXPECT_TRUE(nearly(*point.outputTokensPerSecond, qt[u"output_throughput"].toDouble()));
        EXPECT_TRUE(nearly(*point.ttft.median, qt[u"median_ttft_ms"].toDouble() / 1000));
        EXPECT_TRUE(nearly(*point.ttft.mean, qt[u"mean_ttft_ms"].toDouble() / 1000));
        EXPECT_TRUE(nearly(*point.tpot.p99, qt[u"p99_tpot_ms"].toDouble() / 1000));
        EXPECT_TRUE(nearly(*point.itl.median, qt[u"median_itl_ms"].toDouble() / 1000));
        EXPECT_TRUE(nearly(*point.latency.mean, qt[u"mean_e2el_ms"].toDouble() / 1000));
        ASSERT_TRUE(point.achievedConcurrency);  // Little's law from completed, mean E2E latency and duration
        EXPECT_TRUE(nearly(*point.achievedConcurrency, qt[u"completed"].toDouble() * qt[u"mean_e2el_ms"].toDouble() /
                                                           1000 / qt[u"duration"].toDouble()));
        EXPECT_NEAR(*point.achievedConcurrency, static_cast<double>(caps[i]), 0.05 * static_cast<double>(caps[i]));
        EXPECT_EQ(point.unknown, QStringList({QStringLiteral("GPU"), QStringLiteral("tensor parallel size"),
                                              QStringLiteral("weight format")}));
    }
    // The step gets slower as more sequences share it, and throughput still grows: a batch sweep.
    EXPECT_LT(*imported.points[0].itl.median, *imported.points[2].itl.median);
    EXPECT_LT(*imported.points[0].outputTokensPerSecond, *imported.points[2].outputTokensPerSecond);
}

TEST(VllmServeImport, TheStrayColonOfRequestGoodputAndMetadataKeysAreRead)
{
    const BenchImport imported = importFixtureFile(kColon);
    ASSERT_EQ(imported.points.size(), 1u);
    ASSERT_EQ(imported.versions.size(), 1);
    EXPECT_TRUE(imported.versions.front().contains(u"\"request_goodput:\" with a stray colon"));
    const BenchPoint& point = imported.points.front();
    const QJsonObject qt = qtJsonLine(benchFixture(kColon), 1);
    EXPECT_EQ(point.model, QStringLiteral("meta-llama/Llama-3.1-70B-Instruct"));
    EXPECT_EQ(point.gpu, QStringLiteral("H100-SXM5-80GB"));  // --metadata gpu=...
    EXPECT_EQ(point.tensorParallel, 4);                      // --metadata tp=4, a string in the file
    EXPECT_EQ(point.load, BenchLoad::Concurrency);
    EXPECT_EQ(point.concurrency, 32);
    EXPECT_EQ(point.inputTokens, 2048.0);
    EXPECT_EQ(point.outputTokens, 256.0);
    EXPECT_TRUE(nearly(*point.outputTokensPerSecond, qt[u"output_throughput"].toDouble()));
    EXPECT_TRUE(nearly(*point.itl.mean, qt[u"mean_itl_ms"].toDouble() / 1000));
    EXPECT_TRUE(point.latency.empty());  // e2el was not among --percentile-metrics
    EXPECT_FALSE(point.achievedConcurrency);
    EXPECT_EQ(point.unknown, QStringList{QStringLiteral("weight format")});
    EXPECT_TRUE(point.notes.join(u'\n').contains(u"GPU \"H100-SXM5-80GB\" read from the key \"gpu\""));
    EXPECT_TRUE(point.notes.join(u'\n').contains(u"tensor parallel size 4 read from the key \"tp\""));
}

TEST(VllmServeImport, EarlyTwentyTwentyFourFilesWithAFiniteRequestRate)
{
    const BenchImport imported = importFixtureFile(kEarly);
    ASSERT_EQ(imported.points.size(), 1u);
    EXPECT_TRUE(imported.versions.front().contains(u"request_inthroughput"));
    const BenchPoint& point = imported.points.front();
    const QJsonObject qt = qtJsonLine(benchFixture(kEarly), 1);
    EXPECT_EQ(point.load, BenchLoad::RequestRate);
    EXPECT_EQ(point.requestRate, 4.0);
    EXPECT_FALSE(point.concurrency);
    EXPECT_EQ(point.label, QStringLiteral("4 req/s"));
    EXPECT_EQ(point.model, QStringLiteral("meta-llama/Llama-2-7b-chat-hf"));
    EXPECT_TRUE(nearly(*point.tpot.median, qt[u"median_tpot_ms"].toDouble() / 1000));
    EXPECT_TRUE(point.itl.empty());  // no ITL before mid-2024
    EXPECT_FALSE(point.ttft.empty());
}

TEST(VllmServeImport, AnInfiniteRateWithoutACapIsAllAtOnceAndSaysTheEngineDecided)
{
    const QByteArray bytes =
        replacedOnce(benchFixture(kSweep).split('\n').front(), "\"max_concurrency\": 1,", "\"max_concurrency\": null,");
    const auto imported = importBenchBytes(bytes, QStringLiteral("run.json"));
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    const BenchPoint& point = imported.value().points.front();
    EXPECT_EQ(point.load, BenchLoad::AllAtOnce);
    EXPECT_EQ(point.label, QStringLiteral("all at once"));
    EXPECT_TRUE(point.notes.join(u'\n').contains(u"every request was sent at once (8 prompts)"));
}

// ---- malformed input: each refused with the file, the format, the line and column and the field.

QByteArray firstRun()
{
    return benchFixture(kSweep).split('\n').front();
}

TEST(VllmServeBadInput, AStringWhereANumberBelongs)
{
    const QString message =
        importError(replacedOnce(firstRun(), "\"completed\": 8,", "\"completed\": \"8\","), BenchFormat::VllmServe);
    EXPECT_TRUE(message.startsWith(u"run.json (vLLM serving result): line 1, column "));
    EXPECT_TRUE(message.contains(u"\"completed\" is the string \"8\"; expected a whole number"))
        << message.toStdString();
}

TEST(VllmServeBadInput, ANegativeDuration)
{
    QByteArray run = firstRun();
    const qsizetype at = run.indexOf("\"duration\": ") + 12;
    run.insert(at, '-');
    EXPECT_TRUE(importError(run, BenchFormat::VllmServe).contains(u"\"duration\" is negative"));
}

TEST(VllmServeBadInput, AFractionalCount)
{
    EXPECT_TRUE(
        importError(replacedOnce(firstRun(), "\"completed\": 8,", "\"completed\": 8.5,"), BenchFormat::VllmServe)
            .contains(u"\"completed\" is the number 8.5; expected a whole number"));
}

TEST(VllmServeBadInput, AnUnknownRequestRateWord)
{
    EXPECT_TRUE(importError(replacedOnce(firstRun(), "\"request_rate\": \"inf\"", "\"request_rate\": \"fast\""),
                            BenchFormat::VllmServe)
                    .contains(u"\"request_rate\" is the string \"fast\"; expected requests per second, \"inf\""));
}

TEST(VllmServeBadInput, AZeroConcurrencyCap)
{
    EXPECT_TRUE(importError(replacedOnce(firstRun(), "\"max_concurrency\": 1,", "\"max_concurrency\": 0,"),
                            BenchFormat::VllmServe)
                    .contains(u"\"max_concurrency\" is 0"));
}

TEST(VllmServeBadInput, NoCompletedCount)
{
    EXPECT_TRUE(importError(replacedOnce(firstRun(), "\"completed\": 8, ", ""), BenchFormat::VllmServe)
                    .contains(u"line 1, column 1: the object has no \"completed\""));
}

TEST(VllmServeBadInput, ARunThatIsNotAnObject)
{
    const QString message = importError(firstRun() + "\n[1, 2]\n", BenchFormat::VllmServe);
    EXPECT_TRUE(message.contains(u"line 2, column 1: run 2 is a list; a vLLM serving result is one JSON object"))
        << message.toStdString();
}

TEST(VllmServeBadInput, ATruncatedFile)
{
    const QByteArray run = firstRun();
    EXPECT_TRUE(importError(run.left(run.size() / 2), BenchFormat::VllmServe).contains(u"never closed"));
}

TEST(VllmServeBadInput, ADuplicatedKey)
{
    EXPECT_TRUE(importError(replacedOnce(firstRun(), "\"failed\": 0,", "\"failed\": 0, \"completed\": 9,"),
                            BenchFormat::VllmServe)
                    .contains(u"duplicate key completed"));
}

TEST(VllmServeBadInput, InfinityWhereAFiniteNumberBelongs)
{
    QByteArray run = firstRun();
    const qsizetype at = run.indexOf("\"duration\": ") + 12;
    run.replace(at, run.indexOf(',', at) - at, "Infinity");
    EXPECT_TRUE(importError(run, BenchFormat::VllmServe).contains(u"\"duration\" is Infinity"));
}

TEST(VllmServeBadInput, ALatencyBeyondAnyRealOne)
{
    QByteArray run = firstRun();
    const qsizetype at = run.indexOf("\"mean_ttft_ms\": ") + 16;
    run.replace(at, run.indexOf(',', at) - at, "1e15");
    EXPECT_TRUE(importError(run, BenchFormat::VllmServe).contains(u"\"mean_ttft_ms\" is 1e+15, beyond any real"));
}

TEST(VllmServeBadInput, ATensorParallelSizeThatIsNotANumber)
{
    EXPECT_TRUE(
        importError(replacedOnce(benchFixture(kColon), "\"tp\": \"4\"", "\"tp\": \"four\""), BenchFormat::VllmServe)
            .contains(u"\"tp\" is the string \"four\"; a tensor parallel size is a whole number"));
}

TEST(VllmServeBadInput, AnObjectOfAnotherTool)
{
    EXPECT_TRUE(importError(R"({"elapsed": 3, "tokens": 5})", BenchFormat::VllmServe)
                    .contains(u"run 1 has none of the keys of a vLLM serving result"));
}

TEST(VllmServeBadInput, AFileWhoseRunsAllFailedYieldsNothingAndSaysWhy)
{
    QByteArray run = replacedOnce(firstRun(), "\"completed\": 8,", "\"completed\": 0,");
    run = replacedOnce(run, "\"failed\": 0,", "\"failed\": 8,");
    const QString message = importError(run, BenchFormat::VllmServe);
    EXPECT_EQ(message, QStringLiteral("run.json (vLLM serving result): no measured point: run 1 (concurrency 1): no "
                                      "request completed (8 failed)"));
}

TEST(VllmServeSkips, ANanStatisticIsLeftOutAndSaid)
{
    QByteArray run = firstRun();
    const qsizetype at = run.indexOf("\"mean_ttft_ms\": ") + 16;
    run.replace(at, run.indexOf(',', at) - at, "NaN");
    const auto imported = importBenchBytes(run, QStringLiteral("run.json"), BenchFormat::VllmServe);
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    const BenchPoint& point = imported.value().points.front();
    EXPECT_FALSE(point.ttft.mean);
    EXPECT_TRUE(point.ttft.median);
    EXPECT_TRUE(point.notes.join(u'\n').contains(u"mean_ttft_ms is NaN in the file (no value"));
}

TEST(VllmServeSkips, RampUpAndPoolingRunsAreSkippedWithTheirReasonsWhileOthersImport)
{
    const QByteArray ramp =
        replacedOnce(firstRun(), "\"burstiness\": 1.0,", "\"burstiness\": 1.0, \"ramp_up_strategy\": \"linear\",");
    const QByteArray pooling =
        R"({"date": "20251104-091200", "backend": "openai-embeddings", "model_id": "BAAI/bge-m3", "request_rate": "inf", )"
        R"("max_concurrency": null, "duration": 2.0, "completed": 10, "total_input_tokens": 5120, )"
        R"("total_input_sequences": 10, "request_throughput": 5.0, "input_sequence_throughput": 5.0, )"
        R"("total_token_throughput": 2560.0, "mean_e2el_ms": 40.0, "median_e2el_ms": 39.0, "std_e2el_ms": 2.0, "p99_e2el_ms": 45.0})";
    const QByteArray lines = ramp + "\n" + pooling + "\n" + benchFixture(kSweep).split('\n')[1];
    const auto imported = importBenchBytes(lines, QStringLiteral("mixed.json"));
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    ASSERT_EQ(imported.value().points.size(), 1u);
    EXPECT_EQ(imported.value().points.front().record, 3);
    ASSERT_EQ(imported.value().skipped.size(), 2u);
    EXPECT_EQ(imported.value().skipped[0].record, 1);
    EXPECT_TRUE(imported.value().skipped[0].reason.contains(u"ramps up during the run"));
    EXPECT_EQ(imported.value().skipped[1].line, 2);
    EXPECT_TRUE(imported.value().skipped[1].reason.contains(u"an embedding (pooling) benchmark"));
}

}  // namespace
}  // namespace ridgeline
