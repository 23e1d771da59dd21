#pragma once
// A low-precision ceiling: one unit's loop on N pinned threads, its best repetition, the clock measured under
// that unit's load, and the theoretical peak by the rule of peaks.h against the documented rates of
// lowp_peaks.h. The result is a session ComputeCeiling: precision "bf16", "fp16" or "int8", ISA naming the
// unit ("amx", "avx512_bf16", "sve_mmla", ...); for int8, gflops holds giga-operations per second. The loops are
// each architecture's (lowp_kernels.h: lowp_kernels.cpp on x86-64, arm64/lowp_kernels_arm64.cpp on ARM64); the
// plan, the timing and the peak are the same for both.

#include "core/measure/lowp/lowp_kernels.h"
#include "core/measure/lowp/lowp_peaks.h"
#include "core/measure/run/measure_control.h"
#include "core/session/session.h"

#include <vector>

namespace ridgeline {

struct LowpPlan {
    std::vector<LowpUnit> units;             // the units to measure a ceiling of, in table order
    std::vector<SkippedExperiment> skipped;  // the others of the machine's architecture, each with its reason
};
// From the machine's flags (and, live, this processor and the kernel's AMX permission): the units of the machine's
// architecture (machineArch); an ARM64 machine lists no x86-64 unit as skipped, nor the other way round.
LowpPlan planLowpCeilings(const MachineInfo& machine);

struct LowpCeiling {
    LowpUnit unit = LowpUnit::Avx512Bf16;
    ComputeCeiling ceiling;         // fmaPerCycle: the unit's instructions per cycle per core
    std::vector<Finding> findings;  // what the peak rule found impossible or doubtful
};

// The session name of a unit's ceiling: "bf16 amx x2", as the FMA ceilings are "fp32 avx512 x2".
QString lowpCeilingName(LowpUnit unit, int threads);

// Error::Code::Unsupported (with the reason) when the unit is not available, Cancelled when stopped.
Result<LowpCeiling> measureLowpCeiling(LowpUnit unit, int threads, MeasureControl& control,
                                       const MachineInfo& machine = hostMachine());

}  // namespace ridgeline
