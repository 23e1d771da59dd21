// Kernel experiments bounded by time, with the rates of real machines: this 2-vCPU Xeon
// guest, and qemu-aarch64 running the ARM64 build (arm17's runs: emulated vector FP at 0.01 to 0.3 GFLOP/s,
// where a fixed-size sgemm/dgemm 2048-4096 took many minutes).
#include "core/measure/run/time_plan.h"
#include "core/measure/run/kernel_timing.h"
#include "core/measure/run/load.h"
#include "core/measure/workloads/training_experiment.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <set>
#include <thread>

using namespace ridgeline;

namespace {

// Best rates of each machine as the engine has them when the kernels start.
struct Rates {
    double fp32Ceiling;  // GFLOP/s, all threads
    double dramGbps;     // STREAM triad
};
constexpr Rates kXeonGuest{288.6, 18.7};  // this machine, quick run under load (4 of the 9 figures busy)
constexpr Rates kQemuArm64{0.6, 0.8};     // qemu-aarch64 on this host: OpenBLAS at 0.3 GFLOP/s, half the ceiling

double gemmStep(int n, double gflops, bool quick)
{
    return projectedStepSeconds(gemmRunSeconds(n, gflops), stepTiming(KernelExperiment::Gemm, quick, n));
}

}  // namespace

TEST(TimePlan, TheProjectedStepIsTheRunsTimeRepeatedMakes)
{
    for (bool quick : {true, false}) {
        for (KernelExperiment experiment :
             {KernelExperiment::Gemm, KernelExperiment::Add, KernelExperiment::Decode, KernelExperiment::Fusion}) {
            for (double runSeconds : {0.0005, 0.004, 0.08, 0.5}) {
                const StepTiming timing = stepTiming(experiment, quick, 1024);
                MeasureControl control(quick, {});
                int calls = 0;
                // The warm-up's time is given, as measureGemm does: the runs that follow depend on it alone.
                const auto seconds = timeRepeated(
                    [&] {
                        ++calls;
                        return true;
                    },
                    timing.minReps, timing.minSeconds, control, runSeconds);
                ASSERT_TRUE(seconds.has_value());
                EXPECT_DOUBLE_EQ(projectedStepSeconds(runSeconds, timing), (calls + 1) * runSeconds)
                    << "quick " << quick << " run " << runSeconds;
            }
        }
    }
    EXPECT_EQ(stepTiming(KernelExperiment::Gemm, false, 4096).minReps, 2) << "the largest products take fewer";
}

TEST(TimePlan, ASeriesStopsWhereTheNextSizeWouldOverrunItsSecondsAndSaysWhy)
{
    SeriesBudget sgemm(QStringLiteral("sgemm"), 1.2, QStringLiteral("quick"));
    EXPECT_TRUE(sgemm.admit(QStringLiteral("sgemm 512"), 5.0, QStringLiteral("a guess")))
        << "the first step always runs: no experiment is dropped for time";
    sgemm.spend(0.4);
    EXPECT_TRUE(sgemm.admit(QStringLiteral("sgemm 1024"), 0.7, QStringLiteral("sgemm 512")));
    sgemm.spend(0.7);
    EXPECT_FALSE(sgemm.admit(QStringLiteral("sgemm 2048"), 3.2, QStringLiteral("sgemm 1024, which took 0.7 s")));
    EXPECT_FALSE(sgemm.admit(QStringLiteral("sgemm 4096"), 0.05, QStringLiteral("sgemm 1024")))
        << "ascending sizes: once one did not fit, the larger ones do not either";
    ASSERT_EQ(sgemm.skipped().size(), 2u);
    const SkippedExperiment& skipped = sgemm.skipped().front();
    EXPECT_EQ(skipped.experiment, QStringLiteral("sgemm 2048"));
    EXPECT_EQ(skipped.reason, QStringLiteral("not run: it would take about 3.20 s (projected from sgemm 1024, which "
                                             "took 0.7 s), more than the 0.10 s left of the 1.20 s this quick run "
                                             "gives sgemm"));

    SeriesBudget decode(QStringLiteral("decode"), 0.3, QStringLiteral("full"), SeriesBudget::Order::Independent);
    EXPECT_TRUE(decode.admit(QStringLiteral("decode B=1"), 0.1, QStringLiteral("x")));
    decode.spend(0.1);
    EXPECT_FALSE(decode.admit(QStringLiteral("decode B=256"), 0.5, QStringLiteral("x")));
    EXPECT_TRUE(decode.admit(QStringLiteral("decode B=16"), 0.1, QStringLiteral("x")))
        << "independent steps: a cheaper one after one that did not fit still runs";
    EXPECT_EQ(decode.skipped().size(), 1u);
}

