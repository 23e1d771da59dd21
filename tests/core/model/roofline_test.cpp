#include "core/model/roofline.h"

#include <gtest/gtest.h>

using namespace ridgeline;

TEST(Roofline, RidgeIsPeakOverBandwidth)
{
    const Roof gpu{300'000.0, 2'000.0};  // 300 TFLOP/s, 2 TB/s
    EXPECT_DOUBLE_EQ(ridgeIntensity(gpu), 150.0);
}

TEST(Roofline, AttainableIsTheLowerOfComputeAndBandwidthTimesIntensity)
{
    const Roof roof{1000.0, 100.0};
    EXPECT_DOUBLE_EQ(attainableGflops(roof, 0.5), 50.0);
    EXPECT_DOUBLE_EQ(attainableGflops(roof, 10.0), 1000.0);
    EXPECT_DOUBLE_EQ(attainableGflops(roof, 100.0), 1000.0);
    EXPECT_EQ(boundAt(roof, 9.99), Bound::Memory);
    EXPECT_EQ(boundAt(roof, 10.0), Bound::Compute);
}

TEST(Roofline, VerticesIncludeTheExactRidgePoint)
{
    const Roof roof{1000.0, 100.0};
    const auto points = roofVertices(roof, 0.01, 1000.0);
    ASSERT_EQ(points.size(), 3u);
    EXPECT_DOUBLE_EQ(points[1].x(), 10.0);
    EXPECT_DOUBLE_EQ(points[1].y(), 1000.0);
    EXPECT_DOUBLE_EQ(points[0].y(), 1.0);
    EXPECT_DOUBLE_EQ(points[2].y(), 1000.0);
}

TEST(Roofline, VerticesOmitTheRidgeWhenItLiesOutsideTheRange)
{
    const Roof roof{1000.0, 100.0};
    EXPECT_EQ(roofVertices(roof, 20.0, 40.0).size(), 2u);
    EXPECT_TRUE(roofVertices(roof, 0.0, 40.0).empty());
}
