// libFuzzer target for the SGLang bench_serving importer; the checks are in fuzz_bench.h.
#include "tests/fuzz/fuzz_bench.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return ridgeline::fuzz::importBenchInput("fuzz_bench_sglang", data, size, ridgeline::BenchFormat::SglangServe,
                                             QStringLiteral("sglang.jsonl"));
}
