#include "core/measure/memory/sizing.h"

#include "core/measure/machine/probe.h"
#include "core/measure/memory/bandwidth_levels.h"
#include "core/model/units.h"

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

QString mib(std::int64_t bytes)
{
    return formatBinaryBytes(static_cast<double>(bytes));  // the one byte formatter (core/model/units)
}

// The fusion tensor is never smaller than this (256 rows of 4096 fp32): below it there is nothing to show.
constexpr std::int64_t kMinFusionTensorBytes = 4 * kMiB;
constexpr std::int64_t kMinStreamArrayBytes = 32 * kMiB;
constexpr int kMinDecodeDim = 512;

}  // namespace

LlcJudgement judgeLastLevelCache(const CacheInfo& cache)
{
    LlcJudgement judgement;
    const std::int64_t limit = std::max(kAlwaysPlausibleLlcBytes, kMaxLlcBytesPerSharingCpu * cache.sharedByCpus);
    if (cache.sizeBytes > limit) {
        judgement.plausible = false;
        judgement.reason = QStringLiteral(
                               "the system reports an L%1 of %2 shared by %3 CPU(s), more than %4 per CPU: "
                               "likely the host's whole cache, not what this guest can use")
                               .arg(cache.level)
                               .arg(mib(cache.sizeBytes))
                               .arg(cache.sharedByCpus)
                               .arg(mib(kMaxLlcBytesPerSharingCpu));
    }
    return judgement;
}

namespace {

// The sweep's sizes up to `maxBytes`, none above the memory budget (the last step may overshoot maxBytes).
std::vector<std::int64_t> boundedSweep(std::int64_t maxBytes, int stepsPerOctave, std::int64_t memoryBudget)
{
    std::vector<std::int64_t> sizes = sweepWorkingSets(maxBytes, stepsPerOctave);
    while (sizes.size() > 1 && sizes.back() > memoryBudget)
        sizes.pop_back();
    // The bound itself when the next step would not fit: the sweep still reaches it.
    const std::int64_t bound = (std::min(maxBytes, memoryBudget) / 256) * 256;
    if (sizes.back() < bound)
        sizes.push_back(bound);
    return sizes;
}

}  // namespace

SweepPlan planSweep(const MachineInfo& machine, int threads, bool quick, std::int64_t memoryBudget)
{
    SweepPlan plan;
    const int stepsPerOctave = quick ? 1 : 2;
    // The read and triad arrays stay allocated for the whole sweep (BandwidthScratch): half the budget each.
    const std::int64_t cap =
        std::max<std::int64_t>(std::min(quick ? kMaxSweepBytesQuick : kMaxSweepBytesFull, memoryBudget / 2), 16 * kMiB);
    const std::vector<CacheInfo>& caches = machine.caches;
    if (caches.empty()) {
        plan.searchPlateau = true;
        plan.searchFromBytes = 8 * kMiB;  // beyond every L2 there is
        // ARM64's cache registers (CLIDR_EL1, CCSIDR_EL1) are the kernel's to read: sysfs is all a process has.
        plan.reason = machineArch(machine) == CpuArch::Arm64
                          ? QStringLiteral(
                                "the system describes no caches (sysfs lists none, as in many ARM64 VMs): "
                                "DRAM is found from the bandwidth curve")
                          : QStringLiteral(
                                "the system describes no caches (neither sysfs nor cpuid): DRAM is found "
                                "from the bandwidth curve");
        plan.workingSets = boundedSweep(cap, stepsPerOctave, memoryBudget / 2);
        return plan;
    }
    const CacheInfo& last = caches.back();
    const std::int64_t lastBytes = aggregateCacheBytes(last, threads);
    const std::int64_t belowBytes = caches.size() >= 2 ? aggregateCacheBytes(caches[caches.size() - 2], threads) : 0;
    const LlcJudgement judgement = judgeLastLevelCache(last);
    const std::int64_t target = std::max<std::int64_t>((quick ? 4 : 8) * lastBytes, 64 * kMiB);
    if (judgement.plausible && std::min(4 * lastBytes, target) <= cap) {
        plan.dramFromBytes = 4 * lastBytes;
        plan.reason = QStringLiteral("sysfs");
        plan.workingSets = boundedSweep(std::min(target, cap), stepsPerOctave, memoryBudget / 2);
        return plan;
    }
    plan.searchPlateau = true;
    plan.searchFromBytes = std::max<std::int64_t>(4 * belowBytes, kMiB);
    plan.reason = judgement.plausible ? QStringLiteral("4x the L%1 of %2 is beyond the sweep's bound of %3")
                                            .arg(last.level)
                                            .arg(mib(lastBytes))
                                            .arg(mib(cap))
                                      : judgement.reason;
    plan.workingSets = boundedSweep(cap, stepsPerOctave, memoryBudget / 2);
    return plan;
}

