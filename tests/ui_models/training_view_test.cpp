// The Training tab's data without a widget (ui/plots/training): the core's report in the tab's words, the stacked
// bars and the hierarchy in pixels.

#include "ui/plots/training/training_view.h"
#include "core/model/units.h"
#include "ui/plots/training/training_geometry.h"

#include <QRegularExpression>

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

// "nan" or "inf" as a word (what printf writes for a non-number), never inside "inference".
const QRegularExpression kNonNumber(QStringLiteral("\\b(nan|inf)\\b"), QRegularExpression::CaseInsensitiveOption);

double part(const StackBarData& bar, TrainingPart which)
{
    for (const StackPart& p : bar.parts)
        if (p.part == which)
            return p.value;
    ADD_FAILURE() << "no such part";
    return -1;
}

// Every text the tab would show from this view.
QStringList allTexts(const TrainingView& v)
{
    QStringList texts{
        v.headline,   v.fix,         v.memory.title,         v.memory.status,        v.memory.capacityLabel,
        v.time.title, v.time.status, v.hierarchy.insideLink, v.hierarchy.acrossLink, v.hierarchy.emptyText};
    for (const StackBarData* bar : {&v.memory, &v.time})
        for (const StackPart& p : bar->parts)
            texts << p.legend;
    for (const CollectiveRow& row : v.hierarchy.rows)
        texts << row.what << row.link << row.numbers;
    return texts + v.detail + v.notes;
}

void expectNoNonNumbers(const TrainingView& v)
{
    for (const QString& text : allTexts(v)) {
        EXPECT_FALSE(text.contains(kNonNumber)) << text.toStdString();
    }
}

TrainingView computed(const TrainingRequest& request)
{
    Result<TrainingView> v = computeTrainingView(request);
    EXPECT_TRUE(v.ok()) << (v ? std::string() : v.error().message.toStdString());
    return v ? v.value() : TrainingView{};
}

}  // namespace

TEST(UiTrainingView, TheDefaultShowsTokensMfuAndTheFourMemoryStates)
{
    const TrainingView v = computed(TrainingRequest{});
    EXPECT_TRUE(v.headline.startsWith(QStringLiteral("Llama 2 7B on 8 \u00d7 H100")));
    EXPECT_TRUE(v.headline.contains(QStringLiteral("tokens/s")));
    EXPECT_TRUE(v.headline.contains(QStringLiteral("MFU")));
    EXPECT_GT(v.report.tokensPerSecond, 0);
    EXPECT_GT(v.report.mfu, 0);
    EXPECT_LT(v.report.mfu, 1);
    EXPECT_DOUBLE_EQ(v.memory.total(), v.report.memory.onCard());
    EXPECT_DOUBLE_EQ(v.memory.capacity, v.config.gpu.memoryGib * kBytesPerGiB);
    EXPECT_DOUBLE_EQ(v.time.total(), v.report.time.total());
    EXPECT_GT(part(v.memory, TrainingPart::Weights), 0);
    EXPECT_GT(part(v.memory, TrainingPart::Gradients), 0);
    EXPECT_GT(part(v.memory, TrainingPart::Optimizer), 0);
    EXPECT_GT(part(v.memory, TrainingPart::Activations), 0);
    expectNoNonNumbers(v);
}

TEST(UiTrainingView, FullCheckpointingLowersActivationsAndAddsRecompute)
{
    TrainingRequest r;
    r.microBatch = 4;
    r.globalBatch = 64;
    r.checkpointing = Checkpointing::None;
    const TrainingView none = computed(r);
    r.checkpointing = Checkpointing::Full;
    const TrainingView full = computed(r);
    EXPECT_LT(part(full.memory, TrainingPart::Activations), 0.25 * part(none.memory, TrainingPart::Activations));
    EXPECT_EQ(part(none.time, TrainingPart::Recompute), 0);
    EXPECT_GT(part(full.time, TrainingPart::Recompute), 0.2 * part(full.time, TrainingPart::Compute));
    EXPECT_TRUE(none.time.parts[1].legend.endsWith(QStringLiteral("none")));
}

