// GuideLLM reports: v0.2-v0.3 (args / worker), v0.4 (config), v0.5 (metadata version 1), v0.7 (version 2).
#include "tests/core/bench/bench_test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

using test::benchFixture;
using test::importError;
using test::importFixtureFile;
using test::nearly;
using test::replacedOnce;

QJsonObject benchmarkOf(const QString& name, int index)
{
    return QJsonDocument::fromJson(benchFixture(name)).object()[u"benchmarks"].toArray()[index].toObject();
}

double successful(const QJsonObject& benchmark, const QString& metric, const QString& statistic)
{
    return benchmark[u"metrics"][metric][u"successful"][statistic].toDouble();
}

void expectMetricsMatch(const BenchPoint& point, const QJsonObject& benchmark)
{
    EXPECT_TRUE(
        nearly(*point.ttft.median,
               successful(benchmark, QStringLiteral("time_to_first_token_ms"), QStringLiteral("median")) / 1000));
    EXPECT_TRUE(nearly(*point.itl.mean,
                       successful(benchmark, QStringLiteral("inter_token_latency_ms"), QStringLiteral("mean")) / 1000));
    EXPECT_TRUE(nearly(
        *point.tpot.p99,
        benchmark[u"metrics"][u"time_per_output_token_ms"][u"successful"][u"percentiles"][u"p99"].toDouble() / 1000));
    EXPECT_TRUE(
        nearly(*point.latency.mean, successful(benchmark, QStringLiteral("request_latency"), QStringLiteral("mean"))));
    EXPECT_TRUE(nearly(*point.inputTokens,
                       successful(benchmark, QStringLiteral("prompt_token_count"), QStringLiteral("mean"))));
    EXPECT_TRUE(nearly(*point.outputTokensPerSecond,
                       successful(benchmark, QStringLiteral("output_token_count"), QStringLiteral("total_sum")) /
                           benchmark[u"duration"].toDouble()));
    EXPECT_TRUE(nearly(*point.achievedConcurrency,
                       successful(benchmark, QStringLiteral("request_concurrency"), QStringLiteral("mean"))));
    EXPECT_EQ(point.model, QStringLiteral("meta-llama/Llama-3.1-8B-Instruct"));
}

TEST(GuideLlmImport, AVersionZeroThreeSweepGivesItsSynchronousThroughputAndConstantRuns)
{
    const QString name = QStringLiteral("guidellm_v0.3_sweep.json");
    const BenchImport imported = importFixtureFile(name);
    EXPECT_EQ(imported.format, BenchFormat::GuideLlm);
    EXPECT_EQ(imported.versions, QStringList{QStringLiteral("GuideLLM v0.2-v0.3 (benchmarks only)")});
    ASSERT_EQ(imported.points.size(), 3u);
    EXPECT_EQ(imported.points[0].load, BenchLoad::Concurrency);
    EXPECT_EQ(imported.points[0].concurrency, 1);
    EXPECT_EQ(imported.points[0].label, QStringLiteral("synchronous"));
    EXPECT_EQ(imported.points[1].load, BenchLoad::AllAtOnce);
    EXPECT_EQ(imported.points[1].label, QStringLiteral("throughput"));
    EXPECT_EQ(imported.points[2].load, BenchLoad::RequestRate);
    EXPECT_EQ(imported.points[2].requestRate, 3.5);
    EXPECT_EQ(imported.points[2].label, QStringLiteral("constant 3.5 req/s"));
    for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE(i);
        const BenchPoint& point = imported.points[static_cast<std::size_t>(i)];
        expectMetricsMatch(point, benchmarkOf(name, i));
        EXPECT_TRUE(nearly(
            *point.ttft.median,
            successful(benchmarkOf(name, i), QStringLiteral("time_to_first_token_ms"), QStringLiteral("median")) /
                1000));
        EXPECT_EQ(point.requests, 20);
        EXPECT_EQ(point.backend, QStringLiteral("openai_http"));
        EXPECT_EQ(point.unknown, QStringList({QStringLiteral("GPU"), QStringLiteral("tensor parallel size"),
                                              QStringLiteral("weight format")}));
    }
}

