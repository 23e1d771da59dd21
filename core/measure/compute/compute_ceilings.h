#pragma once
// Compute ceilings: the FMA peak per ISA, precision and thread count, with the clock measured alongside.

#include "core/measure/machine/isa.h"
#include "core/measure/run/measure_control.h"
#include "core/session/session.h"

#include <optional>

namespace ridgeline {

struct ComputeMeasurement {
    ComputeCeiling ceiling;
    // The clock while this ISA's FMA units are busy: the highest sample of the threads, each taken right
    // after an FMA repetition by an add chain running beside FMAs of the same ISA.
    double clockGhz = 0.0;
};

// Fills the ceiling's measured fields; its theoretical peak is the caller's (peaks.h). nullopt when cancelled.
std::optional<ComputeMeasurement> measureComputeCeiling(Isa isa, Precision precision, int threads,
                                                        MeasureControl& control);

}  // namespace ridgeline
