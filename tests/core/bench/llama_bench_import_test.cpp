// llama-bench results: -o json (2025), -o csv (2025 and a 2023 CPU run), -o jsonl (2024).
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

QJsonObject testOf(const QString& name, int index)
{
    return QJsonDocument::fromJson(benchFixture(name)).array()[index].toObject();
}

// The same four tests, read from JSON and from CSV: pp512 and tg128, at depth 0 and 4096.
void expectTheRtx4090Sweep(const BenchImport& imported)
{
    ASSERT_EQ(imported.points.size(), 4u);
    const QString labels[] = {QStringLiteral("pp512"), QStringLiteral("tg128"), QStringLiteral("pp512 @ d4096"),
                              QStringLiteral("tg128 @ d4096")};
    for (int i = 0; i < 4; ++i) {
        SCOPED_TRACE(i);
        const BenchPoint& point = imported.points[static_cast<std::size_t>(i)];
        EXPECT_EQ(point.label, labels[i]);
        EXPECT_EQ(point.model, QStringLiteral("llama 8B Q4_K - Medium"));
        EXPECT_EQ(point.weightFormat, QStringLiteral("Q4_K - Medium"));
        EXPECT_EQ(point.kvFormat, QStringLiteral("f16"));
        EXPECT_EQ(point.gpu, QStringLiteral("NVIDIA GeForce RTX 4090"));
        EXPECT_EQ(point.backend, QStringLiteral("CUDA"));
        EXPECT_EQ(point.load, BenchLoad::StaticBatch);
        EXPECT_EQ(point.batch, 1);
        EXPECT_EQ(point.tensorParallel, 1);
        EXPECT_EQ(point.weightBytes, 4912898304);
        EXPECT_EQ(point.params, 8030261248);
        EXPECT_EQ(point.contextDepth, i < 2 ? 0 : 4096);
        EXPECT_TRUE(point.unknown.isEmpty());
        EXPECT_TRUE(point.notes.join(u'\n').contains(u"weights 4.894 bits per parameter"));
    }
    const BenchPoint& pp = imported.points[0];
    EXPECT_EQ(pp.inputTokens, 512.0);
    EXPECT_EQ(pp.outputTokens, 0.0);
    EXPECT_TRUE(pp.prefill.mean);
    EXPECT_TRUE(pp.prefillTokensPerSecond);
    EXPECT_FALSE(pp.outputTokensPerSecond);
    const BenchPoint& tg = imported.points[1];
    EXPECT_EQ(tg.outputTokens, 128.0);
    EXPECT_EQ(tg.inputTokens, 0.0);
    EXPECT_TRUE(nearly(*tg.tpot.mean, *tg.latency.mean / 128));
    // Decode slows down once 4096 tokens are in the cache.
    EXPECT_GT(*imported.points[1].outputTokensPerSecond, *imported.points[3].outputTokensPerSecond);
}

TEST(LlamaBenchImport, JsonOutputOfA2025Build)
{
    const QString name = QStringLiteral("llama_bench_2025.json");
    const BenchImport imported = importFixtureFile(name);
    EXPECT_EQ(imported.format, BenchFormat::LlamaBenchJson);
    EXPECT_EQ(imported.engine, QStringLiteral("llama.cpp"));
    EXPECT_TRUE(imported.versions.front().contains(u"2025 or later"));
    expectTheRtx4090Sweep(imported);
    for (int i = 0; i < 4; ++i) {
        const QJsonObject qt = testOf(name, i);
        const BenchPoint& point = imported.points[static_cast<std::size_t>(i)];
        EXPECT_EQ(point.requests, 5);  // samples_ns
        if (qt[u"n_gen"].toInt() > 0) {
            EXPECT_TRUE(nearly(*point.outputTokensPerSecond, qt[u"avg_ts"].toDouble()));
            EXPECT_TRUE(nearly(*point.latency.mean, qt[u"avg_ns"].toDouble() * 1e-9));
        } else {
            EXPECT_TRUE(nearly(*point.prefillTokensPerSecond, qt[u"avg_ts"].toDouble()));
            EXPECT_TRUE(nearly(*point.prefill.mean, qt[u"avg_ns"].toDouble() * 1e-9));
        }
    }
}

