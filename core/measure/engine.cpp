#include "core/measure/engine.h"

#include "core/measure/bandwidth.h"
#include "core/measure/bandwidth_levels.h"
#include "core/measure/clock.h"
#include "core/measure/compute_ceilings.h"
#include "core/measure/kernels.h"
#include "core/measure/load.h"
#include "core/measure/lowp_ceilings.h"
#include "core/measure/lowp_experiments.h"
#include "core/measure/parallel.h"
#include "core/measure/peaks.h"
#include "core/measure/probe.h"
#include "core/measure/sizing.h"
#include "core/measure/statistics.h"
#include "core/measure/time_plan.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <new>
#include <optional>

namespace ridgeline {

namespace {

constexpr int kDecodeMaxBatch = 256;
constexpr int kDecodeBatches = 9;  // 1, 2, 4 ... kDecodeMaxBatch
// The smallest sizes a series starts at on a machine too slow for its listed ones (an emulator).
constexpr int kSmallestGemm = 128;
constexpr int kSmallestAdd = 512;
constexpr int kSmallestDecodeDim = 512;
constexpr std::int64_t kSmallestFusionRows = 256;

// Keeps OpenBLAS's thread count as the caller left it, whatever the run sets.
class OpenBlasThreadsGuard {
public:
    OpenBlasThreadsGuard() : m_threads(openblas_get_num_threads()) {}
    ~OpenBlasThreadsGuard() { openblas_set_num_threads(m_threads); }
    OpenBlasThreadsGuard(const OpenBlasThreadsGuard&) = delete;
    OpenBlasThreadsGuard& operator=(const OpenBlasThreadsGuard&) = delete;

private:
    int m_threads;
};

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
    double bestCeiling(Precision precision) const;
    double bestCeilingOf(const QString& precision) const;  // 0 when none
    double dramGbps() const;                               // STREAM triad, else the DRAM ceiling
    double measuredGflops(const QString& kind) const;      // the fastest run of this kind's kernels so far