bool DramPlateauFinder::add(std::int64_t workingSetBytes, double gbps)
{
    if (m_found || workingSetBytes < m_searchFrom || !(gbps > 0.0))
        return m_found;
    m_points.push_back({workingSetBytes, gbps});
    m_peak = std::max(m_peak, gbps);
    const std::size_t start = trailingFlatStart();
    const Point& first = m_points[start];
    const Point& last = m_points.back();
    const bool fallen = last.gbps <= (1.0 - kPlateauFall) * m_peak;
    const bool anOctave = last.bytes >= 2 * first.bytes;
    m_found = fallen && anOctave;
    return m_found;
}

std::size_t DramPlateauFinder::trailingFlatStart() const
{
    if (m_points.empty())
        return 0;
    const double level = m_points.back().gbps;
    std::size_t start = m_points.size() - 1;
    while (start > 0 && std::abs(m_points[start - 1].gbps / level - 1.0) <= kPlateauFlatness)
        --start;
    return start;
}

std::int64_t DramPlateauFinder::plateauStartBytes() const
{
    if (m_points.empty())
        return 0;
    const std::size_t start = trailingFlatStart();
    // Without a fall, a flat stretch of an octave or more is the best guess there is.
    if (!m_found && m_points.back().bytes < 2 * m_points[start].bytes)
        return 0;
    return m_points[start].bytes;
}

bool DramPlateauFinder::fell() const
{
    return !m_points.empty() && m_points.back().gbps <= (1.0 - kPlateauFall) * m_peak;
}

std::int64_t DramPlateauFinder::cacheLimitBytes() const
{
    std::int64_t limit = 0;
    for (const Point& p : m_points)
        if (p.gbps >= kCacheSpeed * m_peak)
            limit = p.bytes;
    return fell() ? limit : 0;
}

LastLevelCache lastLevelCacheAfterSweep(const MachineInfo& machine, int threads, const SweepPlan& plan,
                                        const DramPlateauFinder* finder, std::int64_t largestSweptBytes)
{
    LastLevelCache cache;
    if (!machine.caches.empty()) {
        cache.level = machine.caches.back().level;
        cache.reportedBytes = aggregateCacheBytes(machine.caches.back(), threads);
    }
    cache.effectiveBytes = cache.reportedBytes;
    if (!plan.searchPlateau || !finder) {
        cache.basis = QStringLiteral("sysfs");
        return cache;
    }
    if (finder->found()) {
        if (finder->cacheLimitBytes() > 0)
            cache.effectiveBytes = finder->cacheLimitBytes();
        cache.basis = QStringLiteral(
                          "%1; the bandwidth curve stays at the cache's speed up to %2 and reaches its "
                          "DRAM plateau at %3")
                          .arg(plan.reason, mib(finder->cacheLimitBytes()), mib(finder->plateauStartBytes()));
        return cache;
    }
    // Not found: DRAM is taken to start at `dramFrom`, so the cache ends well below it.
    const std::int64_t dramFrom = finder->dramFromBytes(largestSweptBytes);
    cache.effectiveBytes = std::min(cache.reportedBytes > 0 ? cache.reportedBytes : dramFrom, dramFrom / 2);
    if (finder->fell()) {
        cache.effectiveBytes = std::min(cache.effectiveBytes, finder->cacheLimitBytes());
        cache.basis = QStringLiteral(
                          "%1; the curve falls from the cache's speed past %2 but has not flattened by %3, the "
                          "largest working set the search had time for: DRAM is taken to start at %4, part of "
                          "which may still be cached")
                          .arg(plan.reason, mib(finder->cacheLimitBytes()), mib(largestSweptBytes), mib(dramFrom));
    } else if (finder->plateauStartBytes() > 0) {
        cache.basis = QStringLiteral(
                          "%1; the curve does not fall from a cache plateau up to %2: DRAM is taken to "
                          "start at the flat stretch from %3, part of which may still be cached")
                          .arg(plan.reason, mib(largestSweptBytes), mib(finder->plateauStartBytes()));
    } else {
        cache.basis = QStringLiteral("%1; no DRAM plateau up to %2: DRAM is taken to start there")
                          .arg(plan.reason, mib(largestSweptBytes));
    }
    return cache;
}

std::vector<CacheInfo> labellingCaches(const MachineInfo& machine, int threads)
{
    std::vector<CacheInfo> caches = machine.caches;
    const LastLevelCache& llc = machine.lastLevelCache;
    if (caches.empty() || llc.effectiveBytes <= 0 || llc.effectiveBytes == llc.reportedBytes)
        return caches;
    CacheInfo& last = caches.back();
    const std::int64_t instances = std::max<std::int64_t>((threads + last.sharedByCpus - 1) / last.sharedByCpus, 1);
    last.sizeBytes = std::max<std::int64_t>(llc.effectiveBytes / instances, 1);
    return caches;
}

