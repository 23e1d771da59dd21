// The roofline chart under real mouse input (QTest events at the pixel of a point, never emitted signals): a click
// selects and explains the dot under it, even on a roof line; a drag zooms to the band; a click on a roof line
// highlights its level.

#include "core/session/format/bundled_session.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/chart_overlay.h"
#include "ui/chart/roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/plots/roofline/roofline_hit_test.h"

#include <QCursor>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

QPoint pixelOf(const RooflineChart& chart, const KernelResult& k)
{
    return chart.viewportPosition(QPointF(k.intensity, k.gflops));
}

int kernelIndex(const Session& s, const QString& name)
{
    for (std::size_t i = 0; i < s.kernels.size(); ++i)
        if (s.kernels[i].name == name)
            return static_cast<int>(i);
    return -1;
}

Session shippedSession()
{
    const Result<Session> loaded = bundledSession();
    EXPECT_TRUE(loaded.ok());
    return loaded.ok() ? loaded.value() : Session{};
}

// The view's plot mapping as Qt Charts has it, from the chart's own plot area and axes.
PlotMapping mappingOf(const RooflineChart& chart)
{
    return {chart.chart()->plotArea(), chart.visibleRange()};
}

// Under X the tooltip may fade in: shown within a second.
// A tooltip that says `text`: waits for it, since a tooltip still up from the last dot is visible at once (under a
// real X server the pointer's move reaches the chart a little later).
bool tooltipSays(const QString& text)
{
    return QTest::qWaitFor([&] { return QToolTip::isVisible() && QToolTip::text().contains(text); }, 2000);
}

// The cursor to `at` over the chart, no button held. The window system's own pointer goes there too: under a real X
// server (the xvfb pass) a pointer left elsewhere sends a Leave that ends the hover the move began.
void hoverAt(RooflineChart& chart, QPoint at)
{
    QCursor::setPos(chart.viewport()->mapToGlobal(at));
    QTest::mouseMove(chart.viewport(), at);
}

// The readout once the move has reached the chart.
QString readoutAt(RooflineChart& chart, QPoint at)
{
    hoverAt(chart, at);
    static_cast<void>(QTest::qWaitFor([&] { return !chart.pointerReadoutText().isEmpty(); }, 1000));
    return chart.pointerReadoutText();
}

}  // namespace

TEST(RooflineInput, AClickOnADotSelectsItAndSaysWhichWithoutZooming)
{
    RooflineChart chart;
    const Session session = fixtures::zen4Session();
    chart.setSessions({session});
    fixtures::layoutNow(chart, QSize(1280, 800));
    QSignalSpy clicked(&chart, &RooflineChart::kernelClicked);
    const PlotRange before = chart.visibleRange();
    const int sgemm = kernelIndex(session, QStringLiteral("sgemm 2048"));
    ASSERT_GE(sgemm, 0);
    const QPoint at = pixelOf(chart, session.kernels[static_cast<std::size_t>(sgemm)]);
    // A hand is not still: press, drift two pixels, release.
    QTest::mousePress(chart.viewport(), Qt::LeftButton, {}, at);
    QTest::mouseMove(chart.viewport(), at + QPoint(1, 1));
    QTest::mouseRelease(chart.viewport(), Qt::LeftButton, {}, at + QPoint(2, 1));
    ASSERT_EQ(clicked.size(), 1);
    EXPECT_EQ(clicked.first().at(0).toInt(), 0);
    EXPECT_EQ(clicked.first().at(1).toInt(), sgemm);
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, sgemm}));
    EXPECT_DOUBLE_EQ(chart.visibleRange().xMin, before.xMin);
    EXPECT_DOUBLE_EQ(chart.visibleRange().yMax, before.yMax);
    // The ring sits on the dot.
    ASSERT_EQ(chart.overDots().rings().size(), 1u);
    const QPointF ring = chart.overDots().rings().front().center;
    const QPointF dot = chart.chart()->mapFromScene(chart.mapToScene(at));
    EXPECT_LT(QLineF(ring, dot).length(), 1.0);

    // A click on empty plot selects nothing new.
    const QPoint empty = chart.viewportPosition({0.05, 200.0});
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, empty);
    EXPECT_EQ(clicked.size(), 1);
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("roofline_click_select.png")));
}

