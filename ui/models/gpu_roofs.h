#pragma once
// Analytical GPU rooflines from the catalog: one dense peak (for one number format) and the HBM bandwidth,
// in the same GFLOP/s and GB/s as the measured CPU roofs ("same physics, different ratio").

#include "core/model/catalog.h"
#include "core/model/number_format.h"
#include "ui/chart/roofline_chart.h"

#include <optional>

namespace ridgeline::ui {

// The GPU's roof for `format`; when the card has no such peak (an A100 has no fp8), nullopt.
std::optional<NamedRoof> gpuRoof(const GpuSpec& gpu, NumberFormat format);

// Looks the id up in the built-in catalog; the error names the id and the known ones.
Result<NamedRoof> catalogGpuRoof(const QString& id, NumberFormat format);

}  // namespace ridgeline::ui
