// One real quick measurement of this machine, shared by the tests below; plus cancellation.
#include "core/measure/compute/peaks.h"
#include "core/measure/engine.h"
#include "core/measure/lowp/lowp_ceilings.h"
#include "core/measure/machine/probe.h"
#include "core/measure/machine/rapl.h"
#include "core/measure/run/load.h"
#include "core/model/intensity.h"
#include "core/session/format/session_json.h"
#include "core/session/measure_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <thread>
#include <tuple>

using namespace ridgeline;

namespace {

// Sanitizers instrument every load, so cache levels no longer rank by speed; correctness still holds.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kInstrumented = true;
#else
constexpr bool kInstrumented = false;
#endif

class QuickMeasurement : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        MeasureOptions options;
        options.quick = true;
        auto progress = [](const MeasureProgress& p) {
            s_lastProgress = p;
            ++s_progressCalls;
            return true;
        };
        auto partial = [](const Session&) { ++s_partialCalls; };
        auto result = measureMachine(options, progress, partial);
        ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
        s_session = new Session(std::move(result).value());
    }
    static void TearDownTestSuite()
    {
        delete s_session;
        s_session = nullptr;
    }

    static const KernelResult* kernel(const QString& name)
    {
        for (const KernelResult& k : s_session->kernels)
            if (k.name == name)
                return &k;
        return nullptr;
    }

    // The session says the machine was loaded: other processes or the hypervisor took the CPUs from some of its
    // ceiling and bandwidth steps (load.h). Then relations between figures may not hold, and the test asks
    // instead that each broken one is flagged; on a quiet machine they must hold.
    static bool disturbed()
    {
        return std::any_of(s_session->findings.begin(), s_session->findings.end(),
                           [](const Finding& f) { return f.subject == kLoadFindingSubject; });
    }
    static bool flagged(const QString& subject)
    {
        return std::any_of(s_session->findings.begin(), s_session->findings.end(), [&](const Finding& f) {
            return f.subject == subject && f.kind == QLatin1String("impossible");
        });
    }
    // A kernel that did not run must say why: the time it would have taken, or the memory it needs.
    static const SkippedExperiment* skipped(const QString& name)
    {
        for (const SkippedExperiment& k : s_session->skipped)
            if (k.experiment == name)
                return &k;
        return nullptr;
    }
    static bool ranOrSaidWhyNot(const QString& name)
    {
        const bool ran = kernel(name) != nullptr;
        const SkippedExperiment* why = skipped(name);
        return ran != (why != nullptr) && (ran || !why->reason.isEmpty());
    }

    static inline Session* s_session = nullptr;
    static inline MeasureProgress s_lastProgress;
    static inline int s_progressCalls = 0;
    static inline int s_partialCalls = 0;
};

}  // namespace

TEST_F(QuickMeasurement, ReportsProgressAndPartialResultsToTheEnd)
{
    ASSERT_NE(s_session, nullptr);
    EXPECT_GT(s_progressCalls, s_lastProgress.total);
    // The last report comes before the last step runs, or after it, when the steps left were found not to fit
    // their time (each series corrects the total at once).
    EXPECT_TRUE(s_lastProgress.done + 1 == s_lastProgress.total || s_lastProgress.done == s_lastProgress.total)
        << s_lastProgress.done << " of " << s_lastProgress.total;
    EXPECT_GE(s_partialCalls, s_lastProgress.total - 1);
    EXPECT_TRUE(s_session->quick);
    EXPECT_GT(s_session->wallSeconds, 0.0);
}

