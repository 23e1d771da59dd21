// SGLang bench_serving JSON Lines: the mid-2024 short record, late 2024 and 2025 (server_info) records.
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

TEST(SglangImport, MidTwentyTwentyFourShortRecordsWithAnInfiniteRate)
{
    const BenchImport imported = importFixtureFile(QStringLiteral("sglang_2024_short.jsonl"));
    EXPECT_EQ(imported.format, BenchFormat::SglangServe);
    EXPECT_EQ(imported.engine, QStringLiteral("SGLang"));
    ASSERT_EQ(imported.points.size(), 2u);
    EXPECT_TRUE(imported.versions.front().contains(u"mid-2024"));
    const BenchPoint& all = imported.points[0];
    EXPECT_EQ(all.load, BenchLoad::AllAtOnce);  // "request_rate": Infinity, a bare token
    EXPECT_TRUE(all.notes.join(u'\n').contains(u"every request was sent at once"));
    const BenchPoint& rate = imported.points[1];
    EXPECT_EQ(rate.load, BenchLoad::RequestRate);
    EXPECT_EQ(rate.requestRate, 8.0);
    const QJsonObject qt = qtJsonLine(benchFixture(QStringLiteral("sglang_2024_short.jsonl")), 2);
    EXPECT_TRUE(nearly(*rate.itl.median, qt[u"median_itl_ms"].toDouble() / 1000));
    EXPECT_FALSE(rate.itl.mean);  // the short record has only the median
    EXPECT_TRUE(nearly(*rate.inputTokens, qt[u"total_input_tokens"].toDouble() / qt[u"completed"].toDouble()));
    EXPECT_TRUE(nearly(*rate.outputTokensPerSecond, qt[u"output_throughput"].toDouble()));
    // No dataset_name in the short record: the range-ratio note needs to know the dataset was random.
    EXPECT_FALSE(rate.notes.join(u'\n').contains(u"random_range_ratio"));
    EXPECT_EQ(rate.unknown, QStringList({QStringLiteral("model"), QStringLiteral("GPU"),
                                         QStringLiteral("tensor parallel size"), QStringLiteral("weight format")}));
}

TEST(SglangImport, LateTwentyTwentyFourSweepOfConcurrencyCaps)
{
    const QString name = QStringLiteral("sglang_2024_late.jsonl");
    const BenchImport imported = importFixtureFile(name);
    ASSERT_EQ(imported.points.size(), 3u);
    EXPECT_TRUE(imported.versions.front().contains(u"late 2024"));
    const std::int64_t caps[] = {8, 32, 64};
    for (int i = 0; i < 3; ++i) {
        const BenchPoint& point = imported.points[static_cast<std::size_t>(i)];
        EXPECT_EQ(point.load, BenchLoad::Concurrency);
        EXPECT_EQ(point.concurrency, caps[i]);
        EXPECT_EQ(point.label, QStringLiteral("concurrency ") + QString::number(caps[i]));
        ASSERT_TRUE(point.achievedConcurrency);  // SGLang's own "concurrency"
        EXPECT_LE(*point.achievedConcurrency, static_cast<double>(caps[i]));
        ASSERT_TRUE(point.tpot.mean && point.itl.mean && point.latency.p99);
        // random_range_ratio 0.5: the real lengths are means, below random_input_len 1024 / random_output_len 256.
        EXPECT_GT(*point.inputTokens, 512.0);
        EXPECT_LT(*point.inputTokens, 1024.0);
        EXPECT_TRUE(point.notes.join(u'\n').contains(u"random_range_ratio 0.5"));
        EXPECT_FALSE(point.acceptLength);  // null: no speculative decoding
    }
}

TEST(SglangImport, TwentyTwentyFiveServerInfoGivesModelTensorParallelAndPrecision)
{
    const BenchImport imported = importFixtureFile(QStringLiteral("sglang_2025.jsonl"));
    ASSERT_EQ(imported.points.size(), 2u);
    EXPECT_TRUE(imported.versions.front().contains(u"server_info"));
    const BenchPoint& point = imported.points[1];
    EXPECT_EQ(point.model, QStringLiteral("Qwen/Qwen2.5-32B-Instruct"));
    EXPECT_EQ(point.tensorParallel, 2);
    EXPECT_EQ(point.weightFormat, QStringLiteral("fp8"));  // quantization wins over dtype "auto"
    EXPECT_EQ(point.kvFormat, QStringLiteral("auto"));
    EXPECT_EQ(point.label, QStringLiteral("concurrency 48 [qwen32b-fp8-tp2]"));
    EXPECT_TRUE(point.notes.join(u'\n').contains(u"SGLang 0.4.9.post2"));
    EXPECT_EQ(point.unknown, QStringList{QStringLiteral("GPU")});
}

// ---- malformed input

QByteArray lateRun()
{
    return benchFixture(QStringLiteral("sglang_2024_late.jsonl")).split('\n').front();
}

