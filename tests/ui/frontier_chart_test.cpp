// The batching tab's frontier: output tokens/s per GPU against tokens/s per user over the batch, in the throughput
// chart's slot behind a "Throughput | Frontier" switch, the tab's batch ringed, the same numbers as
// `ridgeline model --frontier`; a key press on the batch slider moves only the ring. Driven by real clicks and keys.

#include "ui/chart/frontier_chart.h"

#include "core/model/serving/frontier.h"
#include "core/model/units.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/batching_tab_support.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/panels/batching_panel.h"
#include "ui/panels/frontier_controls.h"
#include "ui/widgets/log_slider.h"

#include <QAreaSeries>
#include <QComboBox>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonObject>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSlider>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

// Click into a line edit, select all, type, Return: what a person does to enter a value.
void typeInto(QLineEdit* edit, const QString& text)
{
    QTest::mouseClick(edit, Qt::LeftButton, Qt::NoModifier, edit->rect().center());
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
    QCoreApplication::processEvents();
}

// The mean colour of the 7 x 7 pixels around `at`.
QColor meanColor(const QImage& image, QPoint at)
{
    double r = 0, g = 0, b = 0;
    int n = 0;
    for (int dy = -3; dy <= 3; ++dy)
        for (int dx = -3; dx <= 3; ++dx) {
            const QColor c = image.pixelColor(at + QPoint(dx, dy));
            r += c.red();
            g += c.green();
            b += c.blue();
            ++n;
        }
    return QColor(int(r / n), int(g / n), int(b / n));
}

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

// The Engine combo chooses the scheduler the frontier runs, as `--engine` does on the command line: short requests
// (a 256-token context: 128 in, 128 out) on an H100 stop at vLLM's 128 running and go on under TensorRT-LLM's 2,048,
// and each curve is the command line's point for point; the header's detail line names the scheduler. Chosen by keys
// and by the mouse.
TEST(UiFrontierChart, TheEngineChosenInTheComboRunsItsSchedulerAsTheCommandLineDoes)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    BatchingPanel& panel = *tab.panel;
    ASSERT_TRUE(
        fixtures::chooseByKeys(fixtures::control<QComboBox>(panel, "batchingModel"), QStringLiteral("llama-3.1-8b")));
    ASSERT_TRUE(fixtures::chooseByKeys(fixtures::control<QComboBox>(panel, "batchingGpu"), QStringLiteral("h100-sxm")));
    fixtures::typeInto(panel.contextSlider()->spinBox(), QStringLiteral("256"));
    tab.settle();
    ASSERT_EQ(panel.inputs().context, 256);
    clickTab(panel.chartSwitch(), 1);
    tab.settle();
    const FrontierChart* chart = panel.frontierChart();
    const auto expectCli = [&](const char* engine) {
        const FrontierChartData& d = chart->data();
        EXPECT_TRUE(d.valid) << d.reason.toStdString();
        EXPECT_EQ(d.prompt, 128);
        EXPECT_EQ(d.output, 128);
        const QJsonArray points =
            fixtures::cliModelJson(test::cliArgs("--model llama-3.1-8b --gpu h100-sxm --frontier --prompt 128 "
                                                 "--output 128 --engine") +
                                   QStringList{QLatin1String(engine)})
                .value(u"frontier")
                .toArray();
        EXPECT_EQ(static_cast<qsizetype>(d.points.size()), points.size()) << engine;
        for (qsizetype i = 0; i < std::min(points.size(), static_cast<qsizetype>(d.points.size())); ++i) {
            const QJsonObject p = points[i].toObject();
            const auto at = static_cast<std::size_t>(i);
            EXPECT_EQ(d.batches[at], p.value(u"batch").toInteger()) << engine;
            EXPECT_NEAR(d.points[at].y(), p.value(u"tokens_per_s_per_gpu").toDouble(), 1e-9 * d.points[at].y());
            EXPECT_NEAR(d.points[at].x(), p.value(u"tokens_per_s_per_user").toDouble(), 1e-9 * d.points[at].x());
        }
        return d.batches.empty() ? std::int64_t{0} : d.batches.back();
    };
    QComboBox* engine = fixtures::control<QComboBox>(panel, "batchingEngine");
    ASSERT_TRUE(fixtures::chooseByKeys(engine, QStringLiteral("vllm")));
    tab.settle();
    EXPECT_EQ(expectCli("vllm"), 128);
    EXPECT_TRUE(
        panel.detailText().contains(QStringLiteral("vLLM's default scheduler: up to 128 running, 2,048 tokens a step")))
        << panel.detailText().toStdString();
    const double vllmMost = chart->data().points.back().y();

    ASSERT_TRUE(fixtures::chooseByMouse(engine, QStringLiteral("tensorrt-llm")));
    tab.settle();
    EXPECT_EQ(panel.inputs().engine, QStringLiteral("tensorrt-llm"));
    EXPECT_GT(expectCli("tensorrt-llm"), 1024);
    EXPECT_GT(chart->data().points.back().y(), 1.5 * vllmMost);
    EXPECT_TRUE(panel.detailText().contains(
        QStringLiteral("TensorRT-LLM's scheduler: up to 2,048 running, 8,192 tokens a step, KV 90 %")))
        << panel.detailText().toStdString();
    EXPECT_TRUE(fixtures::truncated(fixtures::sceneTexts(chart)).isEmpty());
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_frontier_tensorrt_llm.png")));
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