TEST(LlamaBenchImport, CsvOutputOfA2025Build)
{
    const BenchImport imported = importFixtureFile(QStringLiteral("llama_bench_2025.csv"));
    EXPECT_EQ(imported.format, BenchFormat::LlamaBenchCsv);
    expectTheRtx4090Sweep(imported);
    EXPECT_FALSE(imported.points[0].requests);  // CSV has no samples
}

TEST(LlamaBenchImport, JsonLinesOfA2024BuildWithBackendFlags)
{
    const BenchImport imported = importFixtureFile(QStringLiteral("llama_bench_2024.jsonl"));
    EXPECT_EQ(imported.format, BenchFormat::LlamaBenchJson);
    EXPECT_TRUE(imported.versions.front().contains(u"of 2024"));
    ASSERT_EQ(imported.points.size(), 2u);
    const BenchPoint& tg = imported.points[1];
    EXPECT_EQ(tg.label, QStringLiteral("tg128"));
    EXPECT_EQ(tg.backend, QStringLiteral("CUDA"));  // "cuda": true; "rpc" is the string "0" in these builds
    EXPECT_EQ(tg.weightFormat, QStringLiteral("F16"));
    EXPECT_EQ(tg.contextDepth, 0);  // no n_depth before 2025: the cache started empty
    EXPECT_NEAR(*tg.outputTokensPerSecond, 61.0, 1.0);
}

TEST(LlamaBenchImport, CsvOfA2023CpuRun)
{
    const BenchImport imported = importFixtureFile(QStringLiteral("llama_bench_2023_cpu.csv"));
    EXPECT_TRUE(imported.versions.front().contains(u"of 2023"));
    ASSERT_EQ(imported.points.size(), 2u);
    const BenchPoint& tg = imported.points[1];
    EXPECT_EQ(tg.backend, QStringLiteral("CPU"));
    EXPECT_TRUE(tg.gpu.isEmpty());
    EXPECT_EQ(tg.unknown, QStringList{QStringLiteral("GPU")});
    EXPECT_TRUE(tg.notes.join(u'\n').contains(u"ran on the CPU: AMD Ryzen 9 5950X"));
    EXPECT_EQ(tg.kvFormat, QStringLiteral("f16"));  // f16_kv = 1
    EXPECT_EQ(tg.weightFormat, QStringLiteral("Q4_0"));
}

TEST(LlamaBenchImport, APromptPlusGenerationTestIsALatencyPoint)
{
    QByteArray bytes = benchFixture(QStringLiteral("llama_bench_2025.json"));
    bytes = replacedOnce(bytes, "\"n_prompt\": 0,\n    \"n_gen\": 128,\n    \"n_depth\": 0,",
                         "\"n_prompt\": 512,\n    \"n_gen\": 128,\n    \"n_depth\": 0,");
    const auto imported = importBenchBytes(bytes, QStringLiteral("b.json"));
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    const BenchPoint& pg = imported.value().points[1];
    EXPECT_EQ(pg.label, QStringLiteral("pp512+tg128"));
    EXPECT_TRUE(nearly(*pg.outputTokensPerSecond, 128 / *pg.latency.mean));
    EXPECT_TRUE(pg.notes.join(u'\n').contains(u"pp+tg test"));
}

// ---- malformed JSON

QByteArray jsonFile()
{
    return benchFixture(QStringLiteral("llama_bench_2025.json"));
}

TEST(LlamaBenchJsonBadInput, AMissingField)
{
    QByteArray bytes = jsonFile();
    bytes.replace(bytes.indexOf("\"avg_ts\": "), 6, "\"avg_tx");
    EXPECT_TRUE(
        importError(bytes, BenchFormat::LlamaBenchJson).contains(u"line 2, column 3: the object has no \"avg_ts\""));
}

TEST(LlamaBenchJsonBadInput, AStringCount)
{
    const QString message =
        importError(replacedOnce(jsonFile(), "\"n_prompt\": 512,\n    \"n_gen\": 0,\n    \"n_depth\": 0,",
                                 "\"n_prompt\": \"512\",\n    \"n_gen\": 0,\n    \"n_depth\": 0,"),
                    BenchFormat::LlamaBenchJson, QStringLiteral("b.json"));
    EXPECT_TRUE(
        message.startsWith(u"b.json (llama-bench JSON): line 35, column 17: \"n_prompt\" is the string \"512\""))
        << message.toStdString();
}

