// The batching tab's frontier: output tokens/s per GPU against tokens/s per user over the batch, in the throughput
// chart's slot behind a "Throughput | Frontier" switch, the tab's batch ringed, the same numbers as
// `ridgeline model --frontier`; a key press on the batch slider moves only the ring. Driven by real clicks and keys.

#include "ui/chart/frontier_chart.h"

#include "core/model/serving/frontier.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/panels/batching_panel.h"
#include "ui/widgets/log_slider.h"

#include <QCoreApplication>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSlider>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

// A person's click on the switch's tab `index`.
void clickTab(QTabBar* bar, int index)
{
    QTest::mouseClick(bar, Qt::LeftButton, Qt::NoModifier, bar->tabRect(index).center());
    QCoreApplication::processEvents();
}

}  // namespace

TEST(UiFrontierChart, TheSwitchPutsTheFrontierInTheThroughputChartsSlot)
{
    BatchingPanel panel;
    fixtures::layoutNow(panel, QSize(1920, 1080));
    QTabBar* bar = panel.chartSwitch();
    ASSERT_TRUE(bar->isVisible());
    EXPECT_EQ(bar->currentIndex(), 0);
    EXPECT_TRUE(panel.throughputChart()->isVisible());
    EXPECT_FALSE(panel.frontierChart()->isVisible());
    const QRect slot = panel.throughputChart()->geometry();
    clickTab(bar, 1);
    fixtures::layoutNow(panel, panel.size());
    EXPECT_TRUE(panel.frontierShown());
    EXPECT_FALSE(panel.throughputChart()->isVisible());
    EXPECT_EQ(panel.frontierChart()->geometry(), slot);  // the other charts keep their places and sizes
    EXPECT_EQ(panel.rooflineChart()->y(), slot.y());
    clickTab(bar, 0);
    EXPECT_FALSE(panel.frontierShown());
    EXPECT_TRUE(panel.throughputChart()->isVisible());
}