TEST(TimePlan, ASeriesAlsoStopsWhereTheWholeRunWouldOverrunItsSeconds)
{
    const double limit = runSeconds(true);
    double elapsed = limit - 0.3;  // the ceilings and the sweep took long on this machine
    const RunLimit run{limit, [&] { return elapsed; }};
    EXPECT_LE(runSeconds(true), 5.0);
    EXPECT_LE(runSeconds(false), 30.0);
    SeriesBudget decode(QStringLiteral("decode with int8 weights"), 0.22, QStringLiteral("quick"),
                        SeriesBudget::Order::Independent, run);
    EXPECT_TRUE(decode.admit(QStringLiteral("decode int8 B=1"), 0.5, QStringLiteral("x"))) << "the first step runs";
    decode.spend(0.05);
    elapsed = limit - 0.15;
    EXPECT_NEAR(decode.left(), 0.15, 1e-12) << "the run's 0.15 s, not the series' 0.17 s";
    EXPECT_FALSE(decode.admit(QStringLiteral("decode int8 B=256"), 0.16, QStringLiteral("decode int8 B=1")));
    EXPECT_TRUE(decode.admit(QStringLiteral("decode int8 B=16"), 0.1, QStringLiteral("decode int8 B=1")));
    ASSERT_EQ(decode.skipped().size(), 1u);
    EXPECT_EQ(decode.skipped()[0].reason,
              QStringLiteral("not run: it would take about 0.16 s (projected from decode int8 B=1), more than the "
                             "0.15 s left of the %1 s a quick run takes in all")
                  .arg(limit, 0, 'f', 2));
    // Without a run limit only the series' seconds count.
    SeriesBudget alone(QStringLiteral("add"), 0.35, QStringLiteral("quick"));
    EXPECT_DOUBLE_EQ(alone.left(), 0.35);
}

