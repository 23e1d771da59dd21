// What the command line can express, in the batching tab's "Advanced" group, driven by clicks and
// keys: MoE shapes, expert parallelism, the attention projections' format, fp4 weights, speculative decoding and
// tensor parallelism across nodes. A bad combination shows the model's own message, never a NaN; a good one gives
// the numbers `ridgeline model` gives for the same options.

#include "ui/panels/batching_advanced.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/batching_tab_support.h"
#include "tests/ui_models/test_session.h"
#include "ui/panels/batching_controls.h"
#include "ui/widgets/log_slider.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSlider>
#include <QToolButton>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;
using fixtures::control;

namespace {

// No text in the tab reads "nan" or "inf", whatever was typed.
void expectNoNonFinite(const BatchingPanel& panel)
{
    static const QRegularExpression nonFinite(QStringLiteral("\\b(nan|inf|infinity)\\b"),
                                              QRegularExpression::CaseInsensitiveOption);
    for (const QString& text : panel.visibleTexts())
        EXPECT_FALSE(text.contains(nonFinite)) << text.toStdString();
}

void expectError(const BatchingPanel& panel, const char* words)
{
    EXPECT_TRUE(panel.errorText().contains(QLatin1String(words))) << panel.errorText().toStdString();
    // The detail line starts the message with a capital.
    EXPECT_TRUE(panel.detailText().contains(QLatin1String(words).mid(1))) << panel.detailText().toStdString();
    EXPECT_EQ(panel.headlineText(), QStringLiteral("Cannot evaluate these inputs"));
    expectNoNonFinite(panel);
}

void expectSameAsCli(const BatchingPanel& panel, const char* arguments)
{
    ASSERT_FALSE(panel.scenario().error) << panel.errorText().toStdString();
    const QJsonObject cli = fixtures::cliModelJson(test::cliArgs(arguments));
    const double tokens = panel.scenario().report.tokensPerSecond;
    EXPECT_NEAR(tokens, cli.value(QStringLiteral("tokens_per_s")).toDouble(), 1e-9 * tokens) << arguments;
    expectNoNonFinite(panel);
}

void setGpuCount(const BatchingPanel& panel, int rightSteps)
{
    QSlider* gpus = control<QSlider>(panel, "batchingGpuCount");
    fixtures::clickCentre(gpus);
    QTest::keyClick(gpus, Qt::Key_Home);
    for (int i = 0; i < rightSteps; ++i)
        QTest::keyClick(gpus, Qt::Key_Right);
}

void openAdvanced(const BatchingPanel& panel)
{
    QToolButton* toggle = control<QToolButton>(panel, "batchingAdvancedToggle");
    EXPECT_FALSE(control<QWidget>(panel, "batchingAdvanced")->isVisible());
    fixtures::clickCentre(toggle);
    EXPECT_TRUE(control<QWidget>(panel, "batchingAdvanced")->isVisible());
}

}  // namespace