    // One step of a series: its name, one run's time by the model, how it is repeated, and what it costs
    // besides its runs (filling and first touching its operands).
    struct SeriesStep {
        QString stage;
        double runSeconds = 0.0;
        StepTiming timing;
        double overheadSeconds = 0.0;
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
    bool measureFusionStep(std::int64_t maxRows, double seconds);
    // A series found steps it will not run (or more): the progress shown is corrected at once.
    void adjustTotal(int delta)
    {
        m_control.setTotal(m_control.total() + delta);
        m_control.keepGoing();
    }
    QString runKind() const { return m_options.quick ? QStringLiteral("quick") : QStringLiteral("full"); }

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
    int m_decodeDim = 0;                                   // the fp32 decode series' weights, once planned
    LoadRecord m_load;
};

bool Run::execute()
{
    MachineInfo& machine = m_session.machine;
    m_core = coreOf(machine);
    m_isas = fmaIsasFromFlags(machine.isa);
    m_lowp = planLowpCeilings(machine);
    m_session.skipped.insert(m_session.skipped.end(), m_lowp.skipped.begin(), m_lowp.skipped.end());
    m_budget = measurementMemoryBudget(machine);
    m_sweep = planSweep(machine, m_threads, m_options.quick, m_budget);

    // The total is an estimate until the sweep has found DRAM; then it is set exactly (it can only shrink).
    const ExperimentSizes largest = sizeExperiments(m_sweep.workingSets.back(), m_options.quick, m_budget);
    const int experiments =
        1 + static_cast<int>(largest.sgemmSizes.size() + largest.dgemmSizes.size() + largest.addSizes.size()) +
        (largest.decodeDim > 0 ? kDecodeBatches : 0) + 1;
    m_control.setTotal(1 + static_cast<int>((m_isas.size() * 2 + m_lowp.units.size()) * threadCounts().size()) +
                       2 * static_cast<int>(m_sweep.workingSets.size()) + experiments + lowpKernelSteps(largest));

    const bool finished =
        measureClockStep() && measureCompute() && measureLowpCeilings() && measureSweep() && measureKernels();
    if (const std::optional<Finding> load = m_load.finding())
        m_session.findings.push_back(*load);
    return finished;
}

bool Run::measureClockStep()
{
    return step(
        QStringLiteral("clock: add and imul chains"),
        [this] {
            const ProbeSources live;
            const SystemFacts facts = readSystemFacts(live);
            const ScopedPin pin(allowedCpus().front());
            const ClockJudgement clock =
                measureClock(facts.cpufreqMaxMhz, facts.cpuinfoMhz, m_options.quick ? 0.04 : 0.1);
            m_session.machine.clockGhz = clock.ghz;
            m_session.machine.clock = clock.measurement;
            if (clock.measurement.doubtful)
                m_session.findings.push_back(
                    {QStringLiteral("clock"), QStringLiteral("doubtful"), clock.measurement.doubt});
            return !m_control.cancelled();
        },
        1);
}

bool Run::measureCompute()
{
    if (m_isas.empty()) {
        m_session.skipped.push_back(
            {QStringLiteral("compute ceilings"),
             QStringLiteral("this CPU has no FMA instructions (FMA3: Intel Haswell, AMD Piledriver and later)")});
        return true;
    }
    const double baseClock = m_session.machine.clockGhz;
    for (Isa isa : m_isas) {
        for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
            for (int t : threadCounts()) {
                const QString stage =
                    QStringLiteral("FMA peak %1 %2, %3 thread(s)").arg(precisionName(precision), isaName(isa)).arg(t);
                const bool ok = step(
                    stage,
                    [&] {
                        const auto m = measureComputeCeiling(isa, precision, t, m_control);
                        if (!m)
                            return false;
                        ComputeCeiling ceiling = m->ceiling;
                        // The clock beside the ISA's FMAs can only be lower than the plain one (a frequency licence);
                        // far lower means the add chain was starved of ports, not a slower clock.
                        if (!(ceiling.clockGhz >= 0.5 * baseClock && ceiling.clockGhz <= 1.1 * baseClock)) {
                            m_session.findings.push_back(
                                {ceiling.name, QStringLiteral("note"),
                                 QStringLiteral("the clock beside %1 FMAs read %2 GHz against %3 GHz without; the "
                                                "plain clock is used")
                                     .arg(isaName(isa))
                                     .arg(ceiling.clockGhz, 0, 'f', 2)
                                     .arg(baseClock, 0, 'f', 2)});
                            ceiling.clockGhz = baseClock;
                        }
                        const PeakAssessment peak =
                            assessPeak(ceiling.name, ceiling.gflops, t, ceiling.clockGhz, isa, precision, m_core);
                        ceiling.theoreticalGflops = peak.theoreticalGflops;
                        ceiling.flopsPerCycle = peak.flopsPerCycle;
                        ceiling.fmaPerCycle = peak.fmaPerCycle;
                        ceiling.peakBasis = peak.basis;
                        addFindings(peak.findings);
                        m_session.computeCeilings.push_back(ceiling);
                        return true;
                    },
                    t);
                if (!ok)
                    return false;
            }
        }
    }
    return true;
}

// Every low-precision unit of this machine, on one thread and on all (issue 16).
bool Run::measureLowpCeilings()
{
    for (LowpUnit unit : m_lowp.units) {
        for (int t : threadCounts()) {
            if (!step(
                    QStringLiteral("%1 peak, %2 thread(s)").arg(lowpUnitInfo(unit).label).arg(t),
                    [&] {
                        const Result<LowpCeiling> measured = measureLowpCeiling(unit, t, m_control, m_session.machine);
                        if (!measured) {
                            if (measured.error().code == Error::Code::Cancelled)
                                return false;
                            m_session.skipped.push_back({lowpCeilingName(unit, t), measured.error().message});
                            return true;
                        }
                        m_session.computeCeilings.push_back(measured.value().ceiling);
                        addFindings(measured.value().findings);
                        return true;
                    },
                    t))
                return false;
        }
    }
    return true;
}

// Labels the curve from the caches (the last at its effective size) and reads the ceilings off it.
void Run::relabelCurve()
{
    const std::vector<CacheInfo> caches = labellingCaches(m_session.machine, m_threads);
    for (BandwidthPoint& point : m_session.bandwidthCurve)
        point.level = levelForWorkingSet(point.workingSetBytes, caches, m_threads, m_dramBytes);
    m_session.bandwidthCeilings = bandwidthCeilingsFromCurve(m_session.bandwidthCurve);
}

bool Run::measureSweep()
{
    MachineInfo& machine = m_session.machine;
    // While the plateau is searched for, the last level's extent is unknown: only the levels below it are
    // labelled until the sweep ends.
    std::vector<CacheInfo> provisional = machine.caches;
    if (m_sweep.searchPlateau && !provisional.empty())
        provisional.pop_back();
    m_bandwidthScratch = std::make_unique<BandwidthScratch>(m_threads);
    m_bandwidthScratch->reserve(m_sweep.workingSets.back());
    std::unique_ptr<DramPlateauFinder> finder;
    if (m_sweep.searchPlateau)
        finder = std::make_unique<DramPlateauFinder>(m_sweep.searchFromBytes);
    std::int64_t largest = 0;
    for (std::int64_t ws : m_sweep.workingSets) {
        for (const QString& mix : {QStringLiteral("read"), QStringLiteral("triad")}) {
            const bool ok = step(
                QStringLiteral("bandwidth %1, %2 KiB").arg(mix).arg(ws / 1024),
                [&] {
                    const auto point = measureBandwidthPoint(mix, ws, m_threads, m_control, *m_bandwidthScratch);
                    if (!point)
                        return false;
                    BandwidthPoint labelled = *point;
                    labelled.level = m_sweep.searchPlateau
                                         ? levelForWorkingSet(ws, provisional, m_threads, std::int64_t{1} << 62)
                                         : levelForWorkingSet(ws, machine.caches, m_threads, m_sweep.dramFromBytes);
                    m_session.bandwidthCurve.push_back(labelled);
                    m_session.bandwidthCeilings = bandwidthCeilingsFromCurve(m_session.bandwidthCurve);
                    if (finder && mix == QLatin1String("read"))
                        finder->add(ws, point->spread.max);
                    return true;
                },
                m_threads);
            if (!ok)
                return false;
        }
        largest = ws;
        if (finder && finder->found())
            break;
    }

    machine.lastLevelCache = lastLevelCacheAfterSweep(machine, m_threads, m_sweep, finder.get(), largest);
    if (!m_sweep.searchPlateau) {
        m_dramBytes = m_sweep.dramFromBytes;
    } else {
        m_dramBytes = finder->plateauStartBytes() > 0 ? finder->plateauStartBytes() : largest;
        m_session.findings.push_back({QStringLiteral("last-level cache"),
                                      finder->found() ? QStringLiteral("note") : QStringLiteral("doubtful"),
                                      machine.lastLevelCache.basis});
    }
    relabelCurve();
    return true;
}

double Run::bestCeiling(Precision precision) const
{
    double best = 0.0;
    for (const ComputeCeiling& c : m_session.computeCeilings)
        if (c.precision == precisionName(precision) && c.threads == m_threads)
            best = std::max(best, c.gflops);
    return best > 0.0 ? best : 10.0;  // no ceiling: a slow core's guess, for sizing the first gemm call only
}

bool Run::measureKernels()
{
    const ExperimentSizes sizes = sizeExperiments(m_dramBytes, m_options.quick, m_budget);
    m_session.skipped.insert(m_session.skipped.end(), sizes.skipped.begin(), sizes.skipped.end());
    addFindings(sizes.notes);
    // Steps as listed; each series corrects this as it plans its sizes in time (adjustTotal).
    const int remaining =
        1 + static_cast<int>(sizes.sgemmSizes.size() + sizes.dgemmSizes.size() + sizes.addSizes.size()) +
        (sizes.decodeDim > 0 ? kDecodeBatches : 0) + (sizes.fusionRows > 0 ? 1 : 0) + lowpKernelSteps(sizes);
    m_control.setTotal(m_control.done() + remaining);

    const std::int64_t array = sizes.streamArrayBytes;
    if (!step(
            QStringLiteral("STREAM triad, 3 x %1 MiB").arg(array / kMiB),
            [&] {
                const auto triad = measureStreamTriad(array, m_threads, m_control, *m_bandwidthScratch);
                m_bandwidthScratch.reset();
                if (!triad)
                    return false;
                m_session.streamTriadGbps = triad->max;  // STREAM reports the best rate
                return true;
            },
            m_threads))
        return false;

    const KernelBudgets budgets = kernelBudgets(m_options.quick);
    return measureGemmSeries(Precision::Fp32, sizes.sgemmSizes, budgets.sgemm) &&
           measureGemmSeries(Precision::Fp64, sizes.dgemmSizes, budgets.dgemm) &&
           measureAddSeries(sizes.addSizes, budgets.add) && measureDecodeSeries(sizes.decodeDim, budgets.decode) &&
           measureFusionStep(sizes.fusionRows, budgets.fusion) && measureLowpKernels(sizes) &&
           (addFindings(crossCheckSession(m_session)), true);
}

bool Run::runSeries(SeriesBudget& budget, const std::vector<SeriesStep>& steps, const QString& firstBasis,
                    const std::function<std::optional<KernelResult>(std::size_t)>& measure,
                    const std::function<double(std::size_t)>& overhead)
{
    // The model's run time is scaled by how the step before compared with it: its fastest run over its model
    // run. The fastest run, not the step's wall time, so that one disturbed repetition does not stop a series;
    // what a later step cost beyond its runs and the model's overhead (packing, waking threads) is added to the
    // next.
    double scale = 1.0;
    double unmodelled = 0.0;
    QString basis = firstBasis;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const SeriesStep& s = steps[i];
        const double overheadSeconds = overhead ? overhead(i) : s.overheadSeconds;
        const double projected = projectedStepSeconds(scale * s.runSeconds, s.timing) + overheadSeconds + unmodelled;
        if (!budget.admit(s.stage, projected, basis)) {
            adjustTotal(-1);
            continue;
        }
        const auto started = std::chrono::steady_clock::now();
        double fastest = 0.0;
        if (!step(s.stage, [&] {
                std::optional<KernelResult> kernel = measure(i);
                if (!kernel)
                    return false;
                fastest = kernel->spread.min;
                m_session.kernels.push_back(std::move(*kernel));
                return true;
            }))
            return false;
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        budget.spend(wall);
        if (s.runSeconds > 0.0 && fastest > 0.0)
            scale = fastest / s.runSeconds;
        // The first step's surplus is set-up done once (allocating, converting weights, compiling kernels).
        if (i > 0)
            unmodelled = std::max(0.0, wall - projectedStepSeconds(fastest, s.timing) - overheadSeconds);
        basis = QStringLiteral("%1, whose fastest run took %2 of its %3")
                    .arg(s.stage, durationText(fastest), durationText(wall));
    }
    m_session.skipped.insert(m_session.skipped.end(), budget.skipped().begin(), budget.skipped().end());
    return true;
}