TEST(TimePlan, TheSeriesStillToComeKeepTheirShareOfTheRun)
{
    // A quick run's kernel phase as measureKernels plans it: each later series keeps half its seconds, decode all.
    const KernelBudgets budgets = kernelBudgets(true);
    RunReserves reserves(true);
    reserves.plan(QStringLiteral("sgemm"), budgets.sgemm);
    reserves.plan(QStringLiteral("add"), budgets.add);
    reserves.plan(QStringLiteral("decode"), budgets.decode, true);
    reserves.plan(QStringLiteral("fusion"), budgets.fusion);
    EXPECT_DOUBLE_EQ(reserves.start(QStringLiteral("sgemm")),
                     0.5 * budgets.add + budgets.decode + 0.5 * budgets.fusion);
    // add did not run (say, nothing fitted the memory): decode starting ends add's share too.
    EXPECT_DOUBLE_EQ(reserves.start(QStringLiteral("decode")), 0.5 * budgets.fusion);
    EXPECT_DOUBLE_EQ(reserves.start(QStringLiteral("fusion")), 0.0);
    RunReserves full(false);
    full.plan(QStringLiteral("dgemm"), 7.0);
    full.plan(QStringLiteral("add"), 3.0);
    EXPECT_DOUBLE_EQ(full.start(QStringLiteral("dgemm")), 0.75) << "a full run keeps a quarter";

    // The run reached sgemm late: 1 s of 4.1 left, of which decode and the rest keep 0.9 s.
    const double limit = runSeconds(true);
    const RunLimit run{limit, [&] { return limit - 1.0; }, 0.9};
    EXPECT_NEAR(run.left(), 0.1, 1e-12);
    SeriesBudget sgemm(QStringLiteral("sgemm"), budgets.sgemm, QStringLiteral("quick"), SeriesBudget::Order::Ascending,
                       run);
    EXPECT_TRUE(sgemm.admit(QStringLiteral("sgemm 512"), 0.05, QStringLiteral("x")));
    EXPECT_FALSE(sgemm.admit(QStringLiteral("sgemm 1024"), 0.2, QStringLiteral("sgemm 512")))
        << "0.2 s would fit the 1 s left, not what is left once the later series have their share";
    ASSERT_EQ(sgemm.skipped().size(), 1u);
    EXPECT_TRUE(sgemm.skipped()[0].reason.endsWith(QStringLiteral(
        "more than the 0.10 s left of the 4.10 s a quick run takes in all, once 0.90 s are kept for the experiments "
        "after it")))
        << sgemm.skipped()[0].reason.toStdString();
}

TEST(TimePlan, DecodeBatchingDrawsItsEndsAndMiddleEvenWhenTheRunHasNoTimeLeft)
{
    const double limit = runSeconds(true);
    const RunLimit over{limit, [&] { return limit + 0.2; }};  // a busy machine: the run is already over
    SeriesBudget decode(QStringLiteral("decode"), 0.6, QStringLiteral("quick"), SeriesBudget::Order::Independent, over);
    decode.alwaysRun(3);
    std::vector<int> ran;
    for (int batch : curveOrder({1, 2, 4, 8, 16, 32, 64, 128, 256}))
        if (decode.admit(QStringLiteral("decode B=%1").arg(batch), 0.02, QStringLiteral("x")))
            ran.push_back(batch);
    EXPECT_EQ(ran, (std::vector<int>{1, 256, 16})) << "a curve on any machine: both ends and the middle";
    EXPECT_EQ(decode.skipped().size(), 6u) << "and the rest each say why";
}

TEST(TimePlan, TheDramPlateauSearchProjectsEachSizeFromTheOneBeforeWithinItsSeconds)
{
    EXPECT_LE(sweepSeconds(true), 0.25 * runSeconds(true));
    EXPECT_LE(sweepSeconds(false), 0.25 * runSeconds(false));
    // The Zen 5 guest's quick search: 128 MiB took 0.17 s (read and triad), 256 MiB 0.34 s.
    constexpr std::int64_t MiB = 1024 * 1024;
    EXPECT_DOUBLE_EQ(projectedSweepStepSeconds(128 * MiB, 0.17, 256 * MiB), 0.34);
    EXPECT_DOUBLE_EQ(projectedSweepStepSeconds(256 * MiB, 0.34, 512 * MiB), 0.68)
        << "with 0.84 s of the quick run's 1 s gone, 512 MiB is not run";
    EXPECT_DOUBLE_EQ(projectedSweepStepSeconds(0, 0.0, 16 * MiB), 0.0) << "nothing measured yet";
}

