#pragma once
// How long each kernel experiment may take, and what its next size would take. Every
// series - the matmul sizes, the adds, the decode batches, the fusion chain, the low-precision products - is
// bounded by time as well as by memory: before a size runs, its time is projected (from the size before it,
// measured, or for the first from the ceilings and bandwidth this run has measured), and a size that would
// overrun what is left of its series' seconds is not run; the session says which and why. The projections are
// plain arithmetic on rates, so they are tested with the rates of real machines, an emulator's included.

#include "core/session/session.h"

#include <functional>
#include <utility>
#include <vector>

namespace ridgeline {

// The experiments whose steps are timed the same way (kernel_timing.h's timeRepeated).
enum class KernelExperiment { Gemm, Add, Decode, Fusion, Training };

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
    double training = 0.0;    // the training step's three ways
    double bf16Gemm = 0.0;    // the bf16 products at sgemm's sizes
    double lowpDecode = 0.0;  // each low-precision weight type's batches
};
KernelBudgets kernelBudgets(bool quick);

// The seconds a whole run may take: a quick run within 5 s and a full one within 30 s on 2 cores,
// with a little room for the last step of each series, which may overshoot. `elapsed` says how long the run
// has taken so far; every series also stops where it would overrun what is left of the run.
struct RunLimit {
    double seconds = 0.0;
    std::function<double()> elapsed;  // empty: no limit beyond the series' own
    double reserved = 0.0;            // kept back for the series after this one (RunReserves)
    double left() const;              // infinity without a limit
};
double runSeconds(bool quick);

// What the series still to come keep back from the run, so that a run that reached its kernels late (a busy
// machine, a long sweep) thins every series rather than dropping the last ones: each later series keeps half its
// seconds in a quick run (a quarter in a full one, whose seconds are about 2.5 times what its series need),
// decode batching - the source text's biggest lever - all of its own.
class RunReserves {
public:
    explicit RunReserves(bool quick) : m_share(quick ? 0.5 : 0.25) {}
    // A series of `seconds`, planned to run after those added before it.
    void plan(const QString& series, double seconds, bool keepsAll = false);
    // `series` starts: it and any planned before it (which did not run) keep nothing back any longer; returns what
    // the series after it keep back.
    double start(const QString& series);

private:
    double m_share;
    std::vector<std::pair<QString, double>> m_planned;
};

// The seconds the bandwidth sweep's DRAM plateau search may take: a quick run's within about 1 s, a full run's 6 s.
// On a guest whose curve falls slowly past its cache (a Zen 5 VM's goes 120, 97, 78, 70 GB/s from 64 to 512 MiB)
// the search would otherwise run on to the sweep's bound, and a quick run's time would vary by a second.
double sweepSeconds(bool quick);
// The seconds the next working set's read and triad take, projected from the last set's (`lastBytes` took
// `lastSeconds`): time grows with the bytes.
double projectedSweepStepSeconds(std::int64_t lastBytes, double lastSeconds, std::int64_t nextBytes);

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
    // The first `steps` admitted always run (default one, the smallest size: no experiment is dropped for time);
    // decode batching keeps three, both ends and the middle, for a curve on any machine.
    void alwaysRun(int steps) { m_alwaysRun = steps; }

    // Whether `step`, projected to take `projectedSeconds` (`projectedFrom` says from what), fits what is left; if
    // not, it is recorded as skipped with the projection and the budget. The first step always runs (alwaysRun).
    // Ascending: once one step did not fit, neither
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
    int m_alwaysRun = 1;
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
// The training step's three ways when a plain step takes `plainSeconds`: checkpointing adds a sixth, the
// micro-batches' smaller products about a tenth; each timed as stepTiming says.
double trainingSeconds(double plainSeconds, bool quick);
// The bf16 mixed-precision step beside the fp32 plain step, timed interleaved, with one fp32 gradient pass to compare
// them: taken at the plain step's time, as a CPU whose bf16 products run no faster than sgemm would.
double trainingBf16Seconds(double plainSeconds, bool quick);

}  // namespace ridgeline
