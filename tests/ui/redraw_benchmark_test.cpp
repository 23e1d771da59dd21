// The 10,000-kernel benchmark of issue 3: open a session that large and redraw. The time is reported
// (as a test property and on stdout), never asserted: a shared two-core machine has no stable clock.

#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/roofline_chart.h"

#include <QElapsedTimer>

#include <gtest/gtest.h>

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
    RecordProperty("set_sessions_ms", static_cast<int>(setMs));
    RecordProperty("redraw_ms", static_cast<int>(redrawMs));
    std::printf("10,000 kernels: setSessions %lld ms, redraw %lld ms\n", static_cast<long long>(setMs),
                static_cast<long long>(redrawMs));
}
