// The 10,000-kernel benchmark of open a session that large, redraw, then zoom a notch in and out
// and redraw again, as a wheel does. The times are reported (as test properties and on stdout), never asserted: a
// shared two-core machine has no stable clock.

#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/kernel_dots.h"
#include "ui/chart/roofline_chart.h"

#include <QChart>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;
using namespace ridgeline::ui;

TEST(UiRedrawBenchmark, TenThousandKernelsOpenAndRedraw)
{
    const Session session = fixtures::manyKernelSession(10000);
    RooflineChart chart;
    fixtures::layoutNow(chart, QSize(1920, 1080));
    QElapsedTimer timer;
    timer.start();
    chart.setSessions({session});
    const qint64 setMs = timer.elapsed();
    timer.restart();
    const QImage image = fixtures::grabImage(chart);
    const qint64 redrawMs = timer.elapsed();
    EXPECT_EQ(chart.kernelPointCount(), 10000);
    EXPECT_TRUE(chart.kernelLabelRects().empty());  // too many to label: dots only
    image.save(fixtures::outputPath(QStringLiteral("ten_thousand_kernels.png")));
    // Fluid: each zoom step re-places every dot and repaints them, from their pixmap caches once the first paint made
    // them.
    timer.restart();
    constexpr int kSteps = 6;
    for (int i = 0; i < kSteps; ++i) {
        chart.chart()->zoom(i % 2 == 0 ? 1.25 : 1.0 / 1.25);
        fixtures::grabImage(chart);
    }
    const double zoomMs = static_cast<double>(timer.elapsed()) / kSteps;
    EXPECT_EQ(chart.kernelPointCount(), 10000);
    RecordProperty("set_sessions_ms", static_cast<int>(setMs));
    RecordProperty("zoom_step_ms", static_cast<int>(zoomMs));
    RecordProperty("redraw_ms", static_cast<int>(redrawMs));
    std::printf("10,000 kernels: setSessions %lld ms, first redraw %lld ms, zoom step and redraw %.1f ms\n",
                static_cast<long long>(setMs), static_cast<long long>(redrawMs), zoomMs);
}

// A group too large for Qt Charts' markers (more than kManyDots) is drawn by one item: each dot in its colour at its
// point's pixel, and a click there selects that kernel, as with the small groups' markers.
TEST(UiKernelDots, ALargeGroupsDotsSitAtTheirPixelsAndAClickSelectsOne)
{
    Session session = fixtures::zen4Session();
    session.kernels.resize(1);
    const KernelResult model = session.kernels.front();
    session.kernels.clear();
    // 30 x 20 kernels of one kind on a grid of decades, far enough apart not to overlap.
    for (int row = 0; row < 20; ++row)
        for (int column = 0; column < 30; ++column) {
            KernelResult k = model;
            k.name = QStringLiteral("k%1_%2").arg(row).arg(column);
            k.kind = QStringLiteral("add");
            k.intensity = std::pow(10.0, -1.0 + 3.0 * column / 29.0);
            k.gflops = std::pow(10.0, 2.0 * row / 19.0);
            k.seconds = 0.01;
            k.spread = {0.01, 0.01, 0.01};
            k.flops = k.gflops * 1e9 * k.seconds;
            k.bytes = k.flops / k.intensity;
            k.gbps = k.bytes / k.seconds / 1e9;
            session.kernels.push_back(k);
        }
    ASSERT_GT(session.kernels.size(), kManyDots);
    RooflineChart chart;
    chart.setSessions({session});
    fixtures::layoutNow(chart, QSize(1920, 1080));
    chart.setVisibleRange({0.05, 300.0, 0.5, 300.0});
    const QImage image = fixtures::grabImage(chart);
    EXPECT_EQ(chart.kernelPointCount(), 600);
    QSignalSpy clicked(&chart, &RooflineChart::kernelClicked);
    for (const int index : {0, 37, 311, 599}) {
        const KernelResult& k = session.kernels[static_cast<std::size_t>(index)];
        const QPoint at = chart.viewportPosition(QPointF(k.intensity, k.gflops));
        EXPECT_TRUE(fixtures::colorNear(image, at, chart.kernelColor(0, index), 2)) << index;
        QTest::mouseClick(chart.viewport(), Qt::LeftButton, {}, at);
        EXPECT_EQ(chart.selectedKernel().kernel, index);
    }
    EXPECT_EQ(clicked.size(), 4);
    image.save(fixtures::outputPath(QStringLiteral("kernel_dots_600.png")));
}
