// libFuzzer target for the vLLM latency-result importer; the checks are in fuzz_bench.h.
#include "tests/fuzz/fuzz_bench.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return ridgeline::fuzz::importBenchInput("fuzz_bench_vllm_latency", data, size, ridgeline::BenchFormat::VllmLatency,
                                             QStringLiteral("latency.json"));
}
