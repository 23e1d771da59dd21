// libFuzzer target for the llama-bench CSV importer; the checks are in fuzz_bench.h.
#include "tests/fuzz/fuzz_bench.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return ridgeline::fuzz::importBenchInput("fuzz_bench_llama_csv", data, size, ridgeline::BenchFormat::LlamaBenchCsv,
                                             QStringLiteral("llama-bench.csv"));
}