TEST(UiBatchingAdvanced, ExpertsTypedOnADenseModelMakeACustomMoeAndBadCountsSayWhy)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    openAdvanced(*tab.panel);
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-3.1-8b")));
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingExperts"), QStringLiteral("8"));
    ASSERT_EQ(tab.panel->inputs().modelId, kCustomId);
    ASSERT_TRUE(tab.panel->inputs().customShape.has_value());
    EXPECT_EQ(tab.panel->inputs().customShape->name, QStringLiteral("Llama 3.1 8B (custom MoE)"));
    EXPECT_EQ(tab.panel->inputs().customShape->activeExperts, 2);  // top-2 until told otherwise
    EXPECT_EQ(control<QComboBox>(*tab.panel, "batchingModel")->currentText(),
              QStringLiteral("Llama 3.1 8B (custom MoE) (custom shape)"));
    EXPECT_TRUE(control<QToolButton>(*tab.panel, "batchingAdvancedToggle")->text().contains(QLatin1String("1 set")));
    // --ffn is the expert width, as on the command line: 14336 for the dense model's own.
    expectSameAsCli(*tab.panel,
                    "--model custom --layers 32 --hidden 4096 --heads 32 --kv-heads 8 --ffn 14336 "
                    "--vocab 128256 --experts 8 --active-experts 2 --gpu h100-sxm --batch 16");

    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingActiveExperts"), QStringLiteral("16"));
    expectError(*tab.panel, "active experts must be between 1 and 8");
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingActiveExperts"), QStringLiteral("2"));
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingExpertFfn"), QStringLiteral("4096"));
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingSharedExperts"), QStringLiteral("1"));
    EXPECT_EQ(tab.panel->inputs().customShape->moeFfn, 4096);
    EXPECT_EQ(tab.panel->inputs().customShape->sharedExperts, 1);
    EXPECT_FALSE(tab.panel->scenario().error) << tab.panel->errorText().toStdString();

    // Expert parallelism must divide the GPUs and the experts.
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingEp"), QStringLiteral("2"));
    expectError(*tab.panel, "expert-parallel degree 2 must divide the tensor-parallel degree 1");
    setGpuCount(*tab.panel, 2);  // 4 GPUs
    ASSERT_EQ(tab.panel->inputs().gpus, 4);
    EXPECT_FALSE(tab.panel->scenario().error) << tab.panel->errorText().toStdString();
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingEp"), QStringLiteral("3"));
    expectError(*tab.panel, "expert-parallel degree 3 must divide");
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingEp"), QStringLiteral("4"));
    expectSameAsCli(*tab.panel,
                    "--model custom --layers 32 --hidden 4096 --heads 32 --kv-heads 8 --ffn 4096 "
                    "--vocab 128256 --experts 8 --active-experts 2 --shared-experts 1 --gpu h100-sxm "
                    "--tp 4 --ep 4 --batch 16");
    // Every row of the open Advanced group keeps its height at 1000 px (the column scrolls, nothing squashes), and the
    // column fits its width (nothing is cut at its right edge).
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    for (QWidget* row : control<QWidget>(*tab.panel, "batchingAdvanced")->findChildren<QWidget*>()) {
        if (row->isVisible() && (qobject_cast<QSpinBox*>(row) || qobject_cast<QComboBox*>(row))) {
            EXPECT_GE(row->height(), row->minimumSizeHint().height()) << row->objectName().toStdString();
        }
    }
    const auto* controls = tab.panel->findChild<QScrollArea*>(QStringLiteral("BatchingControlsScroll"));
    ASSERT_NE(controls, nullptr);
    EXPECT_LE(controls->widget()->width(), controls->viewport()->width());
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_advanced_moe.png")));

    // Back to the catalog's dense model: the experts box shows "dense" again.
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-3.1-8b")));
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingEp"), QStringLiteral("1"));
    EXPECT_EQ(control<QSpinBox>(*tab.panel, "batchingExperts")->text(), QStringLiteral("dense"));
    EXPECT_FALSE(tab.panel->scenario().error) << tab.panel->errorText().toStdString();
}

