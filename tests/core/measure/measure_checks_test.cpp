// The judgements of the engine, each on readings of real machines: the clock, snapped FMA rates and peaks,
// session cross-checks, and the DRAM plateau found from a bandwidth curve.
#include "core/measure/clock/clock.h"
#include "core/measure/clock/clock_chains.h"
#include "core/measure/compute/peaks.h"
#include "core/measure/memory/sizing.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;

namespace {

constexpr std::int64_t kKiB = 1024;

ComputeCeiling ceiling(const char* precision, const char* isa, int threads, double gflops)
{
    ComputeCeiling c;
    c.precision = QString::fromLatin1(precision);
    c.isa = QString::fromLatin1(isa);
    c.threads = threads;
    c.name = QStringLiteral("%1 %2 x%3").arg(c.precision, c.isa).arg(threads);
    c.gflops = gflops;
    return c;
}

bool hasFinding(const std::vector<Finding>& findings, const char* subject, const char* kind)
{
    for (const Finding& f : findings)
        if (f.subject == QLatin1String(subject) && f.kind == QLatin1String(kind) && !f.message.isEmpty())
            return true;
    return false;
}

}  // namespace

TEST(ClockJudgement, AgreeingChainsNearTheirReferencesAreTheClock)
{
    // The 2-vCPU Xeon of both chains 4.19 GHz, the TSC 2.6 GHz (turbo above nominal).
    ClockReadings xeon;
    xeon.addChainGhz = 4.19;
    xeon.mulChainGhz = 4.17;
    xeon.tscGhz = 2.6;
    xeon.cpuinfoGhz = 2.6;
    const ClockJudgement j = judgeClock(xeon);
    EXPECT_DOUBLE_EQ(j.ghz, 4.19);
    EXPECT_FALSE(j.measurement.doubtful) << j.measurement.doubt.toStdString();
    EXPECT_TRUE(j.measurement.method.contains(mulChainDescription().name));
    EXPECT_TRUE(j.measurement.method.contains(QStringLiteral("TSC")));
    EXPECT_EQ(j.measurement.reportedSource, QStringLiteral("/proc/cpuinfo cpu MHz"));

    // A desktop with cpufreq: boost above acpi-cpufreq's nominal maximum is still plausible.
    ClockReadings desktop;
    desktop.addChainGhz = desktop.mulChainGhz = 3.7;
    desktop.tscGhz = 2.8;
    desktop.cpufreqMaxGhz = 2.8;
    EXPECT_FALSE(judgeClock(desktop).measurement.doubtful);
    EXPECT_EQ(judgeClock(desktop).measurement.reportedSource, QStringLiteral("cpufreq cpuinfo_max_freq"));
}

TEST(ClockJudgement, ACeilingsClockIsTheReadingTakenWithItWhenTheClockMovedBetween)
{
    // The Xeon under load (19:00, load 7.5): the plain chains read 3.69 GHz, the chain beside scalar FMAs 4.09
    // GHz a moment later. At 3.69 GHz the scalar ceiling of 31.8 GFLOP/s on two threads was 108 % of its peak.
    const CeilingClock moved = ceilingClock(4.09, 3.69, QStringLiteral("scalar"));
    EXPECT_DOUBLE_EQ(moved.ghz, 4.09);
    EXPECT_TRUE(moved.note.contains(QStringLiteral("moved"))) << moved.note.toStdString();
    EXPECT_LE(31.8, 2 * 4.0 * moved.ghz);  // 2 threads x 2 FMA x 2 FLOP per cycle: under its peak now

    // AVX-512's licence lowers the clock beside its FMAs: that reading is the ceiling's, and no note.
    const CeilingClock licence = ceilingClock(3.85, 4.19, QStringLiteral("avx512"));
    EXPECT_DOUBLE_EQ(licence.ghz, 3.85);
    EXPECT_TRUE(licence.note.isEmpty());

    // Starved of ports (a third of the clock) or beyond any turbo step (twice it): the plain clock, said why.
    const CeilingClock starved = ceilingClock(1.3, 4.19, QStringLiteral("avx2"));
    EXPECT_DOUBLE_EQ(starved.ghz, 4.19);
    EXPECT_TRUE(starved.note.contains(QStringLiteral("starved")));
    const CeilingClock wild = ceilingClock(8.4, 4.19, QStringLiteral("avx2"));
    EXPECT_DOUBLE_EQ(wild.ghz, 4.19);
    EXPECT_TRUE(wild.note.contains(QStringLiteral("plain clock is used")));
}

