#include "core/measure/lowp/lowp_ceilings.h"

#include "core/measure/clock/clock.h"
#include "core/measure/run/parallel.h"
#include "core/measure/run/statistics.h"

#include <algorithm>

namespace ridgeline {

namespace {

// Iterations that take about `seconds` on one thread.
std::int64_t calibrateIterations(LowpUnit unit, double seconds, const MachineInfo& machine)
{
    std::int64_t iterations = 1 << 8;
    for (;;) {
        const Result<LowpRun> run = runLowpKernel(unit, iterations, {}, machine);
        const double elapsed = run ? run.value().seconds : 0.0;
        if (elapsed > 0.002 || iterations > (1LL << 40))
            return std::max<std::int64_t>(
                1, static_cast<std::int64_t>(static_cast<double>(iterations) * seconds / std::max(elapsed, 1e-9)));
        iterations *= 4;
    }
}

}  // namespace

LowpPlan planLowpCeilings(const MachineInfo& machine)
{
    LowpPlan plan;
    for (const LowpUnitInfo& info : lowpUnits()) {
        if (info.arch != machineArch(machine))
            continue;
        const UnitAvailability availability = lowpAvailability(info.unit, machine);
        if (availability.available())
            plan.units.push_back(info.unit);
        else
            plan.skipped.push_back(
                {QStringLiteral("%1 %2 ceiling").arg(info.precision, info.isa), availability.reason});
    }
    return plan;
}

QString lowpCeilingName(LowpUnit unit, int threads)
{
    const LowpUnitInfo& info = lowpUnitInfo(unit);
    return QStringLiteral("%1 %2 x%3").arg(info.precision, info.isa).arg(threads);
}

Result<LowpCeiling> measureLowpCeiling(LowpUnit unit, int threads, MeasureControl& control, const MachineInfo& machine)
{
    const UnitAvailability availability = lowpAvailability(unit, machine);
    if (!availability.available())
        return makeError(Error::Code::Unsupported, availability.reason);
    threads = std::max(threads, 1);

    const std::int64_t iterations = calibrateIterations(unit, control.repSeconds(), machine);
    const int reps = control.reps() + 1;  // the first repetition warms up clocks and licences; dropped
    const auto slotCount = static_cast<std::size_t>(threads) * static_cast<std::size_t>(reps);
    std::vector<double> seconds(slotCount, 0.0), operations(slotCount, 0.0);
    const ParallelRun run = runParallel(
        threads, reps,
        [&](int thread, int rep) {
            const std::size_t slot = static_cast<std::size_t>(rep) * threads + static_cast<std::size_t>(thread);
            const Result<LowpRun> one = runLowpKernel(unit, iterations, {}, machine);
            if (one) {
                seconds[slot] = one.value().seconds;
                operations[slot] = one.value().operations;
            }
        },
        [&] { return control.keepGoing(); });
    if (run.cancelled)
        return makeError(Error::Code::Cancelled, QStringLiteral("measurement cancelled"));

    // The clock while every thread keeps the unit busy: the licence can depend on how many cores use it.
    std::vector<double> clocks(static_cast<std::size_t>(threads), 0.0);
    const double clockSeconds = control.quick() ? 0.004 : 0.010;
    const ParallelRun clockRun = runParallel(
        threads, 1,
        [&](int thread, int) {
            const Result<double> ghz = measureClockUnderLoad(unit, clockSeconds, machine);
            clocks[static_cast<std::size_t>(thread)] = ghz ? ghz.value() : 0.0;
        },
        [&] { return control.keepGoing(); });
    if (clockRun.cancelled)
        return makeError(Error::Code::Cancelled, QStringLiteral("measurement cancelled"));

    std::vector<double> gopsPerRep;
    for (int rep = 1; rep < reps; ++rep) {
        double ops = 0.0, slowest = 0.0;
        for (int thread = 0; thread < threads; ++thread) {
            const std::size_t slot = static_cast<std::size_t>(rep) * threads + static_cast<std::size_t>(thread);
            ops += operations[slot];
            slowest = std::max(slowest, seconds[slot]);
        }
        if (slowest > 0.0)
            gopsPerRep.push_back(ops / slowest / 1e9);
    }

    const LowpUnitInfo& info = lowpUnitInfo(unit);
    LowpCeiling result;
    result.unit = unit;
    ComputeCeiling& ceiling = result.ceiling;
    ceiling.name = lowpCeilingName(unit, threads);
    ceiling.precision = info.precision;
    ceiling.isa = info.isa;
    ceiling.threads = threads;
    ceiling.spread = spreadOf(gopsPerRep);
    ceiling.gflops = ceiling.spread.max;  // the best repetition, as for the FMA ceilings
    ceiling.repetitions = static_cast<int>(gopsPerRep.size());
    // Preemption only stretches a clock window (reads low): the highest thread's reading, as for the FMA ceilings,
    // held against the plain clock by the same rule (clock.h's ceilingClock) when the probe has measured one. ARM64
    // reads it beside FMLAs of the unit's register file (lowp_kernels_arm64.cpp), x86-64 beside the unit's own loop.
    const double beside = *std::max_element(clocks.begin(), clocks.end());
    const QString besideWhat = info.arch == CpuArch::Arm64
                                   ? (info.sve ? QStringLiteral("SVE FMLAs") : QStringLiteral("NEON FMLAs"))
                                   : info.instruction;
    const PeakSubject subject = lowpPeakSubject(unit, machine);
    const CeilingClock clock = peakClock(ceiling.gflops, threads, beside, machine.clockGhz, besideWhat, subject);
    ceiling.clockGhz = clock.ghz;
    const PeakAssessment peak = assessPeak(ceiling.name, ceiling.gflops, threads, ceiling.clockGhz, subject);
    ceiling.theoreticalGflops = peak.theoreticalGflops;
    ceiling.flopsPerCycle = peak.flopsPerCycle;
    ceiling.fmaPerCycle = peak.fmaPerCycle;
    ceiling.peakBasis = peak.basis;
    if (const std::optional<LowpRate> rate = documentedLowpRate(unit, machine))
        ceiling.peakBasis += QStringLiteral("; documented in ") + rate->source;
    if (!clock.note.isEmpty())
        result.findings.push_back({ceiling.name, QStringLiteral("note"), clock.note});
    result.findings.insert(result.findings.end(), peak.findings.begin(), peak.findings.end());
    return result;
}

}  // namespace ridgeline
