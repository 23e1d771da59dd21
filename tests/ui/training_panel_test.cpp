// The Training tab driven as a person drives it: keys and clicks on the real controls, in the real window, offscreen.
// Checkpointing lowers the activations on the memory bar and adds recompute to the step; a micro-batch of 0 is
// refused with the core's message and the last valid picture stays; the sequence slider moves the header. PNGs of the
// tab at 1280x800 and 1920x1080 are left in the build tree for a human to look at.

#include "ui/panels/training_panel.h"
#include "tests/app/cli_runner.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/ui_test_util.h"
#include "ui/chart/training_bar.h"
#include "ui/chart/training_hierarchy.h"
#include "ui/mainwindow.h"
#include "ui/panels/training_controls.h"
#include "ui/plots/training/training_geometry.h"
#include "ui/widgets/log_slider.h"
#include "ui/widgets/text_block.h"

#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>

#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

// "nan" or "inf" as a word (what printf writes for a non-number), never inside "inference".
const QRegularExpression kNonNumber(QStringLiteral("\\b(nan|inf)\\b"), QRegularExpression::CaseInsensitiveOption);

struct TrainingTab {
    MainWindow window;
    TrainingPanel* panel = nullptr;
    explicit TrainingTab(QSize size)
    {
        window.show();
        window.tabs()->setCurrentIndex(2);
        fixtures::layoutNow(window, size);
        panel = window.trainingPanel();
    }
    void settle() { fixtures::layoutNow(window, window.size()); }
};

double part(const TrainingBar* bar, TrainingPart which)
{
    for (const StackPart& p : bar->data().parts)
        if (p.part == which)
            return p.value;
    return -1;
}

void expectNoNonNumbers(const TrainingPanel& panel)
{
    QStringList texts{panel.headlineText(), panel.detailText(), panel.errorText(), panel.fixText()};
    texts << panel.memoryBar()->texts() << panel.timeBar()->texts() << panel.hierarchy()->texts();
    for (const QString& t : texts) {
        EXPECT_FALSE(t.contains(kNonNumber)) << t.toStdString();
    }
}

// After a paint: no text block ran out of lines (its last line would end in an ellipsis).
void expectNothingCut(const TrainingPanel& panel, const QString& where)
{
    for (const TextBlock* block : panel.findChildren<TextBlock*>())
        if (block->isVisible()) {
            EXPECT_FALSE(block->isCut()) << where.toStdString() << ": " << block->text().toStdString() << " lines "
                                         << block->lines() << " h " << block->height() << " w " << block->width();
        }
}

}  // namespace

// Materialised scores by keyboard: at 16,384 tokens they are most of the activations, and the step slows.
TEST(UiTrainingTab, MaterialisedAttentionByKeyboardAddsTheScoresToTheActivations)
{
    TrainingTab tab(QSize(1920, 1080));
    TrainingControls* controls = tab.panel->controls();
    ASSERT_TRUE(fixtures::chooseByKeys(controls->checkpointing(), static_cast<int>(Checkpointing::None)));
    tab.settle();
    TrainingRequest r = tab.panel->request();
    r.sequence = 16384;
    tab.panel->setRequest(r);
    tab.settle();
    ASSERT_EQ(tab.panel->request().attention, AttentionKernel::Flash);
    const double flash = part(tab.panel->memoryBar(), TrainingPart::Activations);
    const QString headlineBefore = tab.panel->headlineText();
    ASSERT_GT(flash, 0);

    ASSERT_TRUE(fixtures::chooseByKeys(controls->attention(), static_cast<int>(AttentionKernel::Materialised)));
    tab.settle();
    EXPECT_EQ(tab.panel->request().attention, AttentionKernel::Materialised);
    EXPECT_GT(part(tab.panel->memoryBar(), TrainingPart::Activations), 5.0 * flash);
    EXPECT_NE(tab.panel->headlineText(), headlineBefore);
    expectNoNonNumbers(*tab.panel);
}

