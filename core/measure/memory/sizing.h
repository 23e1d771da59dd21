#pragma once
// How large each experiment is on this machine. Everything is bounded by the memory budget and by time;
// sizes come from the caches sysfs reports when those are plausible for this guest, and from the bandwidth
// curve when not (a VM often reports the host's whole L3: 480 MiB on a 2-vCPU Xeon, 508 MiB on a Zen 5 VM).

#include "core/session/session.h"

#include <cstdint>
#include <vector>

namespace ridgeline {

inline constexpr std::int64_t kMiB = 1024 * 1024;

// A last-level cache above both of these is not what one guest can use: real chips have at most about
// 6 MiB of L3 per logical CPU (3D V-Cache parts), so 16 MiB per sharing CPU leaves room; 64 MiB keeps
// small shared caches of few CPUs plausible.
inline constexpr std::int64_t kMaxLlcBytesPerSharingCpu = 16 * kMiB;
inline constexpr std::int64_t kAlwaysPlausibleLlcBytes = 64 * kMiB;

// Largest working set of the bandwidth sweep (quick, full): past it, time and page faults dominate.
inline constexpr std::int64_t kMaxSweepBytesQuick = 1024 * kMiB;
inline constexpr std::int64_t kMaxSweepBytesFull = 2048 * kMiB;
// Largest DRAM working set the experiments after the sweep are sized for (quick, full).
inline constexpr std::int64_t kMaxDramSizingBytesQuick = 256 * kMiB;
inline constexpr std::int64_t kMaxDramSizingBytesFull = 1024 * kMiB;

// Whether the reported last-level cache is one this guest can use, and why not.
struct LlcJudgement {
    bool plausible = true;
    QString reason;  // empty when plausible
};
LlcJudgement judgeLastLevelCache(const CacheInfo& cache);

struct SweepPlan {
    std::vector<std::int64_t> workingSets;  // ascending; a plateau search may stop before the last
    bool searchPlateau = false;             // true: stop once the DRAM plateau is found (DramPlateauFinder)
    std::int64_t searchFromBytes = 0;       // the plateau search looks at working sets from here on
    std::int64_t dramFromBytes = 0;         // without a search: DRAM from here (the STREAM rule, 4x LLC)
    QString reason;                         // why this plan, for the session
};
SweepPlan planSweep(const MachineInfo& machine, int threads, bool quick, std::int64_t memoryBudget);

// Decides point by point when the sweep has reached DRAM: the curve fell from the last cache's plateau by
// kPlateauFall and then stayed within kPlateauFlatness for an octave.
class DramPlateauFinder {
public:
    static constexpr double kPlateauFall = 0.20;
    static constexpr double kPlateauFlatness = 0.10;
    static constexpr double kCacheSpeed = 0.90;  // of the cache's plateau: still served by the cache

    explicit DramPlateauFinder(std::int64_t searchFromBytes) : m_searchFrom(searchFromBytes) {}

    // The best repetition's GB/s of the next (larger) working set; true once the plateau is found.
    bool add(std::int64_t workingSetBytes, double gbps);

    bool found() const { return m_found; }
    // The first working set of the plateau: DRAM from here. After the last point without a fall, the
    // trailing flat stretch is taken; 0 when there is none.
    std::int64_t plateauStartBytes() const;
    // Where DRAM is taken to start once the sweep ended at `largestSweptBytes`: the plateau, else that last size.
    std::int64_t dramFromBytes(std::int64_t largestSweptBytes) const
    {
        return plateauStartBytes() > 0 ? plateauStartBytes() : largestSweptBytes;
    }
    // The last working set is kPlateauFall below the cache's best: the curve has left the cache, whether or not
    // it has flattened yet (a search stopped for time).
    bool fell() const;
    // The largest working set still served at the cache's speed (0 when the curve has not fallen from it).
    std::int64_t cacheLimitBytes() const;

private:
    struct Point {
        std::int64_t bytes;
        double gbps;
    };
    std::size_t trailingFlatStart() const;
    std::int64_t m_searchFrom;
    std::vector<Point> m_points;
    double m_peak = 0.0;
    bool m_found = false;
};

// The last-level cache record after the sweep: reported as sysfs says, effective as the sweep found.
LastLevelCache lastLevelCacheAfterSweep(const MachineInfo& machine, int threads, const SweepPlan& plan,
                                        const DramPlateauFinder* finder, std::int64_t largestSweptBytes);

// The caches to label the curve with: sysfs's levels, the last one at its effective size.
std::vector<CacheInfo> labellingCaches(const MachineInfo& machine, int threads);

struct ExperimentSizes {
    std::int64_t dramBytes = 0;         // a working set served from DRAM on this machine
    std::int64_t streamArrayBytes = 0;  // each of STREAM's three arrays
    std::int64_t fusionRows = 0;        // fusion tensor: rows x kFusionColumns fp32
    std::vector<int> addSizes;          // n of the n x n fp32 adds
    std::vector<int> sgemmSizes;
    std::vector<int> dgemmSizes;
    int decodeDim = 4096;
    std::vector<SkippedExperiment> skipped;  // what does not fit, and why
    std::vector<Finding> notes;              // what was shrunk to fit, and why
};
inline constexpr std::int64_t kFusionColumns = 4096;

// dramBytes: from the sweep (the plateau's start, or 4x the plausible last-level cache).
ExperimentSizes sizeExperiments(std::int64_t dramBytes, bool quick, std::int64_t memoryBudget);

}  // namespace ridgeline
