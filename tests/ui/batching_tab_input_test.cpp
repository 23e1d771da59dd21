// The batching tab driven as a person drives it: keys and clicks on the real controls, in the real
// window at 1600x1000 and 1920x1080. Nothing is cut short, the model's limits are said out loud, and what would
// make a model fit is named. PNGs are left in the build tree for a human to look at.

#include "tests/ui/batching_input_util.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/chart/memory_bar.h"
#include "ui/mainwindow.h"
#include "ui/panels/batching_panel.h"
#include "ui/widgets/log_slider.h"
#include "ui/widgets/text_block.h"

#include <QScatterSeries>
#include <QSlider>
#include <QTabWidget>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

std::string joined(const QStringList& texts)
{
    return texts.join(QStringLiteral(" | ")).toStdString();
}

QStringList chartTexts(const BatchingPanel& panel)
{
    QStringList texts;
    for (const QChartView* view :
         std::initializer_list<const QChartView*>{panel.throughputChart(), panel.rooflineChart(), panel.cpuChart()})
        texts << fixtures::sceneTexts(view);
    return texts;
}

template <typename T>
T* control(const BatchingPanel& panel, const char* name)
{
    T* found = panel.findChild<T*>(QLatin1String(name));
    EXPECT_NE(found, nullptr) << name;
    return found;
}

struct BatchingTab {
    MainWindow window;
    BatchingPanel* panel = nullptr;
    explicit BatchingTab(QSize size)
    {
        window.setSession(fixtures::zen4Session());
        window.show();
        window.tabs()->setCurrentIndex(1);
        fixtures::layoutNow(window, size);
        panel = window.batchingPanel();
    }
    void settle() { fixtures::layoutNow(window, window.size()); }
};

}  // namespace

// At the two window sizes a user and a speaker have, no axis title, tick or legend entry is elided.
TEST(UiBatchingTabInput, NoChartTextIsCutShortAt1600And1920)
{
    for (const QSize size : {QSize(1600, 1000), QSize(1920, 1080)}) {
        BatchingTab tab(size);
        // A GPU count, a model and a precision a person picks, to change every chart once.
        QSlider* gpus = control<QSlider>(*tab.panel, "batchingGpuCount");
        fixtures::clickCentre(gpus);
        QTest::keyClick(gpus, Qt::Key_Home);
        QTest::keyClick(gpus, Qt::Key_Right);
        tab.settle();
        ASSERT_EQ(tab.panel->inputs().gpus, 2);
        const QStringList texts = chartTexts(*tab.panel);
        EXPECT_GT(texts.size(), 30) << joined(texts);
        EXPECT_TRUE(fixtures::truncated(texts).isEmpty())
            << size.width() << " px: " << joined(fixtures::truncated(texts));
        fixtures::grabImage(tab.window)
            .save(fixtures::outputPath(QStringLiteral("batching_tab_%1x%2.png").arg(size.width()).arg(size.height())));
        // On the GPU's roofline every text stays inside the plot (the roofs' numbers were cut off by its top edge
        // at 1600 x 1000: a short plot now writes them in one line).
        const DecodeRooflineChart* roofline = tab.panel->rooflineChart();
        const QStringList rooflineTexts = roofline->texts().mid(1);  // after the title
        const std::vector<QRectF> boxes = roofline->textRects();
        ASSERT_EQ(boxes.size(), static_cast<std::size_t>(rooflineTexts.size()));
        for (std::size_t i = 0; i < boxes.size(); ++i)
            EXPECT_TRUE(roofline->plotRect().adjusted(-1, -1, 1, 1).contains(boxes[i]))
                << size.width() << " px: " << rooflineTexts[qsizetype(i)].toStdString();
        // This CPU's curve keeps a plot its curve, its knee and two decades can be read in.
        EXPECT_GE(tab.panel->cpuChart()->plotRect().height(), 90.0) << size.width() << " px";
        // The memory bar's title shortens the GPU's name before it elides anything ("Memory per GPU (each of 2 x
        // NVIDIA H10..." at 1600 px).
        const QString memoryTitle = tab.panel->memoryBar()->drawnTitle();
        EXPECT_TRUE(memoryTitle.startsWith(QLatin1String("Memory per GPU (")) && memoryTitle.contains(u'2'))
            << size.width() << " px: " << memoryTitle.toStdString();
        // Nor the headline, its details or the warnings above the charts, as painted in that picture.
        for (const TextBlock* block : tab.panel->findChildren<TextBlock*>()) {
            if (block->isVisible() && block->parentWidget() == tab.panel) {
                EXPECT_FALSE(block->isCut()) << size.width() << " px: " << block->text().toStdString();
            }
        }
    }
}

