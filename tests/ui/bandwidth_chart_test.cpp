// The bandwidth-vs-working-set staircase: one point per measured size, one marker per cache level.

#include "ui/chart/bandwidth_chart.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/chart_overlay.h"

#include <QSignalSpy>
#include <QTest>

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

// The staircase is readable. A tick every decade with minor labels at 2 and 5, full axis titles, every
// plateau's value written on the chart, and the numbers of the point under the mouse.
TEST(UiBandwidthChart, TicksEveryDecadePlateauValuesAndFullAxisTitles)
{
    BandwidthChart chart;
    chart.setSession(fixtures::zen4Session());
    fixtures::layoutNow(chart, QSize(1000, 360));
    EXPECT_EQ(chart.yTickLabels(),
              QStringList({QStringLiteral("20"), QStringLiteral("50"), QStringLiteral("100"), QStringLiteral("200"),
                           QStringLiteral("500"), QStringLiteral("1,000")}));
    EXPECT_TRUE(chart.xTickLabels().contains(QStringLiteral("1 MiB")));
    const QStringList texts = fixtures::sceneTexts(&chart);
    EXPECT_TRUE(texts.contains(QStringLiteral("Working set (bytes, log scale)"))) << texts.join(u'|').toStdString();
    EXPECT_TRUE(texts.contains(QStringLiteral("GB/s (log scale)")));
    const QStringList overlay = chart.overlayTexts();
    for (const char* plateau : {"L1 500 GB/s", "L2 250 GB/s", "L3 120 GB/s", "DRAM 40.0 GB/s"})
        EXPECT_TRUE(overlay.contains(QLatin1String(plateau))) << plateau;
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("bandwidth_1000x360.png")));
}

TEST(UiBandwidthChart, HoveringAPointShowsItsNumbersAndAClickSelectsItsLevel)
{
    BandwidthChart chart;
    chart.setSession(fixtures::zen4Session());
    fixtures::layoutNow(chart, QSize(1000, 360));
    QSignalSpy selected(&chart, &BandwidthChart::levelSelected);
    const QPoint l2 = chart.pointPosition(6);  // 256 KiB
    ASSERT_TRUE(chart.viewport()->rect().contains(l2));
    QTest::mouseMove(chart.viewport(), l2 + QPoint(3, -2));
    EXPECT_TRUE(chart.hoverText().contains(QStringLiteral("256 KiB working set: 250 GB/s")))
        << chart.hoverText().toStdString();
    EXPECT_TRUE(chart.hoverText().contains(QStringLiteral("served from L2")));
    QTest::mouseMove(chart.viewport(), l2 + QPoint(0, 60));
    EXPECT_TRUE(chart.hoverText().isEmpty());

    QTest::mouseClick(chart.viewport(), Qt::LeftButton, Qt::NoModifier, l2);
    ASSERT_EQ(selected.count(), 1);
    EXPECT_EQ(selected.front().front().toString(), QStringLiteral("L2"));
    EXPECT_EQ(chart.selectedLevel(), QStringLiteral("L2"));
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, Qt::NoModifier, l2);
    EXPECT_TRUE(chart.selectedLevel().isEmpty()) << "a second click clears it";
}

TEST(UiBandwidthChart, PlateauLabelsStayInsideThePlotAndClearOfEachOther)
{
    BandwidthChart chart;
    chart.setSession(fixtures::zen4Session());
    for (const QSize size : {QSize(700, 260), QSize(1000, 360), QSize(1600, 420)}) {
        fixtures::layoutNow(chart, size);
        const QRectF plot = chart.chart()->plotArea();
        const std::vector<QRectF> rects = chart.overlayTextRects();
        ASSERT_EQ(rects.size(), 7u) << "three cache sizes, four plateaus";
        for (const QRectF& r : rects)
            EXPECT_TRUE(plot.adjusted(-1, -1, 1, 1).contains(r)) << size.width();
        for (std::size_t i = 3; i < rects.size(); ++i) {
            for (std::size_t j = 0; j < rects.size(); ++j) {
                if (i != j) {
                    EXPECT_FALSE(rects[i].intersects(rects[j])) << size.width() << " " << i << " " << j;
                }
            }
        }
    }
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

// At the height the window's dock gives it (about 160 px), no tick label is cut to "...": the titles give way.
TEST(UiBandwidthChart, InAShortDockTheTicksStayWholeAndTheTitlesGiveWay)
{
    BandwidthChart chart;
    chart.setSession(fixtures::zen4Session());
    fixtures::layoutNow(chart, QSize(1400, 160));
    const QStringList texts = fixtures::sceneTexts(&chart);
    EXPECT_TRUE(fixtures::truncated(texts).isEmpty()) << texts.join(u'|').toStdString();
    EXPECT_GE(chart.xTickLabels().size(), 4) << texts.join(u'|').toStdString();
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("bandwidth_1400x160.png")));
    // Given room again, the titles come back.
    fixtures::layoutNow(chart, QSize(1000, 360));
    EXPECT_TRUE(fixtures::sceneTexts(&chart).join(u'|').contains(QLatin1String("Working set")));
}
