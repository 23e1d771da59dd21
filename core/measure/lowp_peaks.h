#pragma once
// Documented peak rates of the low-precision units, per core and cycle, by core family. A theoretical peak is
// this rate x cores x the clock measured under the unit's load (AMX runs at a lower clock than scalar code).
// The core family is told from the vendor, the CPU family and the flags, never from the model number, which
// a virtual machine may invent (a KVM guest on an AMX Xeon reports model 167, a desktop part).

#include "core/measure/lowp_units.h"

#include <optional>

namespace ridgeline {

struct LowpPeak {
    double instructionsPerCycle = 0.0;  // per core, for the instruction the ceiling loop runs
    double opsPerCycle = 0.0;           // per core: instructionsPerCycle x LowpUnitInfo::opsPerInstruction
    QString core;                       // the core family the figure is for
    QString source;                     // where the figure is documented
};

// nullopt when this core family is not in the table, or the unit is not on the CPU; the ceiling is then
// shown without a theoretical peak, and says why (lowpPeakUnknownReason).
std::optional<LowpPeak> documentedLowpPeak(LowpUnit unit, const CpuDescription& cpu);
QString lowpPeakUnknownReason(LowpUnit unit, const CpuDescription& cpu);

}  // namespace ridgeline