TEST(UiTrainingTab, FullCheckpointingByKeyboardLowersActivationsAndAddsRecompute)
{
    TrainingTab tab(QSize(1920, 1080));
    TrainingControls* controls = tab.panel->controls();
    fixtures::typeInto(controls->microBatch(), QStringLiteral("4"));
    ASSERT_TRUE(fixtures::chooseByKeys(controls->checkpointing(), static_cast<int>(Checkpointing::None)));
    tab.settle();
    ASSERT_EQ(tab.panel->request().microBatch, 4);
    ASSERT_EQ(tab.panel->request().checkpointing, Checkpointing::None);
    const QString headlineBefore = tab.panel->headlineText();
    const double activationsBefore = part(tab.panel->memoryBar(), TrainingPart::Activations);
    const double widthBefore = tab.panel->memoryBar()->partRect(TrainingPart::Activations).width();
    ASSERT_GT(activationsBefore, 0);
    EXPECT_EQ(part(tab.panel->timeBar(), TrainingPart::Recompute), 0);

    ASSERT_TRUE(fixtures::chooseByKeys(controls->checkpointing(), static_cast<int>(Checkpointing::Full)));
    tab.settle();
    EXPECT_EQ(tab.panel->request().checkpointing, Checkpointing::Full);
    EXPECT_LT(part(tab.panel->memoryBar(), TrainingPart::Activations), 0.5 * activationsBefore);
    EXPECT_LT(tab.panel->memoryBar()->partRect(TrainingPart::Activations).width(), widthBefore);
    EXPECT_GT(part(tab.panel->timeBar(), TrainingPart::Recompute), 0);
    EXPECT_NE(tab.panel->headlineText(), headlineBefore) << "recompute slows the step: fewer tokens/s";
    EXPECT_TRUE(tab.panel->headlineText().contains(QStringLiteral("MFU")));
    expectNoNonNumbers(*tab.panel);
}

TEST(UiTrainingTab, MicroBatchZeroIsRefusedWithAMessageAndThePictureStays)
{
    TrainingTab tab(QSize(1920, 1080));
    TrainingControls* controls = tab.panel->controls();
    const QString headline = tab.panel->headlineText();
    const QStringList memory = tab.panel->memoryBar()->texts();
    auto* error = tab.panel->findChild<TextBlock*>(QStringLiteral("trainingError"));
    ASSERT_NE(error, nullptr);
    EXPECT_FALSE(error->isVisible());

    fixtures::typeInto(controls->microBatch(), QStringLiteral("0"));
    tab.settle();
    EXPECT_EQ(controls->microBatch()->value(), 0) << "the control keeps what was typed";
    EXPECT_TRUE(tab.panel->errorText().startsWith(QStringLiteral("micro-batch")))
        << tab.panel->errorText().toStdString();
    EXPECT_TRUE(error->isVisible());
    EXPECT_TRUE(error->text().contains(QStringLiteral("last valid configuration")));
    EXPECT_EQ(tab.panel->headlineText(), headline);
    EXPECT_EQ(tab.panel->memoryBar()->texts(), memory);
    expectNoNonNumbers(*tab.panel);

    // A global batch that micro-batch x dp does not divide names the global batch.
    fixtures::typeInto(controls->microBatch(), QStringLiteral("1"));
    fixtures::typeInto(controls->globalBatch(), QStringLiteral("12"));
    tab.settle();
    EXPECT_TRUE(tab.panel->errorText().startsWith(QStringLiteral("global batch 12")))
        << tab.panel->errorText().toStdString();
    fixtures::typeInto(controls->globalBatch(), QStringLiteral("16"));
    tab.settle();
    EXPECT_TRUE(tab.panel->errorText().isEmpty());
    EXPECT_FALSE(error->isVisible());
    EXPECT_NE(tab.panel->headlineText(), headline) << "two accumulation steps instead of eight: a shorter step";
}