double Run::dramGbps() const
{
    if (m_session.streamTriadGbps > 0.0)
        return m_session.streamTriadGbps;
    for (const BandwidthCeiling& c : m_session.bandwidthCeilings)
        if (c.level == QLatin1String("DRAM"))
            return c.gbps;
    return 1.0;  // nothing measured: a slow guess, for the first projection only
}

double Run::measuredGflops(const QString& kind) const
{
    double best = 0.0;
    for (const KernelResult& k : m_session.kernels)
        if (k.kind == kind && k.spread.min > 0.0)
            best = std::max(best, k.flops / k.spread.min / 1e9);
    return best;
}

// sgemm or dgemm at every listed size the series' seconds allow; a slow machine starts below the list.
bool Run::measureGemmSeries(Precision precision, const std::vector<int>& listed, double seconds)
{
    const bool fp32 = precision == Precision::Fp32;
    const QString kind = fp32 ? QStringLiteral("sgemm") : QStringLiteral("dgemm");
    // OpenBLAS reaches half to nine tenths of the FMA ceiling: the first size is projected at half.
    const double ceiling = bestCeiling(precision);
    const double gflops = 0.5 * ceiling;
    auto stepOf = [&](int n) {
        return SeriesStep{QStringLiteral("%1 %2").arg(kind).arg(n), gemmRunSeconds(n, gflops),
                          stepTiming(KernelExperiment::Gemm, m_options.quick, n), 0.0};
    };
    const std::vector<int> sizes = seriesSizes(listed, kSmallestGemm, seconds, [&](int n) {
        const SeriesStep s = stepOf(n);
        return projectedStepSeconds(s.runSeconds, s.timing);
    });
    adjustTotal(static_cast<int>(sizes.size()) - static_cast<int>(listed.size()));
    std::vector<SeriesStep> steps;
    for (int n : sizes)
        steps.push_back(stepOf(n));
    SeriesBudget budget(kind, seconds, runKind());
    const QString basis =
        QStringLiteral("half the best %1 ceiling, %2 GFLOP/s").arg(precisionName(precision)).arg(ceiling, 0, 'f', 1);
    return runSeries(budget, steps, basis,
                     [&](std::size_t i) { return measureGemm(precision, sizes[i], m_threads, ceiling, m_control); });
}

