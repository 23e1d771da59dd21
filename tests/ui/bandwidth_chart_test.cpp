// The bandwidth-vs-working-set staircase: one point per measured size, one marker per cache level.

#include "ui/chart/bandwidth_chart.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"

#include <QCategoryAxis>
#include <QChart>

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

TEST(UiBandwidthChart, LabelsTheSizeAxisAtEvenPowersOfTwoInBinaryUnits)
{
    BandwidthChart chart;
    chart.setSession(fixtures::zen4Session());
    QCategoryAxis* sizes = nullptr;
    for (QAbstractAxis* axis : chart.chart()->axes(Qt::Horizontal))
        if (auto* category = qobject_cast<QCategoryAxis*>(axis))
            sizes = category;
    ASSERT_NE(sizes, nullptr);
    const QStringList labels = sizes->categoriesLabels();
    ASSERT_GE(labels.size(), 3);
    // 2^e bytes is 2^(e mod 10) of the unit 1024^(e div 10): "4 KiB" at 12, "1 MiB" at 20, "16 MiB" at 24.
    const QStringList units = {QStringLiteral("B"), QStringLiteral("KiB"), QStringLiteral("MiB"),
                               QStringLiteral("GiB")};
    for (const QString& label : labels) {
        const auto e = static_cast<int>(sizes->endValue(label));
        ASSERT_EQ(e % 2, 0) << label.toStdString();
        ASSERT_LT(e / 10, units.size());
        EXPECT_EQ(label, QString::number(1 << (e % 10)) + QLatin1Char(' ') + units[e / 10]);
    }
    EXPECT_TRUE(labels.contains(QStringLiteral("1 MiB")));
}
