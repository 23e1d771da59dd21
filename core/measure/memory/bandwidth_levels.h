#pragma once
// Which memory level serves a working set, decided from the cache sizes sysfs reports (never guessed
// from the shape of the curve), and the ceilings read off the labelled curve.

#include "core/session/session.h"

namespace ridgeline {

// "L1", "L2", "L3", "DRAM", or "" for a working set in a transition between two levels.
// A level owns working sets from four times the level below's capacity (so that level, inclusive or
// victim, serves little of it) up to 3/4 of its own; DRAM owns working sets of at least four times the
// last level's capacity (the STREAM rule), or from `dramFromBytes` when the sweep found DRAM's plateau
// there (sizing.h); the last level's own range is unchanged by it.
QString levelForWorkingSet(std::int64_t workingSetBytes, const std::vector<CacheInfo>& caches, int threads,
                           std::int64_t dramFromBytes = 0);

// One ceiling per level: the point labelled with it whose best repetition is fastest, at that rate
// (a ceiling is what the machine can do; the curve itself keeps medians).
std::vector<BandwidthCeiling> bandwidthCeilingsFromCurve(const std::vector<BandwidthPoint>& curve);

// Working sets of the sweep: from 16 KiB up to at least `maxBytes`, `stepsPerOctave` per doubling.
std::vector<std::int64_t> sweepWorkingSets(std::int64_t maxBytes, int stepsPerOctave);

}  // namespace ridgeline