TEST(ClockJudgement, AFoldedAddChainIsCaughtByTheImulChainAndTheTsc)
{
    // `add $1, reg` on the Xeon ran 5.3 adds per cycle: 22.3 "GHz".
    ClockReadings folded;
    folded.addChainGhz = 22.3;
    folded.mulChainGhz = 4.19;
    folded.tscGhz = 2.6;
    const ClockJudgement j = judgeClock(folded);
    EXPECT_DOUBLE_EQ(j.ghz, 4.19) << "the lower chain holds: a chain can only be fooled into running faster";
    EXPECT_TRUE(j.measurement.doubtful);
    EXPECT_TRUE(j.measurement.doubt.contains(QStringLiteral("22.30 GHz"))) << j.measurement.doubt.toStdString();
    EXPECT_TRUE(j.measurement.method.startsWith(mulChainDescription().name));

    // Both chains fooled alike: the TSC band and the absolute band still say no.
    ClockReadings both;
    both.addChainGhz = both.mulChainGhz = 19.1;
    both.tscGhz = 2.6;
    const ClockJudgement k = judgeClock(both);
    EXPECT_TRUE(k.measurement.doubtful);
    EXPECT_TRUE(k.measurement.doubt.contains(QStringLiteral("TSC"))) << k.measurement.doubt.toStdString();
    EXPECT_TRUE(k.measurement.doubt.contains(QStringLiteral("7.00 GHz")));

    // Above cpufreq's maximum by far: doubtful even without a TSC (an ARM64 machine, say).
    ClockReadings arm;
    arm.addChainGhz = arm.mulChainGhz = 6.0;
    arm.cpufreqMaxGhz = 3.0;
    EXPECT_TRUE(judgeClock(arm).measurement.doubtful);
}

TEST(Peaks, MeasuredRatesSnapToTheNearestRateACoreCanHave)
{
    EXPECT_DOUBLE_EQ(snapFmaPerCycle(1.84), 2.0);  // AVX-512 on the Xeon: 59 of 64 FLOP/cycle
    EXPECT_DOUBLE_EQ(snapFmaPerCycle(0.96), 1.0);  // Zen 4's double-pumped AVX-512
    EXPECT_DOUBLE_EQ(snapFmaPerCycle(1.45), 2.0);  // 72 % of two pipes is nearer two than one
    EXPECT_DOUBLE_EQ(snapFmaPerCycle(1.35), 1.0);
    EXPECT_DOUBLE_EQ(snapFmaPerCycle(2.9), 3.0);
    EXPECT_DOUBLE_EQ(snapFmaPerCycle(0.0625), 0.0625);  // AMX's tile op: one per 16 cycles
    EXPECT_DOUBLE_EQ(snapFmaPerCycle(0.0), 0.0);
}

