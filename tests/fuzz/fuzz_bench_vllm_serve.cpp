// libFuzzer target for the vLLM serving-result importer; the checks are in fuzz_bench.h.
#include "tests/fuzz/fuzz_bench.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return ridgeline::fuzz::importBenchInput("fuzz_bench_vllm_serve", data, size, ridgeline::BenchFormat::VllmServe,
                                             QStringLiteral("run.json"));
}