// Targets typed below what one request alone reaches are refused with that minimum, the core's own message; the
// settings, the fields and the chart stay as they were.
TEST(UiFrontierChart, ATargetBelowThePhysicalMinimumIsRefusedWithTheMinimum)
{
    BatchingPanel panel;
    fixtures::layoutNow(panel, QSize(1920, 1080));
    FrontierControls* controls = panel.frontierControls();
    EXPECT_FALSE(controls->isVisible());  // only beside the frontier
    clickTab(panel.chartSwitch(), 1);
    fixtures::layoutNow(panel, panel.size());
    ASSERT_TRUE(controls->isVisible());
    const FrontierChartData before = panel.frontierChart()->data();
    ASSERT_TRUE(before.valid);
    const std::vector<FrontierPoint> alone =
        servingFrontier(LlmModel::create(panel.scenario().config).value(), before.prompt, before.output).value();
    const double minimumTtft = alone.front().latency.ttftSeconds;

    typeInto(controls->ttftField(), QString::number(0.5 * minimumTtft * 1e3));
    EXPECT_TRUE(
        controls->status().contains(QStringLiteral("below the physical minimum: %1").arg(formatSeconds(minimumTtft))))
        << controls->status().toStdString();
    EXPECT_FALSE(controls->settings().targets.ttftSeconds);
    EXPECT_TRUE(controls->ttftField()->text().isEmpty());
    EXPECT_FALSE(panel.frontierChart()->data().hasTargets());

    typeInto(controls->itlField(), QStringLiteral("fast"));
    EXPECT_TRUE(controls->status().contains(QStringLiteral("milliseconds"))) << controls->status().toStdString();
    EXPECT_FALSE(controls->settings().targets.itlSeconds);
    typeInto(controls->priceField(), QStringLiteral("-2"));
    EXPECT_TRUE(controls->status().contains(QStringLiteral("price"))) << controls->status().toStdString();
    EXPECT_FALSE(controls->settings().gpuHourPrice);
    EXPECT_FALSE(panel.frontierChart()->data().settings.gpuHourPrice);
}