TEST(UiTrainingTab, OneCardRunsOverItsMemoryAndNamesTheCheapestFix)
{
    TrainingTab tab(QSize(1920, 1080));
    TrainingControls* controls = tab.panel->controls();
    fixtures::typeInto(controls->gpusPerNode(), QStringLiteral("1"));
    fixtures::typeInto(controls->globalBatch(), QStringLiteral("1"));
    ASSERT_TRUE(fixtures::chooseByKeys(controls->precision(), static_cast<int>(PrecisionPolicy::Fp32)));
    tab.settle();
    ASSERT_TRUE(tab.panel->errorText().isEmpty()) << tab.panel->errorText().toStdString();
    TrainingBar* memory = tab.panel->memoryBar();
    EXPECT_TRUE(memory->data().over());
    EXPECT_TRUE(memory->data().status.startsWith(QStringLiteral("DOES NOT FIT")));
    const QRectF over = memory->overRect();
    ASSERT_FALSE(over.isEmpty());
    // The overflow is painted hatched in the warning colour.
    const QImage image = fixtures::grabImage(*memory);
    const QColor red = trainingOverColor(ChartTheme::make(ThemeKind::Light));
    bool found = false;
    for (int x = int(over.left()) + 2; x < int(over.right()) - 2 && !found; ++x)
        found = fixtures::colorNear(image, QPoint(x, int(over.center().y())), red, 2, 80);
    EXPECT_TRUE(found) << "no red past the capacity line";
    auto* fix = tab.panel->findChild<TextBlock*>(QStringLiteral("trainingFix"));
    ASSERT_NE(fix, nullptr);
    EXPECT_TRUE(fix->isVisible());
    EXPECT_TRUE(fix->text().startsWith(QStringLiteral("Cheapest fix: bf16 mixed precision")))
        << fix->text().toStdString();
    EXPECT_TRUE(tab.panel->hierarchy()->texts().last().startsWith(QStringLiteral("One GPU")));
    EXPECT_TRUE(
        fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("training-over-1920x1080.png"))));
    expectNothingCut(*tab.panel, QStringLiteral("over"));
}

TEST(UiTrainingTab, TensorParallelAcrossTwoNodesTurnsItsBarTheNetworksColour)
{
    TrainingTab tab(QSize(1920, 1080));
    TrainingControls* controls = tab.panel->controls();
    fixtures::typeInto(controls->tensorParallel(), QStringLiteral("8"));
    tab.settle();
    const ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    ASSERT_FALSE(tab.panel->hierarchy()->data().rows.empty());
    EXPECT_EQ(tab.panel->hierarchy()->rowColor(0), trainingLinkColor(false, theme));
    fixtures::typeInto(controls->nodes(), QStringLiteral("2"));
    fixtures::typeInto(controls->tensorParallel(), QStringLiteral("16"));
    tab.settle();
    ASSERT_TRUE(tab.panel->errorText().isEmpty()) << tab.panel->errorText().toStdString();
    ASSERT_FALSE(tab.panel->hierarchy()->data().rows.empty());
    EXPECT_TRUE(tab.panel->hierarchy()->data().rows[0].crossesNodes);
    EXPECT_EQ(tab.panel->hierarchy()->rowColor(0), trainingLinkColor(true, theme));
}

TEST(UiTrainingTab, TheSequenceSliderMovesTheHeaderAndTheActivations)
{
    TrainingTab tab(QSize(1920, 1080));
    QSlider* slider = tab.panel->controls()->sequence()->slider();
    const QString headline = tab.panel->headlineText();
    const double activations = part(tab.panel->memoryBar(), TrainingPart::Activations);
    fixtures::clickCentre(slider);
    slider->setFocus(Qt::MouseFocusReason);
    const std::int64_t before = tab.panel->request().sequence;
    QTest::keyClick(slider, Qt::Key_Right);
    tab.settle();
    EXPECT_GT(tab.panel->request().sequence, before);
    EXPECT_NE(tab.panel->headlineText(), headline);
    EXPECT_GT(part(tab.panel->memoryBar(), TrainingPart::Activations), activations);
}