TEST(GuideLlmImport, VersionsZeroFourAndZeroFiveKeepTheRunsSettingsInConfig)
{
    for (const QString& name :
         {QStringLiteral("guidellm_v0.4_concurrent.json"), QStringLiteral("guidellm_v0.5_concurrent.json")}) {
        SCOPED_TRACE(name.toStdString());
        const BenchImport imported = importFixtureFile(name);
        ASSERT_EQ(imported.points.size(), 3u);
        const std::int64_t streams[] = {1, 8, 32};
        for (int i = 0; i < 3; ++i) {
            const BenchPoint& point = imported.points[static_cast<std::size_t>(i)];
            EXPECT_EQ(point.load, BenchLoad::Concurrency);
            EXPECT_EQ(point.concurrency, streams[i]);
            EXPECT_EQ(point.label, QStringLiteral("concurrent ") + QString::number(streams[i]));
            EXPECT_EQ(point.requests, 16);  // metrics.request_totals since v0.4
            expectMetricsMatch(point, benchmarkOf(name, i));
        }
    }
    EXPECT_EQ(importFixtureFile(QStringLiteral("guidellm_v0.4_concurrent.json")).versions.front(),
              QStringLiteral("GuideLLM v0.4 (report args, no metadata)"));
    EXPECT_EQ(importFixtureFile(QStringLiteral("guidellm_v0.5_concurrent.json")).versions.front(),
              QStringLiteral("GuideLLM v0.5-v0.6 (report schema 1), guidellm 0.5.1"));
}

TEST(GuideLlmImport, VersionZeroSevenPoissonRuns)
{
    const QString name = QStringLiteral("guidellm_v0.7_poisson.json");
    const BenchImport imported = importFixtureFile(name);
    EXPECT_EQ(imported.versions.front(), QStringLiteral("GuideLLM v0.7 or later (report schema 2), guidellm 0.7.3"));
    ASSERT_EQ(imported.points.size(), 2u);
    EXPECT_EQ(imported.points[1].load, BenchLoad::RequestRate);
    EXPECT_EQ(imported.points[1].requestRate, 6.0);
    EXPECT_EQ(imported.points[1].label, QStringLiteral("poisson 6 req/s"));
    expectMetricsMatch(imported.points[1], benchmarkOf(name, 1));
}

// ---- malformed input

const QString kV07 = QStringLiteral("guidellm_v0.7_poisson.json");

TEST(GuideLlmBadInput, ANewerSchemaIsRefusedNotGuessedAt)
{
    const QString message = importError(
        replacedOnce(benchFixture(kV07), "{\"metadata\": {\"version\": 2,", "{\"metadata\": {\"version\": 3,"),
        BenchFormat::GuideLlm, QStringLiteral("benchmarks.json"));
    EXPECT_TRUE(message.startsWith(u"benchmarks.json (GuideLLM report): line 1, column 26: \"metadata.version\" is 3"))
        << message.toStdString();
    EXPECT_TRUE(message.contains(u"a newer GuideLLM wrote this file"));
}

TEST(GuideLlmBadInput, NoBenchmarksList)
{
    EXPECT_TRUE(importError(R"({"args": {}})", BenchFormat::GuideLlm).contains(u"has no \"benchmarks\""));
}

TEST(GuideLlmBadInput, BenchmarksThatAreAnObject)
{
    EXPECT_TRUE(importError(R"({"benchmarks": {}})", BenchFormat::GuideLlm)
                    .contains(u"\"benchmarks\" is an object; expected a list"));
}

TEST(GuideLlmBadInput, ABenchmarkWithoutSettings)
{
    EXPECT_TRUE(
        importError(R"({"benchmarks": [{"type_": "generative_benchmark", "metrics": {}}]})", BenchFormat::GuideLlm)
            .contains(u"the object benchmarks[0] has no \"config\""));
}

