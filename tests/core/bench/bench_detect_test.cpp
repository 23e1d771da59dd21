// Format detection of benchmark-result files, and the files it recognises as none of them.
#include "tests/core/bench/bench_test_support.h"

#include <gtest/gtest.h>

namespace ridgeline {
namespace {

using test::benchFixture;
using test::importError;

TEST(BenchDetect, EveryFixtureIsDetectedAsItsFormat)
{
    const std::pair<const char*, BenchFormat> cases[] = {
        {"vllm_serve_2024_early.json", BenchFormat::VllmServe},
        {"vllm_serve_2025_goodput_colon.json", BenchFormat::VllmServe},
        {"vllm_bench_serve_2025_sweep.json", BenchFormat::VllmServe},
        {"vllm_latency_2023.json", BenchFormat::VllmLatency},
        {"vllm_latency_2025.json", BenchFormat::VllmLatency},
        {"sglang_2024_short.jsonl", BenchFormat::SglangServe},
        {"sglang_2024_late.jsonl", BenchFormat::SglangServe},
        {"sglang_2025.jsonl", BenchFormat::SglangServe},
        {"guidellm_v0.3_sweep.json", BenchFormat::GuideLlm},
        {"guidellm_v0.7_poisson.json", BenchFormat::GuideLlm},
        {"llama_bench_2025.json", BenchFormat::LlamaBenchJson},
        {"llama_bench_2024.jsonl", BenchFormat::LlamaBenchJson},
        {"llama_bench_2025.csv", BenchFormat::LlamaBenchCsv},
        {"llama_bench_2023_cpu.csv", BenchFormat::LlamaBenchCsv},
    };
    for (const auto& [name, format] : cases) {
        const auto detected = detectBenchFormat(benchFixture(QString::fromLatin1(name)));
        ASSERT_TRUE(detected.ok()) << name << ": " << detected.error().message.toStdString();
        EXPECT_EQ(detected.value(), format) << name;
    }
}

TEST(BenchDetect, KeysInsideGeneratedTextDoNotMisleadDetection)
{
    // A vLLM result whose generated text mentions "benchmarks" and "avg_latency": only top-level keys count.
    const QByteArray bytes = R"({"date": "20250101-000000", "backend": "vllm", "model_id": "m", "generated_texts": )"
                             R"(["{\"benchmarks\": [], \"avg_latency\": 1}"], "completed": 1, "duration": 1.0, )"
                             R"("total_input_tokens": 10, "total_output_tokens": 5, "output_throughput": 5.0})";
    const auto detected = detectBenchFormat(bytes);
    ASSERT_TRUE(detected.ok()) << detected.error().message.toStdString();
    EXPECT_EQ(detected.value(), BenchFormat::VllmServe);
}

TEST(BenchDetect, NeighbouringFilesOfTheseToolsAreNamedAndRefused)
{
    EXPECT_EQ(importError(R"([{"benchmark": {"name": "vLLM benchmark"}, "model": {"name": "m"}, "metric": {}}])",
                          BenchFormat::Auto, QStringLiteral("x.pytorch.json")),
              QStringLiteral("x.pytorch.json: a vLLM \"PyTorch benchmark format\" file (*.pytorch.json); import the "
                             "result JSON written next to it instead"));
    EXPECT_TRUE(
        importError(R"({"elapsed_time": 10.0, "num_requests": 100, "total_num_tokens": 51200, )"
                    R"("requests_per_second": 10.0, "tokens_per_second": 5120.0})",
                    BenchFormat::Auto)
            .contains(u"a vLLM benchmark_throughput.py result: its tokens_per_second counts prompt and output"));
    EXPECT_TRUE(importError(R"({"completed": 3, "output_throughput": 9.0})", BenchFormat::Auto)
                    .contains(u"do not say whether vLLM or SGLang wrote it; give the format"));
    EXPECT_TRUE(importError(R"({"hello": 1})", BenchFormat::Auto).contains(u"none of the benchmark formats"));
    EXPECT_TRUE(importError("name,flops,bytes,seconds\nk,1,2,3\n", BenchFormat::Auto)
                    .contains(u"neither JSON nor a llama-bench CSV"));
    EXPECT_TRUE(importError("[1, 2]", BenchFormat::Auto).contains(u"a JSON list that does not hold llama-bench tests"));
    EXPECT_EQ(importError(QByteArray("\xFF\xFE{\0\"\0", 5), BenchFormat::Auto, QStringLiteral("u.json")),
              QStringLiteral("u.json: the file is UTF-16 text; save it as UTF-8"));
}

TEST(BenchDetect, FileErrorsNameThePath)
{
    const auto missing = importBenchFile(QStringLiteral("/nonexistent/run.json"));
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message, QStringLiteral("/nonexistent/run.json: no such file"));
    const auto folder = importBenchFile(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bench"));
    ASSERT_FALSE(folder.ok());
    EXPECT_TRUE(folder.error().message.endsWith(u"is a folder, not a file to import"));
}

TEST(BenchDetect, FormatNamesRoundTrip)
{
    for (BenchFormat format :
         {BenchFormat::Auto, BenchFormat::VllmServe, BenchFormat::VllmLatency, BenchFormat::SglangServe,
          BenchFormat::GuideLlm, BenchFormat::LlamaBenchJson, BenchFormat::LlamaBenchCsv})
        EXPECT_EQ(benchFormatFromName(benchFormatName(format)), format);
    EXPECT_FALSE(benchFormatFromName(u"vllm"));
}

}  // namespace
}  // namespace ridgeline