TEST_F(QuickMeasurement, ComputeCeilingsArePositiveAndNearTheirTheoreticalPeak)
{
    ASSERT_NE(s_session, nullptr);
    ASSERT_FALSE(s_session->computeCeilings.empty());
    const ClockMeasurement& clock = s_session->machine.clock;
    if (!disturbed()) {
        EXPECT_FALSE(clock.doubtful) << clock.doubt.toStdString();
    }
    EXPECT_FALSE(clock.method.isEmpty());
    if (clock.doubtful) {
        EXPECT_FALSE(clock.doubt.isEmpty());
        EXPECT_DOUBLE_EQ(s_session->machine.clockGhz, std::min(clock.addChainGhz, clock.mulChainGhz))
            << "a chain can only be fooled into reading high: the lower holds";
    } else {
        EXPECT_NEAR(clock.addChainGhz / clock.mulChainGhz, 1.0, 0.05) << "two different chains, one clock";
        EXPECT_DOUBLE_EQ(s_session->machine.clockGhz, clock.addChainGhz);
        EXPECT_GT(clock.addChainGhz, 0.2);
        EXPECT_LT(clock.addChainGhz, 7.0) << "a folded chain (19 GHz) is never a clock taken silently";
    }
    EXPECT_FALSE(s_session->machine.coreName.isEmpty());
    for (const ComputeCeiling& c : s_session->computeCeilings) {
        EXPECT_GT(c.gflops, 0.0) << c.name.toStdString();
        EXPECT_LE(c.spread.min, c.spread.median);
        EXPECT_LE(c.spread.median, c.spread.max);
        EXPECT_GT(c.theoreticalGflops, 0.0);
        EXPECT_GT(c.clockGhz, 0.0);
        EXPECT_FALSE(c.peakBasis.isEmpty());
        EXPECT_NEAR(c.flopsPerCycle, c.gflops / c.threads / c.clockGhz, 1e-9 * c.flopsPerCycle);
        // theoretical = threads x clock x instructions per cycle x operations each: FMA lanes x 2, or the
        // low-precision unit's
        double perInstruction = 0.0;
        for (Isa isa : {Isa::Scalar, Isa::Avx2, Isa::Avx512, Isa::Neon, Isa::Sve})
            for (Precision precision : {Precision::Fp32, Precision::Fp64})
                if (isaName(isa) == c.isa && precisionName(precision) == c.precision)
                    perInstruction = flopsPerFma(isa, precision);  // SVE: at this CPU's vector length
        for (const LowpUnitInfo& unit : lowpUnits())
            if (unit.precision == c.precision && unit.isa == c.isa)
                perInstruction = lowpOpsPerInstruction(unit.unit);
        EXPECT_NEAR(c.theoreticalGflops, c.threads * c.clockGhz * c.fmaPerCycle * perInstruction,
                    1e-9 * c.theoreticalGflops)
            << c.name.toStdString();
        // A ceiling above its theoretical peak cannot pass unremarked; a busy machine only slows ceilings down.
        if (c.gflops > (1.0 + kAboveTheoreticalTolerance) * c.theoreticalGflops) {
            EXPECT_TRUE(flagged(c.name)) << c.name.toStdString();
        }
        if (!kInstrumented && !disturbed()) {
            EXPECT_LT(c.gflops, 1.1 * c.theoreticalGflops) << c.name.toStdString();
        }
    }
    // Every FMA ISA the CPU has is measured, in both precisions, on one thread.
    std::map<QString, int> perIsa;
    for (const ComputeCeiling& c : s_session->computeCeilings)
        if (c.threads == 1 && (c.precision == QLatin1String("fp32") || c.precision == QLatin1String("fp64")))
            ++perIsa[c.isa];
    for (const auto& [isa, count] : perIsa)
        EXPECT_EQ(count, 2) << isa.toStdString();
}