// Llama 3.1 70B in bf16 does not fit one 80 GB card even empty: the panel says what it needs and what would fit,
// and the warning goes as soon as the person picks two GPUs.
TEST(UiBatchingTabInput, WeightsThatDoNotFitSayWhatWould)
{
    BatchingTab tab(QSize(1600, 1000));
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-3.1-70b")));
    tab.settle();
    ASSERT_EQ(tab.panel->inputs().modelId, QStringLiteral("llama-3.1-70b"));
    const QStringList warnings = tab.panel->warningTexts();
    ASSERT_FALSE(warnings.isEmpty());
    const QString fit = warnings.first();
    EXPECT_TRUE(fit.contains(QLatin1String("weights alone need 131.4 GiB per GPU"))) << fit.toStdString();
    EXPECT_TRUE(fit.contains(QLatin1String("the card holds 80.0 GiB"))) << fit.toStdString();
    EXPECT_TRUE(fit.contains(QLatin1String("2 GPUs or int8 would fit"))) << fit.toStdString();
    EXPECT_TRUE(tab.panel->headlineText().contains(QLatin1String("not even one sequence")))
        << tab.panel->headlineText().toStdString();
    // The status takes the bar's title row; the title gives way whole rather than read "Memory ...".
    EXPECT_FALSE(tab.panel->memoryBar()->drawnTitle().contains(QChar(0x2026)))
        << tab.panel->memoryBar()->drawnTitle().toStdString();
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_does_not_fit.png")));

    QSlider* gpus = control<QSlider>(*tab.panel, "batchingGpuCount");
    fixtures::clickCentre(gpus);
    QTest::keyClick(gpus, Qt::Key_Home);
    QTest::keyClick(gpus, Qt::Key_Right);
    ASSERT_EQ(tab.panel->inputs().gpus, 2);
    for (const QString& w : tab.panel->warningTexts())
        EXPECT_FALSE(w.contains(QLatin1String("would fit"))) << w.toStdString();
}

// The same for int8 on one card: the advice names the format a person then picks, and it fits.
TEST(UiBatchingTabInput, TheSuggestedFormatFits)
{
    BatchingTab tab(QSize(1600, 1000));
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-3.1-70b")));
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingWeights"),
                                       static_cast<int>(NumberFormat::Int8)));
    fixtures::typeInto(tab.panel->contextSlider()->spinBox(), QStringLiteral("1024"));
    tab.settle();
    EXPECT_EQ(tab.panel->inputs().weights, NumberFormat::Int8);
    EXPECT_TRUE(tab.panel->scenario().report.memory.fits);
    for (const QString& w : tab.panel->warningTexts())
        EXPECT_FALSE(w.contains(QLatin1String("would fit"))) << w.toStdString();
}

// A context typed beyond the model's trained length, and more GPUs than one NVLink domain joins, are warned about.
TEST(UiBatchingTabInput, ContextBeyondTrainingAndGpusBeyondOneNvlinkDomainAreWarned)
{
    BatchingTab tab(QSize(1600, 1000));
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-3-8b")));
    fixtures::typeInto(tab.panel->contextSlider()->spinBox(), QStringLiteral("4096"));
    EXPECT_TRUE(tab.panel->warningTexts().isEmpty()) << joined(tab.panel->warningTexts());
    fixtures::typeInto(tab.panel->contextSlider()->spinBox(), QStringLiteral("32768"));
    ASSERT_EQ(tab.panel->inputs().context, 32768);
    const QStringList context = tab.panel->warningTexts();
    ASSERT_EQ(context.size(), 1) << joined(context);
    EXPECT_TRUE(
        context[0].contains(QLatin1String("Context 32,768 is beyond the 8,192 tokens Llama 3 8B was trained on")))
        << context[0].toStdString();

    fixtures::typeInto(tab.panel->contextSlider()->spinBox(), QStringLiteral("2048"));
    QSlider* gpus = control<QSlider>(*tab.panel, "batchingGpuCount");
    fixtures::clickCentre(gpus);
    QTest::keyClick(gpus, Qt::Key_Home);
    for (int i = 0; i < 5; ++i)
        QTest::keyClick(gpus, Qt::Key_Right);
    ASSERT_EQ(tab.panel->inputs().gpus, 32);
    const QStringList domain = tab.panel->warningTexts();
    ASSERT_EQ(domain.size(), 1) << joined(domain) << tab.panel->headlineText().toStdString();
    EXPECT_TRUE(domain[0].contains(QLatin1String("32 GPUs are more than one NVLink 4 domain joins (8)")))
        << domain[0].toStdString();
    EXPECT_TRUE(domain[0].contains(QLatin1String("between 4 nodes"))) << domain[0].toStdString();
    QTest::keyClick(gpus, Qt::Key_Left);
    QTest::keyClick(gpus, Qt::Key_Left);
    EXPECT_EQ(tab.panel->inputs().gpus, 8);
    EXPECT_TRUE(tab.panel->warningTexts().isEmpty()) << joined(tab.panel->warningTexts());
}