TEST(Peaks, ACeilingAboveItsTableIsImpossibleAndNeverAboveItsTheoreticalPeak)
{
    const QStringList flags{QStringLiteral("fma"), QStringLiteral("avx2"), QStringLiteral("avx512f")};
    const CoreModel zen4 = identifyCore(QStringLiteral("AuthenticAMD"), 25, 17, flags);
    // Zen 4 cannot start two 512-bit FMAs per cycle: 60 FLOP/cycle is either a wrong clock or not Zen 4.
    const PeakAssessment above =
        assessPeak(QStringLiteral("fp32 avx512 x1"), 3.0 * 60, 1, 3.0, Isa::Avx512, Precision::Fp32, zen4);
    EXPECT_TRUE(hasFinding(above.findings, "fp32 avx512 x1", "impossible"));
    EXPECT_DOUBLE_EQ(above.fmaPerCycle, 2.0) << "the theoretical peak follows the measurement";
    EXPECT_GE(above.theoreticalGflops, 3.0 * 60);

    // Half the table (one thread of two on a core, or a busy machine): noted, peak from the table.
    const CoreModel xeon = identifyCore(QStringLiteral("GenuineIntel"), 6, 143, flags);
    const PeakAssessment half =
        assessPeak(QStringLiteral("fp64 avx512 x2"), 2 * 3.0 * 16, 2, 3.0, Isa::Avx512, Precision::Fp64, xeon);
    EXPECT_TRUE(hasFinding(half.findings, "fp64 avx512 x2", "note"));
    EXPECT_DOUBLE_EQ(half.theoreticalGflops, 2 * 3.0 * 2 * 16);

    // A ceiling a little above its theoretical peak (the clock read 5 % low) is flagged, not hidden.
    const PeakAssessment over =
        assessPeak(QStringLiteral("fp64 avx2 x1"), 1.05 * 3.0 * 16, 1, 3.0, Isa::Avx2, Precision::Fp64, xeon);
    EXPECT_TRUE(hasFinding(over.findings, "fp64 avx2 x1", "impossible"));
    // Within the SKU range of Cascade Lake (one or two units), one unit measured is a fine answer.
    const CoreModel cascade = identifyCore(QStringLiteral("GenuineIntel"), 6, 85, flags);
    const PeakAssessment silver =
        assessPeak(QStringLiteral("fp32 avx512 x1"), 0.9 * 2.2 * 32, 1, 2.2, Isa::Avx512, Precision::Fp32, cascade);
    EXPECT_TRUE(silver.findings.empty());
    EXPECT_DOUBLE_EQ(silver.fmaPerCycle, 1.0);
}

TEST(Peaks, SessionCrossChecksFlagWhatPhysicsForbids)
{
    Session s;
    s.computeCeilings = {ceiling("fp32", "avx512", 2, 400.0), ceiling("fp64", "avx512", 2, 200.0),
                         ceiling("fp32", "avx2", 2, 200.0),   ceiling("fp64", "avx2", 2, 180.0),  // not 2x
                         ceiling("fp32", "scalar", 1, 16.0),  ceiling("fp64", "scalar", 1, 16.0)};
    BandwidthCeiling l1;
    l1.level = QStringLiteral("L1");
    l1.gbps = 700.0;
    BandwidthCeiling l2 = l1;  // in order
    l2.level = QStringLiteral("L2");
    l2.gbps = 340.0;
    BandwidthCeiling l3 = l1;  // measured while it lost its core: below DRAM
    l3.level = QStringLiteral("L3");
    l3.gbps = 25.0;
    BandwidthCeiling dram = l1;
    dram.level = QStringLiteral("DRAM");
    dram.gbps = 29.8;
    s.bandwidthCeilings = {l1, l2, dram, l3};  // the order in the session does not matter
    KernelResult fine;
    fine.name = QStringLiteral("sgemm 4096");
    fine.precision = QStringLiteral("fp32");
    fine.gflops = 380.0;
    fine.intensity = 4096.0 / 6.0;
    KernelResult tooFast = fine;
    tooFast.name = QStringLiteral("sgemm 2048");
    tooFast.gflops = 480.0;
    KernelResult aboveMemory;
    aboveMemory.name = QStringLiteral("add 2048");
    aboveMemory.precision = QStringLiteral("fp32");
    aboveMemory.intensity = 1.0 / 12.0;
    aboveMemory.gflops = 70.0;  // 700 GB/s x 1/12 = 58 at most
    s.kernels = {fine, tooFast, aboveMemory};

    const std::vector<Finding> findings = crossCheckSession(s);
    EXPECT_TRUE(hasFinding(findings, "fp32 avx2 x2", "impossible"));
    EXPECT_FALSE(hasFinding(findings, "fp32 avx512 x2", "impossible"));
    EXPECT_FALSE(hasFinding(findings, "fp32 scalar x1", "impossible")) << "scalar fp32 = fp64 is right";
    EXPECT_TRUE(hasFinding(findings, "sgemm 2048", "impossible"));
    EXPECT_FALSE(hasFinding(findings, "sgemm 4096", "impossible"));
    EXPECT_TRUE(hasFinding(findings, "add 2048", "impossible"));
    EXPECT_TRUE(hasFinding(findings, "L3 bandwidth", "impossible"));
    EXPECT_FALSE(hasFinding(findings, "L1 bandwidth", "impossible"));
    EXPECT_FALSE(hasFinding(findings, "L2 bandwidth", "impossible"));
}