bool Run::measureAddSeries(const std::vector<int>& listed, double seconds)
{
    if (listed.empty())
        return true;
    const double gbps = dramGbps();
    const StepTiming timing = stepTiming(KernelExperiment::Add, m_options.quick);
    // Each size fills what the sizes before it did not; first touch costs about as much again as streaming
    // (page faults), so until a fill has been timed it is projected at half the triad's rate.
    auto fillSeconds = [](int n, int filled, double fillGbps) {
        return 12.0 * (static_cast<double>(n) * n - static_cast<double>(filled) * filled) / (fillGbps * 1e9);
    };
    const std::vector<int> sizes = seriesSizes(listed, kSmallestAdd, seconds, [&](int n) {
        return fillSeconds(n, 0, 0.5 * gbps) + projectedStepSeconds(addRunSeconds(n, gbps), timing);
    });
    adjustTotal(static_cast<int>(sizes.size()) - static_cast<int>(listed.size()));
    std::vector<SeriesStep> steps;
    for (int n : sizes)
        steps.push_back({QStringLiteral("add %1").arg(n), addRunSeconds(n, gbps), timing, 0.0});
    SeriesBudget budget(QStringLiteral("add"), seconds, runKind());
    // Allocated for the largest (untouched memory costs nothing); filled as far as each size needs.
    AddExperiment add(sizes.back(), m_threads);
    const QString basis = QStringLiteral("the STREAM triad's %1 GB/s").arg(gbps, 0, 'f', 1);
    return runSeries(
        budget, steps, basis, [&](std::size_t i) { return add.measure(sizes[i], m_control); },
        [&](std::size_t i) {
            const double fillGbps = add.fillGbps() > 0.0 ? add.fillGbps() : 0.5 * gbps;
            return fillSeconds(sizes[i], i == 0 ? 0 : sizes[i - 1], fillGbps);
        });
}

