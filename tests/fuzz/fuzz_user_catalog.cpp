// libFuzzer target for the user's own GPUs and models (gpus.json, models.json: core/model/catalog/user_catalog.h),
// their reader and their writer: any bytes give entries or a one-line Error naming the file, never a crash, a leak
// or a sanitizer report. What is read must write back to JSON that reads again and writes out byte for byte the same
// (the writer's promise behind `catalog --mine --json` and the saves of the window's dialogs), and every model read
// must have a parameter count the model takes. A file naming the model-catalog format is read as models.json, any
// other as gpus.json.
#include "core/model/catalog/catalog_json.h"
#include "core/model/catalog/model_shapes.h"
#include "core/model/catalog/user_catalog.h"

#include "tests/fuzz/fuzz_loader_checks.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>

using namespace ridgeline;

namespace {

constexpr const char* kTarget = "fuzz_user_catalog";

void fuzzGpus(const QByteArray& bytes)
{
    const QString source = QStringLiteral("gpus.json");
    const Result<std::vector<GpuSpec>> read = fuzz::readOrCheckRefusal(kTarget, bytes, source, parseUserGpuCatalog);
    if (read.ok())
        fuzz::checkWritesBack(kTarget, gpuCatalogToJson(read.value()), source, parseUserGpuCatalog, gpuCatalogToJson);
}

void fuzzModels(const QByteArray& bytes)
{
    const QString source = QStringLiteral("models.json");
    const Result<std::vector<ModelSpec>> read = fuzz::readOrCheckRefusal(kTarget, bytes, source, parseUserModelCatalog);
    if (!read.ok())
        return;
    for (const ModelSpec& model : read.value())
        if (const Result<ParamCounts> counts = countParams(model); !counts.ok() || counts.value().total <= 0)
            fuzz::fail(kTarget, "a model that was read has no parameter count",
                       model.id + (counts.ok() ? QString() : u": " + counts.error().message));
    fuzz::checkWritesBack(kTarget, modelCatalogToJson(read.value()), source, parseUserModelCatalog, modelCatalogToJson);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const QByteArray bytes = fuzz::inputBytes(data, size);
    if (bytes.contains("ridgeline-model-catalog"))
        fuzzModels(bytes);
    else
        fuzzGpus(bytes);
    return 0;
}
