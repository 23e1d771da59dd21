#pragma once
// Timing a kernel the way every measured kernel is timed: a warm-up run, then repetitions for a minimum time,
// and the KernelResult made from their times (median seconds, FLOP/s and bytes/s of the median).

#include "core/measure/run/measure_control.h"
#include "core/measure/run/statistics.h"
#include "core/model/intensity.h"
#include "core/session/session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <vector>

namespace ridgeline {

// Runs `once` (which returns false when stopped part-way) once to warm up, unless the caller has
// (`warmSeconds`: how long its warm-up run took), then enough times to last about `minSeconds` and at
// least `minReps`. nullopt when cancelled.
template <typename Once>
std::optional<std::vector<double>> timeRepeated(Once once, int minReps, double minSeconds, MeasureControl& control,
                                                std::optional<double> warmSeconds = std::nullopt)
{
    using Clock = std::chrono::steady_clock;
    if (!warmSeconds) {
        const auto warmStart = Clock::now();
        if (!once() || !control.keepGoing())
            return std::nullopt;
        warmSeconds = std::chrono::duration<double>(Clock::now() - warmStart).count();
    }
    const int reps = std::clamp(static_cast<int>(std::ceil(minSeconds / std::max(*warmSeconds, 1e-6))), minReps, 200);
    std::vector<double> seconds;
    for (int rep = 0; rep < reps; ++rep) {
        const auto start = Clock::now();
        if (!once())
            return std::nullopt;
        seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        if (!control.keepGoing())
            return std::nullopt;
    }
    return seconds;
}

inline KernelResult makeKernel(const QString& kind, const QString& size, const QString& precision, int threads,
                               const OpCount& count, const std::vector<double>& seconds)
{
    KernelResult kernel;
    kernel.kind = kind;
    kernel.size = size;
    kernel.name = kind + QLatin1Char(' ') + size;
    kernel.precision = precision;
    kernel.threads = threads;
    kernel.flops = count.flops;
    kernel.bytes = count.bytes;
    kernel.spread = spreadOf(seconds);
    kernel.seconds = kernel.spread.median;
    kernel.repetitions = static_cast<int>(seconds.size());
    if (kernel.seconds > 0.0) {
        kernel.gflops = count.flops / kernel.seconds / 1e9;
        kernel.gbps = count.bytes / kernel.seconds / 1e9;
    }
    kernel.intensity = count.intensity();
    return kernel;
}

}  // namespace ridgeline