// Every dot, including those that sit on a roof line (the add kernels stream at the DRAM roof): clicking its pixel
// selects it, not the roof under it.
TEST(RooflineInput, EveryDotIsClickableIncludingDotsOnARoofLine)
{
    RooflineChart chart;
    const Session session = shippedSession();
    chart.setSessions({session});
    fixtures::layoutNow(chart, QSize(1600, 1000));
    QSignalSpy clicked(&chart, &RooflineChart::kernelClicked);
    QSignalSpy levels(&chart, &RooflineChart::levelClicked);
    int onRoof = 0;
    for (int k = 0; k < static_cast<int>(session.kernels.size()); ++k) {
        const KernelResult& kernel = session.kernels[static_cast<std::size_t>(k)];
        const QPoint at = pixelOf(chart, kernel);
        RooflineView view;
        view.plot = &chart.plot();
        view.mapping = mappingOf(chart);
        onRoof += roofHitAt(view, chart.chart()->mapFromScene(chart.mapToScene(at))).has_value() ? 1 : 0;
        QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, at);
        ASSERT_EQ(clicked.size(), k + 1) << kernel.name.toStdString();
        const KernelRef got{clicked.last().at(0).toInt(), clicked.last().at(1).toInt()};
        // Dots drawn on top of each other: the click takes one of them, at the same spot.
        const KernelResult& hit = session.kernels[static_cast<std::size_t>(got.kernel)];
        EXPECT_LE(QLineF(pixelOf(chart, hit), at).length(), 2.0) << kernel.name.toStdString();
    }
    EXPECT_GE(onRoof, 2);  // the test covers dots on roof lines
    EXPECT_EQ(levels.size(), 0);
}

TEST(RooflineInput, ADragZoomsToTheBandAndSelectsNothing)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    fixtures::layoutNow(chart, QSize(1280, 800));
    QSignalSpy clicked(&chart, &RooflineChart::kernelClicked);
    const QPoint from = chart.viewportPosition({0.3, 3.0});
    const QPoint to = chart.viewportPosition({30.0, 100.0});
    QTest::mousePress(chart.viewport(), Qt::LeftButton, {}, from);
    for (int step = 1; step <= 4; ++step)
        QTest::mouseMove(chart.viewport(), from + (to - from) * step / 4);
    QTest::mouseRelease(chart.viewport(), Qt::LeftButton, {}, to);
    EXPECT_EQ(clicked.size(), 0);
    // The axes now show the band's corners (to the pixel: a pixel of this plot is 0.4 % of a decade).
    const PlotRange zoomed = chart.visibleRange();
    EXPECT_NEAR(std::log10(zoomed.xMin), std::log10(0.3), 0.01);
    EXPECT_NEAR(std::log10(zoomed.xMax), std::log10(30.0), 0.01);
    EXPECT_NEAR(std::log10(zoomed.yMin), std::log10(3.0), 0.01);
    EXPECT_NEAR(std::log10(zoomed.yMax), std::log10(100.0), 0.01);
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("roofline_drag_zoom.png")));
}

TEST(RooflineInput, AClickOnABandwidthRoofHighlightsItsLevelAndASecondClearsIt)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});
    fixtures::layoutNow(chart, QSize(1280, 800));
    QSignalSpy levels(&chart, &RooflineChart::levelClicked);
    // On the L2 diagonal (250 GB/s) at 0.1 FLOP/byte, far from any dot.
    const QPoint onL2 = chart.viewportPosition({0.1, 25.0});
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, onL2);
    ASSERT_EQ(levels.size(), 1);
    EXPECT_EQ(levels.last().first().toString(), QStringLiteral("L2"));
    EXPECT_EQ(chart.highlightedLevel(), QStringLiteral("L2"));
    EXPECT_GT(chart.ceilingSeries(0, QStringLiteral("bandwidth"), QStringLiteral("L2"))->pen().widthF(),
              chart.ceilingSeries(0, QStringLiteral("bandwidth"), QStringLiteral("L1"))->pen().widthF());
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, onL2);
    ASSERT_EQ(levels.size(), 2);
    EXPECT_TRUE(chart.highlightedLevel().isEmpty());
}

// In the window: a click on a dot fills "Explain this point" with that kernel and its binding ceiling.
TEST(RooflineInput, AClickInTheWindowExplainsThePoint)
{
    MainWindow window;
    window.setSession(shippedSession());
    fixtures::layoutNow(window, QSize(1600, 1000));
    RooflineChart& chart = *window.chart();
    const Session& session = chart.sessions().front();
    const int add = kernelIndex(session, QStringLiteral("add 8192"));
    ASSERT_GE(add, 0);
    QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, pixelOf(chart, session.kernels[std::size_t(add)]));
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, add}));
    const QString html = window.explanationHtml();
    EXPECT_TRUE(html.contains(QStringLiteral("add 8192"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("DRAM"))) << html.toStdString();
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("window_click_explains.png")));
}

