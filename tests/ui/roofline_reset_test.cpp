// Reset View, by each of its three ways in (right click on the plot, Ctrl+0, the toolbar button), after a zoom by a
// real drag: every mark over the dots (labels and their leaders, error bars, the fusion arrow, the decode path, the
// selection ring) is where the reset axes put its data at once, not where the zoom had put it.

#include "core/session/format/bundled_session.h"
#include "tests/ui/ui_test_util.h"
#include "ui/chart/chart_overlay.h"
#include "ui/chart/roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/plots/roofline/roofline_plot.h"

#include <QAction>
#include <QApplication>
#include <QScreen>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

constexpr double kTolerance = 0.75;  // px: the overlays and the series go through the same mapping

bool near(QPointF a, QPointF b, double tolerance = kTolerance)
{
    return QLineF(a, b).length() <= tolerance;
}

double distanceToSegment(QPointF p, const QLineF& s)
{
    const QPointF d = s.p2() - s.p1();
    const double t = std::clamp(QPointF::dotProduct(p - s.p1(), d) / QPointF::dotProduct(d, d), 0.0, 1.0);
    return QLineF(p, s.p1() + t * d).length();
}

double distanceToRect(QPointF p, const QRectF& r)
{
    const double dx = std::max({r.left() - p.x(), 0.0, p.x() - r.right()});
    const double dy = std::max({r.top() - p.y(), 0.0, p.y() - r.bottom()});
    return std::hypot(dx, dy);
}

const KernelResult* kernelNamed(const Session& s, const QString& name)
{
    for (const KernelResult& k : s.kernels)
        if (k.name == name)
            return &k;
    return nullptr;
}

bool hasLine(const std::vector<AnnotationLine>& lines, QPointF a, QPointF b)
{
    return std::any_of(lines.begin(), lines.end(), [&](const AnnotationLine& l) {
        return (near(l.line.p1(), a) && near(l.line.p2(), b)) || (near(l.line.p1(), b) && near(l.line.p2(), a));
    });
}