// Targets and a price typed in: the points within both drawn in their own colour, the region slower than the ITL
// target shaded, the best point named with its cost, the tab's batch costed; the PNG to look at.
TEST(UiFrontierChart, TypedTargetsMarkThePointsShadeTheSlowSideAndNameTheBest)
{
    BatchingPanel panel;  // Llama 2 7B on an H100 at 8,192 tokens: batch 1 to 16, the tab's batch 16
    fixtures::layoutNow(panel, QSize(1920, 1080));
    clickTab(panel.chartSwitch(), 1);
    fixtures::layoutNow(panel, panel.size());
    FrontierChart* chart = panel.frontierChart();
    const FrontierChartData plain = chart->data();
    ASSERT_TRUE(plain.valid);
    ASSERT_EQ(plain.batches.back(), 16);
    ASSERT_EQ(panel.inputs().batch, 16);
    const double itl8 = 1.0 / plain.points[3].x();  // batch 8
    FrontierControls* controls = panel.frontierControls();
    typeInto(controls->itlField(), QString::number(itl8 * 1e3 * 1.001, 'g', 8));
    typeInto(controls->ttftField(), QStringLiteral("10000"));
    typeInto(controls->priceField(), QStringLiteral("2.5"));
    EXPECT_TRUE(controls->status().isEmpty()) << controls->status().toStdString();
    fixtures::layoutNow(panel, panel.size());
    const FrontierChartData d = chart->data();
    ASSERT_TRUE(d.valid);
    EXPECT_DOUBLE_EQ(*d.settings.targets.ttftSeconds, 10.0);
    EXPECT_DOUBLE_EQ(*d.settings.gpuHourPrice, 2.5);

    const std::vector<FrontierPoint> expected =
        servingFrontier(LlmModel::create(panel.scenario().config).value(), d.prompt, d.output, {}, d.settings.targets)
            .value();
    const auto meeting =
        std::count_if(expected.begin(), expected.end(), [](const FrontierPoint& p) { return p.meetsTargets(); });
    EXPECT_EQ(meeting, 4);  // batches 1 to 8
    EXPECT_EQ(chart->meetingSeries()->count(), meeting);
    const QImage image = fixtures::grabImage(*chart);
    const QPoint best = chart->viewportPosition(d.points[3]);
    EXPECT_TRUE(fixtures::colorNear(image, best, chart->theme().improvement, 3));
    // The slow side is tinted towards the warning colour; the fast side is the plot's own background.
    ASSERT_TRUE(chart->itlShade()->isVisible());
    const QPoint edge = chart->viewportPosition(QPointF(1.0 / *d.settings.targets.itlSeconds, d.points[0].y()));
    const QRectF plot = chart->plotRect();
    const int y = static_cast<int>(plot.top() + 0.55 * plot.height());
    const QColor slow = meanColor(image, QPoint(edge.x() - 25, y));
    const QColor fast = meanColor(image, QPoint(edge.x() + 25, y));
    EXPECT_GT(slow.red() - slow.green(), fast.red() - fast.green() + 5)
        << slow.name().toStdString() << " " << fast.name().toStdString();

    const GpuPower power = gpuPower({}, panel.scenario().config.gpu);
    const QString texts = panel.visibleTexts().join(u'|');
    EXPECT_TRUE(
        texts.contains(QStringLiteral("B = 8, best within the targets: %1 / M out")
                           .arg(formatDollars(*frontierPointCost(expected[3], 1, 2.5, power).perMillionOutput))))
        << texts.toStdString();
    EXPECT_TRUE(
        texts.contains(QStringLiteral("%1 per million output tokens, misses the ITL target")
                           .arg(formatDollars(*frontierPointCost(expected.back(), 1, 2.5, power).perMillionOutput))))
        << texts.toStdString();
    EXPECT_TRUE(fixtures::truncated(fixtures::sceneTexts(chart)).isEmpty());
    fixtures::grabImage(panel).save(fixtures::outputPath(QStringLiteral("batching_frontier_targets_1920x1080.png")));
    // On a laptop (the charts stacked, each the panel's width): every word inside the plot or in the price's note
    // under the axes, none over another.
    fixtures::layoutNow(panel, QSize(1280, 800));
    const std::vector<QRectF> boxes = chart->textRects();
    const QRectF note = chart->noteRect();
    EXPECT_GT(note.top(), chart->plotRect().bottom());
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        EXPECT_TRUE(chart->plotRect().contains(boxes[i]) || note.contains(boxes[i])) << i;
        for (std::size_t j = 0; j < i; ++j)
            EXPECT_FALSE(boxes[i].intersects(boxes[j])) << i << " over " << j;
    }
    fixtures::grabImage(*chart).save(fixtures::outputPath(QStringLiteral("batching_frontier_targets_1280x800.png")));
}

// A click on a frontier point is a move of the batch slider: the tab takes that batch, every chart follows, the ring
// goes to the point clicked.
TEST(UiFrontierChart, AClickOnAFrontierPointSetsTheBatchSlider)
{
    BatchingPanel panel;
    fixtures::layoutNow(panel, QSize(1920, 1080));
    clickTab(panel.chartSwitch(), 1);
    fixtures::layoutNow(panel, panel.size());
    FrontierChart* chart = panel.frontierChart();
    const FrontierChartData d = chart->data();
    ASSERT_TRUE(d.valid);
    ASSERT_EQ(panel.inputs().batch, 16);
    const std::size_t four = 2;
    ASSERT_EQ(d.batches[four], 4);
    const QPoint at = chart->viewportPosition(d.points[four]);
    QTest::mouseClick(chart->viewport(), Qt::LeftButton, Qt::NoModifier, at + QPoint(3, -2));
    QCoreApplication::processEvents();
    EXPECT_EQ(panel.inputs().batch, 4);
    EXPECT_EQ(panel.batchSlider()->value(), 4);
    EXPECT_EQ(panel.scenario().config.batch, 4);  // the roofline, the memory bar and the texts follow the tab's batch
    EXPECT_EQ(chart->data().currentBatch, 4);
    const QImage image = fixtures::grabImage(*chart);
    EXPECT_TRUE(
        fixtures::colorNear(image, chart->viewportPosition(chart->data().current), chart->theme().highlight, 4));
    // Away from every point a click changes nothing.
    const QRectF plot = chart->plotRect();
    QTest::mouseClick(chart->viewport(), Qt::LeftButton, Qt::NoModifier,
                      QPoint(static_cast<int>(plot.left() + 20), static_cast<int>(plot.bottom() - 20)));
    EXPECT_EQ(panel.inputs().batch, 4);
}