TEST_F(QuickMeasurement, BandwidthCeilingsAreOrderedL1AboveL2AboveL3AboveDram)
{
    ASSERT_NE(s_session, nullptr);
    if (kInstrumented)
        GTEST_SKIP() << "sanitizer build: bandwidth ranks are not meaningful";
    // The best repetition of each level: what the hardware can do, even if another process
    // interrupted some repetitions.
    std::map<QString, double> gbps;
    for (const BandwidthCeiling& c : s_session->bandwidthCeilings)
        gbps[c.level] = c.spread.max;
    if (s_session->machine.caches.empty()) {
        // The system describes no caches (an ARM64 VM; qemu-user on a host whose sysfs has none): no working set is
        // a cache level, DRAM is where the curve's plateau starts (or its end), and the session says why.
        EXPECT_EQ(gbps.size(), 1u);
        EXPECT_EQ(gbps.count(QStringLiteral("DRAM")), 1u);
        EXPECT_TRUE(std::any_of(s_session->findings.begin(), s_session->findings.end(), [](const Finding& f) {
            return f.subject == QLatin1String("last-level cache") &&
                   f.message.contains(QStringLiteral("describes no caches"));
        }));
        return;
    }
    ASSERT_TRUE(gbps.count(QStringLiteral("L1")) && gbps.count(QStringLiteral("L2")) &&
                gbps.count(QStringLiteral("DRAM")))
        << "the caches (sysfs, else cpuid) name L1 and L2 here, and the sweep reaches DRAM";
    // Each level faster than the next: on a quiet machine always; on a loaded one, or flagged (the session's own
    // ceilings are compared: each level's best repetition).
    std::vector<QString> levels{QStringLiteral("L1"), QStringLiteral("L2")};
    if (gbps.count(QStringLiteral("L3")))
        levels.push_back(QStringLiteral("L3"));
    levels.push_back(QStringLiteral("DRAM"));
    auto ceilingOf = [&](const QString& level) {
        for (const BandwidthCeiling& c : s_session->bandwidthCeilings)
            if (c.level == level)
                return c.gbps;
        return 0.0;
    };
    for (std::size_t i = 0; i + 1 < levels.size(); ++i) {
        const QString& nearer = levels[i];
        if (!disturbed()) {
            EXPECT_GT(gbps[nearer], gbps[levels[i + 1]]) << nearer.toStdString();
        }
        if (!(ceilingOf(nearer) > ceilingOf(levels[i + 1]))) {
            EXPECT_TRUE(flagged(nearer + QStringLiteral(" bandwidth"))) << nearer.toStdString();
        }
    }
    EXPECT_GT(s_session->streamTriadGbps, 0.0);
    // The streaming kernels must run vectorised whatever the build type: a scalar loop loads at most two
    // 8-byte words per cycle (16 bytes; a -O2 build of the kernels once read 22 here). AVX-512 cores load
    // 2 x 64 bytes per cycle, so half a 2 x 32-byte AVX2 load is their bar; AVX2-only cores include ones
    // whose load path is 2 x 16 bytes (Zen 1, Gracemont), which vector loops bring to about 28.
    if (s_session->machine.isa.contains(QStringLiteral("avx2")) && !disturbed()) {
        const double bar = s_session->machine.isa.contains(QStringLiteral("avx512f")) ? 32.0 : 24.0;
        const auto l1 = std::find_if(s_session->bandwidthCeilings.begin(), s_session->bandwidthCeilings.end(),
                                     [](const BandwidthCeiling& c) { return c.level == QLatin1String("L1"); });
        const double bytesPerCycle = l1->spread.max / l1->threads / s_session->machine.clockGhz;
        EXPECT_GT(bytesPerCycle, bar) << "L1 " << l1->spread.max << " GB/s on " << l1->threads << " threads";
    }
    // The whole curve is kept: both mixes, from 16 KiB into DRAM, whatever the reported last-level cache.
    const auto smallest = std::min_element(
        s_session->bandwidthCurve.begin(), s_session->bandwidthCurve.end(),
        [](const BandwidthPoint& a, const BandwidthPoint& b) { return a.workingSetBytes < b.workingSetBytes; });
    EXPECT_EQ(smallest->workingSetBytes, 16 * 1024);
    EXPECT_TRUE(std::any_of(s_session->bandwidthCurve.begin(), s_session->bandwidthCurve.end(),
                            [](const BandwidthPoint& p) { return p.level == QLatin1String("DRAM"); }));
    const LastLevelCache& llc = s_session->machine.lastLevelCache;
    EXPECT_EQ(llc.level, s_session->machine.caches.back().level);
    EXPECT_GT(llc.reportedBytes, 0);
    EXPECT_GT(llc.effectiveBytes, 0);
    EXPECT_LE(llc.effectiveBytes, llc.reportedBytes) << "a guest never has more cache than sysfs reports";
    EXPECT_FALSE(llc.basis.isEmpty());
}