// What a new user sees first shows a cheap move at work: full checkpointing, whose activations are a fraction of
// what the same step keeps without it. Selective checkpointing beside flash attention saves nothing, and the tab says
// why rather than showing a move that does nothing.
TEST(UiTrainingView, TheFirstPictureShowsCheckpointingSaveMemoryAndSelectiveSaysWhyNot)
{
    const TrainingRequest first;
    ASSERT_EQ(first.checkpointing, Checkpointing::Full);
    ASSERT_EQ(first.attention, AttentionKernel::Flash);
    const TrainingView shown = computed(first);
    EXPECT_TRUE(shown.fits);
    TrainingRequest r = first;
    r.checkpointing = Checkpointing::None;
    const TrainingView none = computed(r);
    EXPECT_LT(part(shown.memory, TrainingPart::Activations), 0.25 * part(none.memory, TrainingPart::Activations));
    EXPECT_GT(part(shown.time, TrainingPart::Recompute), 0);

    r.checkpointing = Checkpointing::Selective;
    const TrainingView selective = computed(r);
    EXPECT_DOUBLE_EQ(part(selective.memory, TrainingPart::Activations), part(none.memory, TrainingPart::Activations));
    EXPECT_TRUE(selective.notes.join(u'|').contains(QStringLiteral("flash attention never stores")))
        << selective.notes.join(u'|').toStdString();
    EXPECT_FALSE(shown.notes.join(u'|').contains(QStringLiteral("flash attention never stores")));
    r.attention = AttentionKernel::Materialised;
    EXPECT_FALSE(computed(r).notes.join(u'|').contains(QStringLiteral("flash attention never stores")));
}

TEST(UiTrainingView, ARefusedRequestIsTheCoresMessageNamingTheField)
{
    TrainingRequest r;
    r.microBatch = 0;
    const Result<TrainingView> zero = computeTrainingView(r);
    ASSERT_FALSE(zero.ok());
    EXPECT_TRUE(zero.error().message.startsWith(QStringLiteral("micro-batch"))) << zero.error().message.toStdString();
    r.microBatch = 1;
    r.tensorParallel = 3;
    const Result<TrainingView> tp = computeTrainingView(r);
    ASSERT_FALSE(tp.ok());
    EXPECT_TRUE(tp.error().message.startsWith(QStringLiteral("tp 3"))) << tp.error().message.toStdString();
    r.tensorParallel = 1;
    r.gpuId = QStringLiteral("no-such-card");
    EXPECT_FALSE(computeTrainingView(r).ok());
}

TEST(UiTrainingView, WhatDoesNotFitIsOverTheCapacityWithTheCheapestFix)
{
    TrainingRequest r;  // the source text's question: does a 7B model train on one 80 GiB card?
    r.gpusPerNode = 1;
    r.globalBatch = 1;
    r.precision = PrecisionPolicy::Fp32;
    const TrainingView v = computed(r);
    EXPECT_FALSE(v.fits);
    EXPECT_TRUE(v.memory.over());
    EXPECT_TRUE(v.memory.status.startsWith(QStringLiteral("DOES NOT FIT")));
    EXPECT_TRUE(v.fix.startsWith(QStringLiteral("Cheapest fix: bf16 mixed precision"))) << v.fix.toStdString();
    EXPECT_TRUE(v.hierarchy.rows.empty());
    EXPECT_FALSE(v.hierarchy.emptyText.isEmpty());

    const QRectF bar(10, 20, 1000, 40);
    const StackBarGeometry g = layoutStackBar(v.memory, bar);
    ASSERT_EQ(g.parts.size(), v.memory.parts.size());
    EXPECT_TRUE(g.hasCapacity);
    EXPECT_FALSE(g.over.isEmpty());
    EXPECT_NEAR(g.over.right(), bar.right(), 1e-6) << "the total sets the scale when it is over";
    EXPECT_NEAR(g.capacity.right(), g.over.left(), 1e-6);
    EXPECT_NEAR(g.capacity.width() / bar.width(), v.memory.capacity / v.report.memory.onCard(), 1e-9);
    double x = bar.left();
    for (const QRectF& r2 : g.parts)
        if (!r2.isEmpty()) {
            EXPECT_NEAR(r2.left(), x, 1e-6) << "parts follow one another";
            x = r2.right();
        }
    EXPECT_NEAR(x, bar.right(), 1e-6);
    expectNoNonNumbers(v);
}

TEST(UiTrainingView, AFittingBarStaysInsideTheCardAndAZeroPartTakesNoRoom)
{
    const TrainingView v = computed(TrainingRequest{});
    ASSERT_TRUE(v.fits) << v.memory.status.toStdString();
    const QRectF bar(0, 0, 800, 40);
    const StackBarGeometry g = layoutStackBar(v.memory, bar);
    EXPECT_TRUE(g.over.isEmpty());
    EXPECT_NEAR(g.capacity.right(), bar.right(), 1e-6) << "the card sets the scale when everything fits";
    const StackBarGeometry time = layoutStackBar(v.time, bar);
    EXPECT_FALSE(time.hasCapacity);
    EXPECT_TRUE(time.parts[3].isEmpty()) << "no pipeline, no bubble";

    StackBarData broken;  // no NaN reaches the pixels
    broken.parts = {{TrainingPart::Weights, QStringLiteral("weights"), std::nan(""), QString()},
                    {TrainingPart::Gradients, QStringLiteral("gradients"), INFINITY, QString()}};
    for (const QRectF& r : layoutStackBar(broken, bar).parts)
        EXPECT_TRUE(r.isEmpty());
}