TEST(UiFrontierChart, DrawsTheFrontierAndTheSliderMovesTheRing)
{
    BatchingPanel panel;
    panel.setModel(QStringLiteral("llama-2-7b"));
    panel.setGpu(QStringLiteral("h100-sxm"));
    fixtures::layoutNow(panel, QSize(1920, 1080));
    clickTab(panel.chartSwitch(), 1);
    fixtures::layoutNow(panel, panel.size());
    FrontierChart* chart = panel.frontierChart();
    ASSERT_TRUE(chart->data().valid) << chart->data().reason.toStdString();
    // The same frontier the command line prints for requests that fill the context slider's window (1,024 tokens of
    // it output), batch 1, 2, 4, ... to the largest that fits.
    const FrontierChartData d = chart->data();
    const std::int64_t context = panel.scenario().config.context;
    EXPECT_EQ(d.output, std::min<std::int64_t>(context / 2, 1024));
    EXPECT_EQ(d.prompt, context - d.output);
    const LlmModel model = LlmModel::create(panel.scenario().config).value();
    const std::vector<FrontierPoint> expected = servingFrontier(model, d.prompt, d.output).value();
    ASSERT_EQ(d.points.size(), expected.size());
    ASSERT_EQ(chart->frontierSeries()->count(), static_cast<int>(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(d.batches[i], expected[i].batch);
        EXPECT_DOUBLE_EQ(d.points[i].x(), expected[i].tokensPerSecondPerUser);
        EXPECT_DOUBLE_EQ(d.points[i].y(), expected[i].tokensPerSecondPerGpu);
    }
    // The tab's batch, 16, is a point of the frontier, ringed there in the highlight colour, its numbers written.
    EXPECT_EQ(panel.inputs().batch, 16);
    EXPECT_EQ(d.currentBatch, 16);
    const auto at16 = std::find(d.batches.begin(), d.batches.end(), 16);
    ASSERT_NE(at16, d.batches.end());
    const QPointF point16 = d.points[static_cast<std::size_t>(at16 - d.batches.begin())];
    EXPECT_NEAR(d.current.y(), point16.y(), 1e-9 * d.current.y());
    const QPoint ringBefore = chart->viewportPosition(d.current);
    QImage image = fixtures::grabImage(*chart);
    EXPECT_TRUE(fixtures::colorNear(image, ringBefore, chart->theme().highlight, 4));
    auto labelled = [](const QStringList& texts, std::int64_t batch) {
        const QString label = QStringLiteral("B = %1: ").arg(batch);
        return std::any_of(texts.begin(), texts.end(), [&](const QString& t) { return t.startsWith(label); });
    };
    EXPECT_TRUE(labelled(panel.visibleTexts(), 16)) << panel.visibleTexts().join(u'|').toStdString();
    EXPECT_TRUE(fixtures::truncated(fixtures::sceneTexts(chart)).isEmpty());

    // One key press on the batch slider: the ring moves up and left along the frontier; the curve stays.
    QSlider* slider = panel.batchSlider()->slider();
    fixtures::clickCentre(slider);  // takes the focus, as a person's click does, and may move the handle
    QTest::keyClick(slider, Qt::Key_Home);
    QCoreApplication::processEvents();
    const std::int64_t first = panel.inputs().batch;
    const QPointF firstPoint = chart->data().current;
    const QPoint ringFirst = chart->viewportPosition(firstPoint);
    QTest::keyClick(slider, Qt::Key_Right);
    QCoreApplication::processEvents();
    const std::int64_t next = panel.inputs().batch;
    ASSERT_GT(next, first);
    EXPECT_EQ(chart->data().currentBatch, next);
    EXPECT_EQ(chart->data().points, d.points);
    EXPECT_GT(chart->data().current.y(), firstPoint.y());  // more tokens per GPU
    EXPECT_LT(chart->data().current.x(), firstPoint.x());  // fewer per user
    EXPECT_EQ(chart->currentMarker()->count(), 1);
    const QPoint ringAfter = chart->viewportPosition(chart->data().current);
    EXPECT_LT(ringAfter.y(), ringFirst.y());  // up
    EXPECT_LT(ringAfter.x(), ringFirst.x());  // left
    image = fixtures::grabImage(*chart);
    EXPECT_TRUE(fixtures::colorNear(image, ringAfter, chart->theme().highlight, 4));
    EXPECT_TRUE(labelled(panel.visibleTexts(), next));
    EXPECT_FALSE(labelled(panel.visibleTexts(), first));
}

TEST(UiFrontierChart, SaysWhyWhenThereIsNoFrontier)
{
    BatchingPanel panel;
    panel.setModel(QStringLiteral("llama-3-70b"));
    panel.setGpu(QStringLiteral("rtx-4090"));  // 141 GB of weights on a 24 GB card
    fixtures::layoutNow(panel, QSize(1920, 1080));
    clickTab(panel.chartSwitch(), 1);
    EXPECT_FALSE(panel.frontierChart()->data().valid);
    EXPECT_EQ(panel.frontierChart()->frontierSeries()->count(), 0);
    EXPECT_FALSE(panel.frontierChart()->texts().join(u' ').isEmpty());
}

// The tab in the window at a laptop's and a slide's size, the frontier chosen: nothing cut short; PNGs to look at.
TEST(UiFrontierChart, TheTabWithTheFrontierAtLaptopAndSlideSize)
{
    for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
        MainWindow window;
        window.setSession(fixtures::zen4Session());
        window.show();
        window.tabs()->setCurrentIndex(1);
        fixtures::layoutNow(window, size);
        BatchingPanel* panel = window.batchingPanel();
        clickTab(panel->chartSwitch(), 1);
        fixtures::layoutNow(window, size);
        ASSERT_TRUE(panel->frontierChart()->isVisible());
        EXPECT_GT(panel->frontierChart()->height(), 300) << size.width();
        const QStringList texts = fixtures::sceneTexts(panel->frontierChart());
        EXPECT_TRUE(fixtures::truncated(texts).isEmpty()) << fixtures::truncated(texts).join(u'|').toStdString();
        fixtures::grabImage(window).save(
            fixtures::outputPath(QStringLiteral("batching_frontier_%1x%2.png").arg(size.width()).arg(size.height())));
    }
}