TEST(LlamaBenchJsonBadInput, ANegativeRate)
{
    QByteArray bytes = jsonFile();
    bytes.insert(bytes.indexOf("\"avg_ts\": ") + 10, '-');
    EXPECT_TRUE(importError(bytes, BenchFormat::LlamaBenchJson).contains(u"\"avg_ts\" is negative"));
}

TEST(LlamaBenchJsonBadInput, AHugeTokenCount)
{
    QByteArray bytes = jsonFile();
    bytes = replacedOnce(bytes, "\"n_prompt\": 512,\n    \"n_gen\": 0,\n    \"n_depth\": 0,",
                         "\"n_prompt\": 1e12,\n    \"n_gen\": 0,\n    \"n_depth\": 0,");
    EXPECT_TRUE(
        importError(bytes, BenchFormat::LlamaBenchJson).contains(u"expected a whole number from 0 to 100000000"));
}

TEST(LlamaBenchJsonBadInput, ATestThatIsAList)
{
    EXPECT_TRUE(importError("[[1, 2]]", BenchFormat::LlamaBenchJson).contains(u"test 1 is a list"));
}

TEST(LlamaBenchJsonBadInput, AFlagThatIsAWord)
{
    QByteArray bytes = jsonFile();
    bytes.replace("\"backends\": \"CUDA\",", "\"cuda\": \"yes\",");
    EXPECT_TRUE(importError(bytes, BenchFormat::LlamaBenchJson)
                    .contains(u"\"cuda\" is the string \"yes\"; expected true or false"));
}

TEST(LlamaBenchJsonBadInput, ATruncatedFile)
{
    const QByteArray bytes = jsonFile();
    EXPECT_TRUE(importError(bytes.left(bytes.size() - 10), BenchFormat::LlamaBenchJson).contains(u"never closed"));
}

TEST(LlamaBenchJsonBadInput, AnEmptyListYieldsNothing)
{
    EXPECT_EQ(
        importError("[\n]\n", BenchFormat::LlamaBenchJson),
        QStringLiteral("run.json (llama-bench JSON): the file holds no benchmark run (the list of tests is empty)"));
}

TEST(LlamaBenchJsonBadInput, ATestOfNoTokensIsSkipped)
{
    EXPECT_TRUE(
        importError(R"([{"n_prompt": 0, "n_gen": 0, "avg_ns": 5, "avg_ts": 1.0, "model_type": "llama 7B F16"}])",
                    BenchFormat::LlamaBenchJson)
            .contains(u"test 1 (tg0): neither prompt nor generated tokens"));
}

TEST(LlamaBenchJsonBadInput, ATestThatTimedNothingIsSkipped)
{
    EXPECT_TRUE(
        importError(R"([{"n_prompt": 0, "n_gen": 16, "avg_ns": 0, "avg_ts": 0.0, "model_type": "llama 7B F16"}])",
                    BenchFormat::LlamaBenchJson)
            .contains(u"avg_ns or avg_ts is 0"));
}

TEST(LlamaBenchJsonBadInput, NullWhereARequiredNumberBelongs)
{
    EXPECT_TRUE(importError(R"([{"n_prompt": null, "n_gen": 16, "avg_ns": 5, "avg_ts": 1.0, "model_type": "x"}])",
                            BenchFormat::LlamaBenchJson)
                    .contains(u"\"n_prompt\" is empty; expected a number"));
}

// ---- malformed CSV

QByteArray csvFile()
{
    return benchFixture(QStringLiteral("llama_bench_2025.csv"));
}

// The CSV fixture with the first row's field `column` set to `value` (quoted as llama-bench quotes).
QByteArray csvWithFirstRowField(const QByteArray& column, const QByteArray& value)
{
    QList<QByteArray> lines = csvFile().split('\n');
    const QList<QByteArray> header = lines[0].split(',');
    QList<QByteArray> fields = lines[1].split(',');  // the fixture's first row has no comma inside a value
    const qsizetype index = header.indexOf(column);
    EXPECT_GE(index, 0) << column.toStdString();
    if (index >= 0)
        fields[index] = '"' + value + '"';
    lines[1] = fields.join(',');
    return lines.join('\n');
}

