// libFuzzer target for the llama-bench JSON importer; the checks are in fuzz_bench.h.
#include "tests/fuzz/fuzz_bench.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return ridgeline::fuzz::importBenchInput("fuzz_bench_llama_json", data, size,
                                             ridgeline::BenchFormat::LlamaBenchJson,
                                             QStringLiteral("llama-bench.json"));
}