TEST(TimePlan, AnEmulatorStartsTheMatmulSeriesBelowItsListAndStopsWithinItsSeconds)
{
    const std::vector<int> listed{512, 1024, 2048};
    const KernelBudgets budgets = kernelBudgets(true);
    // The Xeon guest runs the list as it is.
    const double xeon = 0.5 * kXeonGuest.fp32Ceiling;
    EXPECT_EQ(seriesSizes(listed, 128, budgets.sgemm, [&](int n) { return gemmStep(n, xeon, true); }), listed);
    // Under qemu, 512 alone would take 3.6 s: the series starts at 256.
    const double qemu = 0.5 * kQemuArm64.fp32Ceiling;
    EXPECT_GT(gemmStep(512, qemu, true), budgets.sgemm);
    const std::vector<int> sizes =
        seriesSizes(listed, 128, budgets.sgemm, [&](int n) { return gemmStep(n, qemu, true); });
    EXPECT_EQ(sizes, (std::vector<int>{256, 512, 1024, 2048}));
    // Running the series at the emulator's rate: 256 runs, the rest are not run and say so.
    SeriesBudget budget(QStringLiteral("sgemm"), budgets.sgemm, QStringLiteral("quick"));
    double spent = 0.0;
    for (int n : sizes) {
        const double projected = gemmStep(n, qemu, true);
        if (budget.admit(QStringLiteral("sgemm %1").arg(n), projected, QStringLiteral("the ceiling"))) {
            budget.spend(projected);
            spent += projected;
        }
    }
    EXPECT_LE(spent, budgets.sgemm);
    ASSERT_EQ(budget.skipped().size(), 3u);
    EXPECT_EQ(budget.skipped()[0].experiment, QStringLiteral("sgemm 512"));
    EXPECT_TRUE(budget.skipped()[2].reason.contains(QStringLiteral("this quick run gives sgemm")));
    // The smallest size is a floor: even at 0.001 GFLOP/s the series starts at 128, not below.
    EXPECT_EQ(seriesSizes(listed, 128, 1.0, [](int n) { return gemmStep(n, 0.001, true); }).front(), 128);
}

TEST(TimePlan, DecodeWeightsShrinkToWhatTheSecondsAllowAndFusionLikewise)
{
    const KernelBudgets quick = kernelBudgets(true);
    const std::vector<std::int64_t> dims{4096, 2048, 1024, 512};
    auto decode = [](const Rates& r) {
        return [r](std::int64_t dim) {
            return decodeSeriesSeconds(static_cast<int>(dim), 256, 4.0, r.dramGbps, 0.5 * r.fp32Ceiling, true);
        };
    };
    EXPECT_EQ(largestFitting(dims, quick.decode, decode(kXeonGuest)), 4096);
    EXPECT_EQ(largestFitting(dims, quick.decode, decode(kQemuArm64)), 512) << "the smallest when nothing fits";
    // Batch 256 of 4096 x 4096 fp32 weights is compute-bound (8.6 GFLOP), batch 1 memory-bound (64 MiB).
    EXPECT_NEAR(decodeRunSeconds(4096, 256, 4.0, 20.0, 200.0), 2.0 * 4096 * 4096 * 256 / 200e9, 1e-12);
    EXPECT_NEAR(decodeRunSeconds(4096, 1, 4.0, 20.0, 200.0), 4.0 * 4096 * 4096 / 20e9, 1e-12);

    // Fusion over 4096 x 4096 elements: memory-bound on the Xeon (8 transfers of 64 MiB at 18.7 GB/s per pair of
    // runs); under an emulator the arithmetic (here 50 ns per element) is the limit.
    const std::int64_t elements = 4096LL * 4096;
    const double xeon = fusionStepSeconds(elements, kXeonGuest.dramGbps, 0.2e-9, true);
    EXPECT_LT(xeon, quick.fusion);
    EXPECT_GT(fusionStepSeconds(elements, kQemuArm64.dramGbps, 50e-9, true),
              fusionStepSeconds(elements, kQemuArm64.dramGbps, 0.0, true));
}