// Decode steps of one weight type at every batch of `ascending` the seconds allow.
template <typename Experiment>
bool Run::measureDecodeBatches(const QString& label, const QString& series, int dim, const std::vector<int>& ascending,
                               double bytesPerWeight, double gflops, double seconds,
                               const std::function<std::unique_ptr<Experiment>()>& makeExperiment)
{
    const double gbps = dramGbps();
    std::vector<SeriesStep> steps;
    const std::vector<int> batches = curveOrder(ascending);
    for (int batch : batches) {
        // The weights are filled (and first touched) before the first batch.
        const double fill =
            batch == batches.front() ? bytesPerWeight * dim * static_cast<double>(dim) / (0.5 * gbps * 1e9) : 0.0;
        steps.push_back({QStringLiteral("%1 B=%2").arg(label).arg(batch),
                         decodeRunSeconds(dim, batch, bytesPerWeight, gbps, gflops),
                         stepTiming(KernelExperiment::Decode, m_options.quick), fill});
    }
    // The batches are run in the order that best draws the curve at any budget (curveOrder), so a
    // batch that does not fit leaves the others to be tried, and the kernels are kept in batch order.
    SeriesBudget budget(series, seconds, runKind(), SeriesBudget::Order::Independent);
    const std::size_t first = m_session.kernels.size();
    const QString basis = QStringLiteral("%1 x %1 weights at %2 GB/s and %3 GFLOP/s")
                              .arg(dim)
                              .arg(gbps, 0, 'f', 1)
                              .arg(gflops, 0, 'f', 1);
    std::unique_ptr<Experiment> experiment;
    if (!runSeries(budget, steps, basis, [&](std::size_t i) {
            if (!experiment)
                experiment = makeExperiment();
            return experiment->measure(batches[i], m_control);
        }))
        return false;
    std::stable_sort(m_session.kernels.begin() + static_cast<std::ptrdiff_t>(first), m_session.kernels.end(),
                     [](const KernelResult& a, const KernelResult& b) { return a.batch < b.batch; });
    return true;
}

