#pragma once
// The GPU imported kernels ran on. A GPU profiler's kernels are GPU kernels (KernelDevice kind "gpu");
// the catalog GPU whose roofline applies comes from the device name the file gives
// (core/model/catalog/gpu_device_names.h) or, when the file names none or one the catalog lacks, from the user:
// `ridgeline import --device ID`, or the window's question on import. The one place that decides which kernels still
// need a GPU and gives them one.

#include "core/import/kernel/import_result.h"
#include "core/model/catalog/catalog.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace ridgeline {

// A GPU kernel of the named device: kind "gpu", the profiler's name, and the catalog GPU it names (if any).
KernelDevice gpuDeviceNamed(const QString& profilerName);

// How many GPU kernels of the imports have no catalog GPU, and the device names their files give (distinct, in
// order; empty when a file names none).
int kernelsWithoutGpu(const std::vector<ImportResult>& imports);
QStringList unmatchedDeviceNames(const std::vector<ImportResult>& imports);

// Gives every GPU kernel without a catalog GPU this one (the profiler's device name, if any, is kept), and says so
// in each import's notes; how: "--device", "chosen on import". Returns how many kernels it changed.
int assignGpu(std::vector<ImportResult>& imports, const GpuSpec& gpu, const QString& how);

// One line for the notes of an import whose GPU kernels have no catalog GPU: which device the file names (or that
// it names none) and how to give one.
QString missingGpuNote(int kernels, const QString& deviceName);

}  // namespace ridgeline