TEST(LlamaBenchCsvBadInput, AHeaderWithoutARequiredColumn)
{
    QByteArray bytes = csvFile();
    bytes.replace(bytes.indexOf("avg_ts"), 6, "avg_tz");
    EXPECT_TRUE(importError(bytes, BenchFormat::LlamaBenchCsv)
                    .contains(u"line 1, column 1: the header has no \"avg_ts\" column"));
}

TEST(LlamaBenchCsvBadInput, ARowWithTooFewFields)
{
    QList<QByteArray> lines = csvFile().split('\n');
    lines[2] = lines[2].left(lines[2].lastIndexOf(','));
    const QString message = importError(lines.join('\n'), BenchFormat::LlamaBenchCsv, QStringLiteral("b.csv"));
    EXPECT_TRUE(message.startsWith(u"b.csv (llama-bench CSV): line 3, column "));
    EXPECT_TRUE(message.contains(u"the row has 39 fields, the header 40"));
}

TEST(LlamaBenchCsvBadInput, ANumberWithADecimalComma)
{
    const QString message = importError(csvWithFirstRowField("avg_ts", "11481,050195"), BenchFormat::LlamaBenchCsv);
    EXPECT_TRUE(message.contains(u"line 2, column ")) << message.toStdString();
    EXPECT_TRUE(message.contains(u"\"avg_ts\": ")) << message.toStdString();
}

TEST(LlamaBenchCsvBadInput, AWordWhereACountBelongs)
{
    QByteArray bytes = csvFile();
    bytes.replace(bytes.indexOf("\"512\""), 5, "\"big\"");
    EXPECT_TRUE(importError(bytes, BenchFormat::LlamaBenchCsv).contains(u"is \"big\"; expected a whole number"));
}

TEST(LlamaBenchCsvBadInput, AnUnclosedQuote)
{
    QByteArray bytes = csvFile();
    bytes.chop(3);
    bytes += ",\"unclosed\n";
    EXPECT_TRUE(importError(bytes, BenchFormat::LlamaBenchCsv).contains(u"line 5"));
}

TEST(LlamaBenchCsvBadInput, ADuplicatedColumn)
{
    EXPECT_TRUE(importError(replacedOnce(csvFile(), "build_commit,build_number", "build_commit,build_commit"),
                            BenchFormat::LlamaBenchCsv)
                    .contains(u"line 1, column 14: the column \"build_commit\" appears twice"));
}

TEST(LlamaBenchCsvBadInput, AHeaderOnlyFileYieldsNothing)
{
    const QByteArray header = csvFile().left(csvFile().indexOf('\n') + 1);
    EXPECT_EQ(importError(header, BenchFormat::LlamaBenchCsv),
              QStringLiteral(
                  "run.json (llama-bench CSV): the file holds no benchmark run (the file has a header and no tests)"));
}

TEST(LlamaBenchCsvBadInput, AnInfiniteTime)
{
    const QString message = importError(csvWithFirstRowField("avg_ns", "inf"), BenchFormat::LlamaBenchCsv);
    EXPECT_TRUE(message.contains(u"\"avg_ns\": ")) << message.toStdString();
}

TEST(LlamaBenchCsvBadInput, ABinaryFile)
{
    QByteArray bytes = csvFile();
    bytes[40] = '\0';
    EXPECT_TRUE(importError(bytes, BenchFormat::LlamaBenchCsv).contains(u"a NUL byte: this is a binary file"));
}

TEST(LlamaBenchCsvBadInput, AnEmptyModelTypeIsAnUnknownWeightFormat)
{
    QByteArray bytes = csvFile();
    bytes.replace(bytes.indexOf("\"llama 8B Q4_K - Medium\""), 24, "\"\"");
    const auto imported = importBenchBytes(bytes, QStringLiteral("b.csv"), BenchFormat::LlamaBenchCsv);
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    EXPECT_EQ(imported.value().points[0].unknown,
              QStringList({QStringLiteral("model"), QStringLiteral("weight format")}));
}

}  // namespace
}  // namespace ridgeline
