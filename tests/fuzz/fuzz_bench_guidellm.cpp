// libFuzzer target for the GuideLLM report importer; the checks are in fuzz_bench.h.
#include "tests/fuzz/fuzz_bench.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return ridgeline::fuzz::importBenchInput("fuzz_bench_guidellm", data, size, ridgeline::BenchFormat::GuideLlm,
                                             QStringLiteral("benchmarks.json"));
}
