#pragma once
// Runs the same work on N pinned threads in lock-step repetitions, and times each repetition from the
// first thread's start to the last thread's end.

#include "core/measure/machine/system_facts.h"  // allowedCpus, pinCurrentThread: the scheduler is the system's

#include <atomic>
#include <functional>
#include <vector>

namespace ridgeline {

struct ParallelRun {
    std::vector<double> repSeconds;  // one entry per completed repetition
    bool cancelled = false;
};

// Calls work(threadIndex, rep) on `threads` threads for each repetition. The calling thread is thread 0,
// so `keepGoing` (asked between repetitions, on thread 0) runs where the caller expects it.
ParallelRun runParallel(int threads, int reps, const std::function<void(int threadIndex, int rep)>& work,
                        const std::function<bool()>& keepGoing);

// Pins the calling thread to one CPU for its lifetime in this scope; restores the old mask after.
class ScopedPin {
public:
    explicit ScopedPin(int cpu);
    ~ScopedPin();
    ScopedPin(const ScopedPin&) = delete;
    ScopedPin& operator=(const ScopedPin&) = delete;

private:
    std::vector<int> m_previous;
};

}  // namespace ridgeline
