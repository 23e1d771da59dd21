#pragma once
// Compute ceilings: the FMA peak per ISA, precision and thread count, with the clock measured alongside.

#include "core/measure/measure_control.h"
#include "core/measure/probe.h"

#include <optional>

namespace ridgeline {

struct ComputeMeasurement {
    ComputeCeiling ceiling;
    double clockGhz = 0.0;  // highest clock sample of the threads, each taken right after an FMA repetition
};

// nullopt when cancelled.
std::optional<ComputeMeasurement> measureComputeCeiling(Isa isa, Precision precision, int threads,
                                                        MeasureControl& control);

}  // namespace ridgeline
