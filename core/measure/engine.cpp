#include "core/measure/engine.h"

#include "core/measure/bandwidth.h"
#include "core/measure/bandwidth_levels.h"
#include "core/measure/clock.h"
#include "core/measure/compute_ceilings.h"
#include "core/measure/kernels.h"
#include "core/measure/lowp_ceilings.h"
#include "core/measure/lowp_experiments.h"
#include "core/measure/parallel.h"
#include "core/measure/peaks.h"
#include "core/measure/probe.h"
#include "core/measure/sizing.h"
#include "core/measure/statistics.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <new>

namespace ridgeline {

namespace {

constexpr int kDecodeMaxBatch = 256;
// Seconds a run gives all its sgemm and dgemm sizes together.
constexpr double kGemmSecondsQuick = 1.5;
constexpr double kGemmSecondsFull = 8.0;

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
    // Announces `stage`, runs `work` (false: cancelled) and reports the session so far.
    template <typename Work>
    bool step(const QString& stage, Work work)
    {
        m_control.beginStep(stage);
        if (m_control.cancelled() || !work())
            return false;
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
        (largest.decodeDim > 0 ? 9 : 0) + 1;
    m_control.setTotal(1 + static_cast<int>((m_isas.size() * 2 + m_lowp.units.size()) * threadCounts().size()) +
                       2 * static_cast<int>(m_sweep.workingSets.size()) + experiments + lowpKernelSteps(largest));

    return measureClockStep() && measureCompute() && measureLowpCeilings() && measureSweep() && measureKernels();
}

bool Run::measureClockStep()
{
    return step(QStringLiteral("clock: add and imul chains"), [this] {
        const ProbeSources live;
        const SystemFacts facts = readSystemFacts(live);
        const ScopedPin pin(allowedCpus().front());
        const ClockJudgement clock = measureClock(facts.cpufreqMaxMhz, facts.cpuinfoMhz, m_options.quick ? 0.04 : 0.1);
        m_session.machine.clockGhz = clock.ghz;
        m_session.machine.clock = clock.measurement;
        if (clock.measurement.doubtful)
            m_session.findings.push_back(
                {QStringLiteral("clock"), QStringLiteral("doubtful"), clock.measurement.doubt});
        return !m_control.cancelled();
    });
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
                const bool ok = step(stage, [&] {
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
                });
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
            if (!step(QStringLiteral("%1 peak, %2 thread(s)").arg(lowpUnitInfo(unit).label).arg(t), [&] {
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
                }))
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
            const bool ok = step(QStringLiteral("bandwidth %1, %2 KiB").arg(mix).arg(ws / 1024), [&] {
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
            });
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
    const int remaining = 1 +
                          static_cast<int>(sizes.sgemmSizes.size() + sizes.dgemmSizes.size() + sizes.addSizes.size()) +
                          (sizes.decodeDim > 0 ? 9 : 0) + (sizes.fusionRows > 0 ? 1 : 0) + lowpKernelSteps(sizes);
    m_control.setTotal(m_control.done() + remaining);

    const std::int64_t array = sizes.streamArrayBytes;
    if (!step(QStringLiteral("STREAM triad, 3 x %1 MiB").arg(array / kMiB), [&] {
            const auto triad = measureStreamTriad(array, m_threads, m_control, *m_bandwidthScratch);
            m_bandwidthScratch.reset();
            if (!triad)
                return false;
            m_session.streamTriadGbps = triad->max;  // STREAM reports the best rate
            return true;
        }))
        return false;

    // GEMM is where a slow machine would spend minutes: each size is predicted from the one before it (8x the
    // FLOPs), and one that would overrun the run's GEMM time is not run, and said so.
    const double gemmBudget = m_options.quick ? kGemmSecondsQuick : kGemmSecondsFull;
    double gemmSpent = 0.0;
    for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
        const bool fp32 = precision == Precision::Fp32;
        double previousSeconds = 0.0;  // one run at the previous (half) size
        for (int n : fp32 ? sizes.sgemmSizes : sizes.dgemmSizes) {
            const QString stage =
                QStringLiteral("%1 %2").arg(fp32 ? QStringLiteral("sgemm") : QStringLiteral("dgemm")).arg(n);
            const double predicted = previousSeconds > 0.0
                                         ? gemmRuns(n, m_options.quick, 8.0 * previousSeconds) * 8.0 * previousSeconds
                                         : 0.0;
            if (predicted > gemmBudget - gemmSpent) {
                m_session.skipped.push_back(
                    {stage, QStringLiteral("would take about %1 s at %2 GFLOP/s, beyond the %3 s this run gives GEMM")
                                .arg(predicted, 0, 'f', 1)
                                .arg(2.0 * n / 2 * n / 2 * n / 2 / previousSeconds / 1e9, 0, 'f', 0)
                                .arg(gemmBudget, 0, 'f', 0)});
                m_control.setTotal(m_control.total() - 1);
                previousSeconds *= 8.0;  // what the skipped size would have taken: the next is predicted from it
                continue;
            }
            const auto started = std::chrono::steady_clock::now();
            if (!step(stage, [&] {
                    const auto kernel = measureGemm(precision, n, m_threads, bestCeiling(precision), m_control);
                    if (!kernel)
                        return false;
                    previousSeconds = kernel->seconds;
                    m_session.kernels.push_back(*kernel);
                    return true;
                }))
                return false;
            gemmSpent += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        }
    }
    std::unique_ptr<AddExperiment> add;
    for (int n : sizes.addSizes) {
        if (!step(QStringLiteral("add %1").arg(n), [&] {
                if (!add)
                    add = std::make_unique<AddExperiment>(sizes.addSizes.back(), m_threads);
                const auto kernel = add->measure(n, m_control);
                if (!kernel)
                    return false;
                m_session.kernels.push_back(*kernel);
                return true;
            }))
            return false;
    }
    add.reset();
    if (sizes.decodeDim > 0) {
        std::unique_ptr<DecodeExperiment> decode;
        for (int batch = 1; batch <= kDecodeMaxBatch; batch *= 2) {
            if (!step(QStringLiteral("decode B=%1").arg(batch), [&] {
                    if (!decode)
                        decode = std::make_unique<DecodeExperiment>(sizes.decodeDim, kDecodeMaxBatch, m_threads);
                    const auto kernel = decode->measure(batch, m_control);
                    if (!kernel)
                        return false;
                    m_session.kernels.push_back(*kernel);
                    return true;
                }))
                return false;
        }
    }
    if (sizes.fusionRows > 0) {
        // The chain's input and output together are a DRAM working set (sizing.h), so it streams from DRAM.
        if (!step(QStringLiteral("fusion: bias + GELU + dropout"), [&] {
                const auto fusion = measureFusion(sizes.fusionRows, kFusionColumns, m_threads, m_control);
                if (!fusion)
                    return false;
                m_session.fusion = fusion->summary;
                m_session.kernels.push_back(fusion->unfused);
                m_session.kernels.push_back(fusion->fused);
                return true;
            }))
            return false;
    }
    if (!measureLowpKernels(sizes))
        return false;
    addFindings(crossCheckSession(m_session));
    return true;
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

// The bf16 matrix product at sgemm's sizes, and decode with bf16 and int8 weights, where the CPU has the units
// (oneDNN would emulate them elsewhere, which is no roof of this machine's).
bool Run::measureLowpKernels(const ExperimentSizes& sizes)
{
    if (lowpKernelSteps(sizes) == 0)
        return true;
    waitForIdleBlasWorkers();
    double bf16Roof = 0.0;  // sizes the product's panels; a slow guess when the ceiling did not run
    for (const ComputeCeiling& c : m_session.computeCeilings)
        if (c.precision == QLatin1String("bf16") && c.threads == m_threads)
            bf16Roof = std::max(bf16Roof, c.gflops);
    const bool bf16 = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                  [](LowpUnit u) { return lowpUnitInfo(u).precision == QLatin1String("bf16"); });
    if (bf16) {
        for (int n : sizes.sgemmSizes) {
            if (!step(QStringLiteral("bf16 gemm %1").arg(n), [&] {
                    const auto kernel = measureBf16Gemm(n, m_threads, bf16Roof > 0.0 ? bf16Roof : 100.0, m_control);
                    if (!kernel)
                        return false;
                    m_session.kernels.push_back(*kernel);
                    return true;
                }))
                return false;
        }
    }
    if (sizes.decodeDim <= 0)
        return true;
    for (MatmulType type : {MatmulType::Bf16, MatmulType::Int8}) {
        const bool has = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                     [&](LowpUnit u) { return lowpUnitInfo(u).precision == matmulTypeName(type); });
        if (!has)
            continue;
        std::unique_ptr<LowpDecodeExperiment> decode;
        for (int batch : lowpDecodeBatches(m_options.quick, kDecodeMaxBatch)) {
            if (!step(QStringLiteral("decode %1 B=%2").arg(matmulTypeName(type)).arg(batch), [&] {
                    if (!decode)
                        decode = std::make_unique<LowpDecodeExperiment>(type, sizes.decodeDim, m_threads);
                    const auto kernel = decode->measure(batch, m_control);
                    if (!kernel)
                        return false;
                    m_session.kernels.push_back(*kernel);
                    return true;
                }))
                return false;
        }
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
