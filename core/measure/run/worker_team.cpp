#include "core/measure/run/worker_team.h"

#include <algorithm>
#include <map>
#include <memory>

namespace ridgeline {

WorkerTeam::WorkerTeam(int threads)
{
    const int helpers = std::max(threads, 1) - 1;
    m_helpers.reserve(static_cast<std::size_t>(helpers));
    for (int index = 1; index <= helpers; ++index)
        m_helpers.emplace_back([this, index] { serve(index); });
}

WorkerTeam::~WorkerTeam()
{
    m_stop.store(true, std::memory_order_relaxed);
    m_generation.fetch_add(1, std::memory_order_release);
    m_generation.notify_all();
}

void WorkerTeam::run(const std::function<void(int)>& share)
{
    const std::lock_guard<std::mutex> lock(m_oneJob);
    const int helpers = static_cast<int>(m_helpers.size());
    if (helpers > 0) {
        m_share = &share;
        m_pending.store(helpers, std::memory_order_relaxed);
        m_generation.fetch_add(1, std::memory_order_release);
        m_generation.notify_all();
    }
    share(0);
    for (int left = m_pending.load(std::memory_order_acquire); left != 0;
         left = m_pending.load(std::memory_order_acquire))
        m_pending.wait(left, std::memory_order_acquire);
}

void WorkerTeam::serve(int index)
{
    std::uint64_t seen = 0;
    for (;;) {
        m_generation.wait(seen, std::memory_order_acquire);
        seen = m_generation.load(std::memory_order_acquire);
        if (m_stop.load(std::memory_order_relaxed))
            return;
        (*m_share)(index);
        if (m_pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
            m_pending.notify_one();
    }
}

WorkerTeam& WorkerTeam::of(int threads)
{
    static std::mutex guard;
    static std::map<int, std::unique_ptr<WorkerTeam>> teams;
    const std::lock_guard<std::mutex> lock(guard);
    std::unique_ptr<WorkerTeam>& team = teams[std::max(threads, 1)];
    if (!team)
        team = std::make_unique<WorkerTeam>(threads);
    return *team;
}

}  // namespace ridgeline
