#include "core/measure/memory/bandwidth_levels.h"

#include "core/measure/machine/probe.h"

#include <cmath>
#include <map>

namespace ridgeline {

QString levelForWorkingSet(std::int64_t workingSetBytes, const std::vector<CacheInfo>& caches, int threads,
                           std::int64_t dramFromBytes)
{
    const auto ws = static_cast<double>(workingSetBytes);
    double below = 0.0;  // capacity of the level below
    for (const CacheInfo& cache : caches) {
        const auto capacity = static_cast<double>(aggregateCacheBytes(cache, threads));
        if (ws >= 4.0 * below && ws <= 0.75 * capacity)
            return QStringLiteral("L%1").arg(cache.level);
        below = capacity;
    }
    const double dramFrom = dramFromBytes > 0 ? static_cast<double>(dramFromBytes) : 4.0 * below;
    if (dramFrom > 0.0 && ws >= dramFrom)
        return QStringLiteral("DRAM");
    return {};
}

std::vector<BandwidthCeiling> bandwidthCeilingsFromCurve(const std::vector<BandwidthPoint>& curve)
{
    std::map<QString, const BandwidthPoint*> best;
    for (const BandwidthPoint& point : curve) {
        if (point.level.isEmpty())
            continue;
        const BandwidthPoint*& current = best[point.level];
        if (!current || point.spread.max > current->spread.max)
            current = &point;
    }
    std::vector<BandwidthCeiling> ceilings;
    for (const auto& [level, point] : best) {
        BandwidthCeiling ceiling;
        ceiling.level = level;
        ceiling.mix = point->mix;
        ceiling.gbps = point->spread.max;
        ceiling.workingSetBytes = point->workingSetBytes;
        ceiling.threads = point->threads;
        ceiling.spread = point->spread;
        ceiling.repetitions = 0;
        ceilings.push_back(ceiling);
    }
    // L1, L2, L3 ... then DRAM: the map sorts "DRAM" before "L1", so move it to the end.
    std::stable_partition(ceilings.begin(), ceilings.end(),
                          [](const BandwidthCeiling& c) { return c.level != QLatin1String("DRAM"); });
    return ceilings;
}

std::vector<std::int64_t> sweepWorkingSets(std::int64_t maxBytes, int stepsPerOctave)
{
    std::vector<std::int64_t> sizes;
    const double start = 16.0 * 1024.0;
    for (int step = 0;; ++step) {
        const double size = start * std::pow(2.0, static_cast<double>(step) / stepsPerOctave);
        // Round to whole cache lines so every thread's slice is a multiple of 64 bytes.
        const auto bytes = static_cast<std::int64_t>(std::llround(size / 256.0)) * 256;
        sizes.push_back(bytes);
        if (bytes >= maxBytes)
            break;
    }
    return sizes;
}

}  // namespace ridgeline