// Every mark checked against Qt Charts' own mapping of its data under the current axes. Returns how many marks were
// checked, so a caller can tell the check from an empty chart.
int checkMarksFollowTheAxes(const RooflineChart& chart, KernelRef selected)
{
    const Session& s = chart.sessions().front();
    const std::vector<AnnotationLine>& under = chart.underDots().lines();
    const std::vector<AnnotationLine>& over = chart.overDots().lines();
    int checked = 0;
    // The selection ring on its dot.
    const KernelResult& picked = s.kernels[static_cast<std::size_t>(selected.kernel)];
    const QPointF pickedAt = chart.plotPosition(QPointF(picked.intensity, picked.gflops));
    const std::vector<AnnotationRing>& rings = chart.overDots().rings();
    EXPECT_TRUE(std::any_of(rings.begin(), rings.end(), [&](const AnnotationRing& r) {
        return near(r.center, pickedAt);
    })) << "selection ring";
    ++checked;
    // Error bars from the slowest to the fastest run, at the kernel's intensity (where one is drawn: a spread the dot
    // covers gets none).
    const double radius = chart.theme().markerSize / 2.0 + 1.0;
    for (const KernelResult& k : s.kernels) {
        const auto [low, high] = gflopsRange(k);
        if (low <= 0.0)
            continue;
        const QPointF bottom = chart.plotPosition(QPointF(k.intensity, low));
        const QPointF top = chart.plotPosition(QPointF(k.intensity, high));
        if (bottom.y() - top.y() <= 3.0 * radius + 1.0 || !chart.chart()->plotArea().contains(top))
            continue;
        EXPECT_TRUE(hasLine(under, bottom, top)) << "error bar of " << k.name.toStdString();
        ++checked;
    }
    // The decode path through the batch sweep, point to point.
    std::vector<const KernelResult*> decode;
    for (const KernelResult& k : s.kernels)
        if (k.kind == QLatin1String("decode") && k.batch > 0)
            decode.push_back(&k);
    std::sort(decode.begin(), decode.end(), [](auto* a, auto* b) { return a->batch < b->batch; });
    for (std::size_t i = 1; i < decode.size(); ++i) {
        EXPECT_TRUE(hasLine(under, chart.plotPosition(QPointF(decode[i - 1]->intensity, decode[i - 1]->gflops)),
                            chart.plotPosition(QPointF(decode[i]->intensity, decode[i]->gflops))))
            << "decode path to " << decode[i]->name.toStdString();
        ++checked;
    }
    // The fusion arrow: along the line from the unfused chain to the fused kernel, most of the way.
    const KernelResult* unfused = nullptr;
    const KernelResult* fused = nullptr;
    for (const KernelResult& k : s.kernels) {
        if (k.kind == QLatin1String("fusion-unfused"))
            unfused = &k;
        if (k.kind == QLatin1String("fusion-fused"))
            fused = &k;
    }
    if (unfused && fused) {
        const QLineF path(chart.plotPosition(QPointF(unfused->intensity, unfused->gflops)),
                          chart.plotPosition(QPointF(fused->intensity, fused->gflops)));
        EXPECT_TRUE(std::any_of(over.begin(), over.end(), [&](const AnnotationLine& l) {
            return distanceToSegment(l.line.p1(), path) < kTolerance &&
                   distanceToSegment(l.line.p2(), path) < kTolerance && l.line.length() > 0.5 * path.length();
        })) << "fusion arrow";
        ++checked;
    }
    // Kernel labels: beside their dot, or joined to it by a leader that starts at the dot's edge.
    const std::vector<AnnotationText>& texts = chart.overDots().texts();
    const std::vector<QRectF> boxes = chart.overDots().textRects();
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const KernelResult* k = kernelNamed(s, texts[i].text);
        if (!k)
            continue;
        const QPointF dot = chart.plotPosition(QPointF(k->intensity, k->gflops));
        const bool beside = distanceToRect(dot, boxes[i]) <= 3.0 * radius;
        const bool led = std::any_of(over.begin(), over.end(), [&](const AnnotationLine& l) {
            return QLineF(l.line.p1(), dot).length() <= radius + 3.0 && distanceToRect(l.line.p2(), boxes[i]) <= 2.0;
        });
        EXPECT_TRUE(beside || led) << "label " << k->name.toStdString();
        ++checked;
    }
    return checked;
}

struct Fixture {
    MainWindow window;
    RooflineChart* chart = nullptr;
    KernelRef selected;