namespace {

struct CurvePoint {
    double mib;
    double gbps;
};

// Feeds a curve to a finder; returns the working set at which it stopped (0 = never).
std::int64_t feed(DramPlateauFinder& finder, const std::vector<CurvePoint>& curve)
{
    for (const CurvePoint& p : curve) {
        const auto bytes = static_cast<std::int64_t>(p.mib * 1024 * 1024);
        if (finder.add(bytes, p.gbps))
            return bytes;
    }
    return 0;
}

}  // namespace

TEST(DramPlateau, TheXeonGuestsCurveFallsFromItsL3ShareAndFlattens)
{
    // The 480 MiB-L3 Xeon guest (2 threads, best repetitions of the read mix, quick run): L2 to 4 MiB,
    // a 57 GB/s L3 plateau to 128 MiB, DRAM at 34 GB/s from 256 MiB.
    const std::vector<CurvePoint> curve{{0.0625, 403}, {2, 362},    {4, 153},    {8, 58.3},   {16, 57.9},  {32, 53.9},
                                        {64, 56.1},    {128, 54.7}, {256, 34.3}, {512, 34.7}, {1024, 33.1}};
    DramPlateauFinder finder(16 * kKiB * 1024);
    EXPECT_EQ(feed(finder, curve), 512 * 1024 * kKiB);
    EXPECT_TRUE(finder.found());
    EXPECT_EQ(finder.plateauStartBytes(), 256 * 1024 * kKiB);
    EXPECT_EQ(finder.cacheLimitBytes(), 128 * 1024 * kKiB);

    // The same at two steps per octave, with a dip at 32 MiB from a busy neighbour: still the same plateau.
    const std::vector<CurvePoint> fine{{16, 57.9},  {23, 57.4},  {32, 44.0},  {45, 53.8},  {64, 56.1},  {90, 56.7},
                                       {128, 54.7}, {181, 48.4}, {256, 34.3}, {362, 34.9}, {512, 34.7}, {724, 32.7}};
    DramPlateauFinder fineFinder(16 * kKiB * 1024);
    EXPECT_EQ(feed(fineFinder, fine), 512 * 1024 * kKiB);
    EXPECT_EQ(fineFinder.plateauStartBytes(), 256 * 1024 * kKiB);
}

TEST(DramPlateau, AZen5GuestWithAFallNearItsCcdsL3)
{
    // A Zen 5 guest reporting 508 MiB: its CCD's 32 MiB L3 ends the cache plateau early.
    const std::vector<CurvePoint> curve{{4, 140}, {8, 135}, {16, 132}, {32, 70}, {64, 41}, {128, 40}, {256, 39}};
    DramPlateauFinder finder(4 * kKiB * 1024);
    EXPECT_EQ(feed(finder, curve), 128 * 1024 * kKiB);
    EXPECT_EQ(finder.plateauStartBytes(), 64 * 1024 * kKiB);
    EXPECT_EQ(finder.cacheLimitBytes(), 16 * 1024 * kKiB);
}

TEST(DramPlateau, AFlatCurveWithoutAFallIsNotCalledFoundButGivesItsBestGuess)
{
    // A guest whose L3 share is tiny (cache allocation): past L2 the curve is DRAM all along.
    const std::vector<CurvePoint> flat{{16, 30.1}, {32, 29.8}, {64, 30.3}, {128, 29.9}, {256, 30.0}};
    DramPlateauFinder finder(16 * kKiB * 1024);
    EXPECT_EQ(feed(finder, flat), 0);
    EXPECT_FALSE(finder.found());
    EXPECT_EQ(finder.plateauStartBytes(), 16 * 1024 * kKiB);
    EXPECT_EQ(finder.cacheLimitBytes(), 0);
    // Points below the search's start are ignored: the L1 and L2 falls are not DRAM.
    DramPlateauFinder early(16 * kKiB * 1024);
    EXPECT_FALSE(early.add(32 * kKiB, 400));
    EXPECT_FALSE(early.add(8 * 1024 * kKiB, 60));
    EXPECT_EQ(early.plateauStartBytes(), 0);
}
