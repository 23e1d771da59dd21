#pragma once
// Analytical GPU rooflines from the catalog: one dense peak (for one number format) and the HBM bandwidth,
// in the same GFLOP/s and GB/s as the measured CPU roofs ("same physics, different ratio").

#include "core/model/catalog/catalog.h"
#include "core/model/number_format.h"
#include "core/model/roofline.h"

#include <optional>

namespace ridgeline {

// THE rule for a GPU's roof: its dense peak for `format` (never the sparse figure) over its datasheet bandwidth,
// named "H100 SXM (bf16)". The roofline chart, the talk and the batching explorer all draw it from here.
// The GPU's roof for `format`; when the card has no such peak (an A100 has no fp8), nullopt.
std::optional<NamedRoof> gpuRoof(const GpuSpec& gpu, NumberFormat format);

// Looks the id up in the built-in catalog; the error names the id and the known ones.
Result<NamedRoof> catalogGpuRoof(const QString& id, NumberFormat format);

}  // namespace ridgeline
