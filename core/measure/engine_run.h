#pragma once
// The measurement engine's run, shared by its two files: engine.cpp (the probe, clock, ceilings and
// bandwidth sweep) and engine_kernels.cpp (the kernels placed on the roof, each a series bounded by time).
// Internal to core/measure: callers use engine.h.

#include "core/measure/measure_options.h"
#include "core/measure/run/measure_control.h"

#include "core/measure/lowp/lowp_ceilings.h"
#include "core/measure/machine/probe.h"
#include "core/measure/machine/rapl.h"
#include "core/measure/memory/bandwidth.h"
#include "core/measure/memory/sizing.h"
#include "core/measure/run/kernel_timing.h"
#include "core/measure/run/load.h"
#include "core/measure/run/time_plan.h"
#include "core/measure/workloads/training.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ridgeline::engine_detail {

constexpr int kDecodeMaxBatch = 256;
constexpr int kDecodeBatches = 9;  // 1, 2, 4 ... kDecodeMaxBatch
// The smallest sizes a series starts at on a machine too slow for its listed ones (an emulator).
constexpr int kSmallestGemm = 128;
constexpr int kSmallestAdd = 512;
constexpr int kSmallestDecodeDim = 512;
constexpr std::int64_t kSmallestFusionRows = 256;
// A slow core's GFLOP/s where no ceiling was measured: sizes the first gemm or decode call only.
constexpr double kUnmeasuredGflops = 10.0;

// One measurement in progress: runs its steps in order, each announced, reported and counted.
class Run {
public:
    Run(const MeasureOptions& options, int threads, Session& session, MeasureControl& control,
        const PartialResultCallback& partial)
        : m_options(options), m_threads(threads), m_session(session), m_control(control), m_partial(partial)
    {
    }

    bool execute();

private:
    // Announces `stage`, runs `work` (false: cancelled) and reports the session so far. A step that keeps its
    // threads running all the time (the clock, ceilings, bandwidth points: `judged`) is also judged for how much
    // of that time it got: what other processes or the hypervisor took is the measure of a disturbed step.
    template <typename Work>
    bool step(const QString& stage, Work work, bool judged = false)
    {
        m_control.beginStep(stage);
        const CpuShareTimer share;
        if (m_control.cancelled() || !work())
            return false;
        if (judged)
            m_load.add(stage, share.share());
        if (m_partial)
            m_partial(m_session);
        m_control.endStep();
        return true;
    }

    std::vector<int> threadCounts() const
    {
        std::vector<int> counts{1};
        if (m_threads > 1)
            counts.push_back(m_threads);
        return counts;
    }
    void addFindings(const std::vector<Finding>& findings)
    {
        m_session.findings.insert(m_session.findings.end(), findings.begin(), findings.end());
    }

    bool measureClockStep();
    bool measureCompute();
    bool measureLowpCeilings();
    bool measureLowpKernels(const ExperimentSizes& sizes);
    int lowpKernelSteps(const ExperimentSizes& sizes) const;
    bool measureSweep();
    bool measureKernels();
    void relabelCurve();
    // The fastest compute ceiling of `precision` ("fp32", "bf16", "int8") at the run's threads; `none` when none
    // was measured yet.
    double measuredCeiling(const QString& precision, double none = 0.0) const;
    double fp32CeilingOrGuess() const { return measuredCeiling(precisionName(Precision::Fp32), kUnmeasuredGflops); }
    double dramGbps() const;                           // STREAM triad, else the DRAM ceiling
    double measuredGflops(const QString& kind) const;  // the fastest run of this kind's kernels so far

    // One step of a series: its name, one run's time by the model, how it is repeated, and what it costs
    // besides its runs (filling and first touching its operands).
    struct SeriesStep {
        QString stage;
        double runSeconds = 0.0;
        StepTiming timing;
        double overheadSeconds = 0.0;
        // The model's run is its arithmetic rather than its traffic (decode at large batches): scaled by how the
        // compute-bound steps before it compared with the model, not by the memory-bound ones.
        bool computeBound = false;
    };
    // Runs the steps in order while their projections fit `budget`; `measure(i)` measures step i (nullopt:
    // cancelled) and its kernel is kept. `overhead(i)`, when given, replaces step i's overheadSeconds once the
    // steps before it have run.
    bool runSeries(SeriesBudget& budget, const std::vector<SeriesStep>& steps, const QString& firstBasis,
                   const std::function<std::optional<KernelResult>(std::size_t)>& measure,
                   const std::function<double(std::size_t)>& overhead = {});
    bool measureGemmSeries(Precision precision, const std::vector<int>& listed, double seconds);
    bool measureAddSeries(const std::vector<int>& listed, double seconds);
    bool measureDecodeSeries(int maxDim, double seconds);
    template <typename Experiment>
    bool measureDecodeBatches(const QString& label, const QString& series, int dim, const std::vector<int>& ascending,
                              double bytesPerWeight, double gflops, double seconds,
                              const std::function<std::unique_ptr<Experiment>()>& makeExperiment);
    // Runs one decode batch's `measure` with the RAPL counters read before and after it, and keeps the batch's
    // energy in its kernel where the counters can be read (the session says where they come from, or why not).
    std::optional<KernelResult> measureWithEnergy(const std::function<std::optional<KernelResult>()>& measure);
    bool measureFusionStep(std::int64_t maxRows, double seconds);
    bool measureTrainingStep(double seconds);
    // The training step in bf16 mixed precision beside the fp32 one, where Ridgeline links oneDNN
    // (engine_lowp_kernels.cpp), the CPU has bf16 units and its projected `seconds` fit the `left` of the training
    // step's; otherwise the session says why not. False only when cancelled.
    bool measureTrainingBf16(const MlpShape& shape, double seconds, double left);
    // Plans what the low-precision series keep back from the run (m_reserves), where they will run.
    void planLowpReserves(const ExperimentSizes& sizes, const KernelBudgets& budgets);
    // A series found steps it will not run (or more): the progress shown is corrected at once.
    void adjustTotal(int delta)
    {
        m_control.setTotal(m_control.total() + delta);
        m_control.keepGoing();
    }
    QString runKind() const { return m_options.quick ? QStringLiteral("quick") : QStringLiteral("full"); }
    // The whole run's seconds, counted from the start of the run, less what the series after `series` keep
    // back (m_reserves): what `series`, starting now, also stays within.
    RunLimit runLimit(const QString& series)
    {
        const auto started = m_started;
        return {runSeconds(m_options.quick),
                [started] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(); },
                m_reserves.start(series)};
    }

    const MeasureOptions& m_options;
    const int m_threads;
    Session& m_session;
    MeasureControl& m_control;
    const PartialResultCallback& m_partial;
    CoreModel m_core;
    std::vector<Isa> m_isas;
    LowpPlan m_lowp;
    SweepPlan m_sweep;
    std::int64_t m_budget = 0;
    std::int64_t m_dramBytes = 0;
    std::unique_ptr<BandwidthScratch> m_bandwidthScratch;  // from the sweep to STREAM, then freed
    RunReserves m_reserves{m_options.quick};               // planned by measureKernels
    int m_decodeDim = 0;                                   // the fp32 decode series' weights, once planned
    std::optional<RaplCounters> m_rapl;                    // read at the first decode batch
    LoadRecord m_load;
    std::chrono::steady_clock::time_point m_started = std::chrono::steady_clock::now();
};

}  // namespace ridgeline::engine_detail
