#pragma once
// A team of threads that stay for many short parallel jobs and block between them. Each job's first share runs on
// the calling thread, the others on the team's helpers; run() returns when every share is done. Helpers wait on an
// atomic (a futex after a few spins), so an idle team leaves the cores to whoever wants them, where an OpenMP team
// spins at its barrier; and a job costs a wake-up, not a thread's creation.

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ridgeline {

class WorkerTeam {
public:
    explicit WorkerTeam(int threads);  // the caller and threads - 1 helpers
    ~WorkerTeam();
    WorkerTeam(const WorkerTeam&) = delete;
    WorkerTeam& operator=(const WorkerTeam&) = delete;

    int threads() const { return static_cast<int>(m_helpers.size()) + 1; }
    // Calls share(i) for every i in [0, threads()) at once, share(0) on the calling thread. One job at a time:
    // callers on other threads wait their turn.
    void run(const std::function<void(int)>& share);

    // The process's team of `threads` threads, made on first use.
    static WorkerTeam& of(int threads);

private:
    void serve(int index);

    std::mutex m_oneJob;
    const std::function<void(int)>* m_share = nullptr;
    std::atomic<std::uint64_t> m_generation{0};
    std::atomic<int> m_pending{0};
    std::atomic<bool> m_stop{false};
    std::vector<std::jthread> m_helpers;  // last: joined before the atomics they wait on are gone
};

}  // namespace ridgeline
