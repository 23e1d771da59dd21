#pragma once
// Bandwidth vs working set on all threads, read-heavy and triad mixes, and a STREAM-style triad.

#include "core/measure/measure_control.h"
#include "core/session/session.h"

#include <optional>

namespace ridgeline {

// One point of the curve (the level is left empty; the caller labels it). nullopt when cancelled.
// `mix` is "read" or "triad"; the working set is split evenly over the threads.
std::optional<BandwidthPoint> measureBandwidthPoint(const QString& mix, std::int64_t workingSetBytes, int threads,
                                                    MeasureControl& control);

// STREAM-style triad: three arrays of `arrayBytes` each, split over the threads; returns GB/s over the repetitions
// counting 24 bytes per element as STREAM does. nullopt when cancelled.
std::optional<Spread> measureStreamTriad(std::int64_t arrayBytes, int threads, MeasureControl& control);

}  // namespace ridgeline
