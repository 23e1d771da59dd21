#pragma once
// Which catalog GPU a profiler's device name means: "NVIDIA A100-SXM4-40GB" (Nsight Compute's
// device__attribute_display_name, nvidia-smi) -> a100-40gb-sxm. Names are compared after dropping case, punctuation
// and the vendor and brand words (NVIDIA, AMD, Instinct, GeForce, Tesla), against each GPU's id, its catalog name
// and the device names the catalog lists for it (resources/gpus.json "device_names"). Only an exact match counts:
// "NVIDIA L40" is not an L40S and "NVIDIA H100 NVL" is no H100 SXM, so a card the catalog lacks is never drawn
// against a neighbour's roof; the caller asks instead.

#include "core/model/catalog/catalog.h"

#include <QString>
#include <QStringView>

#include <optional>
#include <vector>

namespace ridgeline {

// "NVIDIA A100-SXM4-40GB" -> "A100 SXM4 40GB".
QString normalizedDeviceName(QStringView name);

// The catalog GPU a device name names, among `gpus`; nullopt when none does.
std::optional<GpuSpec> gpuForDeviceName(QStringView deviceName, const std::vector<GpuSpec>& gpus);
// The same among the built-in catalog.
std::optional<GpuSpec> catalogGpuForDeviceName(QStringView deviceName);

}  // namespace ridgeline