TEST_F(QuickMeasurement, EveryKernelSizeRanOrSaysWhyNotAndEachExperimentRan)
{
    ASSERT_NE(s_session, nullptr);
    // The quick run's lists (sizing.cpp), each bounded by time (time_plan.h): on a slow or busy machine a size
    // may not run, and then the session says what it would have taken.
    for (int n : {512, 1024, 2048})
        EXPECT_TRUE(ranOrSaidWhyNot(QStringLiteral("sgemm %1").arg(n))) << n;
    for (int n : {512, 1024})
        EXPECT_TRUE(ranOrSaidWhyNot(QStringLiteral("dgemm %1").arg(n))) << n;
    for (int n : {2048, 4096, 8192})
        EXPECT_TRUE(ranOrSaidWhyNot(QStringLiteral("add %1").arg(n))) << n;
    for (int batch = 1; batch <= 256; batch *= 2)
        EXPECT_TRUE(ranOrSaidWhyNot(QStringLiteral("decode B=%1").arg(batch))) << batch;
    for (const SkippedExperiment& k : s_session->skipped)
        EXPECT_TRUE(kernel(k.experiment) == nullptr) << k.experiment.toStdString() << " both ran and was skipped";
    // Every experiment of the source text ran, at least at its smallest size.
    for (const char* kind : {"sgemm", "dgemm", "add", "decode", "fusion-fused", "fusion-unfused"}) {
        EXPECT_TRUE(std::any_of(s_session->kernels.begin(), s_session->kernels.end(), [&](const KernelResult& k) {
            return k.kind == QLatin1String(kind);
        })) << kind;
    }
    EXPECT_NE(kernel(QStringLiteral("decode B=1")), nullptr) << "a series' first step always runs";
}

TEST_F(QuickMeasurement, KernelsAreCountedTheWayTheSourceTextCounts)
{
    ASSERT_NE(s_session, nullptr);
    for (const KernelResult& k : s_session->kernels) {
        if (k.kind != QLatin1String("sgemm") && k.kind != QLatin1String("dgemm"))
            continue;
        const int n = k.size.section(QLatin1Char('x'), 0, 0).toInt();
        const int bytes = k.kind == QLatin1String("sgemm") ? 4 : 8;
        EXPECT_EQ(k.name, k.kind + QStringLiteral(" %1").arg(n));
        EXPECT_DOUBLE_EQ(k.flops, matmulCount(n, bytes).flops);
        EXPECT_DOUBLE_EQ(k.bytes, 3.0 * bytes * n * static_cast<double>(n));
        EXPECT_NEAR(k.intensity, n / (1.5 * bytes), 1e-9);
        EXPECT_NEAR(k.gflops, k.flops / k.seconds / 1e9, 1e-6 * k.gflops);
    }
    const KernelResult* add = nullptr;
    for (const KernelResult& k : s_session->kernels) {
        if (k.kind != QLatin1String("add"))
            continue;
        add = &k;
        EXPECT_DOUBLE_EQ(k.intensity, 1.0 / 12.0);
        EXPECT_GT(k.gbps, 0.0);
        EXPECT_LE(k.spread.min, k.seconds);
        EXPECT_GE(k.repetitions, 3);
    }
    ASSERT_NE(add, nullptr);
    // Matmul is compute-bound and add memory-bound: orders of magnitude apart on any CPU (fastest runs: the
    // closest to the machine's own on a busy one).
    const KernelResult* sgemm = nullptr;
    for (const KernelResult& k : s_session->kernels)
        if (k.kind == QLatin1String("sgemm"))
            sgemm = &k;
    ASSERT_NE(sgemm, nullptr);
    auto best = [](const KernelResult* k) { return k->flops / k->spread.min; };
    EXPECT_GT(best(sgemm), (disturbed() ? 1.0 : 10.0) * best(add));
}

