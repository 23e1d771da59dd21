// The chart's Back and Forward as plain data: a browser's rules, a bounded memory, rounding-proof comparison.

#include "ui/plots/layout/view_history.h"

#include <gtest/gtest.h>

using namespace ridgeline::ui;

namespace {

PlotRange view(double x)
{
    return {x, 10.0 * x, 1.0, 100.0};
}

}  // namespace

TEST(ViewHistory, BackAndForwardRetraceTheViewsAndANewVisitDropsTheOnesAhead)
{
    ViewHistory h;
    EXPECT_FALSE(h.back(view(1)).has_value());
    h.leave(view(1));  // 1 -> 2
    h.leave(view(2));  // 2 -> 3
    h.leave(view(2));  // the same view twice in a row is one step
    EXPECT_TRUE(sameView(*h.back(view(3)), view(2)));
    EXPECT_TRUE(sameView(*h.back(view(2)), view(1)));
    EXPECT_FALSE(h.canGoBack());
    EXPECT_TRUE(sameView(*h.forward(view(1)), view(2)));
    EXPECT_TRUE(h.canGoForward());
    h.leave(view(2));  // 2 -> 5: the way to 3 is gone
    EXPECT_FALSE(h.canGoForward());
    EXPECT_TRUE(sameView(*h.back(view(5)), view(2)));
    h.clear();
    EXPECT_FALSE(h.canGoBack() || h.canGoForward());
}

TEST(ViewHistory, KeepsTheLatestViewsAndRefusesRangesALogAxisCannotShow)
{
    ViewHistory h;
    for (int i = 1; i <= static_cast<int>(ViewHistory::kMaxViews) + 10; ++i)
        h.leave(view(i));
    int steps = 0;
    PlotRange current = view(1000);
    while (const auto to = h.back(current)) {
        current = *to;
        ++steps;
    }
    EXPECT_EQ(steps, static_cast<int>(ViewHistory::kMaxViews));
    EXPECT_TRUE(sameView(current, view(11))) << "the oldest ten fell off";
    ViewHistory fresh;
    fresh.leave({0.0, 1.0, 1.0, 2.0});
    fresh.leave({1.0, 1.0, 1.0, 2.0});
    EXPECT_FALSE(fresh.canGoBack());
    EXPECT_TRUE(sameView(view(3.0), {3.0 * (1.0 + 1e-12), 30.0, 1.0, 100.0}));
    EXPECT_FALSE(sameView(view(3.0), view(3.001)));
}