    Fixture()
    {
        const Result<Session> bundled = bundledSession();
        EXPECT_TRUE(bundled.ok());
        window.setSession(bundled.value());
        fixtures::layoutNow(window, QSize(1600, 1000));
        window.activateWindow();
        EXPECT_TRUE(QTest::qWaitForWindowActive(&window));
        chart = window.chart();
        // Select a dot with a real click, then zoom with a real drag around the cheap kernels.
        const Session& s = chart->sessions().front();
        const KernelResult* add = kernelNamed(s, QStringLiteral("add 8192"));
        const QPoint at = chart->viewportPosition(QPointF(add->intensity, add->gflops));
        QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, at);
        selected = chart->selectedKernel();
        const QPoint from = chart->viewportPosition({0.05, 0.5});
        const QPoint to = chart->viewportPosition({3.0, 40.0});
        QTest::mousePress(chart->viewport(), Qt::LeftButton, {}, from);
        QTest::mouseMove(chart->viewport(), (from + to) / 2);
        QTest::mouseMove(chart->viewport(), to);
        QTest::mouseRelease(chart->viewport(), Qt::LeftButton, {}, to);
    }

    void resetAndCheck(const std::function<void()>& reset, const QString& grab)
    {
        ASSERT_GE(selected.kernel, 0);
        const PlotRange zoomed = chart->visibleRange();
        ASSERT_GT(zoomed.xMin, chart->plot().defaultRange.xMin * 1.2);  // the drag zoomed
        EXPECT_GT(checkMarksFollowTheAxes(*chart, selected), 3);        // the marks follow the zoom
        const QPointF ringZoomed = chart->overDots().rings().front().center;
        reset();
        const PlotRange now = chart->visibleRange();
        EXPECT_DOUBLE_EQ(now.xMin, chart->plot().defaultRange.xMin);
        EXPECT_DOUBLE_EQ(now.yMax, chart->plot().defaultRange.yMax);
        // At once: no event loop run, no resize.
        // Sweeps are named once, not per step: fewer labels than dots, more than a handful.
        EXPECT_GT(checkMarksFollowTheAxes(*chart, selected), 10);
        EXPECT_GT(QLineF(chart->overDots().rings().front().center, ringZoomed).length(), 20.0);
        fixtures::grabImage(window).save(fixtures::outputPath(grab));
        // What is on the screen (the window's backing store after the repaint), not a fresh render: stale marks left
        // by a missed repaint would differ from the chart drawn anew.
        QTest::qWait(50);
        const QImage screen = chart->screen()
                                  ->grabWindow(window.winId(), chart->mapTo(&window, QPoint(0, 0)).x(),
                                               chart->mapTo(&window, QPoint(0, 0)).y(), chart->width(), chart->height())
                                  .toImage()
                                  .convertToFormat(QImage::Format_RGB32);
        const QImage fresh = fixtures::grabImage(*chart);
        ASSERT_EQ(screen.size(), fresh.size());
        int differing = 0;
        for (int y = 0; y < fresh.height(); ++y)
            for (int x = 0; x < fresh.width(); ++x)
                differing += fixtures::colorDistance(screen.pixelColor(x, y), fresh.pixelColor(x, y)) > 30 ? 1 : 0;
        EXPECT_LT(differing, 20) << "pixels on screen that a fresh render of the chart does not have";
    }
};

}  // namespace

TEST(RooflineReset, ARightClickResetsTheViewAndEveryMarkFollows)
{
    Fixture f;
    f.resetAndCheck(
        [&] {
            QTest::mouseClick(f.chart->viewport(), Qt::RightButton, {}, f.chart->viewportPosition({0.5, 5.0}));
        },
        QStringLiteral("reset_right_click.png"));
}

TEST(RooflineReset, CtrlZeroResetsTheViewAndEveryMarkFollows)
{
    Fixture f;
    // The click that selected the dot gave the chart the keyboard, as it does for a user.
    ASSERT_EQ(QApplication::focusWidget(), f.chart);
    f.resetAndCheck([&] { QTest::keyClick(QApplication::focusWidget(), Qt::Key_0, Qt::ControlModifier); },
                    QStringLiteral("reset_ctrl_0.png"));
}

TEST(RooflineReset, TheToolbarButtonResetsTheViewAndEveryMarkFollows)
{
    Fixture f;
    QToolButton* button = nullptr;
    for (QToolButton* b : f.window.findChildren<QToolButton*>())
        if (b->defaultAction() && b->defaultAction()->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_0))
            button = b;
    ASSERT_NE(button, nullptr);
    f.resetAndCheck([&] { QTest::mouseClick(button, Qt::LeftButton); }, QStringLiteral("reset_toolbar.png"));
}

