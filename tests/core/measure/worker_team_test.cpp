// The team that runs the bf16 products' panels: every share of every job runs once, the first on the caller, and
// a job returns only when all its shares are done, job after job (a lost wake-up would hang or skip a share).
#include "core/measure/run/worker_team.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

using namespace ridgeline;

TEST(WorkerTeam, EveryShareRunsOnceAndTheFirstOnTheCaller)
{
    WorkerTeam team(3);
    ASSERT_EQ(team.threads(), 3);
    for (int job = 0; job < 2000; ++job) {
        std::vector<std::atomic<int>> runs(3);
        std::vector<std::thread::id> where(3);
        team.run([&](int i) {
            where[static_cast<std::size_t>(i)] = std::this_thread::get_id();
            runs[static_cast<std::size_t>(i)].fetch_add(1);
        });
        for (int i = 0; i < 3; ++i)
            ASSERT_EQ(runs[static_cast<std::size_t>(i)].load(), 1) << "job " << job << ", share " << i;
        ASSERT_EQ(where[0], std::this_thread::get_id());
        ASSERT_NE(where[1], where[0]);
        ASSERT_NE(where[2], where[1]);
    }
}

TEST(WorkerTeam, OneThreadRunsInlineAndTeamsAreKeptByTheirSize)
{
    WorkerTeam alone(1);
    std::thread::id where;
    alone.run([&](int i) {
        EXPECT_EQ(i, 0);
        where = std::this_thread::get_id();
    });
    EXPECT_EQ(where, std::this_thread::get_id());
    EXPECT_EQ(&WorkerTeam::of(2), &WorkerTeam::of(2));
    EXPECT_NE(&WorkerTeam::of(2), &WorkerTeam::of(3));
    EXPECT_EQ(WorkerTeam::of(0).threads(), 1);
}