TEST(UiTrainingView, TensorParallelAcrossNodesIsColouredAndCostlierThanInside)
{
    TrainingRequest r;
    r.modelId = QStringLiteral("llama-2-70b");
    r.gpusPerNode = 8;
    r.nodes = 2;
    r.globalBatch = 64;
    r.tensorParallel = 8;
    const TrainingView inside = computed(r);
    r.tensorParallel = 16;
    const TrainingView across = computed(r);
    auto tpRow = [](const TrainingView& v) {
        for (const CollectiveRow& row : v.hierarchy.rows)
            if (row.what == QStringLiteral("tensor-parallel all-reduce"))
                return row;
        ADD_FAILURE() << "no tensor-parallel row";
        return CollectiveRow{};
    };
    EXPECT_FALSE(tpRow(inside).crossesNodes);
    EXPECT_TRUE(tpRow(across).crossesNodes);
    EXPECT_GT(tpRow(across).seconds, 2.0 * tpRow(inside).seconds) << "the same all-reduce over the network";
    const ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    EXPECT_NE(trainingLinkColor(true, theme), trainingLinkColor(false, theme));
    EXPECT_TRUE(inside.hierarchy.insideLink.contains(QStringLiteral("GB/s")));
    EXPECT_TRUE(inside.hierarchy.acrossLink.contains(QStringLiteral("GB/s")));
}

TEST(UiTrainingView, TheHierarchyDrawsAFewNodesAndSaysHowManyMore)
{
    TrainingRequest r;
    r.modelId = QStringLiteral("llama-2-70b");
    r.gpusPerNode = 8;
    r.nodes = 100;
    r.tensorParallel = 8;
    r.pipelineParallel = 4;
    r.zeroStage = 1;
    r.globalBatch = 1000;
    const TrainingView v = computed(r);
    ASSERT_EQ(v.hierarchy.rows.size(), 3u) << "tensor parallel, pipeline sends and the data-parallel collective";
    const QRectF area(0, 0, 1400, hierarchyHeight(v.hierarchy, 20));
    const HierarchyGeometry g = layoutHierarchy(v.hierarchy, area, 20);
    EXPECT_EQ(g.nodes.size(), static_cast<std::size_t>(kShownNodes));
    EXPECT_EQ(g.hiddenNodes, 100 - kShownNodes);
    EXPECT_EQ(g.acrossLinks.size(), g.nodes.size() - 1);
    EXPECT_EQ(g.insideLinks.size(), g.nodes.size());
    ASSERT_EQ(g.rowBars.size(), v.hierarchy.rows.size());
    for (std::size_t i = 0; i < g.rowBars.size(); ++i) {
        EXPECT_TRUE(area.contains(g.rowBars[i])) << i;
        EXPECT_FALSE(g.nodes.front().intersects(g.rowText[i])) << "the words stay right of the machine";
    }
    for (const QRectF& node : g.nodes)
        EXPECT_TRUE(area.contains(node));
    expectNoNonNumbers(v);
}

TEST(UiTrainingView, AbsurdSizesGiveNumbersOrAMessageNeverNaN)
{
    TrainingRequest r;
    r.sequence = 10'000'000;
    r.gpusPerNode = 8;
    r.nodes = 12500;
    r.globalBatch = 100'000;
    const Result<TrainingView> huge = computeTrainingView(r);
    if (huge)
        expectNoNonNumbers(huge.value());
    r.sequence = 1;
    r.nodes = 1;
    r.globalBatch = 8;
    expectNoNonNumbers(computed(r));
}

// The default's ZeRO-1 reduce-scatter and all-gather overlap compute: the legend beside the time bar says where
// their time went rather than "communication: none" above a collective listed with its milliseconds.
TEST(UiTrainingView, CommunicationHiddenUnderComputeIsNamedNotNone)
{
    const TrainingView v = computed(TrainingRequest{});
    double listed = 0;
    for (const CollectiveRow& row : v.hierarchy.rows)
        listed += row.seconds;
    ASSERT_GT(listed, 0);
    ASSERT_LT(v.report.time.communication, listed);
    QString legend;
    for (const StackPart& p : v.time.parts)
        if (p.part == TrainingPart::Communication)
            legend = p.legend;
    EXPECT_FALSE(legend.contains(QStringLiteral("none"))) << legend.toStdString();
    EXPECT_TRUE(legend.contains(QStringLiteral("hidden under compute"))) << legend.toStdString();
    EXPECT_TRUE(legend.contains(formatSeconds(listed - v.report.time.communication))) << legend.toStdString();
}