ExperimentSizes sizeExperiments(std::int64_t dramBytes, bool quick, std::int64_t memoryBudget)
{
    ExperimentSizes sizes;
    // The experiments' DRAM working set is bounded by time too: a curve that never reached a plateau would
    // otherwise size fusion at gigabytes.
    const std::int64_t timeBound = quick ? kMaxDramSizingBytesQuick : kMaxDramSizingBytesFull;
    if (dramBytes > timeBound) {
        sizes.notes.push_back(
            {QStringLiteral("experiment sizes"), QStringLiteral("note"),
             QStringLiteral("sized for a DRAM working set of %1 rather than %2, to keep a %3 run "
                            "short; caches may serve part of STREAM and fusion")
                 .arg(mib(timeBound), mib(dramBytes), quick ? QStringLiteral("quick") : QStringLiteral("full"))});
        dramBytes = timeBound;
    }
    sizes.dramBytes = dramBytes;
    auto skip = [&](const QString& experiment, std::int64_t needs) {
        sizes.skipped.push_back({experiment, QStringLiteral("needs %1 of memory; this run may use %2 (a quarter of "
                                                            "what is available)")
                                                 .arg(mib(needs), mib(memoryBudget))});
    };

    // STREAM: the three arrays together are 1.5x the smallest working set the curve serves from DRAM.
    std::int64_t array = std::max(dramBytes / 2, kMinStreamArrayBytes);
    if (3 * array > memoryBudget) {
        sizes.notes.push_back({QStringLiteral("STREAM triad"), QStringLiteral("note"),
                               QStringLiteral("arrays of %1 would not fit the memory budget of %2; using %3, which "
                                              "caches may partly serve")
                                   .arg(mib(array), mib(memoryBudget), mib(memoryBudget / 3))});
        array = memoryBudget / 3;
    }
    sizes.streamArrayBytes = (array / 4096) * 4096;

    // Fusion: input and output of one pass together are the DRAM working set; five tensors are allocated.
    std::int64_t tensor = std::max(dramBytes / 2, kMinFusionTensorBytes);
    if (5 * tensor > memoryBudget) {
        const std::int64_t fitted = memoryBudget / 5;
        if (fitted < kMinFusionTensorBytes) {
            skip(QStringLiteral("fusion"), 5 * kMinFusionTensorBytes);
            tensor = 0;
        } else {
            sizes.notes.push_back({QStringLiteral("fusion"), QStringLiteral("note"),
                                   QStringLiteral("tensors of %1 would not fit the memory budget of %2; using %3, "
                                                  "which caches may partly serve")
                                       .arg(mib(tensor), mib(memoryBudget), mib(fitted))});
            tensor = fitted;
        }
    }
    sizes.fusionRows = tensor / (4 * kFusionColumns);

    for (int n : {2048, 4096, 8192}) {
        const std::int64_t bytes = 12LL * n * n;
        if (bytes <= memoryBudget)
            sizes.addSizes.push_back(n);
        else
            skip(QStringLiteral("add %1").arg(n), bytes);
    }
    // A quick run skips the sizes that take longest: 4096 always, 2048 in fp64 (a choice, not a skip).
    const std::vector<int> sgemm = quick ? std::vector<int>{512, 1024, 2048} : std::vector<int>{512, 1024, 2048, 4096};
    const std::vector<int> dgemm = quick ? std::vector<int>{512, 1024} : std::vector<int>{512, 1024, 2048, 4096};
    for (int n : sgemm) {
        if (12LL * n * n <= memoryBudget)
            sizes.sgemmSizes.push_back(n);
        else
            skip(QStringLiteral("sgemm %1").arg(n), 12LL * n * n);
    }
    for (int n : dgemm) {
        if (24LL * n * n <= memoryBudget)
            sizes.dgemmSizes.push_back(n);
        else
            skip(QStringLiteral("dgemm %1").arg(n), 24LL * n * n);
    }
    // Decode: the weights and a batch of 256 inputs and outputs.
    auto decodeBytes = [](std::int64_t dim) { return 4 * dim * (dim + 2 * 256); };
    while (sizes.decodeDim > kMinDecodeDim && decodeBytes(sizes.decodeDim) > memoryBudget)
        sizes.decodeDim /= 2;
    if (decodeBytes(sizes.decodeDim) > memoryBudget) {
        skip(QStringLiteral("decode"), decodeBytes(sizes.decodeDim));
        sizes.decodeDim = 0;
    } else if (sizes.decodeDim != 4096) {
        sizes.notes.push_back({QStringLiteral("decode"), QStringLiteral("note"),
                               QStringLiteral("weights of 4096 x 4096 would not fit the memory budget of %1; "
                                              "using %2 x %2")
                                   .arg(mib(memoryBudget))
                                   .arg(sizes.decodeDim)});
    }
    return sizes;
}

}  // namespace ridgeline
