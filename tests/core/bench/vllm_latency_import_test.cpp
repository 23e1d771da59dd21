// vLLM static-batch latency results (benchmark_latency.py --output-json), 2023, 2024 and 2025 layouts.
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

QJsonObject qtRead(const QString& name)
{
    return QJsonDocument::fromJson(benchFixture(name)).object();
}

TEST(VllmLatencyImport, EachLayoutGivesOneBatchPointThatAsksForItsShape)
{
    struct Case {
        QString file;
        QString version;
        bool percentiles;
    };
    const Case cases[] = {
        {QStringLiteral("vllm_latency_2023.json"), QStringLiteral("of 2023"), false},
        {QStringLiteral("vllm_latency_2024.json"), QStringLiteral("of 2024 (percentiles)"), true},
        {QStringLiteral("vllm_latency_2025.json"), QStringLiteral("of 2025 (std_latency)"), true},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file.toStdString());
        const BenchImport imported = importFixtureFile(c.file);
        EXPECT_EQ(imported.format, BenchFormat::VllmLatency);
        ASSERT_EQ(imported.versions.size(), 1);
        EXPECT_TRUE(imported.versions.front().contains(c.version));
        ASSERT_EQ(imported.points.size(), 1u);
        const BenchPoint& point = imported.points.front();
        const QJsonObject qt = qtRead(c.file);
        EXPECT_EQ(point.load, BenchLoad::StaticBatch);
        EXPECT_FALSE(point.batch);  // not in the file
        EXPECT_FALSE(point.inputTokens);
        EXPECT_FALSE(point.outputTokens);
        EXPECT_EQ(point.requests, 30);  // iterations timed
        EXPECT_TRUE(nearly(*point.latency.mean, qt[u"avg_latency"].toDouble()));
        if (c.percentiles) {
            EXPECT_TRUE(nearly(*point.latency.median, qt[u"percentiles"][u"50"].toDouble()));
            EXPECT_TRUE(nearly(*point.latency.p99, qt[u"percentiles"][u"99"].toDouble()));
        } else {
            EXPECT_FALSE(point.latency.median);
        }
        EXPECT_EQ(point.unknown,
                  QStringList({QStringLiteral("model"), QStringLiteral("GPU"), QStringLiteral("batch size"),
                               QStringLiteral("input length"), QStringLiteral("output length"),
                               QStringLiteral("tensor parallel size"), QStringLiteral("weight format")}));
        EXPECT_TRUE(point.notes.join(u'\n').contains(u"records no batch size or lengths"));
    }
}

// ---- malformed input

const QString kFile = QStringLiteral("vllm_latency_2025.json");

TEST(VllmLatencyBadInput, NoAverageLatency)
{
    EXPECT_TRUE(importError(R"({"latencies": [1.0]})", BenchFormat::VllmLatency).contains(u"no \"avg_latency\""));
}

TEST(VllmLatencyBadInput, AStringLatency)
{
    const QByteArray bytes = benchFixture(kFile);
    const qsizetype at = bytes.indexOf("\"avg_latency\": ") + 15;
    QByteArray edited = bytes;
    edited.replace(at, edited.indexOf(',', at) - at, "\"0.9\"");
    const QString message = importError(edited, BenchFormat::VllmLatency);
    EXPECT_TRUE(message.startsWith(u"run.json (vLLM latency result): line 2, column 20: \"avg_latency\" is the string"))
        << message.toStdString();
}

TEST(VllmLatencyBadInput, ANegativeIteration)
{
    QByteArray bytes = benchFixture(kFile);
    const qsizetype list = bytes.indexOf("\"latencies\": [");
    const qsizetype first = bytes.indexOf('0', list);
    bytes.insert(first, '-');
    EXPECT_TRUE(importError(bytes, BenchFormat::VllmLatency).contains(u"\"latencies[0]\" is negative"));
}

// A latency of 5e-324 s made every relative error of a fit infinite ("median inf %"): times keep to the physical
// rule, in the file's own unit.
TEST(VllmLatencyBadInput, ADenormalIteration)
{
    QByteArray bytes = benchFixture(kFile);
    const qsizetype list = bytes.indexOf("\"latencies\": [") + 14;
    bytes.insert(list, "5e-324, ");
    const QString message = importError(bytes, BenchFormat::VllmLatency);
    EXPECT_TRUE(message.contains(u"\"latencies[0]\" must be between 1e-12 and 1e+07 s, got 5e-324"))
        << message.toStdString();
}

TEST(VllmLatencyBadInput, AnIterationThatIsNotANumber)
{
    QByteArray bytes = benchFixture(kFile);
    const qsizetype list = bytes.indexOf("\"latencies\": [") + 14;
    bytes.insert(list, "null, ");
    EXPECT_TRUE(importError(bytes, BenchFormat::VllmLatency).contains(u"\"latencies[0]\" is null; expected seconds"));
}

TEST(VllmLatencyBadInput, APercentileKeyThatIsNotAPercent)
{
    EXPECT_TRUE(importError(replacedOnce(benchFixture(kFile), "\"99\":", "\"p99\":"), BenchFormat::VllmLatency)
                    .contains(u"\"percentiles\" has the key \"p99\""));
}

TEST(VllmLatencyBadInput, PercentilesThatAreAList)
{
    EXPECT_TRUE(
        importError(R"({"avg_latency": 1.0, "latencies": [1.0], "percentiles": [1.0]})", BenchFormat::VllmLatency)
            .contains(u"\"percentiles\" is a list; expected an object"));
}

TEST(VllmLatencyBadInput, TwoObjects)
{
    EXPECT_TRUE(importError("{\"avg_latency\": 1.0}\n{\"avg_latency\": 2.0}\n", BenchFormat::VllmLatency)
                    .contains(u"line 2, column 1: a second JSON value after the first"));
}

TEST(VllmLatencyBadInput, AListInsteadOfAnObject)
{
    EXPECT_TRUE(importError("[1, 2]", BenchFormat::VllmLatency).contains(u"the file holds a list"));
}

TEST(VllmLatencyBadInput, ATruncatedFile)
{
    const QByteArray bytes = benchFixture(kFile);
    EXPECT_TRUE(importError(bytes.left(bytes.size() - 40), BenchFormat::VllmLatency).contains(u"never closed"));
}

TEST(VllmLatencyBadInput, AnInfiniteAverage)
{
    EXPECT_TRUE(importError(R"({"avg_latency": Infinity, "latencies": []})", BenchFormat::VllmLatency)
                    .contains(u"\"avg_latency\" is Infinity"));
}

TEST(VllmLatencyBadInput, AnAverageOfNoIterationsYieldsNothing)
{
    // np.mean of no latencies is NaN, which json.dump writes as NaN.
    EXPECT_EQ(importError(R"({"avg_latency": NaN, "latencies": [], "percentiles": {}})", BenchFormat::VllmLatency),
              QStringLiteral("run.json (vLLM latency result): no measured point: the batch: avg_latency is NaN: no "
                             "iteration was timed (--num-iters 0?)"));
}

TEST(VllmLatencyBadInput, AnEmptyFile)
{
    EXPECT_EQ(importError("", BenchFormat::VllmLatency), QStringLiteral("run.json: the file is empty"));
}

}  // namespace
}  // namespace ridgeline