// The fp32 decode series; its weights shrink from the memory-sized `maxDim` until all batches fit the seconds.
bool Run::measureDecodeSeries(int maxDim, double seconds)
{
    if (maxDim <= 0)
        return true;
    const double gbps = dramGbps();
    const double sgemm = measuredGflops(QStringLiteral("sgemm"));
    const double gflops = sgemm > 0.0 ? sgemm : 0.5 * bestCeiling(Precision::Fp32);
    auto series = [&](std::int64_t dim) {
        return decodeSeriesSeconds(static_cast<int>(dim), kDecodeMaxBatch, 4.0, gbps, gflops, m_options.quick) +
               4.0 * static_cast<double>(dim) * static_cast<double>(dim) / (0.5 * gbps * 1e9);
    };
    std::vector<std::int64_t> dims;
    for (int dim = maxDim; dim >= kSmallestDecodeDim; dim /= 2)
        dims.push_back(dim);
    if (dims.empty())
        dims.push_back(maxDim);
    m_decodeDim = static_cast<int>(largestFitting(dims, seconds, series));
    if (m_decodeDim < maxDim)
        m_session.findings.push_back({QStringLiteral("decode"), QStringLiteral("note"),
                                      QStringLiteral("weights of %1 x %1 would take about %2 s for the %3 batches, "
                                                     "more than the %4 s this %5 run gives decode; using %6 x %6")
                                          .arg(maxDim)
                                          .arg(series(maxDim), 0, 'f', 1)
                                          .arg(kDecodeBatches)
                                          .arg(seconds, 0, 'f', 1)
                                          .arg(runKind())
                                          .arg(m_decodeDim)});
    const int dim = m_decodeDim;
    std::vector<int> batches;
    for (int batch = 1; batch <= kDecodeMaxBatch; batch *= 2)
        batches.push_back(batch);
    return measureDecodeBatches<DecodeExperiment>(
        QStringLiteral("decode"), QStringLiteral("decode"), dim, batches, 4.0, gflops, seconds,
        [&] { return std::make_unique<DecodeExperiment>(dim, kDecodeMaxBatch, m_threads); });
}