// The tab and `ridgeline train` answer the same question alike: the links, the defaults and the numbers.
TEST(UiTrainingTab, ItsNumbersAreTheCommandLinesForTheSameConfiguration)
{
    TrainingTab tab(QSize(1920, 1080));
    TrainingControls* controls = tab.panel->controls();
    ASSERT_TRUE(fixtures::chooseByKeys(controls->model(), QStringLiteral("llama-2-70b")));
    fixtures::typeInto(controls->nodes(), QStringLiteral("2"));
    fixtures::typeInto(controls->tensorParallel(), QStringLiteral("8"));
    fixtures::typeInto(controls->pipelineParallel(), QStringLiteral("2"));
    ASSERT_TRUE(fixtures::chooseByKeys(controls->zero(), 2));
    ASSERT_TRUE(fixtures::chooseByKeys(controls->checkpointing(), static_cast<int>(Checkpointing::Full)));
    tab.settle();
    ASSERT_TRUE(tab.panel->errorText().isEmpty()) << tab.panel->errorText().toStdString();
    ASSERT_TRUE(tab.panel->view().has_value());
    const TrainingReport& shown = tab.panel->view()->report;

    const test::CliRun cli = test::runRidgeline(
        test::cliArgs("train --model llama-2-70b --gpu h100-sxm --gpus-per-node 8 --nodes 2 --seq 4096 --micro-batch 1 "
                      "--global-batch 64 --precision bf16-mixed --optimizer adamw --checkpointing full --tp 8 --pp 2 "
                      "--zero 2 --json"));
    ASSERT_EQ(cli.exitCode, 0) << cli.err.toStdString();
    const QJsonObject json = QJsonDocument::fromJson(cli.out.toUtf8()).object();
    auto near = [](double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b)); };
    EXPECT_TRUE(near(json.value(QStringLiteral("tokens_per_s")).toDouble(), shown.tokensPerSecond));
    EXPECT_TRUE(near(json.value(QStringLiteral("mfu")).toDouble(), shown.mfu));
    EXPECT_TRUE(near(json.value(QStringLiteral("step_time_s")).toDouble(), shown.time.total()));
    EXPECT_TRUE(near(json.value(QStringLiteral("communication_s")).toDouble(), shown.time.communication));
    const QJsonObject memory = json.value(QStringLiteral("memory_per_gpu_bytes")).toObject();
    EXPECT_TRUE(near(memory.value(QStringLiteral("total")).toDouble(), shown.memory.total()));
    EXPECT_TRUE(near(memory.value(QStringLiteral("activations")).toDouble(), shown.memory.activations));
}

// The pictures a person and a speaker see: the window on the Training tab at a laptop's and a slide's size, once as
// it opens and once with a configuration that does not fit and crosses nodes.
TEST(UiTrainingTab, RendersAt1280x800And1920x1080)
{
    for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
        TrainingTab tab(size);
        const QString tag = QStringLiteral("%1x%2").arg(size.width()).arg(size.height());
        EXPECT_TRUE(
            fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("training-%1.png").arg(tag))));
        TrainingRequest r = tab.panel->request();
        r.modelId = QStringLiteral("llama-2-70b");
        r.nodes = 4;
        r.tensorParallel = 16;
        r.pipelineParallel = 2;
        r.globalBatch = 64;
        r.checkpointing = Checkpointing::Selective;
        tab.panel->setRequest(r);
        tab.settle();
        EXPECT_TRUE(tab.panel->errorText().isEmpty()) << tab.panel->errorText().toStdString();
        EXPECT_TRUE(
            fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("training-70b-%1.png").arg(tag))));
        expectNothingCut(*tab.panel, tag + QStringLiteral(" 70B"));
        // The layout's notes and why selective checkpointing saves nothing beside flash attention.
        EXPECT_EQ(tab.panel->noteTexts().size(), 3) << tab.panel->noteTexts().join(u'|').toStdString();
        expectNoNonNumbers(*tab.panel);
    }
}
