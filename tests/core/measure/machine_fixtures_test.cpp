// The probe, the table of known cores, sizing and labelling on fixtures of real machines
// (tests/data/machines, see its README): none of these tests depends on the CPU it runs on.
#include "core/measure/compute/peaks.h"
#include "core/measure/machine/probe.h"
#include "core/measure/memory/bandwidth_levels.h"
#include "core/measure/memory/sizing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <utility>
#include <vector>

using namespace ridgeline;

namespace {

constexpr std::int64_t kKiB = 1024;

MachineInfo machine(const char* name)
{
    return probeMachine(
        ProbeSources::fixture(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/machines/") + QString::fromLatin1(name)));
}

bool skipped(const ExperimentSizes& sizes, const QString& experiment)
{
    return std::any_of(sizes.skipped.begin(), sizes.skipped.end(),
                       [&](const SkippedExperiment& s) { return s.experiment == experiment && !s.reason.isEmpty(); });
}

const char* const kAllMachines[] = {
    "intel-xeon-amx-vm-480mib",
    "amd-zen4-vm",
    "amd-zen5-vm-508mib",
    "desktop-ryzen7-7700x-32mib",
    "kvm-skylake-no-l3",
    "one-cpu-vm-1gib",
    "epyc-7543-64cpu",
    "haswell-avx2-desktop",
    // ARM64: a server without L3 in sysfs, Apple's cluster-shared L2, Grace, a Graviton2 VM, ThunderX2.
    "arm64-altra",
    "arm64-asahi-m1",
    "arm64-grace",
    "arm64-graviton2",
    "arm64-thunderx2",
};
// ARM64 VMs whose sysfs describes no cache at all (and an ARM64 process cannot read the cache registers).
const char* const kCachelessArm64Vms[] = {"arm64-utm-m1", "arm64-parallels-m3", "arm64-phytium-d2000"};

}  // namespace

TEST(MachineFixtures, TheIntelVmWithAmxIsReadAsSysfsAndCpuinfoDescribeIt)
{
    const MachineInfo m = machine("intel-xeon-amx-vm-480mib");
    EXPECT_EQ(m.cpuModel, QStringLiteral("Intel(R) Xeon(R) Processor"));
    EXPECT_EQ(m.vendor, QStringLiteral("GenuineIntel"));
    EXPECT_EQ(m.family, 6);
    EXPECT_EQ(m.model, 167);
    EXPECT_TRUE(m.hypervisor);
    EXPECT_EQ(m.cores, 2);
    for (const char* flag :
         {"fma", "avx2", "avx512f", "avx512_bf16", "avx512_fp16", "avx512_vnni", "amx_tile", "amx_bf16", "amx_int8"})
        EXPECT_TRUE(m.isa.contains(QString::fromLatin1(flag))) << flag;
    EXPECT_FALSE(m.isa.contains(QStringLiteral("pclmulqdq"))) << "the session keeps only what ceilings depend on";
    ASSERT_EQ(m.caches.size(), 3u) << "the instruction cache is left out";
    EXPECT_EQ(m.caches[0].sizeBytes, 48 * kKiB);
    EXPECT_EQ(m.caches[1].sizeBytes, 2048 * kKiB);
    EXPECT_EQ(m.caches[2].sizeBytes, 480 * kMiB);
    EXPECT_EQ(m.caches[2].sharedByCpus, 2);
    EXPECT_EQ(m.memoryAvailableBytes, 23582720LL * 1024);
    EXPECT_TRUE(m.hostname.isEmpty()) << "a fixture is not this machine";
}

TEST(MachineFixtures, EveryMachineReadsWholeAndItsIsasComeFromItsFlags)
{
    for (const char* name : kAllMachines) {
        const MachineInfo m = machine(name);
        EXPECT_FALSE(m.cpuModel.isEmpty()) << name;
        EXPECT_GE(m.cores, 1) << name;
        EXPECT_GT(m.memoryAvailableBytes, 0) << name;
        ASSERT_GE(m.caches.size(), 2u) << name;
        for (size_t i = 1; i < m.caches.size(); ++i)
            EXPECT_GT(m.caches[i].level, m.caches[i - 1].level) << name;
        const std::vector<Isa> isas = fmaIsasFromFlags(m.isa);
        ASSERT_FALSE(isas.empty()) << name;
        EXPECT_EQ(isas.front(), Isa::Scalar);
        const bool avx512 = std::find(isas.begin(), isas.end(), Isa::Avx512) != isas.end();
        EXPECT_EQ(avx512, m.isa.contains(QStringLiteral("avx512f"))) << name;
        const bool sve = std::find(isas.begin(), isas.end(), Isa::Sve) != isas.end();
        EXPECT_EQ(sve, m.isa.contains(QStringLiteral("sve"))) << name;
        const bool neon = std::find(isas.begin(), isas.end(), Isa::Neon) != isas.end();
        EXPECT_EQ(neon, machineArch(m) == CpuArch::Arm64) << name << ": every ARM64 Linux system has NEON";
    }
    EXPECT_EQ(machine("one-cpu-vm-1gib").cores, 1);
    EXPECT_EQ(machine("epyc-7543-64cpu").cores, 64);
    EXPECT_EQ(machine("kvm-skylake-no-l3").caches.back().level, 2);
    const std::vector<Isa> avx2Only = fmaIsasFromFlags(machine("haswell-avx2-desktop").isa);
    EXPECT_EQ(avx2Only, (std::vector<Isa>{Isa::Scalar, Isa::Avx2}));
}

TEST(KnownCores, FeaturesOutweighAModelNumberAHypervisorMadeUp)
{
    // Model 0xA7 is Rocket Lake, a client core with one 512-bit FMA and no AMX; the flags say AMX.
    const CoreModel core = coreOf(machine("intel-xeon-amx-vm-480mib"));
    EXPECT_EQ(core.name, QStringLiteral("Intel Xeon with AMX (Sapphire Rapids or later)"));
    EXPECT_DOUBLE_EQ(core.avx512.min, 2.0);
    EXPECT_DOUBLE_EQ(core.avx512.max, 2.0);
    EXPECT_TRUE(core.basis.contains(QStringLiteral("hypervisor"))) << core.basis.toStdString();
    EXPECT_TRUE(core.basis.contains(QStringLiteral("Rocket Lake"))) << core.basis.toStdString();
}

TEST(KnownCores, EachFixtureMeetsItsTableEntry)
{
    struct Expected {
        const char* machine;
        const char* core;
        double avx2;
        double avx512;  // 0: none
    };
    const Expected expected[] = {
        {"amd-zen4-vm", "AMD Zen 4", 2.0, 1.0},  // double-pumped: one 512-bit FMA per cycle
        {"amd-zen5-vm-508mib", "AMD Zen 5", 2.0, 2.0},
        {"desktop-ryzen7-7700x-32mib", "AMD Zen 4", 2.0, 1.0},
        {"epyc-7543-64cpu", "AMD Zen 3", 2.0, 0.0},
        {"haswell-avx2-desktop", "Intel Haswell", 2.0, 0.0},
        {"kvm-skylake-no-l3", "Intel Skylake client (Skylake to Comet Lake)", 2.0, 0.0},
    };
    for (const Expected& e : expected) {
        const CoreModel core = coreOf(machine(e.machine));
        EXPECT_EQ(core.name, QString::fromLatin1(e.core)) << e.machine;
        EXPECT_TRUE(core.inTable);
        EXPECT_DOUBLE_EQ(core.rate(Isa::Scalar).max, 2.0) << e.machine;
        EXPECT_DOUBLE_EQ(core.rate(Isa::Avx2).max, e.avx2) << e.machine;
        EXPECT_DOUBLE_EQ(core.rate(Isa::Avx512).max, e.avx512) << e.machine;
    }
    // Xeon Scalable of Cascade Lake: one or two 512-bit FMA units by SKU; the measurement decides.
    const CoreModel cascade = coreOf(machine("one-cpu-vm-1gib"));
    EXPECT_DOUBLE_EQ(cascade.avx512.min, 1.0);
    EXPECT_DOUBLE_EQ(cascade.avx512.max, 2.0);
}

TEST(KnownCores, UnknownAndContradictoryCoresFallBackOnTheMeasurement)
{
    const QStringList avx512{QStringLiteral("fma"), QStringLiteral("avx2"), QStringLiteral("avx512f")};
    const CoreModel unknown = identifyCore(QStringLiteral("CentaurHauls"), 7, 59, avx512);
    EXPECT_FALSE(unknown.inTable);
    EXPECT_DOUBLE_EQ(unknown.avx512.min, 1.0);
    EXPECT_DOUBLE_EQ(unknown.avx512.max, 2.0);
    // A Zen 3 model number with AVX-512 flags: the model number cannot be right.
    const CoreModel contradiction = identifyCore(QStringLiteral("AuthenticAMD"), 25, 1, avx512);
    EXPECT_EQ(contradiction.name, QStringLiteral("AMD Zen 3"));
    EXPECT_TRUE(contradiction.avx512.known());
    EXPECT_TRUE(contradiction.basis.contains(QStringLiteral("AVX-512"))) << contradiction.basis.toStdString();
    // Zen 5 laptops keep a 256-bit datapath.
    EXPECT_DOUBLE_EQ(identifyCore(QStringLiteral("AuthenticAMD"), 26, 0x24, avx512).avx512.max, 1.0);
}

TEST(Peaks, TheoreticalPeaksOfEachFixtureFollowFromTheTableAndTheClock)
{
    // One core of each at 3.0 GHz, measured at 95 % of what its table entry allows.
    struct Case {
        const char* machine;
        Isa isa;
        Precision precision;
        double theoretical;  // GFLOP/s on one thread at 3 GHz
    };
    const Case cases[] = {
        {"amd-zen4-vm", Isa::Avx512, Precision::Fp32, 3.0 * 1 * 32},  // 96: double-pumped
        {"amd-zen4-vm", Isa::Avx2, Precision::Fp32, 3.0 * 2 * 16},    // 96 as well
        {"amd-zen5-vm-508mib", Isa::Avx512, Precision::Fp32, 3.0 * 2 * 32},
        {"intel-xeon-amx-vm-480mib", Isa::Avx512, Precision::Fp64, 3.0 * 2 * 16},
        {"haswell-avx2-desktop", Isa::Avx2, Precision::Fp64, 3.0 * 2 * 8},
        {"epyc-7543-64cpu", Isa::Scalar, Precision::Fp64, 3.0 * 2 * 2},
    };
    for (const Case& c : cases) {
        const CoreModel core = coreOf(machine(c.machine));
        const PeakAssessment peak =
            assessPeak(QStringLiteral("x"), 0.95 * c.theoretical, 1, 3.0, c.isa, c.precision, core);
        EXPECT_NEAR(peak.theoreticalGflops, c.theoretical, 1e-9) << c.machine;
        EXPECT_TRUE(peak.findings.empty()) << c.machine << ": " << peak.findings.front().message.toStdString();
        EXPECT_LE(0.95 * c.theoretical, peak.theoreticalGflops) << "a ceiling never exceeds its theoretical peak";
    }
}

TEST(Sizing, ARealisticLastLevelCacheIsPlausibleAHostsWholeL3IsNot)
{
    EXPECT_FALSE(judgeLastLevelCache(machine("intel-xeon-amx-vm-480mib").caches.back()).plausible);
    EXPECT_FALSE(judgeLastLevelCache(machine("amd-zen5-vm-508mib").caches.back()).plausible);
    const LlcJudgement xeon = judgeLastLevelCache(machine("intel-xeon-amx-vm-480mib").caches.back());
    EXPECT_TRUE(xeon.reason.contains(QStringLiteral("480 MiB"))) << xeon.reason.toStdString();
    for (const char* name : {"amd-zen4-vm", "desktop-ryzen7-7700x-32mib", "kvm-skylake-no-l3", "one-cpu-vm-1gib",
                             "epyc-7543-64cpu", "haswell-avx2-desktop"})
        EXPECT_TRUE(judgeLastLevelCache(machine(name).caches.back()).plausible) << name;
}

TEST(Sizing, SweepsOfPlausibleCachesReachFourTimesTheLastLevelAndStopThere)
{
    for (bool quick : {true, false}) {
        const MachineInfo m = machine("desktop-ryzen7-7700x-32mib");
        const SweepPlan plan = planSweep(m, 16, quick, measurementMemoryBudget(m));
        EXPECT_FALSE(plan.searchPlateau);
        EXPECT_EQ(plan.dramFromBytes, 4 * 32 * kMiB);
        EXPECT_EQ(plan.workingSets.front(), 16 * kKiB);
        EXPECT_GE(plan.workingSets.back(), (quick ? 4 : 8) * 32 * kMiB);
        EXPECT_LT(plan.workingSets.back(), (quick ? 8 : 16) * 32 * kMiB);
    }
    // 64 threads see eight 32 MiB L3 instances: 256 MiB, so the sweep reaches 1 GiB.
    const MachineInfo epyc = machine("epyc-7543-64cpu");
    const SweepPlan plan = planSweep(epyc, 64, true, measurementMemoryBudget(epyc));
    EXPECT_FALSE(plan.searchPlateau);
    EXPECT_EQ(plan.dramFromBytes, 4 * 256 * kMiB);
}

TEST(Sizing, AnImplausibleLastLevelCacheIsFoundFromTheCurveWithinTheSweepsBound)
{
    for (const char* name : {"intel-xeon-amx-vm-480mib", "amd-zen5-vm-508mib"}) {
        const MachineInfo m = machine(name);
        for (bool quick : {true, false}) {
            const SweepPlan plan = planSweep(m, 2, quick, measurementMemoryBudget(m));
            EXPECT_TRUE(plan.searchPlateau) << name;
            EXPECT_EQ(plan.searchFromBytes, 4 * aggregateCacheBytes(m.caches[1], 2)) << "past the L2 of two cores";
            // Bounded by time, or by memory (read and triad arrays: half the budget each); not by 4x the host's L3.
            const std::int64_t halfBudget = (measurementMemoryBudget(m) / 2 / 256) * 256;
            EXPECT_EQ(plan.workingSets.back(), std::min(quick ? kMaxSweepBytesQuick : kMaxSweepBytesFull, halfBudget))
                << name;
            EXPECT_FALSE(plan.reason.isEmpty());
        }
    }
}

TEST(Sizing, EveryExperimentFitsTheMemoryBudgetOfEveryMachine)
{
    std::vector<const char*> every(std::begin(kAllMachines), std::end(kAllMachines));
    every.insert(every.end(), std::begin(kCachelessArm64Vms), std::end(kCachelessArm64Vms));
    for (const char* name : every) {
        const MachineInfo m = machine(name);
        const std::int64_t budget = measurementMemoryBudget(m);
        const int threads = m.cores;
        for (bool quick : {true, false}) {
            const SweepPlan plan = planSweep(m, threads, quick, budget);
            for (std::int64_t ws : plan.workingSets)
                EXPECT_LE(2 * ws, budget) << name << ": the sweep keeps a read and a triad array of each size";
            const std::int64_t dram = plan.searchPlateau ? plan.workingSets.back() : plan.dramFromBytes;
            const ExperimentSizes sizes = sizeExperiments(dram, quick, budget);
            EXPECT_LE(3 * sizes.streamArrayBytes, std::max<std::int64_t>(budget, 3 * 32 * kMiB)) << name;
            EXPECT_LE(5 * 4 * sizes.fusionRows * kFusionColumns, budget) << name;
            EXPECT_GT(sizes.fusionRows, 0) << name << ": fusion runs on every machine";
            EXPECT_GT(sizes.decodeDim, 0) << name;
            EXPECT_FALSE(sizes.addSizes.empty()) << name;
            EXPECT_FALSE(sizes.sgemmSizes.empty()) << name;
            for (int n : sizes.addSizes)
                EXPECT_LE(12LL * n * n, budget) << name;
        }
    }
}

TEST(Sizing, ASmallMachineShrinksOrSkipsWhatDoesNotFitAndSaysWhy)
{
    const MachineInfo small = machine("one-cpu-vm-1gib");
    const std::int64_t budget = measurementMemoryBudget(small);  // a quarter of 696 MiB available
    EXPECT_EQ(budget, 712300LL * 1024 / 4);
    const ExperimentSizes sizes = sizeExperiments(4 * 36608 * kKiB, false, budget);
    EXPECT_TRUE(skipped(sizes, QStringLiteral("add 8192")));
    EXPECT_TRUE(skipped(sizes, QStringLiteral("add 4096")));
    EXPECT_TRUE(skipped(sizes, QStringLiteral("sgemm 4096")));
    EXPECT_TRUE(skipped(sizes, QStringLiteral("dgemm 4096")));
    EXPECT_EQ(sizes.addSizes, std::vector<int>{2048});
    EXPECT_GT(sizes.fusionRows, 0) << "fusion is shrunk, never dropped";
    EXPECT_TRUE(std::any_of(sizes.notes.begin(), sizes.notes.end(),
                            [](const Finding& f) { return f.subject == QStringLiteral("fusion"); }));
    for (const SkippedExperiment& s : sizes.skipped)
        EXPECT_TRUE(s.reason.contains(QStringLiteral("MiB"))) << s.reason.toStdString();

    // An absurdly small budget: fusion too is skipped, by name and with the reason.
    const ExperimentSizes tiny = sizeExperiments(64 * kMiB, true, 8 * kMiB);
    EXPECT_TRUE(skipped(tiny, QStringLiteral("fusion")));
    EXPECT_EQ(tiny.fusionRows, 0);
}

TEST(Labels, LevelsComeFromSysfsAndTheLastOneAtItsEffectiveSize)
{
    MachineInfo m = machine("intel-xeon-amx-vm-480mib");
    m.lastLevelCache = {3, 480 * kMiB, 128 * kMiB, QStringLiteral("curve")};
    const std::vector<CacheInfo> caches = labellingCaches(m, 2);
    ASSERT_EQ(caches.size(), 3u);
    EXPECT_EQ(aggregateCacheBytes(caches[2], 2), 128 * kMiB);
    const std::int64_t dramFrom = 256 * kMiB;
    EXPECT_EQ(levelForWorkingSet(32 * kKiB, caches, 2, dramFrom), QStringLiteral("L1"));
    EXPECT_EQ(levelForWorkingSet(2 * kMiB, caches, 2, dramFrom), QStringLiteral("L2"));
    EXPECT_EQ(levelForWorkingSet(32 * kMiB, caches, 2, dramFrom), QStringLiteral("L3"));
    EXPECT_EQ(levelForWorkingSet(192 * kMiB, caches, 2, dramFrom), QString()) << "between L3 and DRAM";
    EXPECT_EQ(levelForWorkingSet(256 * kMiB, caches, 2, dramFrom), QStringLiteral("DRAM"));
    // Labelled from sysfs alone, 256 MiB would have been "L3".
    EXPECT_EQ(levelForWorkingSet(256 * kMiB, m.caches, 2), QStringLiteral("L3"));

    // No L3: L2 is the last level and DRAM starts at four times it.
    const MachineInfo noL3 = machine("kvm-skylake-no-l3");
    EXPECT_EQ(levelForWorkingSet(8 * kMiB, noL3.caches, 4), QStringLiteral("L2"));
    EXPECT_EQ(levelForWorkingSet(64 * kMiB, noL3.caches, 4), QStringLiteral("DRAM"));
}

TEST(Sizing, ACurveWithoutAPlateauDoesNotSizeTheExperimentsAtGigabytes)
{
    const ExperimentSizes quick = sizeExperiments(1024 * kMiB, true, 8LL * 1024 * kMiB);
    EXPECT_EQ(quick.dramBytes, kMaxDramSizingBytesQuick);
    EXPECT_LE(5 * 4 * quick.fusionRows * kFusionColumns, 5 * kMaxDramSizingBytesQuick / 2);
    EXPECT_TRUE(std::any_of(quick.notes.begin(), quick.notes.end(),
                            [](const Finding& f) { return f.subject == QStringLiteral("experiment sizes"); }));
    EXPECT_EQ(sizeExperiments(2048 * kMiB, false, 64LL * 1024 * kMiB).dramBytes, kMaxDramSizingBytesFull);
    EXPECT_TRUE(sizeExperiments(128 * kMiB, true, 8LL * 1024 * kMiB).notes.empty());
}

TEST(Labels, ASearchStoppedForTimeAfterTheFallStillEndsInDram)
{
    // The Zen 5 guest reporting 508 MiB of L3, quick run: its read curve (best GB/s) falls slowly past the CCD's
    // 32 MiB and the search had time up to 256 MiB only, so it never flattened for an octave.
    MachineInfo m = machine("amd-zen5-vm-508mib");
    const SweepPlan plan = planSweep(m, 2, true, 8192 * kMiB);
    ASSERT_TRUE(plan.searchPlateau);
    DramPlateauFinder finder(plan.searchFromBytes);
    for (const auto& [mibs, gbps] : std::vector<std::pair<int, double>>{
             {8, 161.2}, {16, 159.2}, {32, 157.1}, {64, 120.5}, {128, 97.4}, {256, 78.2}})
        EXPECT_FALSE(finder.add(mibs * kMiB, gbps));
    EXPECT_TRUE(finder.fell());
    EXPECT_EQ(finder.cacheLimitBytes(), 32 * kMiB);
    m.lastLevelCache = lastLevelCacheAfterSweep(m, 2, plan, &finder, 256 * kMiB);
    EXPECT_EQ(m.lastLevelCache.effectiveBytes, 32 * kMiB);
    EXPECT_TRUE(m.lastLevelCache.basis.contains(QStringLiteral("DRAM is taken to start at 256 MiB")))
        << m.lastLevelCache.basis.toStdString();
    const std::vector<CacheInfo> caches = labellingCaches(m, 2);
    EXPECT_EQ(levelForWorkingSet(16 * kMiB, caches, 2, 256 * kMiB), QStringLiteral("L3"));
    EXPECT_EQ(levelForWorkingSet(256 * kMiB, caches, 2, 256 * kMiB), QStringLiteral("DRAM"))
        << "labelled from sysfs's 508 MiB it would be L3, and the run would have no DRAM roof";
}
