// Greedy label placement: no overlaps, inside the bounds, leaders only when pushed away.

#include "ui/plots/layout/label_layout.h"
#include "ui/plots/layout/rect_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace ridgeline::ui;

TEST(UiLabelLayout, CrowdedPointsGetLabelsThatDoNotOverlap)
{
    LabelLayoutInput input;
    input.bounds = QRectF(0, 0, 800, 600);
    // Nine points on a tight diagonal, like the decode batch sweep.
    for (int i = 0; i < 9; ++i)
        input.labels.push_back({QPointF(200 + i * 25, 400 - i * 22), QSizeF(110, 20)});
    const std::vector<LabelPlacement> placed = placeLabels(input);
    ASSERT_EQ(placed.size(), input.labels.size());
    for (std::size_t i = 0; i < placed.size(); ++i) {
        ASSERT_TRUE(placed[i].placed) << i;
        EXPECT_TRUE(input.bounds.contains(placed[i].rect));
        for (std::size_t j = i + 1; j < placed.size(); ++j)
            EXPECT_FALSE(placed[i].rect.intersects(placed[j].rect)) << i << " and " << j;
        for (const LabelRequest& other : input.labels)
            EXPECT_FALSE(placed[i].rect.contains(other.anchor));
    }
}

TEST(UiLabelLayout, ALoneLabelSitsRightOfItsPointWithoutALeader)
{
    LabelLayoutInput input;
    input.bounds = QRectF(0, 0, 800, 600);
    input.labels.push_back({QPointF(100, 300), QSizeF(80, 20)});
    const std::vector<LabelPlacement> placed = placeLabels(input);
    ASSERT_TRUE(placed[0].placed);
    EXPECT_FALSE(placed[0].needsLeader);
    EXPECT_GT(placed[0].rect.left(), 100.0);
    EXPECT_NEAR(placed[0].rect.center().y(), 300.0, 1.0);
}

TEST(UiLabelLayout, AnObstacleOnTheRightPushesTheLabelElsewhere)
{
    LabelLayoutInput input;
    input.bounds = QRectF(0, 0, 800, 600);
    input.labels.push_back({QPointF(100, 300), QSizeF(80, 20)});
    input.obstacles.push_back(QRectF(105, 280, 300, 40));
    const std::vector<LabelPlacement> placed = placeLabels(input);
    ASSERT_TRUE(placed[0].placed);
    EXPECT_FALSE(placed[0].rect.intersects(input.obstacles[0]));
}

// A label is not put where it is nearer another point than its own: there it reads as that point's (a calibration
// chart's '+0.23 %' sat closer to the next dot than to its own). B's dot sits 8 px under the first choice, right of
// A, clear of it (its marker does not touch the box) but nearer than A's 9 px: A's label goes left instead.
TEST(UiLabelLayout, ALabelKeepsOffASpotNearerAnotherPoint)
{
    LabelLayoutInput input;
    input.bounds = QRectF(0, 0, 800, 600);
    input.labels.push_back({QPointF(100, 100), QSizeF(40, 15)});
    input.labels.push_back({QPointF(130, 115.5), QSizeF(40, 15)});
    const std::vector<LabelPlacement> placed = placeLabels(input);
    ASSERT_TRUE(placed[0].placed);
    EXPECT_FALSE(placed[0].needsLeader);
    EXPECT_LT(placed[0].rect.right(), 100.0);
    auto distance = [](const QRectF& box, QPointF p) {
        return std::hypot(std::max({box.left() - p.x(), 0.0, p.x() - box.right()}),
                          std::max({box.top() - p.y(), 0.0, p.y() - box.bottom()}));
    };
    for (std::size_t i = 0; i < placed.size(); ++i)
        EXPECT_LT(distance(placed[i].rect, input.labels[i].anchor),
                  distance(placed[i].rect, input.labels[1 - i].anchor))
            << i;
}

// A label forced in (no free place near its point) is not struck through by a roof when the plot has a spot off
// every line: the nearest spot, just above the point, has a roof through it; the chosen one sits just below.
TEST(UiLabelLayout, AForcedLabelKeepsOffTheLinesWhereItCan)
{
    const QRectF bounds(0, 42, 400, 120);
    const LabelRequest label{QPointF(100, 100), QSizeF(120, 30)};
    const std::vector<QLineF> roof{QLineF(0, 95, 400, 95)};
    const LabelPlacement nearest = placeForced(bounds, label, {}, {});
    EXPECT_LT(nearest.rect.bottom(), label.anchor.y()) << "above the point";
    EXPECT_TRUE(segmentIntersectsRect(roof.front(), nearest.rect)) << "and on the roof";
    const LabelPlacement placed = placeForced(bounds, label, {}, {}, roof);
    ASSERT_TRUE(placed.placed);
    EXPECT_FALSE(segmentIntersectsRect(roof.front(), placed.rect));
    EXPECT_TRUE(bounds.contains(placed.rect));
    EXPECT_FALSE(placed.rect.contains(label.anchor));
    EXPECT_LT(QLineF(placed.rect.center(), label.anchor).length(), 30.0) << "and still next to its point";
}

