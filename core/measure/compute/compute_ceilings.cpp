#include "core/measure/compute/compute_ceilings.h"

#include "core/measure/clock/clock.h"
#include "core/measure/compute/fma_kernels.h"
#include "core/measure/run/parallel.h"
#include "core/measure/run/statistics.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ridgeline {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Iterations that take about `seconds` on one thread.
std::int64_t calibrateIterations(Isa isa, Precision precision, double seconds)
{
    std::int64_t iterations = 1 << 12;
    for (;;) {
        const auto start = Clock::now();
        runFmaChains(isa, precision, iterations);
        const double elapsed = secondsSince(start);
        if (elapsed > 0.002 || iterations > (1LL << 40))
            return std::max<std::int64_t>(
                1, static_cast<std::int64_t>(static_cast<double>(iterations) * seconds / elapsed));
        iterations *= 4;
    }
}

}  // namespace

std::optional<ComputeMeasurement> measureComputeCeiling(Isa isa, Precision precision, int threads,
                                                        MeasureControl& control)
{
    const std::int64_t iterations = calibrateIterations(isa, precision, control.repSeconds());
    const int reps = control.reps() + 1;  // the first repetition warms up clocks and caches; dropped
    const auto slotCount = static_cast<size_t>(threads) * static_cast<size_t>(reps);
    std::vector<double> fmaSeconds(slotCount, 0.0);
    std::vector<double> flopsDone(slotCount, 0.0);
    std::vector<double> clocks(slotCount, 0.0);

    const ParallelRun run = runParallel(
        threads, reps,
        [&](int thread, int rep) {
            const size_t slot = static_cast<size_t>(rep) * static_cast<size_t>(threads) + static_cast<size_t>(thread);
            const auto start = Clock::now();
            flopsDone[slot] = runFmaChains(isa, precision, iterations);
            fmaSeconds[slot] = secondsSince(start);
            clocks[slot] = measureClockBesideFma(isa, 0.002);
        },
        [&] { return control.keepGoing(); });
    if (run.cancelled)
        return std::nullopt;

    std::vector<double> gflopsPerRep;
    std::vector<double> clockSamples;
    for (int rep = 1; rep < reps; ++rep) {
        double flops = 0.0;
        double slowest = 0.0;
        for (int thread = 0; thread < threads; ++thread) {
            const size_t slot = static_cast<size_t>(rep) * static_cast<size_t>(threads) + static_cast<size_t>(thread);
            flops += flopsDone[slot];
            slowest = std::max(slowest, fmaSeconds[slot]);
            clockSamples.push_back(clocks[slot]);
        }
        if (slowest > 0.0)
            gflopsPerRep.push_back(flops / slowest / 1e9);
    }

    ComputeMeasurement result;
    // Preemption can only stretch a clock sample (reading low), never shrink it: take the highest.
    result.clockGhz = clockSamples.empty() ? 0.0 : *std::max_element(clockSamples.begin(), clockSamples.end());
    ComputeCeiling& ceiling = result.ceiling;
    ceiling.precision = precisionName(precision);
    ceiling.isa = isaName(isa);
    ceiling.threads = threads;
    ceiling.name = QStringLiteral("%1 %2 x%3").arg(ceiling.precision, ceiling.isa).arg(threads);
    ceiling.spread = spreadOf(gflopsPerRep);
    // A ceiling is what the machine can do: its best repetition, as STREAM and ERT report. Another process
    // or the hypervisor can only slow a repetition down, so the best one moves least between runs.
    ceiling.gflops = ceiling.spread.max;
    ceiling.repetitions = static_cast<int>(gflopsPerRep.size());
    ceiling.clockGhz = result.clockGhz;
    return result;
}

}  // namespace ridgeline
