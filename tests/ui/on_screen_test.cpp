// What reaches the screen, read back from the window system rather than rendered afresh: under a real X server
// (the xvfb pass) a view repaints parts of itself, and what the charts cache (their curves' pixmaps) must not keep
// what an earlier plot area or axis range drew.

#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/panels/batching_panel.h"

#include <QLineSeries>
#include <QPen>
#include <QScreen>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

// The window as the screen shows it, in the window's own pixels.
QImage onScreen(QWidget& window)
{
    return window.screen()->grabWindow(window.winId()).toImage().convertToFormat(QImage::Format_RGB32);
}

bool nearColour(QRgb pixel, const QColor& colour)
{
    return std::abs(qRed(pixel) - colour.red()) + std::abs(qGreen(pixel) - colour.green()) +
               std::abs(qBlue(pixel) - colour.blue()) <
           60;
}

// Whether the column of pixels at `at` (window pixels), `reach` above and below, holds `colour`.
bool colourNear(const QImage& image, QPoint at, int reach, const QColor& colour)
{
    for (int dy = -reach; dy <= reach; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const QPoint p = at + QPoint(dx, dy);
            if (image.rect().contains(p) && nearColour(image.pixel(p), colour))
                return true;
        }
    return false;
}

}  // namespace

// The batching tab opened after the window was laid out and then made bigger, as a person does: on screen the GPU's
// roof left of its ridge is the sloped line, and no flat piece of the roof drawn for the earlier plot stays there
// (under X, the flat roof of the first layout stood between intensity 1 and 12).
TEST(UiOnScreen, TheGpuRooflineOnScreenIsTheRoofOfItsPlotNow)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    fixtures::layoutNow(window, QSize(1200, 800));
    window.tabs()->setCurrentIndex(1);
    QTest::qWait(300);
    fixtures::layoutNow(window, QSize(1600, 1000));
    QTest::qWait(500);

    const DecodeRooflineChart* chart = window.batchingPanel()->rooflineChart();
    ASSERT_TRUE(chart->hasData());
    const double peak = chart->data().effective.peakGflops / 1e3;  // TFLOP/s
    const double bandwidth = chart->data().effective.bandwidthGbps / 1e3;
    const QImage screen = onScreen(window);
    const auto at = [&](double intensity, double tflops) {
        return chart->viewport()->mapTo(&window, chart->viewportPosition(QPointF(intensity, tflops)));
    };
    const QColor roofColour = chart->roofSeries()->pen().color();
    // Where the labels leave the slope in sight (the current step's ring and label sit on it from 3 to 100).
    for (const double intensity : {0.2, 0.5, 150.0}) {
        ASSERT_LT(intensity * bandwidth, peak) << "the roof is sloped here";
        EXPECT_TRUE(colourNear(screen, at(intensity, intensity * bandwidth), 3, roofColour))
            << "the sloped roof at " << intensity << " FLOP/byte";
    }
    for (const double intensity : {2.0, 5.0, 10.0})
        EXPECT_FALSE(colourNear(screen, at(intensity, peak), 2, roofColour))
            << "a flat roof at " << intensity << " FLOP/byte";
    screen.save(fixtures::outputPath(QStringLiteral("on_screen_batching.png")));
}
