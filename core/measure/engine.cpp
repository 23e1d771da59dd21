#include "core/measure/engine.h"
#include "core/measure/engine_run.h"

#include "core/measure/clock/clock.h"
#include "core/measure/compute/compute_ceilings.h"
#include "core/measure/compute/peaks.h"
#include "core/measure/lowp/lowp_ceilings.h"
#include "core/measure/machine/probe.h"
#include "core/measure/memory/bandwidth.h"
#include "core/measure/memory/bandwidth_levels.h"
#include "core/measure/memory/sizing.h"
#include "core/measure/run/load.h"
#include "core/measure/run/parallel.h"
#include "core/measure/run/statistics.h"
#include "core/measure/run/time_plan.h"
#include "core/measure/workloads/kernels.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <new>
#include <optional>

namespace ridgeline {

namespace {

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

}  // namespace

namespace engine_detail {

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
                        const PeakSubject subject = fmaPeakSubject(isa, precision, m_core);
                        const CeilingClock clock =
                            peakClock(ceiling.gflops, t, ceiling.clockGhz, m_session.machine.clockGhz,
                                      isaName(isa) + QStringLiteral(" FMAs"), subject);
                        if (!clock.note.isEmpty())
                            m_session.findings.push_back({ceiling.name, QStringLiteral("note"), clock.note});
                        ceiling.clockGhz = clock.ghz;
                        const PeakAssessment peak =
                            assessPeak(ceiling.name, ceiling.gflops, t, ceiling.clockGhz, subject);
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

// Every low-precision unit of this machine, on one thread and on all.
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
    double searchSpent = 0.0;  // seconds of the plateau search so far, and of its last working set
    double lastSeconds = 0.0;
    const double searchSeconds = sweepSeconds(m_options.quick);
    for (std::int64_t ws : m_sweep.workingSets) {
        const double projected = projectedSweepStepSeconds(largest, lastSeconds, ws);
        if (finder && largest >= m_sweep.searchFromBytes && searchSpent + projected > searchSeconds) {
            m_session.skipped.push_back(
                {QStringLiteral("bandwidth sweep from %1 MiB").arg(ws / kMiB),
                 QStringLiteral("not run: the next working set would take about %1, more than the %2 left of the %3 "
                                "a %4 run gives the search for the DRAM plateau")
                     .arg(durationText(projected), durationText(std::max(0.0, searchSeconds - searchSpent)),
                          durationText(searchSeconds), runKind())});
            break;
        }
        const auto started = std::chrono::steady_clock::now();
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
        lastSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (ws >= m_sweep.searchFromBytes)
            searchSpent += lastSeconds;
        if (finder && finder->found())
            break;
    }

    machine.lastLevelCache = lastLevelCacheAfterSweep(machine, m_threads, m_sweep, finder.get(), largest);
    if (!m_sweep.searchPlateau) {
        m_dramBytes = m_sweep.dramFromBytes;
    } else {
        m_dramBytes = finder->dramFromBytes(largest);
        m_session.findings.push_back({QStringLiteral("last-level cache"),
                                      finder->found() ? QStringLiteral("note") : QStringLiteral("doubtful"),
                                      machine.lastLevelCache.basis});
    }
    relabelCurve();
    return true;
}

double Run::measuredCeiling(const QString& precision, double none) const
{
    double best = 0.0;
    for (const ComputeCeiling& c : m_session.computeCeilings)
        if (c.precision == precision && c.threads == m_threads)
            best = std::max(best, c.gflops);
    return best > 0.0 ? best : none;
}

}  // namespace engine_detail

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
    QStringList probeNotes;
    session.machine = probeMachine({}, &probeNotes);
    for (const QString& note : probeNotes)  // never silently: what the system did not say, and what stood in
        session.findings.push_back(Finding{QStringLiteral("machine"), QStringLiteral("note"), note});
    session.machine.openblasThreads = threads;
    session.title = session.machine.cpuModel;

    MeasureControl control(options.quick, progress);
    try {
        engine_detail::Run run(options, threads, session, control, partial);
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
