// The roofline chart from the keyboard, by real key presses on the focused chart: N and P (and Tab and Shift+Tab once a
// kernel is selected) walk the kernels in view by intensity, then performance, selecting each as a click on its dot
// does; Enter explains again, Escape clears; Tab never traps the focus; the accessible description names the
// selected kernel; the F1 list names the keys.

#include "core/session/format/bundled_session.h"
#include "tests/ui/modal_util.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/chart_overlay.h"
#include "ui/chart/roofline_chart.h"
#include "ui/kernel_dock.h"
#include "ui/mainwindow.h"

#include <QDockWidget>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <QVBoxLayout>

#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

// The kernels whose dots lie in the chart's view, by intensity then performance: the order the keys promise, worked
// out from the session's own numbers.
std::vector<int> kernelsInViewByIntensity(const RooflineChart& chart, const Session& session)
{
    const PlotRange range = chart.visibleRange();
    std::vector<int> kernels;
    for (int k = 0; k < static_cast<int>(session.kernels.size()); ++k) {
        const KernelResult& kernel = session.kernels[static_cast<std::size_t>(k)];
        if (kernel.intensity >= range.xMin && kernel.intensity <= range.xMax && kernel.gflops >= range.yMin &&
            kernel.gflops <= range.yMax)
            kernels.push_back(k);
    }
    std::sort(kernels.begin(), kernels.end(), [&](int a, int b) {
        const KernelResult& ka = session.kernels[static_cast<std::size_t>(a)];
        const KernelResult& kb = session.kernels[static_cast<std::size_t>(b)];
        return std::tuple(ka.intensity, ka.gflops, a) < std::tuple(kb.intensity, kb.gflops, b);
    });
    return kernels;
}

// A line edit, the chart and another line edit, in that focus order: the chart's neighbours.
struct ChartBetweenFields {
    QWidget window;
    QLineEdit* before = new QLineEdit(&window);
    RooflineChart* chart = new RooflineChart(&window);
    QLineEdit* after = new QLineEdit(&window);
    explicit ChartBetweenFields(const Session& session)
    {
        auto* column = new QVBoxLayout(&window);
        column->addWidget(before);
        column->addWidget(chart, 1);
        column->addWidget(after);
        chart->setSessions({session});
        fixtures::layoutNow(window, QSize(1280, 860));
        // Focus goes to widgets of the active window only: under a real X server it takes a moment to become so.
        window.activateWindow();
        if (!QTest::qWaitForWindowActive(&window))
            ADD_FAILURE() << "the window never became active";
        before->setFocus(Qt::OtherFocusReason);
    }
};

QPointF ringCentreInViewport(const RooflineChart& chart)
{
    return chart.mapFromScene(chart.chart()->mapToScene(chart.overDots().rings().front().center));
}

}  // namespace

