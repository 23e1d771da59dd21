#pragma once
// The GPU and model catalogs (resources/gpus.json, resources/models.json, compiled in as :/catalogs/...).
// Plain value structs; the files are read (strictly) and written in core/model/catalog/catalog_json.

#include "core/model/catalog/gpu_spec.h"
#include "core/model/catalog/model_shapes.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <array>
#include <vector>

namespace ridgeline {

// The id that means "not from the catalog" for a model or a GPU (customGpu's card).
inline const QString kCustomId = QStringLiteral("custom");

// A user's own card: one peak for every precision.
Result<GpuSpec> customGpu(double peakTflops, double bandwidthTbs, double memoryGib);

// The built-in catalogs, loaded once from the compiled-in resources.
const Result<std::vector<GpuSpec>>& builtinGpus();
const Result<std::vector<ModelSpec>>& builtinModels();
}  // namespace ridgeline