// A small model on a big custom card at one token of context fits more than the model counts: the panel says
// "at least 65,536" instead of passing the cap off as the answer.
TEST(UiBatchingTabInput, TheLargestBatchAtTheModelsLimitIsSaidToBeALimit)
{
    BatchingTab tab(QSize(1600, 1000));
    fixtures::typeInto(control<QDoubleSpinBox>(*tab.panel, "batchingMemory"), QStringLiteral("100000"));
    fixtures::typeInto(tab.panel->contextSlider()->spinBox(), QStringLiteral("1"));
    ASSERT_EQ(tab.panel->inputs().gpuId, kCustomId);
    ASSERT_EQ(tab.panel->scenario().report.maxBatch, kMaxBatch);
    const QStringList all = tab.panel->visibleTexts();
    EXPECT_TRUE(tab.panel->warningTexts().join(QLatin1Char(' ')).contains(QLatin1String("at least 65,536")))
        << joined(all);
    EXPECT_TRUE(tab.panel->memoryBar()
                    ->texts()
                    .join(QLatin1Char(' '))
                    .contains(QLatin1String("at least 65,536 (the model's limit)")))
        << joined(tab.panel->memoryBar()->texts());
    EXPECT_TRUE(tab.panel->takeawayText().contains(QLatin1String("at least 65,536")))
        << tab.panel->takeawayText().toStdString();
}

// The step's operators on the GPU's roofline move as the batch is typed: the weight GEMMs slide right with the
// batch, decode attention stays at its KV intensity, and the takeaway names the operator that binds.
TEST(UiBatchingTabInput, TheStepsOperatorsMoveOnTheRooflineWithTheBatch)
{
    BatchingTab tab(QSize(1600, 1000));
    const QScatterSeries* operators = tab.panel->rooflineChart()->operatorMarkers();
    auto intensities = [&] {
        std::vector<double> x;
        for (const QPointF& p : operators->points())
            x.push_back(p.x());
        std::sort(x.begin(), x.end());
        return x;
    };
    fixtures::typeInto(tab.panel->batchSlider()->spinBox(), QStringLiteral("1"));
    tab.settle();
    const std::vector<double> one = intensities();
    ASSERT_GE(one.size(), 3u);  // attention, its projections, the MLP, the LM head
    fixtures::typeInto(tab.panel->batchSlider()->spinBox(), QStringLiteral("64"));
    tab.settle();
    const std::vector<double> sixtyFour = intensities();
    ASSERT_EQ(sixtyFour.size(), one.size());
    EXPECT_GT(sixtyFour.back(), 30.0 * one.back());  // the GEMMs' FLOPs grow with the batch, their weights do not
    int unmoved = 0;
    for (const double x : sixtyFour)
        unmoved +=
            std::find_if(one.begin(), one.end(), [&](double y) { return std::fabs(x / y - 1.0) < 1e-9; }) != one.end()
                ? 1
                : 0;
    EXPECT_EQ(unmoved, 1);  // decode attention: its FLOPs and KV bytes both grow with the batch
    EXPECT_TRUE(tab.panel->takeawayText().contains(QLatin1String("What binds the step: ")))
        << tab.panel->takeawayText().toStdString();
}