TEST(RooflineKeys, NAndPWalkTheKernelsByIntensityAsClicksDoAndEscapeClears)
{
    const Session session = fixtures::zen4Session();
    ChartBetweenFields f(session);
    RooflineChart& chart = *f.chart;
    QTest::keyClick(f.before, Qt::Key_Tab);
    ASSERT_TRUE(chart.hasFocus());  // the chart is on the Tab chain
    const std::vector<int> order = kernelsInViewByIntensity(chart, session);
    ASSERT_GE(order.size(), 4u);
    QSignalSpy clicked(&chart, &RooflineChart::kernelClicked);

    for (std::size_t i = 0; i < order.size(); ++i) {
        QTest::keyClick(&chart, Qt::Key_N);
        ASSERT_EQ(clicked.size(), static_cast<qsizetype>(i + 1));
        const KernelRef expected{0, order[i]};
        EXPECT_EQ(chart.selectedKernel(), expected) << i;
        EXPECT_EQ(clicked.last().at(1).toInt(), order[i]);
        // The ring sits on the dot, and the dot's name is drawn.
        const KernelResult& kernel = session.kernels[static_cast<std::size_t>(order[i])];
        ASSERT_EQ(chart.overDots().rings().size(), 1u);
        const QPoint dot = chart.viewportPosition({kernel.intensity, kernel.gflops});
        EXPECT_LT(QLineF(ringCentreInViewport(chart), dot).length(), 1.5) << kernel.name.toStdString();
        EXPECT_TRUE(chart.visibleLabels().contains(kernel.name))
            << kernel.name.toStdString() << ": " << chart.visibleLabels().join(u'|').toStdString();
        // A screen reader hears which kernel, where it is in the walk, and its numbers.
        EXPECT_TRUE(chart.accessibleDescription().startsWith(
            QStringLiteral("Selected kernel %1 of %2 in view: %3").arg(i + 1).arg(order.size()).arg(kernel.name)))
            << chart.accessibleDescription().toStdString();
    }
    // Past the last, N comes round to the first; P goes back to the last.
    QTest::keyClick(&chart, Qt::Key_N);
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, order.front()}));
    QTest::keyClick(&chart, Qt::Key_P);
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, order.back()}));
    // The focus ring, in the highlight colour along the chart's edge, shows where the keys go.
    EXPECT_TRUE(chart.showsKeyFocus());
    const QImage picture = fixtures::grabImage(chart);
    const QPoint edge = chart.viewport()->mapTo(&chart, QPoint(1, chart.viewport()->height() / 2));
    EXPECT_TRUE(fixtures::colorNear(picture, edge, chart.palette().color(QPalette::Highlight), 1, 30));
    picture.save(fixtures::outputPath(QStringLiteral("roofline_key_select.png")));

    // Enter asks for the explanation again; Escape clears the ring, and a second Escape is not the chart's.
    const qsizetype before = clicked.size();
    QTest::keyClick(&chart, Qt::Key_Return);
    ASSERT_EQ(clicked.size(), before + 1);
    EXPECT_EQ(clicked.last().at(1).toInt(), order.back());
    QTest::keyClick(&chart, Qt::Key_Escape);
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{-1, -1}));
    EXPECT_TRUE(chart.overDots().rings().empty());
    EXPECT_FALSE(chart.accessibleDescription().startsWith(QStringLiteral("Selected")));
    EXPECT_EQ(clicked.size(), before + 1);
}

TEST(RooflineKeys, TabWalksOnlyOnceAKernelIsSelectedAndLeavesPastTheLast)
{
    const Session session = fixtures::zen4Session();
    ChartBetweenFields f(session);
    RooflineChart& chart = *f.chart;
    const std::vector<int> order = kernelsInViewByIntensity(chart, session);
    ASSERT_GE(order.size(), 3u);
    // Nothing selected: Tab passes through the chart, Shift+Tab comes back to it.
    QTest::keyClick(f.before, Qt::Key_Tab);
    ASSERT_TRUE(chart.hasFocus());
    QTest::keyClick(&chart, Qt::Key_Tab);
    EXPECT_TRUE(f.after->hasFocus());
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{-1, -1}));
    QTest::keyClick(f.after, Qt::Key_Backtab, Qt::ShiftModifier);
    ASSERT_TRUE(chart.hasFocus());

    // N selects the first; then Tab and Shift+Tab step as N and P do.
    QTest::keyClick(&chart, Qt::Key_N);
    QTest::keyClick(&chart, Qt::Key_Tab);
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, order[1]}));
    QTest::keyClick(&chart, Qt::Key_Tab);
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, order[2]}));
    QTest::keyClick(&chart, Qt::Key_Backtab, Qt::ShiftModifier);
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, order[1]}));
    EXPECT_TRUE(chart.hasFocus());
    // Shift+Tab before the first goes back to the field before; Tab past the last to the field after.
    QTest::keyClick(&chart, Qt::Key_Backtab, Qt::ShiftModifier);
    QTest::keyClick(&chart, Qt::Key_Backtab, Qt::ShiftModifier);
    EXPECT_TRUE(f.before->hasFocus());
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, order[0]}));
    QTest::keyClick(f.before, Qt::Key_Tab);
    for (std::size_t i = 1; i < order.size(); ++i)
        QTest::keyClick(&chart, Qt::Key_Tab);
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, order.back()}));
    EXPECT_TRUE(chart.hasFocus());
    QTest::keyClick(&chart, Qt::Key_Tab);
    EXPECT_TRUE(f.after->hasFocus());
}

