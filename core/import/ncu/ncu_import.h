#pragma once
// Nsight Compute CSV (details or raw page, core/import/ncu/ncu_table.h) to kernels, counted by Nsight Compute's own
// roofline convention (core/import/ncu/ncu_roofline.h). Per kernel: the time, FLOPs (precision "fp64", "fp32",
// "fp16", "tensor-<type>" or "mixed"), and bytes with DRAM as the primary point and L2 and L1 as the same
// kernel's other levels. A kernel whose counters are n/a, nan or 0 is skipped with its reason; a file with no
// time, no FLOP counter or no traffic counter at all is refused with the names of the counters it lacks and
// the ncu options that collect them.

#include "core/import/kernel/import_result.h"
#include "core/result.h"

#include <QString>

namespace ridgeline {

// text is the decoded file; errors name the line and column but not the file.
Result<ImportResult> importNsightCompute(const QString& text, const QString& fileName);

}  // namespace ridgeline
