#pragma once
// The catalog files (resources/gpus.json, resources/models.json and any file of the same format), read with the
// strict reader of sessions and decks: a key twice, a key the format does not have, a missing number or one of the
// wrong type is refused with its path ("gpus[3].bandwidth_tbs"), never read as 0. The GPU writer writes exactly
// what the reader reads, so `ridgeline catalog gpus --json` is a catalog file.

#include "core/model/catalog/gpu_spec.h"
#include "core/model/catalog/model_shapes.h"
#include "core/result.h"

#include <QByteArray>

#include <vector>

namespace ridgeline {

inline constexpr int kCatalogSchemaVersion = 1;

Result<std::vector<GpuSpec>> parseGpuCatalog(const QByteArray& json);
Result<std::vector<ModelSpec>> parseModelCatalog(const QByteArray& json);

// A "ridgeline-gpu-catalog" file of these GPUs, indented; parseGpuCatalog reads it back field for field.
QByteArray gpuCatalogToJson(const std::vector<GpuSpec>& gpus);
// The same for models: every shape field parseModelCatalog reads. A model given only by its parameter count
// (paramsOverride) is written as its derived shape, which the catalog format holds; the override is not.
QByteArray modelCatalogToJson(const std::vector<ModelSpec>& models);

}  // namespace ridgeline
