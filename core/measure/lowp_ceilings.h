#pragma once
// A low-precision ceiling: one unit's loop on N pinned threads, its best repetition, and the theoretical peak
// from the documented rate (lowp_peaks.h) at the clock measured under that unit's load.

#include "core/measure/lowp_kernels.h"
#include "core/measure/lowp_peaks.h"
#include "core/measure/measure_control.h"
#include "core/session/session.h"

#include <optional>

namespace ridgeline {

struct LowpCeiling {
    LowpUnit unit = LowpUnit::Avx512Bf16;
    int threads = 1;
    double gops = 0.0;  // the ceiling: the best repetition, in GFLOP/s (bf16, fp16) or GOPS (int8)
    Spread spread;      // G op/s over repetitions
    int repetitions = 0;
    double clockGhz = 0.0;  // median over the threads of the clock under this unit's load
    std::optional<LowpPeak> peak;
    double theoreticalGops = 0.0;  // peak x threads x clockGhz; 0 without a documented peak
    QString peakNote;              // why there is no theoretical peak, when there is none
};

// Error::Code::Unsupported (with the reason) when the unit is not available, Cancelled when stopped.
Result<LowpCeiling> measureLowpCeiling(LowpUnit unit, int threads, MeasureControl& control,
                                       const CpuDescription& cpu = hostCpu());

}  // namespace ridgeline
