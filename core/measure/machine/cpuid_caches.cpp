#include "core/measure/machine/cpuid_caches.h"

#include <algorithm>

namespace ridgeline {

namespace {

constexpr std::uint32_t kIntelCacheLeaf = 4;
constexpr std::uint32_t kAmdCacheLeaf = 0x8000001D;
constexpr std::uint32_t kAmdL1Leaf = 0x80000005;
constexpr std::uint32_t kAmdL2L3Leaf = 0x80000006;
constexpr std::uint32_t kExtendedFeatures = 0x80000001;
constexpr std::uint32_t kTopologyExtensionsBit = 1u << 22;  // 0x80000001 ECX
constexpr int kMaxSubleaves = 16;

std::uint32_t bits(std::uint32_t value, int high, int low)
{
    return (value >> low) & ((1u << (high - low + 1)) - 1u);
}

int sharedBy(int level, int cpuidShare, bool lastLevel, const CpuTopology& topology)
{
    if (lastLevel && level >= 2)
        return cpuidShare > topology.threadsPerCore ? std::min(cpuidShare, topology.cpusPerPackage)
                                                    : topology.cpusPerPackage;
    // An L2 that cpuid says a cluster of cores shares (Intel's E-core modules share one among four).
    if (level == 2 && cpuidShare > 2 * topology.threadsPerCore)
        return std::min(cpuidShare, topology.cpusPerPackage);
    return topology.threadsPerCore;
}

// Leaf 4 and 0x8000001D share one layout.
std::vector<CacheInfo> deterministicCaches(std::uint32_t leaf, const CpuidQuery& cpuid, const CpuTopology& topology)
{
    struct Entry {
        CacheInfo cache;
        int cpuidShare = 0;
    };
    std::vector<Entry> entries;
    for (std::uint32_t subleaf = 0; subleaf < kMaxSubleaves; ++subleaf) {
        const CpuidRegisters r = cpuid(leaf, subleaf);
        const std::uint32_t type = bits(r.eax, 4, 0);
        if (type == 0)
            break;
        if (type == 2)  // instruction cache
            continue;
        Entry e;
        e.cache.level = static_cast<int>(bits(r.eax, 7, 5));
        e.cache.type = type == 1 ? QStringLiteral("Data") : QStringLiteral("Unified");
        const std::int64_t ways = bits(r.ebx, 31, 22) + 1;
        const std::int64_t partitions = bits(r.ebx, 21, 12) + 1;
        const std::int64_t line = bits(r.ebx, 11, 0) + 1;
        const std::int64_t sets = static_cast<std::int64_t>(r.ecx) + 1;
        e.cache.sizeBytes = ways * partitions * line * sets;
        e.cpuidShare = static_cast<int>(bits(r.eax, 25, 14)) + 1;
        if (e.cache.level > 0)
            entries.push_back(e);
    }
    int lastLevel = 0;
    for (const Entry& e : entries)
        lastLevel = std::max(lastLevel, e.cache.level);
    std::vector<CacheInfo> caches;
    for (Entry& e : entries) {
        e.cache.sharedByCpus = sharedBy(e.cache.level, e.cpuidShare, e.cache.level == lastLevel, topology);
        caches.push_back(e.cache);
    }
    return caches;
}

std::vector<CacheInfo> amdLegacyCaches(const CpuidQuery& cpuid, const CpuTopology& topology)
{
    const std::uint32_t maxExtended = cpuid(0x80000000, 0).eax;
    std::vector<CacheInfo> caches;
    auto add = [&](int level, const char* type, std::int64_t bytes) {
        if (bytes > 0)
            caches.push_back(CacheInfo{level, QString::fromLatin1(type), bytes, 1});
    };
    if (maxExtended >= kAmdL1Leaf)
        add(1, "Data", std::int64_t{bits(cpuid(kAmdL1Leaf, 0).ecx, 31, 24)} * 1024);
    if (maxExtended >= kAmdL2L3Leaf) {
        const CpuidRegisters r = cpuid(kAmdL2L3Leaf, 0);
        add(2, "Unified", std::int64_t{bits(r.ecx, 31, 16)} * 1024);
        add(3, "Unified", std::int64_t{bits(r.edx, 31, 18)} * 512 * 1024);
    }
    const int lastLevel = caches.empty() ? 0 : caches.back().level;
    for (CacheInfo& cache : caches)
        cache.sharedByCpus = sharedBy(cache.level, 0, cache.level == lastLevel, topology);
    return caches;
}

}  // namespace

CpuidCaches cachesFromCpuid(const QString& vendor, const CpuidQuery& cpuid, const CpuTopology& topology)
{
    CpuidCaches result;
    const bool amd = vendor == QLatin1String("AuthenticAMD") || vendor == QLatin1String("HygonGenuine");
    if (amd) {
        const std::uint32_t maxExtended = cpuid(0x80000000, 0).eax;
        const bool topologyExtensions =
            maxExtended >= kAmdCacheLeaf && (cpuid(kExtendedFeatures, 0).ecx & kTopologyExtensionsBit) != 0;
        if (topologyExtensions) {
            result.caches = deterministicCaches(kAmdCacheLeaf, cpuid, topology);
            result.source = QStringLiteral("cpuid leaf 0x8000001D");
        } else {
            result.caches = amdLegacyCaches(cpuid, topology);
            result.source = QStringLiteral("cpuid leaves 0x80000005 and 0x80000006");
        }
    } else if (cpuid(0, 0).eax >= kIntelCacheLeaf) {
        result.caches = deterministicCaches(kIntelCacheLeaf, cpuid, topology);
        result.source = QStringLiteral("cpuid leaf 4");
    }
    std::stable_sort(result.caches.begin(), result.caches.end(),
                     [](const CacheInfo& a, const CacheInfo& b) { return a.level < b.level; });
    return result;
}

}  // namespace ridgeline