// The fusion chain at the memory-sized `maxRows`, fewer rows when that would overrun the seconds.
bool Run::measureFusionStep(std::int64_t maxRows, double seconds)
{
    if (maxRows <= 0)
        return true;
    const double gbps = dramGbps();
    const double perElement = fusionSecondsPerElement(kFusionColumns, m_threads);
    auto model = [&](std::int64_t rows) {
        const std::int64_t elements = rows * kFusionColumns;
        // The input is filled and the four outputs first touched in the warm-up runs.
        return fusionStepSeconds(elements, gbps, perElement, m_options.quick) +
               5.0 * 4.0 * static_cast<double>(elements) / (0.5 * gbps * 1e9);
    };
    std::vector<std::int64_t> candidates;
    for (std::int64_t rows = maxRows; rows >= kSmallestFusionRows; rows /= 2)
        candidates.push_back(rows);
    if (candidates.empty())
        candidates.push_back(maxRows);
    const std::int64_t rows = largestFitting(candidates, seconds, model);
    if (rows < maxRows)
        m_session.findings.push_back(
            {QStringLiteral("fusion"), QStringLiteral("note"),
             QStringLiteral("%1 x %2 elements would take about %3 s, more than the %4 s this %5 run gives fusion; "
                            "using %6 x %2, which caches may partly serve")
                 .arg(maxRows)
                 .arg(kFusionColumns)
                 .arg(model(maxRows), 0, 'f', 1)
                 .arg(seconds, 0, 'f', 1)
                 .arg(runKind())
                 .arg(rows)});
    // The chain's input and output together are a DRAM working set (sizing.h), so it streams from DRAM.
    return step(QStringLiteral("fusion: bias + GELU + dropout"), [&] {
        const auto fusion = measureFusion(rows, kFusionColumns, m_threads, m_control);
        if (!fusion)
            return false;
        m_session.fusion = fusion->summary;
        m_session.kernels.push_back(fusion->unfused);
        m_session.kernels.push_back(fusion->fused);
        return true;
    });
}

int Run::lowpKernelSteps(const ExperimentSizes& sizes) const
{
    const bool bf16 = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                  [](LowpUnit u) { return lowpUnitInfo(u).precision == QLatin1String("bf16"); });
    const bool int8 = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                  [](LowpUnit u) { return lowpUnitInfo(u).precision == QLatin1String("int8"); });
    const int batches = static_cast<int>(lowpDecodeBatches(m_options.quick, kDecodeMaxBatch).size());
    const int decodes = sizes.decodeDim > 0 ? batches * ((bf16 ? 1 : 0) + (int8 ? 1 : 0)) : 0;
    return (bf16 ? static_cast<int>(sizes.sgemmSizes.size()) : 0) + decodes;
}

double Run::bestCeilingOf(const QString& precision) const
{
    double best = 0.0;
    for (const ComputeCeiling& c : m_session.computeCeilings)
        if (c.precision == precision && c.threads == m_threads)
            best = std::max(best, c.gflops);
    return best;
}