// Two points one above the other, the room beside them broken up by other text: placed greedily, the upper label
// took the free spot below-right and the lower one's leader had to cross its leader to reach the only spot left,
// above (1 in 5,000 such random layouts). The two then trade places: neither leader crosses the other.
TEST(UiLabelLayout, TwoLeadersNeverCrossWhereTheLabelsCanTradePlaces)
{
    LabelLayoutInput input;
    input.bounds = QRectF(0, 0, 300, 150);
    input.markerRadius = 8;
    input.labels = {{QPointF(68.6, 45.9), QSizeF(110, 16)}, {QPointF(75.8, 89.0), QSizeF(100, 16)}};
    input.obstacles = {QRectF(277.5, 21.0, 124.2, 40.4), QRectF(97.8, 21.2, 61.0, 45.1),
                       QRectF(30.7, 100.1, 88.9, 37.7), QRectF(192.6, 131.4, 85.4, 49.8)};
    const std::vector<LabelPlacement> placed = placeLabels(input);
    ASSERT_TRUE(placed[0].placed && placed[1].placed);
    ASSERT_TRUE(placed[0].needsLeader && placed[1].needsLeader) << "both away from their points, as before";
    EXPECT_NE(placed[0].leader.intersects(placed[1].leader, nullptr), QLineF::BoundedIntersection);
    EXPECT_LT(placed[0].rect.center().y(), placed[1].rect.center().y()) << "the upper point's label is the upper one";
    EXPECT_FALSE(placed[0].rect.intersects(placed[1].rect));
    for (const LabelPlacement& p : placed) {
        EXPECT_TRUE(input.bounds.contains(p.rect));
        for (const QRectF& obstacle : input.obstacles)
            EXPECT_FALSE(p.rect.intersects(obstacle));
        for (const LabelRequest& label : input.labels)
            EXPECT_FALSE(p.rect.contains(label.anchor));
        // Each leader ends on its own box.
        EXPECT_LT(QLineF(p.leader.p2(), QPointF(std::clamp(p.leader.p2().x(), p.rect.left(), p.rect.right()),
                                                std::clamp(p.leader.p2().y(), p.rect.top(), p.rect.bottom())))
                      .length(),
                  0.01);
    }
}

TEST(UiLabelLayout, SegmentRectangleIntersection)
{
    const QRectF rect(10, 10, 10, 10);
    EXPECT_TRUE(segmentIntersectsRect(QLineF(0, 0, 30, 30), rect));
    EXPECT_FALSE(segmentIntersectsRect(QLineF(0, 30, 5, 0), rect));
    EXPECT_TRUE(segmentIntersectsRect(QLineF(12, 12, 13, 13), rect));
}

TEST(FreeRow, FindsTheFirstRowClearOfTextAndPrefersOneClearOfLines)
{
    const QRectF bounds(0, 0, 400, 200);
    const std::vector<QRectF> taken{QRectF(0, 0, 400, 30)};   // a full-width label on top
    const std::vector<QLineF> lines{QLineF(0, 40, 400, 40)};  // a curve just below it
    const auto clear = freeRow(bounds, QSizeF(120, 20), taken, lines, true);
    ASSERT_TRUE(clear.has_value());
    EXPECT_GT(clear->top(), 40.0) << "below the curve, not across it";
    EXPECT_FALSE(clear->intersects(taken.front()));
    EXPECT_TRUE(bounds.contains(*clear));

    const auto acrossLines = freeRow(bounds, QSizeF(120, 20), taken, lines, false);
    ASSERT_TRUE(acrossLines.has_value());
    EXPECT_LT(acrossLines->top(), clear->top());
    EXPECT_FALSE(acrossLines->intersects(taken.front()));

    // Room only between two labels: found by the positions between flush left and flush right.
    const std::vector<QRectF> sides{QRectF(0, 0, 150, 200), QRectF(250, 0, 150, 200)};
    const auto between = freeRow(bounds, QSizeF(90, 20), sides, {}, true);
    ASSERT_TRUE(between.has_value());
    EXPECT_GE(between->left(), 150.0);
    EXPECT_LE(between->right(), 250.0);

    EXPECT_FALSE(freeRow(bounds, QSizeF(500, 20), {}, {}, true).has_value()) << "wider than the plot";
    EXPECT_FALSE(freeRow(bounds, QSizeF(120, 20), {bounds}, {}, false).has_value()) << "no room at all";
}

TEST(RectGrid, FindsWhatABoxMeetsAsTheWholeListWouldAndCountsEachRectangleOnce)
{
    // A cloud of dot boxes in a 1,600 x 900 plot, some across cell edges, some outside the plot, one huge.
    std::vector<QRectF> rects;
    for (int i = 0; i < 3000; ++i)
        rects.emplace_back((i * 7919) % 1700 - 50.0, (i * 104729) % 1000 - 50.0, 11.0, 11.0);
    rects.emplace_back(300.0, 200.0, 500.0, 300.0);
    rects.emplace_back(-5000.0, -5000.0, 10.0, 10.0);  // far outside: never met by a box in the plot
    const QRectF plot(0, 0, 1600, 900);
    const RectGrid grid(rects, plot.adjusted(-100, -100, 100, 100));
    for (int i = 0; i < 400; ++i) {
        const QRectF box((i * 613) % 1500, (i * 389) % 850, 20.0 + i % 90, 12.0 + i % 40);
        int expected = 0;
        for (const QRectF& r : rects)
            expected += r.intersects(box) ? 1 : 0;
        EXPECT_EQ(grid.countIntersecting(box), expected) << i;
        EXPECT_EQ(grid.anyIntersects(box), expected > 0) << i;
    }
    const RectGrid empty({}, plot);
    EXPECT_FALSE(empty.anyIntersects(QRectF(10, 10, 50, 50)));
    EXPECT_EQ(RectGrid(rects, QRectF()).countIntersecting(QRectF(10, 10, 50, 50)), 0) << "no bounds, nothing kept";
}
