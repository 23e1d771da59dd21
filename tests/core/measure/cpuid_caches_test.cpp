// Caches from cpuid register values of real CPUs (cpuid_caches.h): what the probe falls back to when sysfs has
// no cache description. The register values follow the layouts of Intel's SDM and AMD's APM; the Zen 5 guest's
// are the ones its cpuid answered in a session here (2 vCPUs, /sys/devices/system/cpu/cpu0/cache absent).
#include "core/measure/machine/cpuid_caches.h"

#include <gtest/gtest.h>

#include <map>
#include <utility>

using namespace ridgeline;

namespace {

using Leaves = std::map<std::pair<std::uint32_t, std::uint32_t>, CpuidRegisters>;

CpuidQuery answer(Leaves leaves)
{
    return [leaves = std::move(leaves)](std::uint32_t leaf, std::uint32_t subleaf) {
        const auto it = leaves.find({leaf, subleaf});
        return it == leaves.end() ? CpuidRegisters{} : it->second;
    };
}

// One subleaf of leaf 4 / 0x8000001D: type (1 data, 2 instruction, 3 unified), level, IDs sharing it,
// ways, line bytes and sets.
CpuidRegisters deterministic(unsigned type, unsigned level, unsigned sharing, unsigned ways, unsigned line,
                             unsigned sets)
{
    CpuidRegisters r;
    r.eax = type | (level << 5) | (1u << 8) | ((sharing - 1) << 14);
    r.ebx = ((ways - 1) << 22) | (line - 1);
    r.ecx = sets - 1;
    return r;
}

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * KiB;

void expectCache(const CacheInfo& cache, int level, const char* type, std::int64_t bytes, int sharedBy)
{
    EXPECT_EQ(cache.level, level);
    EXPECT_EQ(cache.type, QString::fromLatin1(type));
    EXPECT_EQ(cache.sizeBytes, bytes) << "L" << level;
    EXPECT_EQ(cache.sharedByCpus, sharedBy) << "L" << level;
}

}  // namespace

TEST(CpuidCaches, AZen5GuestWithoutTopologyExtensionsReadsAmdsLegacyLeaves)
{
    const Leaves zen5Guest = {
        {{0x80000000, 0}, {0x80000021, 0x68747541, 0x444d4163, 0x69746e65}},
        {{0x80000001, 0}, {0x00b00f21, 0, 0x00000000, 0}},  // no TopologyExtensions
        {{0x80000005, 0}, {0xff60ff40, 0xff60ff40, 0x300c0140, 0x20080140}},
        {{0x80000006, 0}, {0x40802040, 0x60804040, 0x04006140, 0x0fe09140}},
    };
    const CpuidCaches found = cachesFromCpuid(QStringLiteral("AuthenticAMD"), answer(zen5Guest), CpuTopology{1, 2});
    ASSERT_EQ(found.caches.size(), 3u);
    expectCache(found.caches[0], 1, "Data", 48 * KiB, 1);
    expectCache(found.caches[1], 2, "Unified", 1 * MiB, 1);
    expectCache(found.caches[2], 3, "Unified", 508 * MiB, 2);  // the host's whole L3, as its sysfs would say too
    EXPECT_EQ(found.source, QStringLiteral("cpuid leaves 0x80000005 and 0x80000006"));
}

TEST(CpuidCaches, AZen4DesktopWithTopologyExtensionsReadsLeaf8000001D)
{
    const Leaves zen4 = {
        {{0x80000000, 0}, {0x80000028, 0, 0, 0}},
        {{0x80000001, 0}, {0, 0, 1u << 22, 0}},
        {{0x8000001D, 0}, deterministic(1, 1, 2, 8, 64, 64)},       // L1d 32 KiB, both threads of a core
        {{0x8000001D, 1}, deterministic(2, 1, 2, 8, 64, 64)},       // L1i: left out
        {{0x8000001D, 2}, deterministic(3, 2, 2, 8, 64, 2048)},     // L2 1 MiB
        {{0x8000001D, 3}, deterministic(3, 3, 16, 16, 64, 32768)},  // L3 32 MiB, the CCX's 16 threads
    };
    const CpuidCaches found = cachesFromCpuid(QStringLiteral("AuthenticAMD"), answer(zen4), CpuTopology{2, 16});
    ASSERT_EQ(found.caches.size(), 3u);
    expectCache(found.caches[0], 1, "Data", 32 * KiB, 2);
    expectCache(found.caches[1], 2, "Unified", 1 * MiB, 2);
    expectCache(found.caches[2], 3, "Unified", 32 * MiB, 16);
    EXPECT_EQ(found.source, QStringLiteral("cpuid leaf 0x8000001D"));
}

TEST(CpuidCaches, AnIntelXeonGuestReadsLeaf4AndSharesTheL3AmongItsOwnCpusOnly)
{
    // Sapphire Rapids: 48 KiB L1d, 2 MiB L2, 105 MiB L3 whose sharing field counts the host's 128 IDs.
    const Leaves xeon = {
        {{0, 0}, {0x20, 0x756e6547, 0x6c65746e, 0x49656e69}}, {{4, 0}, deterministic(1, 1, 2, 12, 64, 64)},
        {{4, 1}, deterministic(2, 1, 2, 8, 64, 64)},          {{4, 2}, deterministic(3, 2, 2, 16, 64, 2048)},
        {{4, 3}, deterministic(3, 3, 128, 15, 64, 114688)},
    };
    const CpuidCaches found = cachesFromCpuid(QStringLiteral("GenuineIntel"), answer(xeon), CpuTopology{2, 2});
    ASSERT_EQ(found.caches.size(), 3u);
    expectCache(found.caches[0], 1, "Data", 48 * KiB, 2);
    expectCache(found.caches[1], 2, "Unified", 2 * MiB, 2);
    expectCache(found.caches[2], 3, "Unified", 105 * MiB, 2);
    EXPECT_EQ(found.source, QStringLiteral("cpuid leaf 4"));
}

TEST(CpuidCaches, AnECoreClusterSharesItsL2AmongFourCores)
{
    // Gracemont modules: four single-thread cores share one 2 MiB L2; the last level is the package's L3.
    const Leaves eCores = {
        {{0, 0}, {0x20, 0, 0, 0}},
        {{4, 0}, deterministic(1, 1, 1, 8, 64, 64)},
        {{4, 1}, deterministic(3, 2, 4, 16, 64, 2048)},
        {{4, 2}, deterministic(3, 3, 32, 12, 64, 16384)},
    };
    const CpuidCaches found = cachesFromCpuid(QStringLiteral("GenuineIntel"), answer(eCores), CpuTopology{1, 8});
    ASSERT_EQ(found.caches.size(), 3u);
    expectCache(found.caches[0], 1, "Data", 32 * KiB, 1);
    expectCache(found.caches[1], 2, "Unified", 2 * MiB, 4);
    expectCache(found.caches[2], 3, "Unified", 12 * MiB, 8);
}

TEST(CpuidCaches, ACpuWithoutACacheLeafDescribesNothing)
{
    const Leaves old = {{{0, 0}, {0x2, 0, 0, 0}}};
    EXPECT_TRUE(cachesFromCpuid(QStringLiteral("GenuineIntel"), answer(old), CpuTopology{}).caches.empty());
    EXPECT_TRUE(cachesFromCpuid(QStringLiteral("AuthenticAMD"), answer({}), CpuTopology{}).caches.empty());
}
