#pragma once
// What the bandwidth-vs-working-set chart (the staircase) draws, without widgets: one mix of the session's
// bandwidth curve, the cache capacities, the plateaus (the bandwidth ceilings the roofline draws, with their
// values) and the ticks of both log axes: sizes at every other power of two, bandwidth at every decade with
// minor labels at 2 and 5.

#include "core/session/session.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace ridgeline::ui {

struct StaircasePoint {
    std::int64_t bytes = 0;
    double log2Bytes = 0.0;
    double gbps = 0.0;  // median
    QString level;      // "" in a transition between levels
    Spread spread;
    int threads = 1;
};

struct StaircaseTick {
    double position = 0.0;  // log2(bytes) on the x axis, log10(GB/s) on the y axis
    QString label;
    bool major = false;  // a decade (y), a power of 1024 (x)
};

struct CacheMarker {
    double log2Bytes = 0.0;
    QString label;  // "L2 2 MiB": the capacity this process can use
};

struct StaircasePlateau {
    QString level;
    double log2Bytes = 0.0;  // the ceiling's working set
    double gbps = 0.0;       // the ceiling: what the roofline draws for this level
    QString text;            // "L2 312 GB/s"
};

struct BandwidthStaircase {
    QString mix;                         // "read" when the session has it, else its first mix
    std::vector<StaircasePoint> points;  // ascending working set
    std::vector<CacheMarker> caches;
    std::vector<StaircasePlateau> plateaus;
    double xMin = 12.0;  // log2(bytes)
    double xMax = 30.0;
    double yMin = 1.0;  // GB/s
    double yMax = 1000.0;
    std::vector<StaircaseTick> xTicks;
    std::vector<StaircaseTick> yTicks;
};

BandwidthStaircase buildStaircase(const Session& session);

// Decade ticks with minor ones at 2x and 5x, between min and max (> 0), at log10 positions: "10", "20", "50".
std::vector<StaircaseTick> decadeTicks(double min, double max);

// The hover text of one point: working set, bandwidth with its spread, level and threads.
QString staircasePointText(const StaircasePoint& point);

}  // namespace ridgeline::ui