TEST(UiBatchingAdvanced, SpeculativeDecodingFp4AndAttentionFormatsMatchTheCommandLine)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    openAdvanced(*tab.panel);
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-3.1-70b")));
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingGpu"), QStringLiteral("b200")));
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingWeights"), static_cast<int>(NumberFormat::Fp4)));
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingAttentionWeights"),
                                       static_cast<int>(NumberFormat::Fp8)));
    EXPECT_EQ(tab.panel->inputs().weights, NumberFormat::Fp4);
    EXPECT_EQ(tab.panel->inputs().attentionWeights, NumberFormat::Fp8);
    EXPECT_EQ(tab.panel->scenario().report.computePrecision, NumberFormat::Fp4);
    expectSameAsCli(*tab.panel, "--model llama-3.1-70b --gpu b200 --weights fp4 --attention-weights fp8 --batch 16");
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingWeights"),
                                       static_cast<int>(NumberFormat::Mxfp4)));
    expectSameAsCli(*tab.panel, "--model llama-3.1-70b --gpu b200 --weights mxfp4 --attention-weights fp8 --batch 16");

    // Speculative decoding: A above K + 1 is refused in the model's words; a good A speeds each sequence up.
    const double plainPerSequence = tab.panel->scenario().report.tokensPerSecondPerSequence;
    EXPECT_FALSE(control<QDoubleSpinBox>(*tab.panel, "batchingSpecAcceptance")->isEnabled());
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingSpecTokens"), QStringLiteral("3"));
    ASSERT_TRUE(control<QDoubleSpinBox>(*tab.panel, "batchingSpecAcceptance")->isEnabled());
    fixtures::typeInto(control<QDoubleSpinBox>(*tab.panel, "batchingSpecAcceptance"), QStringLiteral("5"));
    expectError(*tab.panel, "must be between 1 and 4 for 3 draft tokens");
    fixtures::typeInto(control<QDoubleSpinBox>(*tab.panel, "batchingSpecAcceptance"), QStringLiteral("2.5"));
    expectSameAsCli(*tab.panel,
                    "--model llama-3.1-70b --gpu b200 --weights mxfp4 --attention-weights fp8 "
                    "--batch 16 --spec-tokens 3 --spec-acceptance 2.5");
    EXPECT_DOUBLE_EQ(tab.panel->scenario().report.tokensPerStep, 2.5);
    EXPECT_GT(tab.panel->scenario().report.tokensPerSecondPerSequence, plainPerSequence);
    // Off again: the acceptance no longer counts.
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingSpecTokens"), QStringLiteral("0"));
    EXPECT_FALSE(tab.panel->inputs().speculative.enabled());
    EXPECT_FALSE(tab.panel->scenario().error) << tab.panel->errorText().toStdString();
}

TEST(UiBatchingAdvanced, PerQueryHeadDecodeAttentionSlowsGroupedKvModelsAsTheCommandLineDoes)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    openAdvanced(*tab.panel);
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("mistral-7b")));
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingGpu"), QStringLiteral("h200")));
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingKv"), static_cast<int>(NumberFormat::Fp8)));
    const double grouped = tab.panel->scenario().report.tokensPerSecond;
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingDecodeAttention"),
                                       static_cast<int>(DecodeAttention::PerQueryHead)));
    EXPECT_EQ(tab.panel->inputs().decodeAttention, DecodeAttention::PerQueryHead);
    EXPECT_LT(tab.panel->scenario().report.tokensPerSecond, grouped);  // 4 query heads read each KV head
    expectSameAsCli(*tab.panel, "--model mistral-7b --gpu h200 --kv fp8 --batch 16 --decode-attention per-head");
    EXPECT_TRUE(control<QToolButton>(*tab.panel, "batchingAdvancedToggle")->text().contains(QLatin1String("1 set")));
    QCoreApplication::processEvents();  // the charts' titles are laid out by the event loop
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_decode_attention.png")));
}

TEST(UiBatchingAdvanced, SixteenGpusSpanTwoNodesOverTheChosenNetwork)
{
    fixtures::BatchingWindow tab(QSize(1920, 1080), fixtures::zen4Session());
    openAdvanced(*tab.panel);
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-3.1-405b")));
    setGpuCount(*tab.panel, 4);  // 16
    ASSERT_EQ(tab.panel->inputs().gpus, 16);
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingNetwork"), QStringLiteral("infiniband-hdr")));
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingGpusPerNode"), QStringLiteral("8"));
    EXPECT_EQ(tab.panel->scenario().report.nodes, 2);
    expectSameAsCli(*tab.panel,
                    "--model llama-3.1-405b --gpu h100-sxm --tp 16 --network infiniband-hdr "
                    "--gpus-per-node 8 --batch 16");
    // Six GPUs a node do not divide sixteen: the model's message.
    fixtures::typeInto(control<QSpinBox>(*tab.panel, "batchingGpusPerNode"), QStringLiteral("6"));
    expectError(*tab.panel, "6 GPUs per node does not divide the tensor-parallel degree 16");
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_advanced_error.png")));
}
