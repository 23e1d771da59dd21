#pragma once
// The documented rates of the low-precision units, per core and cycle, as an extension of the table of known
// cores (known_cores.h): the core is identified there, once, and each unit's rate is written here as a
// multiple of that core's FMA rate of the same width (the units issue on the FMA pipes) or, for AMX, as the
// tile unit's own. The theoretical peak then follows the one rule of peaks.h: the measured rate snapped to a
// whole number of instructions per cycle, held against this table.

#include "core/measure/compute/peaks.h"
#include "core/measure/lowp/lowp_units.h"
#include "core/measure/machine/known_cores.h"

#include <optional>

namespace ridgeline {

struct LowpRate {
    FmaRate instructionsPerCycle;  // per core, of the instruction the ceiling loop runs
    QString core;                  // the known-core table's name
    QString source;                // where the rate is documented
};

// nullopt when the unit is not on the machine or its core has no entry for the unit.
std::optional<LowpRate> documentedLowpRate(LowpUnit unit, const MachineInfo& machine);

// What assessPeak needs for this unit on this machine (an empty rate when the table has none).
PeakSubject lowpPeakSubject(LowpUnit unit, const MachineInfo& machine);

}  // namespace ridgeline
