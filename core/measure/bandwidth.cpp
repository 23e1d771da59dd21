#include "core/measure/bandwidth.h"

#include "core/measure/aligned_buffer.h"
#include "core/measure/parallel.h"
#include "core/measure/statistics.h"
#include "core/measure/stream_kernels.h"

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

volatile std::uint64_t g_readSink = 0;

// Each thread's arrays, first touched by the thread that uses them.
struct ThreadArrays {
    AlignedBuffer<std::uint64_t> read;
    AlignedBuffer<double> a, b, c;
};

// Runs `pass` (one sweep over each thread's slice) `passes` times per repetition; returns seconds per rep.
template <typename Pass>
ParallelRun timePasses(int threads, int reps, int passes, Pass pass, MeasureControl& control)
{
    return runParallel(
        threads, reps,
        [&](int thread, int) {
            for (int p = 0; p < passes; ++p)
                pass(thread);
        },
        [&] { return control.keepGoing(); });
}

}  // namespace

std::optional<BandwidthPoint> measureBandwidthPoint(const QString& mix, std::int64_t workingSetBytes, int threads,
                                                    MeasureControl& control)
{
    const bool triad = mix == QLatin1String("triad");
    const int arrays = triad ? 3 : 1;
    const auto perThreadBytes = static_cast<std::size_t>(workingSetBytes / threads / arrays);
    const std::size_t count = std::max<std::size_t>(perThreadBytes / 8, 8);
    const double bytesPerPass = static_cast<double>(count) * 8.0 * arrays * threads;

    std::vector<ThreadArrays> arraysOf(static_cast<size_t>(threads));
    runParallel(threads, 1,
                [&](int thread, int) {
                    ThreadArrays& mine = arraysOf[static_cast<size_t>(thread)];
                    if (triad) {
                        mine.a = AlignedBuffer<double>(count);
                        mine.b = AlignedBuffer<double>(count);
                        mine.c = AlignedBuffer<double>(count);
                        std::fill_n(mine.a.data(), count, 0.0);
                        std::fill_n(mine.b.data(), count, 1.0);
                        std::fill_n(mine.c.data(), count, 2.0);
                    } else {
                        mine.read = AlignedBuffer<std::uint64_t>(count);
                        for (std::size_t i = 0; i < count; ++i)
                            mine.read[i] = i;
                    }
                },
                {});

    auto pass = [&](int thread) {
        ThreadArrays& mine = arraysOf[static_cast<size_t>(thread)];
        if (triad)
            streamTriad(mine.a.data(), mine.b.data(), mine.c.data(), 3.0, count);
        else
            g_readSink = g_readSink + streamRead(mine.read.data(), count);
    };

    // Calibrate: passes per repetition so that one repetition lasts about repSeconds.
    int passes = static_cast<int>(std::clamp<double>(4.0 * 1024 * 1024 / bytesPerPass, 1.0, 1e6));
    const ParallelRun probe = timePasses(threads, 2, passes, pass, control);  // first run also warms caches
    if (probe.cancelled || probe.repSeconds.empty())
        return std::nullopt;
    const double probeSeconds = std::max(probe.repSeconds.back(), 1e-7);
    passes = static_cast<int>(std::clamp(std::ceil(passes * control.repSeconds() / probeSeconds), 1.0, 1e7));

    // DRAM-sized working sets wander most between runs (page placement, refresh, the other core): at
    // 64 MiB and above, take more repetitions so the median holds still. They are few passes each.
    constexpr std::int64_t kLargeWorkingSet = 64LL * 1024 * 1024;
    const int reps = workingSetBytes >= kLargeWorkingSet ? std::max(control.reps(), 9) : control.reps();
    const ParallelRun run = timePasses(threads, reps, passes, pass, control);
    if (run.cancelled)
        return std::nullopt;

    BandwidthPoint point;
    point.workingSetBytes = workingSetBytes;
    point.mix = mix;
    point.threads = threads;
    point.spread = rateSpread(run.repSeconds, bytesPerPass * passes / 1e9);
    point.gbps = point.spread.median;
    return point;
}

std::optional<Spread> measureStreamTriad(std::int64_t arrayBytes, int threads, MeasureControl& control)
{
    // A triad point whose working set is the three arrays together.
    const std::optional<BandwidthPoint> point =
        measureBandwidthPoint(QStringLiteral("triad"), 3 * arrayBytes, threads, control);
    if (!point)
        return std::nullopt;
    return point->spread;
}

}  // namespace ridgeline