// The bf16 matrix product at the sizes sgemm ran at, and decode with bf16 and int8 weights, where the CPU has the
// units (oneDNN would emulate them elsewhere, which is no roof of this machine's); each a series in time.
bool Run::measureLowpKernels(const ExperimentSizes& sizes)
{
    if (lowpKernelSteps(sizes) == 0)
        return true;
    waitForIdleBlasWorkers();
    const KernelBudgets budgets = kernelBudgets(m_options.quick);
    const bool bf16 = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                  [](LowpUnit u) { return lowpUnitInfo(u).precision == QLatin1String("bf16"); });
    if (bf16) {
        std::vector<int> ran;
        for (const KernelResult& k : m_session.kernels)
            if (k.kind == QLatin1String("sgemm"))
                ran.push_back(k.size.section(QLatin1Char('x'), 0, 0).toInt());
        adjustTotal(static_cast<int>(ran.size()) - static_cast<int>(sizes.sgemmSizes.size()));
        const double roof = bestCeilingOf(QStringLiteral("bf16"));
        const double guess = roof > 0.0 ? roof : 100.0;  // sizes the product's panels; a slow guess without one
        std::vector<SeriesStep> steps;
        for (int n : ran)
            steps.push_back({QStringLiteral("bf16 gemm %1").arg(n), gemmRunSeconds(n, 0.5 * guess),
                             stepTiming(KernelExperiment::Gemm, m_options.quick, n), 0.0});
        SeriesBudget budget(QStringLiteral("the bf16 gemm"), budgets.bf16Gemm, runKind());
        const QString basis = QStringLiteral("half the bf16 ceiling, %1 GFLOP/s").arg(guess, 0, 'f', 0);
        if (!runSeries(budget, steps, basis,
                       [&](std::size_t i) { return measureBf16Gemm(ran[i], m_threads, guess, m_control); }))
            return false;
    }
    if (sizes.decodeDim <= 0)
        return true;
    for (MatmulType type : {MatmulType::Bf16, MatmulType::Int8}) {
        const QString precision = matmulTypeName(type);
        const bool has = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                     [&](LowpUnit u) { return lowpUnitInfo(u).precision == precision; });
        if (!has)
            continue;
        // The same weights' shape as the fp32 series, so tokens/s compare batch by batch.
        const int dim = m_decodeDim > 0 ? m_decodeDim : sizes.decodeDim;
        const double roof = bestCeilingOf(precision);
        const double gflops = roof > 0.0 ? 0.5 * roof : 0.5 * bestCeiling(Precision::Fp32);
        if (!measureDecodeBatches<LowpDecodeExperiment>(
                QStringLiteral("decode %1").arg(precision), QStringLiteral("decode with %1 weights").arg(precision),
                dim, lowpDecodeBatches(m_options.quick, kDecodeMaxBatch), type == MatmulType::Int8 ? 1.0 : 2.0, gflops,
                budgets.lowpDecode, [&] { return std::make_unique<LowpDecodeExperiment>(type, dim, m_threads); }))
            return false;
    }
    return true;
}

}  // namespace

QStringList noisyMeasurements(const Session& session)
{
    QStringList noisy;
    for (const ComputeCeiling& c : session.computeCeilings)
        if (relativeSpread(c.spread) > Session::kNoisySpread)
            noisy.append(c.name);
    for (const BandwidthCeiling& c : session.bandwidthCeilings)
        if (relativeSpread(c.spread) > Session::kNoisySpread)
            noisy.append(c.level + QStringLiteral(" bandwidth"));
    return noisy;
}

Result<Session> measureMachine(const MeasureOptions& options, const ProgressCallback& progress,
                               const PartialResultCallback& partial)
{
    const auto started = std::chrono::steady_clock::now();
    const OpenBlasThreadsGuard blasThreads;
    const int cpus = static_cast<int>(allowedCpus().size());
    if (options.threads < 0 || options.threads > cpus)
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("--threads must be between 1 and %1 (the CPUs this process may use), got %2")
                             .arg(cpus)
                             .arg(options.threads));
    const int threads = options.threads == 0 ? cpus : options.threads;

    Session session;
    session.created = QDateTime::currentDateTimeUtc();
    session.generator = options.generator;
    session.quick = options.quick;
    session.machine = probeMachine();
    session.machine.openblasThreads = threads;
    session.title = session.machine.cpuModel;

    MeasureControl control(options.quick, progress);
    try {
        Run run(options, threads, session, control, partial);
        run.execute();
    } catch (const std::bad_alloc&) {
        return makeError(Error::Code::Io, QStringLiteral("out of memory while measuring; try --quick"));
    }
    if (control.cancelled())
        return makeError(Error::Code::Cancelled, QStringLiteral("measurement cancelled"));

    session.noisyMeasurements = noisyMeasurements(session);
    session.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return session;
}

}  // namespace ridgeline