TEST(SglangBadInput, AStringThroughput)
{
    QByteArray run = lateRun();
    const qsizetype at = run.indexOf("\"output_throughput\": ") + 21;
    run.replace(at, run.indexOf(',', at) - at, "\"fast\"");
    const QString message = importError(run, BenchFormat::SglangServe, QStringLiteral("s.jsonl"));
    EXPECT_TRUE(message.startsWith(u"s.jsonl (SGLang bench_serving JSONL): line 1, column "));
    EXPECT_TRUE(message.contains(u"\"output_throughput\" is the string \"fast\"; expected tokens per second"));
}

TEST(SglangBadInput, ANegativeConcurrency)
{
    QByteArray run = lateRun();
    run.insert(run.indexOf("\"concurrency\": ") + 15, '-');
    EXPECT_TRUE(importError(run, BenchFormat::SglangServe).contains(u"\"concurrency\" is negative"));
}

TEST(SglangBadInput, AZeroRequestRate)
{
    EXPECT_TRUE(importError(replacedOnce(lateRun(), "\"request_rate\": Infinity", "\"request_rate\": 0"),
                            BenchFormat::SglangServe)
                    .contains(u"\"request_rate\" is 0"));
}

TEST(SglangBadInput, ATensorParallelSizeOfZero)
{
    const QByteArray run = benchFixture(QStringLiteral("sglang_2025.jsonl")).split('\n').front();
    EXPECT_TRUE(importError(replacedOnce(run, "\"tp_size\": 2", "\"tp_size\": 0"), BenchFormat::SglangServe)
                    .contains(u"\"server_info.tp_size\" is 0"));
}

TEST(SglangBadInput, ServerInfoThatIsAString)
{
    const QByteArray run = benchFixture(QStringLiteral("sglang_2025.jsonl")).split('\n').front();
    const qsizetype at = run.indexOf("\"server_info\": ") + 15;
    QByteArray edited = run;
    edited.replace(at, run.indexOf("}, \"duration\"") + 1 - at, "\"up\"");
    EXPECT_TRUE(importError(edited, BenchFormat::SglangServe)
                    .contains(u"\"server_info\" is the string \"up\"; expected an object"));
}

TEST(SglangBadInput, NaNDurationIsNotAnError)
{
    // A NaN statistic is no value; the run still has its throughput and latencies.
    QByteArray run = lateRun();
    const qsizetype at = run.indexOf("\"duration\": ") + 12;
    run.replace(at, run.indexOf(',', at) - at, "NaN");
    const auto imported = importBenchBytes(run, QStringLiteral("s.jsonl"), BenchFormat::SglangServe);
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    EXPECT_TRUE(imported.value().points.front().notes.join(u'\n').contains(u"duration is NaN"));
}

TEST(SglangBadInput, NoCompletedCount)
{
    QByteArray run = lateRun();
    const qsizetype at = run.indexOf("\"completed\": ");
    run.remove(at, run.indexOf(',', at) + 2 - at);
    EXPECT_TRUE(importError(run, BenchFormat::SglangServe).contains(u"has no \"completed\""));
}

TEST(SglangBadInput, AllRequestsFailed)
{
    QByteArray run = lateRun();
    const qsizetype at = run.indexOf("\"completed\": ") + 13;
    run.replace(at, run.indexOf(',', at) - at, "0");
    EXPECT_TRUE(importError(run, BenchFormat::SglangServe)
                    .contains(u"no measured point: run 1 (concurrency 8): no request completed"));
}

TEST(SglangBadInput, ALineThatIsAString)
{
    EXPECT_TRUE(importError(lateRun() + "\n\"done\"\n", BenchFormat::SglangServe)
                    .contains(u"line 2, column 1: run 2 is the string \"done\""));
}

TEST(SglangBadInput, TwoRunsOnOneLineWithoutANewlineStillRead)
{
    // Whitespace between values is free: a hand-joined file is two runs, not an error.
    const auto imported = importBenchBytes(lateRun() + lateRun(), QStringLiteral("s.jsonl"), BenchFormat::SglangServe);
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    EXPECT_EQ(imported.value().points.size(), 2u);
}

TEST(SglangBadInput, ATrailingCommaInsideARecord)
{
    QByteArray run = lateRun();
    run.insert(run.lastIndexOf('}'), ", ");
    EXPECT_TRUE(importError(run, BenchFormat::SglangServe).contains(u"trailing comma"));
}

TEST(SglangBadInput, AnUnknownRateString)
{
    EXPECT_TRUE(importError(replacedOnce(lateRun(), "\"request_rate\": Infinity", "\"request_rate\": \"max\""),
                            BenchFormat::SglangServe)
                    .contains(u"expected requests per second, \"inf\" or \"trace\""));
}

}  // namespace
}  // namespace ridgeline
