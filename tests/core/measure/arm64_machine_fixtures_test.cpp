// The probe, the table of known cores, sizing and labelling on fixtures of real ARM64 machines and VMs
// (tests/data/machines/arm64-*, see tests/data/README.md), ARM64's cache habits (no L3 in sysfs, an L2
// shared by a cluster, no cache description at all in a VM) on any host, x86-64 included.
#include "core/measure/machine/probe.h"
#include "core/measure/memory/bandwidth_levels.h"
#include "core/measure/memory/sizing.h"

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

constexpr std::int64_t kKiB = 1024;

MachineInfo machine(const char* name)
{
    return probeMachine(
        ProbeSources::fixture(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/machines/") + QString::fromLatin1(name)));
}

QStringList names(std::initializer_list<const char*> list)
{
    QStringList out;
    for (const char* name : list)
        out.append(QString::fromLatin1(name));
    return out;
}

struct Cache {
    int level;
    std::int64_t bytes;
    int sharedBy;
};

}  // namespace

TEST(Arm64Machines, EachIsReadAsItsCpuinfoAndSysfsDescribeIt)
{
    struct Expected {
        const char* machine;
        const char* model;
        const char* vendor;
        int part;
        int cores;
        QStringList isa;
        std::vector<Cache> caches;
    };
    const QStringList n1 = names({"asimd", "asimdhp", "asimddp"});
    const Expected expected[] = {
        {"arm64-altra", "Neoverse N1", "0x41", 0xd0c, 80, n1, {{1, 64 * kKiB, 1}, {2, 1024 * kKiB, 1}}},
        {"arm64-graviton2",
         "Neoverse N1",
         "0x41",
         0xd0c,
         2,
         n1,
         {{1, 64 * kKiB, 1}, {2, 1024 * kKiB, 1}, {3, 32 * kMiB, 2}}},
        {"arm64-grace",
         "Neoverse V2",
         "0x41",
         0xd4f,
         72,
         names({"asimd", "asimdhp", "asimddp", "bf16", "i8mm", "sve", "sve2", "svebf16", "svei8mm"}),
         {{1, 64 * kKiB, 1}, {2, 1024 * kKiB, 1}, {3, 114 * kMiB, 72}}},
        {"arm64-asahi-m1",
         "4x Apple Icestorm (M1) + 4x Apple Firestorm (M1)",
         "0x61",
         0x022,
         8,
         n1,
         {{1, 64 * kKiB, 1}, {2, 4 * kMiB, 4}}},
        {"arm64-thunderx2",
         "Cavium part 0x0af (not in Ridgeline's table)",
         "0x43",
         0x0af,
         2,
         names({"asimd"}),
         {{1, 32 * kKiB, 1}, {2, 256 * kKiB, 1}, {3, 32 * kMiB, 2}}},
        {"arm64-utm-m1", "Apple core (part hidden by the hypervisor)", "0x61", 0, 2, n1, {}},
        {"arm64-parallels-m3", "Arm core (part hidden by the hypervisor)", "0x41", 0, 1, n1, {}},
        {"arm64-phytium-d2000", "Phytium,D2000/8", "0x70", 0x663, 2, names({"asimd"}), {}},
    };
    for (const Expected& e : expected) {
        const MachineInfo m = machine(e.machine);
        EXPECT_EQ(m.cpuModel, QString::fromLatin1(e.model)) << e.machine;
        EXPECT_EQ(m.vendor, QString::fromLatin1(e.vendor)) << e.machine;
        EXPECT_EQ(machineArch(m), CpuArch::Arm64) << e.machine;
        EXPECT_EQ(m.model, e.part) << e.machine;
        EXPECT_EQ(m.cores, e.cores) << e.machine;
        EXPECT_EQ(m.isa, e.isa) << e.machine;
        ASSERT_EQ(m.caches.size(), e.caches.size()) << e.machine << ": the instruction cache is left out";
        for (std::size_t i = 0; i < e.caches.size(); ++i) {
            EXPECT_EQ(m.caches[i].level, e.caches[i].level) << e.machine;
            EXPECT_EQ(m.caches[i].sizeBytes, e.caches[i].bytes) << e.machine << " L" << e.caches[i].level;
            EXPECT_EQ(m.caches[i].sharedByCpus, e.caches[i].sharedBy) << e.machine << " L" << e.caches[i].level;
        }
    }
}

TEST(Arm64Machines, KnownCoresGivePipesTheOthersAreMeasuredWithoutACrossCheck)
{
    const CoreModel n1 = coreOf(machine("arm64-altra"));
    EXPECT_TRUE(n1.inTable);
    EXPECT_EQ(n1.name, QStringLiteral("Neoverse N1"));
    EXPECT_DOUBLE_EQ(n1.rate(Isa::Neon).max, 2.0);
    EXPECT_DOUBLE_EQ(n1.rate(Isa::Scalar).max, 2.0);
    EXPECT_FALSE(n1.rate(Isa::Sve).known()) << "N1 has no SVE";
    EXPECT_FALSE(n1.rate(Isa::Avx2).known());
    const CoreModel v2 = coreOf(machine("arm64-grace"));
    EXPECT_EQ(v2.name, QStringLiteral("Neoverse V2"));
    EXPECT_DOUBLE_EQ(v2.rate(Isa::Neon).max, 4.0);
    EXPECT_DOUBLE_EQ(v2.rate(Isa::Sve).max, 4.0);
    for (const char* name : {"arm64-thunderx2", "arm64-utm-m1", "arm64-parallels-m3", "arm64-phytium-d2000"}) {
        const CoreModel core = coreOf(machine(name));
        EXPECT_FALSE(core.inTable) << name;
        EXPECT_FALSE(core.rate(Isa::Neon).known()) << name << ": never guessed";
        EXPECT_TRUE(core.basis.contains(QStringLiteral("not in the table"))) << core.basis.toStdString();
    }
}

TEST(Arm64Machines, WithoutAnL3InSysfsL2IsTheLastLevelAndDramStartsAtFourTimesIt)
{
    // Ampere Altra lists L1 and L2 only (its 32 MB system-level cache is not a CPU cache there).
    const MachineInfo altra = machine("arm64-altra");
    for (bool quick : {true, false}) {
        const SweepPlan plan = planSweep(altra, 80, quick, measurementMemoryBudget(altra));
        EXPECT_FALSE(plan.searchPlateau) << "a plausible last level: sysfs is trusted";
        EXPECT_EQ(plan.dramFromBytes, 4 * 80 * kMiB) << "four times 80 private 1 MiB L2s";
        EXPECT_GE(plan.workingSets.back(), plan.dramFromBytes);
    }
    // One thread: 64 KiB L1, 1 MiB L2, DRAM from 4 MiB; no L3 label ever.
    EXPECT_EQ(levelForWorkingSet(32 * kKiB, altra.caches, 1), QStringLiteral("L1"));
    EXPECT_EQ(levelForWorkingSet(512 * kKiB, altra.caches, 1), QStringLiteral("L2"));
    EXPECT_EQ(levelForWorkingSet(4 * kMiB, altra.caches, 1), QStringLiteral("DRAM"));
    // All 80 threads: 5 MiB of L1, 80 MiB of L2; the system-level cache's range is left unlabelled.
    EXPECT_EQ(levelForWorkingSet(2 * kMiB, altra.caches, 80), QStringLiteral("L1"));
    EXPECT_EQ(levelForWorkingSet(32 * kMiB, altra.caches, 80), QStringLiteral("L2"));
    EXPECT_EQ(levelForWorkingSet(128 * kMiB, altra.caches, 80), QString());
    EXPECT_EQ(levelForWorkingSet(320 * kMiB, altra.caches, 80), QStringLiteral("DRAM"));
    for (std::int64_t ws = 16 * kKiB; ws <= 1024 * kMiB; ws *= 2)
        EXPECT_NE(levelForWorkingSet(ws, altra.caches, 80), QStringLiteral("L3")) << ws;
}

TEST(Arm64Machines, AnL2SharedByAClusterCountsOncePerCluster)
{
    // Apple M1 under Asahi: CPU 0's L2 (4 MiB) is shared by the four efficiency cores 0-3.
    const MachineInfo m1 = machine("arm64-asahi-m1");
    const CacheInfo& l2 = m1.caches.back();
    EXPECT_EQ(aggregateCacheBytes(l2, 1), 4 * kMiB);
    EXPECT_EQ(aggregateCacheBytes(l2, 4), 4 * kMiB) << "four threads share one cluster's L2, not four";
    EXPECT_EQ(aggregateCacheBytes(l2, 8), 8 * kMiB);
    // At four threads 2 MiB sits in the L2; 8 MiB would if each core had its own 4 MiB, but they share it.
    EXPECT_EQ(levelForWorkingSet(2 * kMiB, m1.caches, 4), QStringLiteral("L2"));
    EXPECT_EQ(levelForWorkingSet(8 * kMiB, m1.caches, 4), QString());
    EXPECT_EQ(levelForWorkingSet(16 * kMiB, m1.caches, 4), QStringLiteral("DRAM"));
    const SweepPlan plan = planSweep(m1, 8, true, measurementMemoryBudget(m1));
    EXPECT_FALSE(plan.searchPlateau);
    EXPECT_EQ(plan.dramFromBytes, 4 * 8 * kMiB);
}

TEST(Arm64Machines, GracesL2sTogetherNearlyFillItsL3SoAllThreadsLabelNoL3)
{
    // 72 private 1 MiB L2s (72 MiB) against a 114 MiB L3: no working set is clearly the L3's on all threads, so
    // none is called L3; one thread sees L1, L2 and L3 apart.
    const MachineInfo grace = machine("arm64-grace");
    EXPECT_TRUE(judgeLastLevelCache(grace.caches.back()).plausible) << "114 MiB for 72 CPUs";
    EXPECT_EQ(levelForWorkingSet(32 * kMiB, grace.caches, 72), QStringLiteral("L2"));
    EXPECT_EQ(levelForWorkingSet(80 * kMiB, grace.caches, 72), QString());
    EXPECT_EQ(levelForWorkingSet(512 * kMiB, grace.caches, 72), QStringLiteral("DRAM"));
    EXPECT_EQ(levelForWorkingSet(32 * kMiB, grace.caches, 1), QStringLiteral("L3"));
    EXPECT_EQ(levelForWorkingSet(512 * kMiB, grace.caches, 1), QStringLiteral("DRAM"));
    const SweepPlan plan = planSweep(grace, 72, true, measurementMemoryBudget(grace));
    EXPECT_FALSE(plan.searchPlateau);
    EXPECT_EQ(plan.dramFromBytes, 4 * 114 * kMiB);
}

TEST(Arm64Machines, AVmWithoutCachesFindsDramOnTheCurveAndSaysWhy)
{
    for (const char* name : {"arm64-utm-m1", "arm64-parallels-m3", "arm64-phytium-d2000"}) {
        QStringList notes;
        const MachineInfo vm = probeMachine(
            ProbeSources::fixture(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/machines/") + QString::fromLatin1(name)),
            &notes);
        EXPECT_TRUE(vm.caches.empty()) << name;
        EXPECT_TRUE(notes.join(QLatin1Char(' ')).contains(QStringLiteral("sysfs has no cache description"))) << name;
        for (bool quick : {true, false}) {
            const SweepPlan plan = planSweep(vm, vm.cores, quick, measurementMemoryBudget(vm));
            EXPECT_TRUE(plan.searchPlateau) << name;
            EXPECT_EQ(plan.searchFromBytes, 8 * kMiB) << name;
            EXPECT_TRUE(plan.reason.contains(QStringLiteral("ARM64 VMs"))) << plan.reason.toStdString();
            EXPECT_EQ(plan.workingSets.back(), std::min(quick ? kMaxSweepBytesQuick : kMaxSweepBytesFull,
                                                        (measurementMemoryBudget(vm) / 2 / 256) * 256))
                << name;
        }
        // Nothing is a cache level without a description; DRAM is where the curve's plateau starts.
        EXPECT_EQ(levelForWorkingSet(32 * kKiB, vm.caches, vm.cores, 64 * kMiB), QString());
        EXPECT_EQ(levelForWorkingSet(64 * kMiB, vm.caches, vm.cores, 64 * kMiB), QStringLiteral("DRAM"));
    }
}