TEST_F(QuickMeasurement, DecodeThroughputGrowsWithBatch)
{
    ASSERT_NE(s_session, nullptr);
    std::vector<const KernelResult*> decode;
    for (const KernelResult& k : s_session->kernels)
        if (k.kind == QLatin1String("decode"))
            decode.push_back(&k);
    ASSERT_FALSE(decode.empty());
    EXPECT_EQ(decode.front()->batch, 1);
    for (std::size_t i = 1; i < decode.size(); ++i)
        EXPECT_LT(decode[i - 1]->batch, decode[i]->batch) << "kept in batch order whatever order they ran in";
    for (const KernelResult* k : decode)
        EXPECT_DOUBLE_EQ(k->tokensPerSecond, k->batch / k->seconds);
    if (decode.back()->batch < 256)
        GTEST_SKIP() << "B=256 did not run: " << skipped(QStringLiteral("decode B=256"))->reason.toStdString();
    // Weights are read once per step whatever the batch: 256 tokens cost far less than 256 steps (fastest runs).
    const double oneToken = decode.front()->spread.min;
    const double manyTokens = decode.back()->spread.min;
    EXPECT_LT(manyTokens, 256.0 * oneToken / (disturbed() ? 1.0 : 4.0));
    EXPECT_GT(decode.back()->intensity, 100.0 * decode.front()->intensity);
}

