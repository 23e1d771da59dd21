#pragma once
// rocprof-compute's (formerly omniperf's) roofline.csv: the empirical ceilings its roofline micro-benchmark
// measured on each AMD GPU device, written into the workload folder next to pmc_perf.csv. One row per device:
//   device,HBMBw,HBMBwLow,hbmBwHigh,L2Bw,...,LDSBw,...,FP32Flops,...,FP64Flops,...,MFMAF16Flops,...,MFMAI8Ops,...
// in GB/s and GFLOP/s (GOP/s for integers); <Name>Low and <Name>High are the spread of the runs (the spellings
// "hbmBwHigh" and "MFMAFI8OpsLow" are rocprof-compute's own). rocprof-compute 2025 adds FP8/FP16/BF16 Flops,
// I8/I32/I64 Ops and MFMA F4/F6/F8. HBM becomes the DRAM ceiling, L2, L1 and LDS keep their names. The first
// device's row is used; the others are reported with how far they differ.

#include "core/import/kernel/import_result.h"
#include "core/result.h"

#include <QString>

namespace ridgeline {

// text is the decoded file; errors name the line and column but not the file.
Result<ImportResult> importRocprofRoofline(const QString& text, const QString& fileName);

// True when the text starts like a rocprof-compute roofline.csv (a "device,HBMBw,..." header).
bool looksLikeRocprofRoofline(QStringView text);

}  // namespace ridgeline