// The price box starts from the chosen GPU's catalog price and says where it comes from, following the GPU chosen
// with the keyboard; a price typed in overrides it on every GPU, and emptying the box goes back to the catalog's.
TEST(UiFrontierChart, ThePriceBoxStartsFromTheGpusCatalogPriceAndATypedOneOverridesIt)
{
    BatchingPanel panel;  // Llama 2 7B on an H100 SXM: Lambda's example price
    fixtures::layoutNow(panel, QSize(1920, 1080));
    clickTab(panel.chartSwitch(), 1);
    fixtures::layoutNow(panel, panel.size());
    FrontierControls* controls = panel.frontierControls();
    QComboBox* gpu = fixtures::control<QComboBox>(panel, "batchingGpu");
    EXPECT_EQ(controls->priceField()->text(), QStringLiteral("3.99"));
    EXPECT_EQ(controls->priceSource(), QStringLiteral("Example price, Lambda 2026-09-20: type yours to override"));
    EXPECT_FALSE(controls->settings().gpuHourPrice);
    EXPECT_TRUE(panel.visibleTexts().join(u'|').contains(
        QStringLiteral("Costs at $3.99 per GPU-hour, example price, Lambda 2026-09-20")));
    fixtures::grabImage(panel).save(fixtures::outputPath(QStringLiteral("batching_frontier_example_price.png")));

    ASSERT_TRUE(fixtures::chooseByKeys(gpu, QStringLiteral("l40s")));
    EXPECT_EQ(controls->priceField()->text(), QStringLiteral("2.25"));
    EXPECT_TRUE(controls->priceSource().startsWith(QLatin1String("Example price, CoreWeave 2026-09-20")))
        << controls->priceSource().toStdString();
    EXPECT_DOUBLE_EQ(*panel.frontierChart()->data().price.gpuHourPrice, 2.25);
    ASSERT_TRUE(fixtures::chooseByKeys(gpu, QStringLiteral("rtx-4090")));  // no citable page: no price
    EXPECT_TRUE(controls->priceField()->text().isEmpty());
    EXPECT_TRUE(controls->priceSource().startsWith(QLatin1String("No price for this GPU")))
        << controls->priceSource().toStdString();
    EXPECT_TRUE(panel.frontierChart()->data().costPerMillionOutput.empty());

    typeInto(controls->priceField(), QStringLiteral("5"));
    EXPECT_DOUBLE_EQ(*controls->settings().gpuHourPrice, 5.0);
    EXPECT_EQ(controls->priceSource(), QStringLiteral("Typed here"));
    ASSERT_TRUE(fixtures::chooseByKeys(gpu, QStringLiteral("h100-sxm")));  // the typed price stays
    EXPECT_EQ(controls->priceField()->text(), QStringLiteral("5"));
    EXPECT_EQ(controls->priceSource(), QStringLiteral("Typed here, over the GPU's $3.99 per GPU-hour, example price, "
                                                      "Lambda 2026-09-20: empty the field for it"));
    const FrontierChartData typed = panel.frontierChart()->data();
    EXPECT_DOUBLE_EQ(*typed.price.gpuHourPrice, 5.0);
    EXPECT_EQ(typed.price.priceSource, PriceSource::Given);

    // Emptied: the catalog's price again, in the box and on the chart.
    QLineEdit* price = controls->priceField();
    QTest::mouseClick(price, Qt::LeftButton, Qt::NoModifier, price->rect().center());
    QTest::keyClick(price, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(price, Qt::Key_Backspace);
    QTest::keyClick(price, Qt::Key_Return);
    EXPECT_FALSE(controls->settings().gpuHourPrice);
    EXPECT_EQ(price->text(), QStringLiteral("3.99"));
    EXPECT_EQ(panel.frontierChart()->data().price.priceSource, PriceSource::Example);
    EXPECT_TRUE(controls->status().isEmpty()) << controls->status().toStdString();
}

// The price the points are costed at, with where it comes from, is said whole under the axes in the window at every
// size (it was cut at the plot's edge in the narrow chart of 1600 x 1000), and the plot's own words stay off it.
TEST(UiFrontierChart, ThePriceIsSaidWholeUnderTheAxesAtEverySize)
{
    for (const QSize size : {QSize(1280, 800), QSize(1600, 1000), QSize(1920, 1080)}) {
        fixtures::BatchingWindow tab(size, fixtures::zen4Session());  // Llama 2 7B on an H100 SXM: Lambda's price
        clickTab(tab.panel->chartSwitch(), 1);
        tab.settle();
        const FrontierChart* chart = tab.panel->frontierChart();
        ASSERT_TRUE(chart->isVisible());
        const QString where = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        const QString price = QStringLiteral("Costs at $3.99 per GPU-hour, example price, Lambda 2026-09-20");
        const QStringList texts = chart->texts();
        EXPECT_TRUE(texts.join(u' ').contains(price) || texts.contains(price)) << where.toStdString();
        EXPECT_TRUE(fixtures::truncated(texts).isEmpty()) << where.toStdString();
        const QRectF note = chart->noteRect();
        ASSERT_FALSE(note.isEmpty()) << where.toStdString();
        EXPECT_TRUE(QRectF(QPointF(0, 0), chart->chart()->size()).contains(note)) << where.toStdString();
        EXPECT_GE(note.top(), chart->plotRect().bottom()) << where.toStdString();  // under the axes
        fixtures::grabImage(*tab.panel)
            .save(fixtures::outputPath(QStringLiteral("frontier_price_note_%1.png").arg(where)));
    }
}

// With a price the frontier reads as cost too: USD per million output tokens on the right, each height the cost of
// the tokens/s per GPU beside it at that price (cheapest at the top); a GPU without a price has no such axis, and a
// typed price rescales it.
TEST(UiFrontierChart, APriceAddsACostAxisBesideTheTokensPerGpu)
{
    BatchingPanel panel;  // Llama 2 7B on an H100 SXM: Lambda's example price, $3.99 per GPU-hour
    fixtures::layoutNow(panel, QSize(1920, 1080));
    clickTab(panel.chartSwitch(), 1);
    fixtures::layoutNow(panel, panel.size());
    FrontierChart* chart = panel.frontierChart();
    QLogValueAxis* cost = chart->costAxis();
    const auto perGpu =
        qobject_cast<QLogValueAxis*>(chart->chart()->axes(Qt::Vertical, chart->frontierSeries()).front());
    ASSERT_NE(perGpu, nullptr);
    const auto expectCostOfEachHeight = [&](double price) {
        SCOPED_TRACE(price);
        ASSERT_TRUE(cost->isVisible());
        EXPECT_TRUE(cost->isReverse());
        const double atOne = price / 3600.0 * 1e6;  // USD per million output tokens at one token/s per GPU
        EXPECT_NEAR(cost->min() / (atOne / perGpu->max()), 1.0, 1e-9);
        EXPECT_NEAR(cost->max() / (atOne / perGpu->min()), 1.0, 1e-9);
        const FrontierChartData& d = chart->data();
        ASSERT_EQ(d.costPerMillionOutput.size(), d.points.size());
        for (std::size_t i = 0; i < d.points.size(); ++i)
            EXPECT_NEAR(atOne / d.points[i].y() / d.costPerMillionOutput[i], 1.0, 1e-9);
    };
    expectCostOfEachHeight(3.99);
    EXPECT_EQ(cost->titleText(), QStringLiteral("$ per million output tokens"));
    fixtures::grabImage(*chart).save(fixtures::outputPath(QStringLiteral("frontier_cost_axis.png")));

    QComboBox* gpu = fixtures::control<QComboBox>(panel, "batchingGpu");
    ASSERT_TRUE(fixtures::chooseByKeys(gpu, QStringLiteral("rtx-4090")));  // no citable price
    EXPECT_FALSE(cost->isVisible());
    fixtures::grabImage(*chart).save(fixtures::outputPath(QStringLiteral("frontier_no_cost_axis.png")));

    typeInto(panel.frontierControls()->priceField(), QStringLiteral("5"));
    expectCostOfEachHeight(5.0);
}