// Energy per token where this machine's RAPL counters can be read, else the session says why, in the reader's words
// (on a KVM guest: no /sys/class/powercap), and no decode batch has an energy.
TEST_F(QuickMeasurement, DecodeBatchesHaveEnergyWhereRaplReadsAndTheSessionSaysWhyNotElsewhere)
{
    ASSERT_NE(s_session, nullptr);
    const RaplCounters rapl;
    EXPECT_EQ(s_session->energy.measured, rapl.available());
    EXPECT_EQ(s_session->energy.basis, rapl.basis());
    int decode = 0;
    for (const KernelResult& k : s_session->kernels) {
        if (k.batch <= 0) {
            EXPECT_FALSE(k.energy.measured()) << k.name.toStdString() << ": only decode batches are read";
            continue;
        }
        ++decode;
        EXPECT_EQ(k.energy.measured(), rapl.available()) << k.name.toStdString();
        if (!k.energy.measured())
            continue;
        // Mean power over the batch's runs, divided by its rate; the runs took at least the median step.
        EXPECT_GE(k.energy.seconds, k.seconds) << k.name.toStdString();
        EXPECT_DOUBLE_EQ(k.energy.joulesPerToken, (k.energy.packageWatts + k.energy.dramWatts) / k.tokensPerSecond);
    }
    EXPECT_GT(decode, 0);
    const Result<Session> loaded = sessionFromJson(sessionToJson(*s_session), QStringLiteral("measured"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().energy.basis, s_session->energy.basis);
}

TEST_F(QuickMeasurement, NothingIsSkippedSilentlyAndTheSessionLoadsBack)
{
    ASSERT_NE(s_session, nullptr);
    for (const SkippedExperiment& skipped : s_session->skipped)
        EXPECT_FALSE(skipped.reason.isEmpty()) << skipped.experiment.toStdString();
    for (const Finding& finding : s_session->findings)
        EXPECT_FALSE(finding.message.isEmpty()) << finding.subject.toStdString();
    const auto fusionSkipped =
        std::any_of(s_session->skipped.begin(), s_session->skipped.end(),
                    [](const SkippedExperiment& s) { return s.experiment == QLatin1String("fusion"); });
    EXPECT_NE(s_session->fusion.elements > 0, fusionSkipped) << "fusion ran, or the session says why not";
    const Result<Session> loaded = sessionFromJson(sessionToJson(*s_session), QStringLiteral("measured"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().machine.clock.method, s_session->machine.clock.method);
    EXPECT_EQ(loaded.value().findings.size(), s_session->findings.size());
    EXPECT_EQ(loaded.value().machine.lastLevelCache.effectiveBytes, s_session->machine.lastLevelCache.effectiveBytes);
}

TEST_F(QuickMeasurement, FusionMovesAThirdOfTheTrafficAndComputesTheSameResult)
{
    ASSERT_NE(s_session, nullptr);
    const FusionResult& f = s_session->fusion;
    ASSERT_GT(f.elements, 0);
    EXPECT_DOUBLE_EQ(f.unfusedBytes, 3.0 * f.fusedBytes);
    EXPECT_DOUBLE_EQ(f.fusedBytes, 2.0 * 4.0 * static_cast<double>(f.elements));
    EXPECT_LT(f.maxAbsDifference, 1e-6);
    EXPECT_DOUBLE_EQ(f.speedup, f.unfusedSeconds / f.fusedSeconds);
    EXPECT_NE(kernel(QStringLiteral("bias+GELU+dropout, fused")), nullptr);
}

TEST_F(QuickMeasurement, TrainingStepLandsOnTheRoofAndInTheReportOrSaysWhyNot)
{
    ASSERT_NE(s_session, nullptr);
    const SkippedExperiment* why = skipped(QStringLiteral("training step"));
    const QString report = measureReportText(*s_session);
    if (why) {
        EXPECT_EQ(s_session->training.tokens, 0);
        EXPECT_TRUE(report.contains(QStringLiteral("training step: not run"))) << report.toStdString();
        GTEST_SKIP() << "the training step did not fit this quick run: " << why->reason.toStdString();
    }
    const TrainingResult& t = s_session->training;
    ASSERT_GT(t.tokens, 0);
    for (const char* name :
         {"MLP training step", "MLP training step, checkpointed", "MLP training step, 4 micro-batches"}) {
        const KernelResult* k = kernel(QString::fromLatin1(name));
        ASSERT_NE(k, nullptr) << name;
        EXPECT_EQ(k->kind, QStringLiteral("training-step"));
        EXPECT_GT(k->gflops, 0.0) << name;
        EXPECT_TRUE(report.contains(k->name)) << name;
    }
    EXPECT_LT(t.gradientDifference, t.tolerance);
    EXPECT_LT(t.checkpointPeakBytes, t.plainPeakBytes);
    EXPECT_TRUE(report.contains(QStringLiteral("training step: 2 MLP blocks"))) << report.toStdString();
    // bf16 mixed precision ran beside them, or the session says why not.
    const KernelResult* bf16 = kernel(QStringLiteral("MLP training step, bf16 mixed"));
    const SkippedExperiment* bf16Why = skipped(QStringLiteral("training step, bf16 mixed precision"));
    EXPECT_NE(bf16 == nullptr, bf16Why == nullptr);
    if (bf16) {
        EXPECT_EQ(bf16->precision, QStringLiteral("bf16"));
        EXPECT_DOUBLE_EQ(t.bf16Seconds, bf16->seconds);
        EXPECT_LT(t.bf16PeakBytes, t.plainPeakBytes);
        EXPECT_TRUE(report.contains(QStringLiteral("bf16 mixed precision (oneDNN"))) << report.toStdString();
    }
    // Saved and loaded, the summary is the same.
    const Result<Session> loaded = sessionFromJson(sessionToJson(*s_session), QStringLiteral("measured"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().training.tokens, t.tokens);
    EXPECT_DOUBLE_EQ(loaded.value().training.recomputeFlops, t.recomputeFlops);
}

TEST_F(QuickMeasurement, EveryLowPrecisionUnitOfThisCpuHasACeilingAndTheOthersSayWhyNot)
{
    ASSERT_NE(s_session, nullptr);
    const int all = s_session->machine.openblasThreads;
    for (const LowpUnitInfo& unit : lowpUnits()) {
        const UnitAvailability availability = lowpAvailability(unit.unit, s_session->machine);
        for (int threads : {1, all}) {
            const QString name = lowpCeilingName(unit.unit, threads);
            const auto ceiling = std::find_if(s_session->computeCeilings.begin(), s_session->computeCeilings.end(),
                                              [&](const ComputeCeiling& c) { return c.name == name; });
            if (!availability.available()) {
                EXPECT_EQ(ceiling, s_session->computeCeilings.end()) << name.toStdString() << ": never a zero";
                continue;
            }
            ASSERT_NE(ceiling, s_session->computeCeilings.end()) << name.toStdString();
            EXPECT_EQ(ceiling->precision, unit.precision);
            EXPECT_EQ(ceiling->isa, unit.isa);
        }
        // The other architecture's units are neither measured nor listed as skipped.
        if (!availability.available() && unit.arch == machineArch(s_session->machine)) {
            const QString experiment = QStringLiteral("%1 %2 ceiling").arg(unit.precision, unit.isa);
            const auto skipped = std::find_if(s_session->skipped.begin(), s_session->skipped.end(),
                                              [&](const SkippedExperiment& k) { return k.experiment == experiment; });
            ASSERT_NE(skipped, s_session->skipped.end()) << experiment.toStdString();
            EXPECT_EQ(skipped->reason, availability.reason);
        }
    }
}

TEST_F(QuickMeasurement, Bf16MatmulBesideSgemmAndDecodeByWeightPrecision)
{
    ASSERT_NE(s_session, nullptr);
    const MachineInfo& machine = s_session->machine;
    auto hasUnitOf = [&](const char* precision) {
        return std::any_of(lowpUnits().begin(), lowpUnits().end(), [&](const LowpUnitInfo& u) {
            return u.precision == QLatin1String(precision) && lowpAvailability(u.unit, machine).available();
        });
    };
    bool bf16 = hasUnitOf("bf16");
    bool int8 = hasUnitOf("int8");
    // A build without oneDNN (ARM64) runs neither product and says so, once per precision the CPU has units of.
    if (const SkippedExperiment* noLibrary = skipped(QStringLiteral("bf16 gemm"))) {
        EXPECT_TRUE(bf16);
        EXPECT_TRUE(noLibrary->reason.contains(QStringLiteral("oneDNN"))) << noLibrary->reason.toStdString();
        EXPECT_NE(skipped(QStringLiteral("decode with bf16 weights")), nullptr);
        bf16 = false;
    }
    if (const SkippedExperiment* noLibrary = skipped(QStringLiteral("decode with int8 weights"))) {
        EXPECT_TRUE(int8);
        EXPECT_TRUE(noLibrary->reason.contains(QStringLiteral("oneDNN"))) << noLibrary->reason.toStdString();
        int8 = false;
    }
    for (const KernelResult& sgemm : s_session->kernels) {
        if (sgemm.kind != QLatin1String("sgemm"))
            continue;
        const int n = sgemm.size.section(QLatin1Char('x'), 0, 0).toInt();
        const QString name = QStringLiteral("bf16 gemm %1").arg(n);
        const KernelResult* product = kernel(name);
        if (!bf16) {
            EXPECT_EQ(product, nullptr);
            continue;
        }
        ASSERT_TRUE(ranOrSaidWhyNot(name)) << n;
        if (!product)
            continue;
        EXPECT_EQ(product->precision, QStringLiteral("bf16"));
        EXPECT_DOUBLE_EQ(product->flops, 2.0 * n * n * static_cast<double>(n));
        EXPECT_DOUBLE_EQ(product->bytes, (2.0 + 2.0 + 4.0) * n * static_cast<double>(n));  // A, B bf16; C fp32
        EXPECT_GT(product->gflops, 0.0);
    }
    // fp32, bf16 and int8 weights through one library at one d: only the weights' type differs.
    double dim = 0.0;
    for (const auto& [kind, has, weightBytes] :
         {std::tuple{QStringLiteral("decode-fp32"), bf16 || int8, 4.0},
          std::tuple{QStringLiteral("decode-bf16"), bf16, 2.0}, std::tuple{QStringLiteral("decode-int8"), int8, 1.0}}) {
        std::vector<const KernelResult*> series;
        for (const KernelResult& k : s_session->kernels)
            if (k.kind == kind)
                series.push_back(&k);
        if (!has) {
            EXPECT_TRUE(series.empty()) << kind.toStdString();
            continue;
        }
        ASSERT_FALSE(series.empty()) << kind.toStdString();
        for (int batch : {1, 4, 16, 64, 256})  // a quick run's (lowpDecodeBatches)
            EXPECT_TRUE(ranOrSaidWhyNot(QStringLiteral("decode %1 B=%2").arg(kind.mid(7)).arg(batch))) << batch;
        for (const KernelResult* k : series) {
            EXPECT_DOUBLE_EQ(k->tokensPerSecond, k->batch / k->seconds);
            // dim x dim weights at fp32's bytes, half (bf16) or a quarter (int8), activations of the same type
            // in, fp32 out.
            const double d = std::sqrt(k->flops / (2.0 * k->batch));
            if (dim == 0.0)
                dim = d;
            EXPECT_DOUBLE_EQ(d, dim) << k->name.toStdString();
            EXPECT_DOUBLE_EQ(k->bytes, weightBytes * dim * dim + (weightBytes + 4.0) * dim * k->batch);
        }
        // Batching multiplies tokens/s while the weights stream from DRAM. Weights that fit in the caches (a quick
        // run's 2048 x 2048 beside a large last-level cache: 128 MiB on a Zen 4 guest) are read at cache speed, so B =
        // 1 is less memory-bound and batching gains less (2.8x measured there): more than nothing is all that holds.
        const double dramBytes = static_cast<double>(s_session->machine.lastLevelCache.effectiveBytes);
        const bool fromDram = weightBytes * dim * dim >= dramBytes;
        if (series.back()->batch == 256 && !disturbed()) {
            EXPECT_GT(series.back()->tokensPerSecond, (fromDram ? 4.0 : 1.5) * series.front()->tokensPerSecond)
                << kind.toStdString() << ": " << weightBytes * dim * dim / 1048576.0 << " MiB of weights, "
                << dramBytes / 1048576.0 << " MiB a DRAM working set";
        }
    }
    if (dim > 0.0) {
        // The int8 weights are a DRAM working set of this machine, or a note says why not.
        const double dram = static_cast<double>(s_session->machine.lastLevelCache.effectiveBytes);
        const bool noted = std::any_of(s_session->findings.begin(), s_session->findings.end(),
                                       [](const Finding& f) { return f.subject == QLatin1String("decode int8"); });
        EXPECT_TRUE(dim * dim >= dram || noted) << dim;
    }
}

TEST(MeasureEngine, CancelReturnsCancelledAndNoSession)
{
    for (int stopAfter : {1, 25, 120}) {
        int calls = 0;
        MeasureOptions options;
        options.quick = true;
        const auto result = measureMachine(options, [&](const MeasureProgress&) { return ++calls < stopAfter; });
        ASSERT_FALSE(result.ok()) << "stopAfter " << stopAfter;
        EXPECT_EQ(result.error().code, Error::Code::Cancelled);
        EXPECT_EQ(calls, stopAfter) << "no progress call after the one that said stop";
    }
}

TEST(MeasureEngine, RefusesMoreThreadsThanCpus)
{
    MeasureOptions options;
    options.threads = 100000;
    const auto result = measureMachine(options);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().code, Error::Code::InvalidArgument);
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("--threads")));
}

// A busy machine still gives a complete session with honest spreads, and flags the
// ceilings whose repetitions spread too far.
TEST(MeasureEngine, UnderLoadStillReportsEveryCeilingWithItsSpread)
{
    std::atomic<bool> stop{false};
    std::jthread spinner([&] {
        volatile std::uint64_t x = 0;
        while (!stop.load(std::memory_order_relaxed))
            x = x + 1;
    });
    MeasureOptions options;
    options.quick = true;
    const auto result = measureMachine(options);
    stop = true;
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const Session& session = result.value();
    ASSERT_FALSE(session.computeCeilings.empty());
    ASSERT_FALSE(session.bandwidthCeilings.empty());
    for (const ComputeCeiling& c : session.computeCeilings) {
        EXPECT_TRUE(std::isfinite(c.gflops) && c.gflops > 0.0) << c.name.toStdString();
        EXPECT_LE(c.spread.min, c.spread.median);
        EXPECT_LE(c.spread.median, c.spread.max);
    }
    for (const BandwidthCeiling& c : session.bandwidthCeilings)
        EXPECT_TRUE(std::isfinite(c.gbps) && c.gbps > 0.0) << c.level.toStdString();
    EXPECT_EQ(session.noisyMeasurements, noisyMeasurements(session));
}