// Hover: the tooltip of the dot under the cursor every time, including a dot on a roof line; none over empty plot.
TEST(RooflineInput, HoveringADotShowsItsTooltipEveryTimeAndEmptyPlotShowsNone)
{
    RooflineChart chart;
    const Session session = shippedSession();
    chart.setSessions({session});
    fixtures::layoutNow(chart, QSize(1600, 1000));
    const QPoint empty = chart.viewportPosition({0.05, 300.0});  // above every roof, far from every dot
    for (const QString& name : {QStringLiteral("add 8192"), QStringLiteral("sgemm 1024"), QStringLiteral("decode B=1"),
                                QStringLiteral("dgemm 2048")}) {
        const int k = kernelIndex(session, name);
        ASSERT_GE(k, 0) << name.toStdString();
        const QPoint at = pixelOf(chart, session.kernels[std::size_t(k)]);
        hoverAt(chart, empty);
        EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000)) << name.toStdString();
        // A few pixels off the dot's centre still counts: the hand is not still.
        hoverAt(chart, at + QPoint(3, -2));
        EXPECT_TRUE(tooltipSays(name)) << name.toStdString() << ": " << QToolTip::text().toStdString();
    }
    // add 8192 sits on the DRAM roof: its tooltip, not nothing.
    RooflineView view;
    view.plot = &chart.plot();
    view.mapping = mappingOf(chart);
    const KernelResult& add = session.kernels[std::size_t(kernelIndex(session, QStringLiteral("add 8192")))];
    EXPECT_TRUE(roofHitAt(view, chart.chart()->mapFromScene(chart.mapToScene(pixelOf(chart, add)))).has_value());
    hoverAt(chart, pixelOf(chart, add));
    EXPECT_TRUE(tooltipSays(QStringLiteral("add 8192"))) << QToolTip::text().toStdString();
    EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("memory-bound")));
    hoverAt(chart, empty);
    EXPECT_TRUE(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000));
}

// The readout: intensity, performance and the roof above the cursor, with units; on a roof line, that roof's value.
TEST(RooflineInput, TheReadoutSaysWhereTheCursorIsAndWhatTheRoofAllowsThere)
{
    RooflineChart chart;
    chart.setSessions({fixtures::zen4Session()});  // fp32 avx512 x2 230 GFLOP/s over DRAM 40 GB/s
    fixtures::layoutNow(chart, QSize(1280, 800));
    // Empty plot at 0.2 FLOP/byte, 35 GFLOP/s: between the L3 (24) and L2 (50) diagonals, above DRAM's 8 GFLOP/s.
    QString text = readoutAt(chart, chart.viewportPosition({0.2, 35.0}));
    EXPECT_TRUE(text.contains(QStringLiteral("0.20 FLOP/byte"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("35 GFLOP/s"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("roof here 8.0 GFLOP/s (DRAM 40 GB/s)"))) << text.toStdString();
    // Drawn on the chart, above the plot or inside it, never off the chart.
    ASSERT_FALSE(chart.pointerLayer().texts().empty());
    for (const QRectF& r : chart.pointerLayer().textRects())
        EXPECT_TRUE(QRectF(chart.rect()).contains(r));
    fixtures::grabImage(chart).save(fixtures::outputPath(QStringLiteral("roofline_readout.png")));
    // Right of the ridge, the compute roof binds.
    text = readoutAt(chart, chart.viewportPosition({50.0, 20.0}));
    EXPECT_TRUE(text.contains(QStringLiteral("roof here 230 GFLOP/s (fp32 avx512 x2 230 GFLOP/s)")))
        << text.toStdString();
    // On the L3 diagonal (120 GB/s) at 0.1 FLOP/byte: that roof's 12 GFLOP/s.
    text = readoutAt(chart, chart.viewportPosition({0.1, 12.0}));
    EXPECT_TRUE(text.contains(QStringLiteral("roof here 12 GFLOP/s (L3 120 GB/s)"))) << text.toStdString();
    // Off the plot (over the axis labels): no readout.
    const QPointF belowPlot = chart.chart()->plotArea().bottomLeft() + QPointF(100.0, 20.0);
    hoverAt(chart, chart.mapFromScene(chart.chart()->mapToScene(belowPlot)));
    EXPECT_TRUE(QTest::qWaitFor([&] { return chart.pointerReadoutText().isEmpty(); }, 1000));
    EXPECT_TRUE(chart.pointerLayer().texts().empty());
}
