// libFuzzer target for the likwid-perfctr CSV importer; the checks are in fuzz_import.h.
#include "tests/fuzz/fuzz_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return ridgeline::fuzz::importOneInput(data, size, ridgeline::ImportFormat::Likwid, QStringLiteral("likwid.csv"));
}
