// The bandwidth-vs-working-set staircase: one point per measured size, one marker per cache level.

#include "ui/chart/bandwidth_chart.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

TEST(UiBandwidthChart, DrawsTheStaircaseWithCacheSizesMarked)
{
    BandwidthChart chart;
    const Session session = fixtures::zen4Session();
    chart.setSession(session);
    EXPECT_EQ(chart.curvePointCount(), static_cast<int>(session.bandwidthCurve.size()));
    EXPECT_EQ(chart.cacheMarkerCount(), 3);
    // Two logical CPUs on one core: one 32 KiB L1, one 1 MiB L2, one (shared) 32 MiB L3.
    EXPECT_EQ(chart.cacheLabels(),
              QStringList({QStringLiteral("L1 32 KiB"), QStringLiteral("L2 1 MiB"), QStringLiteral("L3 32 MiB")}));
    fixtures::layoutNow(chart, QSize(1200, 500));
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("bandwidth.png")));
}

TEST(UiBandwidthChart, SelectingALevelIsReported)
{
    BandwidthChart chart;
    chart.setSession(fixtures::zen4Session());
    chart.setSelectedLevel(QStringLiteral("L3"));
    EXPECT_EQ(chart.selectedLevel(), QStringLiteral("L3"));
}