TEST(TimePlan, TheTrainingStepFitsAQuickRunOnTheXeonGuestAndNotUnderAnEmulator)
{
    const KernelBudgets quick = kernelBudgets(true);
    const KernelBudgets full = kernelBudgets(false);
    // As the engine projects it: the plain step at eight tenths of sgemm's rate, sgemm at half the ceiling.
    auto seconds = [](const MlpShape& shape, const Rates& r, bool isQuick) {
        return trainingSeconds(trainingStepFlops(shape) / (0.8 * 0.5 * r.fp32Ceiling * 1e9), isQuick);
    };
    EXPECT_LT(seconds(trainingShape(true), kXeonGuest, true), quick.training);
    EXPECT_LT(seconds(trainingShape(false), kXeonGuest, false), full.training);
    EXPECT_GT(seconds(trainingShape(true), kQemuArm64, true), quick.training);
    // Three ways, each a warm-up and at least three timed steps (two in a full run), and the gradient comparison.
    EXPECT_GT(trainingSeconds(1.0, true), 14.0);
    EXPECT_GT(trainingSeconds(1.0, false), 11.0);
}

TEST(TimePlan, DecodeBatchesRunInTheOrderThatDrawsTheCurveBestAtAnyBudget)
{
    const std::vector<int> all{1, 2, 4, 8, 16, 32, 64, 128, 256};
    const std::vector<int> order = curveOrder(all);
    EXPECT_EQ(order, (std::vector<int>{1, 256, 16, 4, 64, 2, 8, 32, 128}));
    EXPECT_EQ(std::set<int>(order.begin(), order.end()), std::set<int>(all.begin(), all.end())) << "each batch once";
    // A quick run's low-precision batches (every other one).
    EXPECT_EQ(curveOrder({1, 4, 16, 64, 256}), (std::vector<int>{1, 256, 16, 4, 64}));
    EXPECT_EQ(curveOrder({1}), std::vector<int>{1});
    EXPECT_EQ(curveOrder({1, 2}), (std::vector<int>{1, 2}));
}

TEST(TimePlan, DurationsInReasonsKeepTheirDigits)
{
    EXPECT_EQ(durationText(0.0000523), QStringLiteral("0.052 ms"));
    EXPECT_EQ(durationText(0.0523), QStringLiteral("52.3 ms"));
    EXPECT_EQ(durationText(1.384), QStringLiteral("1.38 s"));
}

TEST(Load, AStepThatLostItsCoreIsNamedAndAQuietRunSaysNothing)
{
    LoadRecord quiet;
    quiet.add(QStringLiteral("FMA peak fp32 avx512, 1 thread(s)"), 0.99);
    quiet.add(QStringLiteral("bandwidth read, 16 KiB"), 0.9);
    EXPECT_FALSE(quiet.finding().has_value());

    LoadRecord busy;
    busy.add(QStringLiteral("FMA peak fp32 avx512, 1 thread(s)"), 0.99);
    busy.add(QStringLiteral("bandwidth read, 16 KiB"), 0.02);
    busy.add(QStringLiteral("bandwidth triad, 64 KiB"), 0.5);
    const std::optional<Finding> finding = busy.finding();
    ASSERT_TRUE(finding.has_value());
    EXPECT_EQ(finding->subject, kLoadFindingSubject);
    EXPECT_EQ(finding->kind, QStringLiteral("doubtful"));
    EXPECT_TRUE(finding->message.contains(QStringLiteral("during 2 of the 3")));
    EXPECT_TRUE(finding->message.contains(QStringLiteral("bandwidth read, 16 KiB (2 %), bandwidth triad, 64 KiB")))
        << finding->message.toStdString();
}

TEST(Load, ASleepingThreadGetsNoCpuTime)
{
    // Sleeping is what a thread does while another process has its core: it runs, but not on a CPU.
    const CpuShareTimer asleep;
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    EXPECT_LT(asleep.share(), 0.5);

    const CpuShareTimer spinning;
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(30);
    volatile double x = 0.0;
    while (std::chrono::steady_clock::now() < until)
        x = x + 1.0;
    EXPECT_GT(spinning.share(), 0.0);
    EXPECT_LE(spinning.share(), 1.0);
}