// Back and Forward walk the views a drag, the wheel and a reset showed, as a browser walks pages: by Alt+Left and
// Alt+Right, by the mouse's side buttons and from the View menu; a new session starts a history of its own.
TEST(RooflineHistory, AltLeftAndRightWalkBackAndForwardThroughZoomsPansAndResets)
{
    Fixture f;
    RooflineChart& chart = *f.chart;
    QAction* back = nullptr;
    for (QAction* a : f.window.findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(QKeySequence::Back))
            back = a;
    ASSERT_NE(back, nullptr);
    EXPECT_TRUE(back->isEnabled());
    const PlotRange home = chart.plot().defaultRange;
    const PlotRange dragged = chart.visibleRange();
    ASSERT_FALSE(sameView(home, dragged));
    // The wheel, up one notch over the middle of the plot.
    const QPoint middle = chart.viewport()->rect().center();
    QWheelEvent wheel(middle, chart.viewport()->mapToGlobal(middle), {}, {0, 120}, Qt::NoButton, {}, Qt::NoScrollPhase,
                      false);
    QApplication::sendEvent(chart.viewport(), &wheel);
    const PlotRange wheeled = chart.visibleRange();
    ASSERT_FALSE(sameView(wheeled, dragged));
    QTest::mouseClick(chart.viewport(), Qt::RightButton, {}, middle);  // reset
    ASSERT_TRUE(sameView(chart.visibleRange(), home));

    QWidget* focus = QApplication::focusWidget();
    ASSERT_EQ(focus, &chart);
    QTest::keyClick(focus, Qt::Key_Left, Qt::AltModifier);
    EXPECT_TRUE(sameView(chart.visibleRange(), wheeled));
    QTest::keyClick(focus, Qt::Key_Left, Qt::AltModifier);
    EXPECT_TRUE(sameView(chart.visibleRange(), dragged));
    QTest::mouseClick(chart.viewport(), Qt::BackButton, {}, middle);
    EXPECT_TRUE(sameView(chart.visibleRange(), home));
    EXPECT_FALSE(back->isEnabled()) << "nothing before the first view";
    QTest::keyClick(focus, Qt::Key_Left, Qt::AltModifier);  // refused quietly: the view stays
    EXPECT_TRUE(sameView(chart.visibleRange(), home));
    QTest::keyClick(focus, Qt::Key_Right, Qt::AltModifier);
    EXPECT_TRUE(sameView(chart.visibleRange(), dragged));
    QTest::mouseClick(chart.viewport(), Qt::ForwardButton, {}, middle);
    EXPECT_TRUE(sameView(chart.visibleRange(), wheeled));
    // A new zoom after going back drops the views ahead of it.
    QTest::keyClick(focus, Qt::Key_Left, Qt::AltModifier);
    QTest::keyClick(focus, Qt::Key_Plus);
    EXPECT_FALSE(chart.canZoomForward());
    EXPECT_TRUE(chart.canZoomBack());

    f.window.setSession(bundledSession().value());
    EXPECT_FALSE(chart.canZoomBack()) << "a new session starts afresh";
    EXPECT_FALSE(back->isEnabled());
}

// A run of wheel notches at one spot is one visit: Back returns to the view before the run. A notch elsewhere, or
// after Back, starts a visit of its own.
TEST(RooflineHistory, ARunOfWheelNotchesAtOneSpotIsOneVisit)
{
    Fixture f;
    RooflineChart& chart = *f.chart;
    const auto notch = [&chart](QPoint at) {
        QWheelEvent wheel(at, chart.viewport()->mapToGlobal(at), {}, {0, 120}, Qt::NoButton, {}, Qt::NoScrollPhase,
                          false);
        QApplication::sendEvent(chart.viewport(), &wheel);
    };
    const QPoint middle = chart.viewport()->rect().center();
    const PlotRange start = chart.visibleRange();
    for (int i = 0; i < 4; ++i)
        notch(middle);
    const PlotRange fourNotches = chart.visibleRange();
    ASSERT_FALSE(sameView(fourNotches, start));
    chart.zoomBack();
    EXPECT_TRUE(sameView(chart.visibleRange(), start)) << "one Back undoes the whole run";
    chart.zoomForward();
    EXPECT_TRUE(sameView(chart.visibleRange(), fourNotches));

    // Two runs at two spots: two visits.
    notch(middle + QPoint(60, 0));
    notch(middle + QPoint(60, 0));
    const PlotRange secondRun = chart.visibleRange();
    notch(middle - QPoint(60, 0));
    ASSERT_FALSE(sameView(chart.visibleRange(), secondRun));
    chart.zoomBack();
    EXPECT_TRUE(sameView(chart.visibleRange(), secondRun));
    chart.zoomBack();
    EXPECT_TRUE(sameView(chart.visibleRange(), fourNotches));
}