// Zoomed in (a real drag), the walk keeps to the dots in view.
TEST(RooflineKeys, ZoomedInTheWalkKeepsToTheDotsInView)
{
    const Session session = fixtures::zen4Session();
    ChartBetweenFields f(session);
    RooflineChart& chart = *f.chart;
    const QPoint from = chart.viewportPosition({0.05, 2.0});
    const QPoint to = chart.viewportPosition({2.0, 400.0});
    QTest::mousePress(chart.viewport(), Qt::LeftButton, {}, from);
    for (int step = 1; step <= 4; ++step)
        QTest::mouseMove(chart.viewport(), from + (to - from) * step / 4);
    QTest::mouseRelease(chart.viewport(), Qt::LeftButton, {}, to);
    EXPECT_FALSE(chart.showsKeyFocus());  // the mouse was used last: no focus ring
    const std::vector<int> inView = kernelsInViewByIntensity(chart, session);
    ASSERT_GE(inView.size(), 2u);
    ASSERT_LT(inView.size(), session.kernels.size())
        << chart.visibleRange().xMin << " " << chart.visibleRange().xMax << " " << chart.visibleRange().yMin << " "
        << chart.visibleRange().yMax;
    std::vector<int> walked;
    for (std::size_t i = 0; i < inView.size(); ++i) {
        QTest::keyClick(&chart, Qt::Key_N);
        walked.push_back(chart.selectedKernel().kernel);
    }
    EXPECT_EQ(walked, inView);
    EXPECT_TRUE(chart.showsKeyFocus());
    QTest::keyClick(&chart, Qt::Key_N);
    EXPECT_EQ(chart.selectedKernel().kernel, inView.front());
}

// In the window: a key selects as a click does, so "Explain this point" and the kernel table follow; Enter brings
// back a closed explanation; F1 lists the keys.
TEST(RooflineKeys, InTheWindowAKeyExplainsThePointAndTheTableFollows)
{
    const Result<Session> loaded = bundledSession();
    ASSERT_TRUE(loaded.ok());
    MainWindow window;
    window.setSession(loaded.value());
    fixtures::layoutNow(window, QSize(1600, 1000));
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    RooflineChart& chart = *window.chart();
    const Session& session = chart.sessions().front();
    const std::vector<int> order = kernelsInViewByIntensity(chart, session);
    ASSERT_GE(order.size(), 3u);
    // From the tab bar above it, Tab reaches the chart.
    window.tabs()->tabBar()->setFocus(Qt::TabFocusReason);
    QTest::keyClick(window.tabs()->tabBar(), Qt::Key_Tab);
    ASSERT_TRUE(chart.hasFocus()) << (QApplication::focusWidget()
                                          ? QApplication::focusWidget()->metaObject()->className()
                                          : "nothing");
    QTest::keyClick(&chart, Qt::Key_N);
    QTest::keyClick(&chart, Qt::Key_Tab);
    const KernelResult& second = session.kernels[static_cast<std::size_t>(order[1])];
    EXPECT_TRUE(window.explanationHtml().contains(second.name.toHtmlEscaped())) << second.name.toStdString();
    const QTableView* table = window.kernelDock()->view();
    ASSERT_TRUE(table->currentIndex().isValid());
    EXPECT_EQ(window.kernelDock()->proxy()->mapToSource(table->currentIndex()).row(), order[1]);
    EXPECT_TRUE(chart.hasFocus());  // the table follows without taking the focus
    EXPECT_EQ(chart.selectedKernel(), (KernelRef{0, order[1]}));

    auto* explain = window.findChild<QDockWidget*>(QStringLiteral("ExplainDock"));
    ASSERT_NE(explain, nullptr);
    explain->close();
    ASSERT_FALSE(explain->isVisible());
    QTest::keyClick(&chart, Qt::Key_Return);
    EXPECT_TRUE(explain->isVisible());
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("window_key_select.png")));

    const std::shared_ptr<fixtures::ModalSeen> list = fixtures::clickWhenAsked(QMessageBox::Close);
    QTest::keyClick(&window, Qt::Key_F1);
    ASSERT_TRUE(QTest::qWaitFor([&] { return list->seen; }, 5000));
    EXPECT_TRUE(list->text.contains(QStringLiteral("N / P"))) << list->text.toStdString();
    EXPECT_TRUE(list->text.contains(QStringLiteral("Tab / Shift+Tab"))) << list->text.toStdString();
    EXPECT_TRUE(list->text.contains(QStringLiteral("Clear the chart's selection"))) << list->text.toStdString();
}