TEST(GuideLlmBadInput, AConcurrentRunWithoutStreams)
{
    const QByteArray bytes = benchFixture(QStringLiteral("guidellm_v0.4_concurrent.json"));
    QByteArray edited = bytes;
    const QByteArray streams = "\"streams\": 1, ";
    edited.replace(edited.indexOf(streams), streams.size(), "");
    EXPECT_TRUE(
        importError(edited, BenchFormat::GuideLlm).contains(u"benchmarks[0].config.strategy has no \"streams\""));
}

TEST(GuideLlmBadInput, AnUnknownStrategyIsSkippedWithItsName)
{
    QByteArray bytes = benchFixture(kV07);
    bytes.replace(bytes.indexOf("\"type_\": \"poisson\", \"worker_count\""), 18, "\"type_\": \"lunar\"  ");
    const auto imported = importBenchBytes(bytes, QStringLiteral("b.json"), BenchFormat::GuideLlm);
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    ASSERT_EQ(imported.value().skipped.size(), 1u);
    EXPECT_TRUE(imported.value().skipped.front().reason.contains(u"an unknown scheduling strategy \"lunar\""));
    EXPECT_EQ(imported.value().points.size(), 1u);
}

TEST(GuideLlmBadInput, AMetricThatIsAString)
{
    QByteArray bytes = benchFixture(kV07);
    const QByteArray key = "\"time_to_first_token_ms\": {\"successful\": {\"mean\": ";
    const qsizetype at = bytes.indexOf(key) + key.size();
    bytes.replace(at, bytes.indexOf(',', at) - at, "\"fast\"");
    EXPECT_TRUE(
        importError(bytes, BenchFormat::GuideLlm)
            .contains(u"\"benchmarks[0].metrics.time_to_first_token_ms.successful.mean\" is the string \"fast\""));
}

TEST(GuideLlmBadInput, ANegativeDuration)
{
    QByteArray bytes = benchFixture(kV07);
    const QByteArray key = "\"duration\": ";
    bytes.insert(bytes.indexOf(key) + key.size(), '-');
    EXPECT_TRUE(importError(bytes, BenchFormat::GuideLlm).contains(u"\"benchmarks[0].duration\" is negative"));
}

TEST(GuideLlmBadInput, ARunWhereNoRequestSucceeded)
{
    QByteArray bytes = benchFixture(QStringLiteral("guidellm_v0.4_concurrent.json"));
    const QByteArray totals =
        "\"request_totals\": {\"successful\": 16, \"errored\": 0, \"incomplete\": 0, \"total\": 16}";
    const qsizetype at = bytes.indexOf(totals);
    bytes.replace(at, totals.size(),
                  "\"request_totals\": {\"successful\": 0, \"errored\": 16, \"incomplete\": 0, \"total\": 16}");
    const auto imported = importBenchBytes(bytes, QStringLiteral("b.json"), BenchFormat::GuideLlm);
    ASSERT_TRUE(imported.ok());
    ASSERT_EQ(imported.value().skipped.size(), 1u);
    EXPECT_EQ(imported.value().skipped.front().what, QStringLiteral("benchmark 1 (concurrent 1)"));
    EXPECT_EQ(imported.value().skipped.front().reason, QStringLiteral("no request succeeded"));
}

TEST(GuideLlmBadInput, AnEmptyReportYieldsNothing)
{
    EXPECT_EQ(importError(R"({"benchmarks": []})", BenchFormat::GuideLlm),
              QStringLiteral("run.json (GuideLLM report): the file holds no benchmark run (the report's \"benchmarks\" "
                             "list is empty)"));
}

TEST(GuideLlmBadInput, AnotherBenchmarkTypeIsSkipped)
{
    EXPECT_TRUE(importError(R"({"benchmarks": [{"type_": "embeddings_benchmark"}]})", BenchFormat::GuideLlm)
                    .contains(u"benchmark 1: a \"embeddings_benchmark\" benchmark; only generative benchmarks"));
}

TEST(GuideLlmBadInput, TwoReports)
{
    EXPECT_TRUE(importError("{\"benchmarks\": []}\n{\"benchmarks\": []}", BenchFormat::GuideLlm)
                    .contains(u"line 2, column 1: a second JSON value after the report"));
}

}  // namespace
}  // namespace ridgeline
