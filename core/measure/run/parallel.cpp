#include "core/measure/run/parallel.h"

#include <algorithm>
#include <barrier>
#include <chrono>
#include <thread>

namespace ridgeline {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

ScopedPin::ScopedPin(int cpu) : m_previous(allowedCpus())
{
    pinCurrentThread({cpu});
}

ScopedPin::~ScopedPin()
{
    pinCurrentThread(m_previous);
}

ParallelRun runParallel(int threads, int reps, const std::function<void(int, int)>& work,
                        const std::function<bool()>& keepGoing)
{
    threads = std::max(threads, 1);
    const std::vector<int> cpus = allowedCpus();
    std::vector<Clock::time_point> starts(static_cast<size_t>(threads));
    std::vector<Clock::time_point> ends(static_cast<size_t>(threads));
    std::atomic<bool> stop{false};
    ParallelRun result;
    std::barrier sync(threads);

    auto body = [&](int index) {
        for (int rep = 0; rep < reps; ++rep) {
            sync.arrive_and_wait();  // everyone starts together
            if (stop.load(std::memory_order_relaxed))
                return;
            starts[static_cast<size_t>(index)] = Clock::now();
            work(index, rep);
            ends[static_cast<size_t>(index)] = Clock::now();
            sync.arrive_and_wait();  // everyone has finished this repetition
            if (index == 0) {
                const auto first = *std::min_element(starts.begin(), starts.end());
                const auto last = *std::max_element(ends.begin(), ends.end());
                result.repSeconds.push_back(std::chrono::duration<double>(last - first).count());
                if (keepGoing && !keepGoing())
                    stop.store(true, std::memory_order_relaxed);
            }
        }
    };

    std::vector<std::jthread> helpers;
    helpers.reserve(static_cast<size_t>(threads - 1));
    for (int index = 1; index < threads; ++index) {
        helpers.emplace_back([&, index] {
            pinCurrentThread({cpus[static_cast<size_t>(index) % cpus.size()]});
            body(index);
        });
    }
    {
        ScopedPin pin(cpus[0]);
        body(0);
    }
    helpers.clear();  // joins
    result.cancelled = stop.load();
    return result;
}

}  // namespace ridgeline
