// libFuzzer target for the user's engine catalog (engines.json, core/model/llm/engine_catalog.h): any bytes give
// engine profiles or a one-line Error naming the file, never a crash, a leak or a sanitizer report. What is read
// must write back to JSON that reads again and writes out byte for byte the same, and every engine's terms on every
// memory family must be terms the model takes (checkTerms: no NaN, no share above 1, no negative time).
#include "core/model/catalog/gpu_spec.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/engine_catalog_json.h"

#include "tests/fuzz/fuzz_loader_checks.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

using namespace ridgeline;

constexpr const char* kTarget = "fuzz_engine_catalog";

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QString source = QStringLiteral("engines.json");
    const Result<std::vector<EngineProfile>> read =
        fuzz::readOrCheckRefusal(kTarget, fuzz::inputBytes(data, size), source, parseUserEngineCatalog);
    if (!read.ok())
        return 0;
    for (const EngineProfile& engine : read.value())
        for (const char* memory : {"HBM3", "GDDR6X", "LPDDR5", "DDR5"}) {
            GpuSpec gpu;
            gpu.memoryType = QString::fromLatin1(memory);
            if (const std::optional<QString> bad = checkTerms(engine.termsFor(gpu)))
                fuzz::fail(kTarget, "an engine that was read gives terms the model refuses", *bad);
        }
    fuzz::checkWritesBack(kTarget, engineCatalogToJson(read.value()), source, parseUserEngineCatalog,
                          engineCatalogToJson);
    return 0;
}
