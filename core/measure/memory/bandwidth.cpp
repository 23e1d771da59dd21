#include "core/measure/memory/bandwidth.h"

#include "core/measure/memory/stream_kernels.h"
#include "core/measure/run/aligned_buffer.h"
#include "core/measure/run/parallel.h"
#include "core/measure/run/statistics.h"

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

volatile std::uint64_t g_readSink = 0;

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

// Elements of one array of one thread for a working set split over `arrays` arrays and `threads` threads.
std::size_t elementsPerArray(std::int64_t workingSetBytes, int threads, int arrays)
{
    const auto perThreadBytes = static_cast<std::size_t>(workingSetBytes / threads / arrays);
    return std::max<std::size_t>((perThreadBytes / 64) * 8, 8);  // whole cache lines
}

}  // namespace

BandwidthScratch::BandwidthScratch(int threads)
    : m_threads(threads), m_read(static_cast<std::size_t>(threads)), m_triad(static_cast<std::size_t>(threads))
{
}

void BandwidthScratch::reserve(std::int64_t workingSetBytes)
{
    if (workingSetBytes <= m_reserved)
        return;
    const std::size_t read = elementsPerArray(workingSetBytes, m_threads, 1);
    const std::size_t triad = 3 * elementsPerArray(workingSetBytes, m_threads, 3);
    for (int t = 0; t < m_threads; ++t) {
        m_read[static_cast<std::size_t>(t)] = AlignedBuffer<std::uint64_t>(read);
        m_triad[static_cast<std::size_t>(t)] = AlignedBuffer<double>(triad);
    }
    m_reserved = workingSetBytes;
}

std::optional<BandwidthPoint> measureBandwidthPoint(const QString& mix, std::int64_t workingSetBytes, int threads,
                                                    MeasureControl& control, BandwidthScratch& scratch)
{
    const bool triad = mix == QLatin1String("triad");
    const int arrays = triad ? 3 : 1;
    const std::size_t count = elementsPerArray(workingSetBytes, threads, arrays);
    const double bytesPerPass = static_cast<double>(count) * 8.0 * arrays * threads;
    scratch.reserve(workingSetBytes);

    // Each thread fills (and, the first time, faults in) its own arrays: pages land near the core using them.
    runParallel(threads, 1,
                [&](int thread, int) {
                    if (triad) {
                        double* a = scratch.triadArrays(thread);
                        std::fill_n(a, count, 0.0);
                        std::fill_n(a + count, count, 1.0);
                        std::fill_n(a + 2 * count, count, 2.0);
                    } else {
                        std::uint64_t* read = scratch.readArray(thread);
                        for (std::size_t i = 0; i < count; ++i)
                            read[i] = i;
                    }
                },
                {});

    auto pass = [&](int thread) {
        if (triad) {
            double* a = scratch.triadArrays(thread);
            streamTriad(a, a + count, a + 2 * count, 3.0, count);
        } else {
            g_readSink = g_readSink + streamRead(scratch.readArray(thread), count);
        }
    };

    // Calibrate: passes per repetition so that one repetition lasts about repSeconds.
    int passes = static_cast<int>(std::clamp<double>(4.0 * 1024 * 1024 / bytesPerPass, 1.0, 1e6));
    const ParallelRun probe = timePasses(threads, 2, passes, pass, control);  // first run also warms caches
    if (probe.cancelled || probe.repSeconds.empty())
        return std::nullopt;
    const double probeSeconds = std::max(probe.repSeconds.back(), 1e-7);
    passes = static_cast<int>(std::clamp(std::ceil(passes * control.repSeconds() / probeSeconds), 1.0, 1e7));

    // DRAM-sized working sets wander most between runs (page placement, refresh, the other core): at
    // 64 MiB and above, a full run takes more repetitions so the median holds still. A quick run keeps its
    // three: each costs a pass over hundreds of MiB, and its five seconds cannot afford more.
    constexpr std::int64_t kLargeWorkingSet = 64LL * 1024 * 1024;
    const int reps =
        workingSetBytes >= kLargeWorkingSet && !control.quick() ? std::max(control.reps(), 9) : control.reps();
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

std::optional<Spread> measureStreamTriad(std::int64_t arrayBytes, int threads, MeasureControl& control,
                                         BandwidthScratch& scratch)
{
    // A triad point whose working set is the three arrays together.
    const std::optional<BandwidthPoint> point =
        measureBandwidthPoint(QStringLiteral("triad"), 3 * arrayBytes, threads, control, scratch);
    if (!point)
        return std::nullopt;
    return point->spread;
}

}  // namespace ridgeline
