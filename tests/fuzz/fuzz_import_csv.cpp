// libFuzzer target for the plain CSV importer; the checks are in fuzz_import.h.
#include "tests/fuzz/fuzz_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using ridgeline::ImportFormat;
    return ridgeline::fuzz::importOneInput(data, size, ImportFormat::PlainCsv, QStringLiteral("kernels.csv"));
}
