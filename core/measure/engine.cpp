#include "core/measure/engine.h"

#include "core/measure/bandwidth.h"
#include "core/measure/bandwidth_levels.h"
#include "core/measure/compute_ceilings.h"
#include "core/measure/kernels.h"
#include "core/measure/parallel.h"
#include "core/measure/probe.h"
#include "core/measure/statistics.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <new>

namespace ridgeline {

namespace {

struct Step {
    QString stage;
    std::int64_t bytesNeeded = 0;              // skipped when over the memory budget
    std::function<bool(MeasureControl&)> run;  // false: cancelled
};

struct Plan {
    std::vector<Step> steps;
    std::vector<std::int64_t> sweep;
};

constexpr std::int64_t kMiB = 1024 * 1024;

std::int64_t lastLevelBytes(const MachineInfo& machine, int threads)
{
    if (machine.caches.empty())
        return 32 * kMiB;  // no sysfs: assume a common LLC size for sizing only; levels stay unlabelled
    return aggregateCacheBytes(machine.caches.back(), threads);
}

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

Plan makePlan(const MeasureOptions& options, const MachineInfo& machine, int threads, Session& session,
              double& bestFp32Clock, double& bestFp32Gflops)
{
    Plan plan;
    const bool quick = options.quick;

    std::vector<int> threadCounts{1};
    if (threads > 1)
        threadCounts.push_back(threads);
    for (Isa isa : supportedFmaIsas()) {
        for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
            for (int t : threadCounts) {
                plan.steps.push_back(
                    {QStringLiteral("FMA peak %1 %2, %3 thread(s)").arg(precisionName(precision), isaName(isa)).arg(t),
                     0, [=, &session, &bestFp32Clock, &bestFp32Gflops](MeasureControl& control) {
                         const auto m = measureComputeCeiling(isa, precision, t, control);
                         if (!m)
                             return false;
                         session.computeCeilings.push_back(m->ceiling);
                         if (precision == Precision::Fp32 && t == threads && m->ceiling.gflops > bestFp32Gflops) {
                             bestFp32Gflops = m->ceiling.gflops;
                             bestFp32Clock = m->clockGhz;
                         }
                         return true;
                     }});
            }
        }
    }

    // The sweep reaches at least 4x the last-level cache (8x on a full run), so DRAM has a plateau.
    const std::int64_t llc = lastLevelBytes(machine, threads);
    const std::int64_t sweepMax = std::max<std::int64_t>((quick ? 4 : 8) * llc, 64 * kMiB);
    plan.sweep = sweepWorkingSets(sweepMax, quick ? 1 : 2);
    for (std::int64_t ws : plan.sweep) {
        for (const QString& mix : {QStringLiteral("read"), QStringLiteral("triad")}) {
            plan.steps.push_back({QStringLiteral("bandwidth %1, %2 KiB").arg(mix).arg(ws / 1024), ws,
                                  [=, &session](MeasureControl& control) {
                                      const auto point = measureBandwidthPoint(mix, ws, threads, control);
                                      if (!point)
                                          return false;
                                      BandwidthPoint labelled = *point;
                                      labelled.level = levelForWorkingSet(ws, machine.caches, threads);
                                      session.bandwidthCurve.push_back(labelled);
                                      session.bandwidthCeilings = bandwidthCeilingsFromCurve(session.bandwidthCurve);
                                      return true;
                                  }});
        }
    }
    // STREAM's rule: each array at least four times the last-level cache.
    const std::int64_t triadArray = std::max<std::int64_t>(4 * llc, 32 * kMiB);
    plan.steps.push_back({QStringLiteral("STREAM triad, 3 x %1 MiB").arg(triadArray / kMiB), 3 * triadArray,
                          [=, &session](MeasureControl& control) {
                              const auto triad = measureStreamTriad(triadArray, threads, control);
                              if (!triad)
                                  return false;
                              session.streamTriadGbps = triad->max;  // STREAM reports the best rate
                              return true;
                          }});

    for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
        // A quick run skips the sizes that take longest: 4096 always, 2048 in fp64.
        std::vector<int> gemmSizes{512, 1024, 2048, 4096};
        if (quick)
            gemmSizes.resize(precision == Precision::Fp32 ? 3 : 2);
        for (int n : gemmSizes) {
            const std::int64_t bytes = 3LL * n * n * bytesPerElement(precision);
            plan.steps.push_back(
                {QStringLiteral("%1 %2")
                     .arg(precision == Precision::Fp32 ? QStringLiteral("sgemm") : QStringLiteral("dgemm"))
                     .arg(n),
                 bytes, [=, &session](MeasureControl& control) {
                     const auto kernel = measureGemm(precision, n, threads, control);
                     if (!kernel)
                         return false;
                     session.kernels.push_back(*kernel);
                     return true;
                 }});
        }
    }
    for (int n : {2048, 4096, 8192}) {
        plan.steps.push_back({QStringLiteral("add %1").arg(n), 12LL * n * n, [=, &session](MeasureControl& control) {
                                  const auto kernel = measureAdd(n, threads, control);
                                  if (!kernel)
                                      return false;
                                  session.kernels.push_back(*kernel);
                                  return true;
                              }});
    }
    constexpr int kDecodeDim = 4096;
    for (int batch = 1; batch <= 256; batch *= 2) {
        const std::int64_t bytes = 4LL * kDecodeDim * (kDecodeDim + 2LL * batch);
        plan.steps.push_back({QStringLiteral("decode B=%1").arg(batch), bytes, [=, &session](MeasureControl& control) {
                                  const auto kernel = measureDecode(kDecodeDim, batch, threads, control);
                                  if (!kernel)
                                      return false;
                                  session.kernels.push_back(*kernel);
                                  return true;
                              }});
    }
    // The chain runs over a tensor several times the last-level cache, so it streams from DRAM.
    const std::int64_t fusionColumns = 4096;
    const std::int64_t fusionRows = std::max<std::int64_t>(4 * llc / (4 * fusionColumns), 256);
    plan.steps.push_back({QStringLiteral("fusion: bias + GELU + dropout"), 5 * 4 * fusionRows * fusionColumns,
                          [=, &session](MeasureControl& control) {
                              const auto fusion = measureFusion(fusionRows, fusionColumns, threads, control);
                              if (!fusion)
                                  return false;
                              session.fusion = fusion->summary;
                              session.kernels.push_back(fusion->unfused);
                              session.kernels.push_back(fusion->fused);
                              return true;
                          }});
    return plan;
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
    const std::int64_t budget = measurementMemoryBudget(session.machine);

    double bestFp32Clock = 0.0;
    double bestFp32Gflops = 0.0;
    MeasureControl control(options.quick, progress);
    try {
        const Plan plan = makePlan(options, session.machine, threads, session, bestFp32Clock, bestFp32Gflops);
        control.setTotal(static_cast<int>(plan.steps.size()));
        for (const Step& step : plan.steps) {
            control.beginStep(step.stage);
            if (control.cancelled())
                break;
            if (step.bytesNeeded <= budget) {
                if (!step.run(control))
                    break;
                session.machine.clockGhz = bestFp32Clock;
                if (partial)
                    partial(session);
            }
            control.endStep();
        }
    } catch (const std::bad_alloc&) {
        return makeError(Error::Code::Io, QStringLiteral("out of memory while measuring; try --quick"));
    }
    if (control.cancelled())
        return makeError(Error::Code::Cancelled, QStringLiteral("measurement cancelled"));

    session.machine.clockGhz = bestFp32Clock;
    session.noisyMeasurements = noisyMeasurements(session);
    session.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return session;
}

}  // namespace ridgeline
