#pragma once
// How long each kernel experiment may take, and what its next size would take (issue 11, point 3). Every
// series - the matmul sizes, the adds, the decode batches, the fusion chain, the low-precision products - is
// bounded by time as well as by memory: before a size runs, its time is projected (from the size before it,
// measured, or for the first from the ceilings and bandwidth this run has measured), and a size that would
// overrun what is left of its series' seconds is not run; the session says which and why. The projections are
// plain arithmetic on rates, so they are tested with the rates of real machines, an emulator's included.

#include "core/session/session.h"

#include <functional>
#include <vector>

namespace ridgeline {

// The experiments whose steps are timed the same way (kernel_timing.h's timeRepeated).
enum class KernelExperiment { Gemm, Add, Decode, Fusion };

// A step is a warm-up run, then timed runs until at least `minSeconds` have passed and `minReps` were taken.
struct StepTiming {
    int minReps = 3;
    double minSeconds = 0.05;
};
// The one home of every kernel's repetition rule; `n` is the matrix size (gemm: 4096 and above take fewer).
StepTiming stepTiming(KernelExperiment experiment, bool quick, int n = 0);

// The seconds one step costs when one run takes `runSeconds`: the warm-up and the timed runs (as timeRepeated).
double projectedStepSeconds(double runSeconds, const StepTiming& timing);

// Seconds each series of a run may take. The quick run's total stays near 5 s and the full run's near 30 s on
// 2 cores once the ceilings and the sweep have had theirs.
struct KernelBudgets {
    double sgemm = 0.0;
    double dgemm = 0.0;
    double add = 0.0;
    double decode = 0.0;      // the fp32 batches 1 .. 256
    double fusion = 0.0;      // both chains
    double bf16Gemm = 0.0;    // the bf16 products at sgemm's sizes
    double lowpDecode = 0.0;  // each low-precision weight type's batches
};
KernelBudgets kernelBudgets(bool quick);

// The seconds a whole run may take: a quick run within 5 s and a full one within 30 s on 2 cores (issue 11),
// with a little room for the last step of each series, which may overshoot. `elapsed` says how long the run
// has taken so far; every series also stops where it would overrun what is left of the run.
struct RunLimit {
    double seconds = 0.0;
    std::function<double()> elapsed;  // empty: no limit beyond the series' own
    double left() const;              // infinity without a limit
};
double runSeconds(bool quick);

// One series under its budget: asks, step by step, whether the projected time fits what is left, and keeps what
// did not run with its reason.
class SeriesBudget {
public:
    // Ascending: the steps grow, so once one does not fit neither do the later ones. Independent: each step is
    // asked on its own (the decode batches, run in curveOrder).
    enum class Order { Ascending, Independent };
    // `series` names it in the reasons ("sgemm"), `seconds` is its budget, `runKind` "quick" or "full", `run`
    // the whole run's limit.
    SeriesBudget(QString series, double seconds, QString runKind, Order order = Order::Ascending, RunLimit run = {});

    // Whether `step`, projected to take `projectedSeconds` (`projectedFrom` says from what), fits what is left; if
    // not, it is recorded as skipped with the projection and the budget. The first step always runs (the
    // series' smallest size: no experiment is dropped for time). Ascending: once one step did not fit, neither
    // do the later (larger) ones; each is recorded with its own projection.
    bool admit(const QString& step, double projectedSeconds, const QString& projectedFrom);
    // Seconds a step really took.
    void spend(double seconds) { m_spent += seconds; }
    double left() const;  // of the series' seconds, or of the run's when fewer are left of those
    double seconds() const { return m_seconds; }
    const std::vector<SkippedExperiment>& skipped() const { return m_skipped; }

private:
    QString m_series;
    double m_seconds;
    QString m_runKind;
    Order m_order;
    RunLimit m_run;
    double m_spent = 0.0;
    int m_admitted = 0;
    bool m_stopped = false;
    std::vector<SkippedExperiment> m_skipped;
};

// "0.052 ms", "52.0 ms", "1.38 s": a duration in reasons.
QString durationText(double seconds);

// The points of a curve (ascending) in the order that draws it best whatever a budget lets run: both ends
// first, then each next point halves the widest gap left. Decode batches 1, 2 ... 256 run as 1, 256, 16, 4, 64,
// 2, 8, 32, 128.
std::vector<int> curveOrder(const std::vector<int>& ascending);

// The sizes to try of a series listed as `listed` (ascending): when even the first would take more than
// `seconds` (by `projectedSeconds`), halvings of it down to `smallest` come first, and the first of those that
// fits (or `smallest`) is where the series starts. A slow machine (an emulator runs vector FP at 0.01 to
// 0.3 GFLOP/s) still runs every experiment, at a size it can finish.
std::vector<int> seriesSizes(const std::vector<int>& listed, int smallest, double seconds,
                             const std::function<double(int)>& projectedSeconds);

// The largest of `candidates` (descending) whose projected time fits `seconds`, else the last (smallest).
std::int64_t largestFitting(const std::vector<std::int64_t>& candidates, double seconds,
                            const std::function<double(std::int64_t)>& projectedSeconds);

// Seconds of one n x n x n matrix product at `gflops`.
double gemmRunSeconds(int n, double gflops);
// One n x n fp32 add (two reads, one write of 4-byte elements) at `gbps`.
double addRunSeconds(int n, double gbps);
// One decode step: dim x dim weights of `bytesPerWeight` streamed at `gbps`, or the product at `gflops`,
// whichever is slower.
double decodeRunSeconds(int dim, int batch, double bytesPerWeight, double gbps, double gflops);
// Every batch 1, 2, 4 ... maxBatch of a decode series, each a step.
double decodeSeriesSeconds(int dim, int maxBatch, double bytesPerWeight, double gbps, double gflops, bool quick);
// Both fusion chains over `elements` fp32 values: six tensor transfers unfused and two fused at `gbps`, or the
// chain's arithmetic at `secondsPerElement` (measured in cache, on all threads), whichever is slower, as steps.
double fusionStepSeconds(std::int64_t elements, double gbps, double secondsPerElement, bool quick);

}  // namespace ridgeline
