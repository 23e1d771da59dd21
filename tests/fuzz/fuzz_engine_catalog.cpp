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
    // fromRawData: no copy and no terminating NUL, so ASan sees any read past the input's last byte.
    const QByteArray bytes = QByteArray::fromRawData(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    const QString source = QStringLiteral("engines.json");

    const Result<std::vector<EngineProfile>> read = parseUserEngineCatalog(bytes, source);
    if (!read.ok()) {
        fuzz::checkRefusal(kTarget, source, read.error().message);
        return 0;
    }
    for (const EngineProfile& engine : read.value())
        for (const char* memory : {"HBM3", "GDDR6X", "LPDDR5", "DDR5"}) {
            GpuSpec gpu;
            gpu.memoryType = QString::fromLatin1(memory);
            if (const std::optional<QString> bad = checkTerms(engine.termsFor(gpu)))
                fuzz::fail(kTarget, "an engine that was read gives terms the model refuses", *bad);
        }
    const QByteArray written = engineCatalogToJson(read.value());
    const Result<std::vector<EngineProfile>> again = parseUserEngineCatalog(written, source);
    if (!again.ok())
        fuzz::fail(kTarget, "engines that were read wrote JSON that does not read back", again.error().message);
    if (engineCatalogToJson(again.value()) != written)
        fuzz::fail(kTarget, "engines changed when read and written again", QString::fromUtf8(written));
    return 0;
}
