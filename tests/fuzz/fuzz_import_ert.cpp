// libFuzzer target for the ERT roofline.json importer; the checks are in fuzz_import.h.
#include "tests/fuzz/fuzz_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    return ridgeline::fuzz::importOneInput(data, size, ridgeline::ImportFormat::Ert, QStringLiteral("roofline.json"));
}
