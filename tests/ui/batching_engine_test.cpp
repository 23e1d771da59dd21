// The batching tab uses the command line's default engine terms and shows where a step's time goes:
// driven by keys and clicks, its numbers are held against `ridgeline model --json` for the same inputs.

#include "core/model/llm/breakdown_text.h"
#include "core/model/llm/engine_profile.h"
#include "core/model/units.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/batching_tab_support.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/step_breakdown_bar.h"
#include "ui/widgets/log_slider.h"

#include "core/session/format/session_json.h"

#include <QComboBox>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;
using fixtures::control;

namespace {

// The panel's breakdown equals the command line's "breakdown" part for part, and its texts are the table's words.
void expectSameBreakdown(const BatchingPanel& panel, const QJsonObject& cli)
{
    const StepBreakdown& shown = panel.breakdownBar()->data().breakdown;
    const QJsonObject parts = cli.value(QStringLiteral("breakdown")).toObject();
    ASSERT_EQ(parts.size(), 5);
    for (const BreakdownPart part : kBreakdownParts) {
        const double expected = parts.value(breakdownPartKey(part)).toDouble(-1.0);
        EXPECT_NEAR(breakdownSeconds(shown, part), expected, 1e-12 + 1e-9 * expected)
            << breakdownPartKey(part).toStdString();
    }
    EXPECT_NEAR(panel.scenario().report.tokensPerSecond, cli.value(QStringLiteral("tokens_per_s")).toDouble(),
                1e-9 * panel.scenario().report.tokensPerSecond);
}

}  // namespace

TEST(UiBatchingEngine, TheTabUsesTheCommandLinesDefaultTermsAndShowsTheSameBreakdown)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-3.1-8b")));
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingGpu"), QStringLiteral("h200")));
    fixtures::typeInto(tab.panel->batchSlider()->spinBox(), QStringLiteral("64"));
    tab.settle();
    ASSERT_EQ(tab.panel->inputs().batch, 64);
    ASSERT_FALSE(tab.panel->scenario().error);
    const QComboBox* engine = control<QComboBox>(*tab.panel, "batchingEngine");
    EXPECT_EQ(engine->currentText(), QStringLiteral("generic (measured engine terms)"));
    EXPECT_EQ(tab.panel->scenario().config.efficiency, EngineTerms::measured());

    const QStringList workload = test::cliArgs("--model llama-3.1-8b --gpu h200 --batch 64 --context 8192");
    const QJsonObject measured = fixtures::cliModelJson(workload);
    expectSameBreakdown(*tab.panel, measured);
    // The bar says it in the words of the table `ridgeline model` prints: "weights 5.06 ms (21 %)", ...
    const test::CliRun table = test::runRidgeline(QStringList{QStringLiteral("model")} + workload);
    QString goes;
    for (const QString& line : table.out.split(QLatin1Char('\n')))
        if (line.trimmed().startsWith(QLatin1String("where it goes")))
            goes = line;
    ASSERT_FALSE(goes.isEmpty()) << table.out.toStdString();
    const QStringList texts = tab.panel->breakdownBar()->texts();
    int shownParts = 0;
    for (const QString& text : texts.mid(1)) {
        if (text.endsWith(QLatin1String(": none")) || text.contains(QLatin1String("hidden under")))
            continue;
        ++shownParts;
        EXPECT_TRUE(goes.contains(text)) << text.toStdString() << " not in " << goes.toStdString();
    }
    EXPECT_GE(shownParts, 3);
    // Compute takes none of the step's time of its own at batch 64, but its FLOPs run: the bar says where they went.
    const StepBreakdownData& shown = tab.panel->breakdownBar()->data();
    ASSERT_EQ(shown.breakdown.compute, 0.0);
    ASSERT_GT(shown.computeSeconds, 0.0);
    EXPECT_TRUE(texts.contains(QStringLiteral("compute: ") + formatSeconds(shown.computeSeconds) +
                               QStringLiteral(", hidden under memory")))
        << texts.join(u'|').toStdString();
    EXPECT_FALSE(texts.contains(QStringLiteral("compute: none")));
    EXPECT_TRUE(tab.panel->breakdownBar()->isVisible());
    // Each part that took time has its share of the bar's width.
    const StepBreakdown& b = tab.panel->breakdownBar()->data().breakdown;
    const double full = tab.panel->breakdownBar()->segmentRect(BreakdownPart::Weights).width() +
                        tab.panel->breakdownBar()->segmentRect(BreakdownPart::Kv).width() +
                        tab.panel->breakdownBar()->segmentRect(BreakdownPart::Overhead).width();
    EXPECT_NEAR(tab.panel->breakdownBar()->segmentRect(BreakdownPart::Kv).width() / full, b.kv / b.total(), 1e-6);

    // The plain roofline by keys: what `ridgeline model --plain` says, and no overhead any more.
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingEngine"),
                                       static_cast<int>(EngineChoice::Plain)));
    const QJsonObject plain = fixtures::cliModelJson(workload + QStringList{QStringLiteral("--plain")});
    expectSameBreakdown(*tab.panel, plain);
    EXPECT_TRUE(tab.panel->breakdownBar()->texts().contains(QStringLiteral("overhead: none")));
    EXPECT_TRUE(tab.panel->detailText().contains(QLatin1String("plain roofline: 75 % of bandwidth, 60 % of peak")))
        << tab.panel->detailText().toStdString();
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingEngine"),
                                       static_cast<int>(EngineChoice::Ideal)));
    expectSameBreakdown(*tab.panel, fixtures::cliModelJson(workload + QStringList{QStringLiteral("--ideal")}));
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingEngine"), kGenericEngineId));
    expectSameBreakdown(*tab.panel, measured);
    EXPECT_TRUE(tab.panel->detailText().contains(QLatin1String("measured engine terms: ")))
        << tab.panel->detailText().toStdString();
}

// Tensor parallelism adds communication to the bar, as it does to the command line's breakdown.
TEST(UiBatchingEngine, EightGpusShowTheirAllReducesInTheBreakdown)
{
    fixtures::BatchingWindow tab(QSize(1920, 1080), fixtures::zen4Session());
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingModel"), QStringLiteral("llama-3.1-70b")));
    QSlider* gpus = control<QSlider>(*tab.panel, "batchingGpuCount");
    fixtures::clickCentre(gpus);
    QTest::keyClick(gpus, Qt::Key_Home);
    for (int i = 0; i < 3; ++i)
        QTest::keyClick(gpus, Qt::Key_Right);
    ASSERT_EQ(tab.panel->inputs().gpus, 8);
    expectSameBreakdown(
        *tab.panel, fixtures::cliModelJson(test::cliArgs("--model llama-3.1-70b --gpu h100-sxm --tp 8 --batch 16")));
    EXPECT_GT(tab.panel->breakdownBar()->data().breakdown.communication, 0.0);
    EXPECT_FALSE(tab.panel->breakdownBar()->segmentRect(BreakdownPart::Communication).isEmpty());
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_breakdown_tp8.png")));
}

// The serving engine is an input of the tab: every engine of the catalog is offered, and one chosen by keys or by the
// mouse gives the command line's tokens/s for that engine, on each card the terms of its memory (llama.cpp streams an
// H100's HBM at a smaller share than a 4090's GDDR). The headline shows that figure and the detail names the profile.
TEST(UiBatchingEngine, AnEngineChosenInTheComboGivesTheCommandLinesTokensPerSecond)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), fixtures::zen4Session());
    QComboBox* engine = control<QComboBox>(*tab.panel, "batchingEngine");
    for (const EngineProfile& e : builtinEngines())
        EXPECT_GE(engine->findData(e.id), 0) << e.id.toStdString();
    EXPECT_GE(engine->findText(QStringLiteral("vLLM 0.6-0.10")), 0);
    const QStringList workload = test::cliArgs("--model llama-2-7b --batch 16 --context 8192");  // the tab's defaults
    const auto expectCli = [&](const QString& gpu, const QString& name) {
        const QJsonObject cli = fixtures::cliModelJson(
            workload + QStringList{QStringLiteral("--gpu"), gpu, QStringLiteral("--engine"), name});
        const double expected = cli.value(QStringLiteral("tokens_per_s")).toDouble();
        EXPECT_GT(expected, 0.0);
        EXPECT_NEAR(tab.panel->scenario().report.tokensPerSecond, expected, 1e-9 * expected) << gpu.toStdString();
        EXPECT_TRUE(tab.panel->headlineText().startsWith(formatSignificant(expected) + QStringLiteral(" tokens/s")))
            << tab.panel->headlineText().toStdString();
        return expected;
    };
    const double generic = tab.panel->scenario().report.tokensPerSecond;

    ASSERT_TRUE(fixtures::chooseByKeys(engine, QStringLiteral("llama.cpp")));
    tab.settle();
    EXPECT_EQ(tab.panel->inputs().engine, QStringLiteral("llama.cpp"));
    const double hbm = expectCli(QStringLiteral("h100-sxm"), QStringLiteral("llama.cpp"));
    EXPECT_LT(hbm, generic * 0.9);  // the engine changed the answer, not only the label
    EXPECT_TRUE(tab.panel->detailText().contains(QLatin1String("llama.cpp engine profile: ")))
        << tab.panel->detailText().toStdString();

    // Another card keeps the engine and takes its terms for that card's memory.
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*tab.panel, "batchingGpu"), QStringLiteral("rtx-4090")));
    tab.settle();
    EXPECT_EQ(engine->currentData().toString(), QStringLiteral("llama.cpp"));
    expectCli(QStringLiteral("rtx-4090"), QStringLiteral("llama.cpp"));

    ASSERT_TRUE(fixtures::chooseByMouse(engine, QStringLiteral("exllamav2")));
    tab.settle();
    EXPECT_EQ(tab.panel->inputs().engine, QStringLiteral("exllamav2"));
    expectCli(QStringLiteral("rtx-4090"), QStringLiteral("exllamav2"));
    EXPECT_TRUE(tab.panel->detailText().contains(QLatin1String("ExLlamaV2 engine profile: ")))
        << tab.panel->detailText().toStdString();
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_engine.png")));
    fixtures::layoutNow(tab.window, QSize(1280, 800));
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("batching_tab_engine_1280.png")));
}

// The engine is kept in the session: the one a session file names is chosen when the window opens it (a version its
// profile does not cover says what it falls back to), a choice by keys goes into the session, which saved and opened
// again brings it back; a session without one gives the default.
TEST(UiBatchingEngine, TheSessionKeepsTheEngineChosen)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    Session session = fixtures::zen4Session();
    session.engine = QStringLiteral("vllm@0.12");
    const QString named = dir.filePath(QStringLiteral("vllm.json"));
    ASSERT_FALSE(saveSession(session, named).has_value());

    MainWindow window;
    window.show();
    window.tabs()->setCurrentIndex(1);
    ASSERT_TRUE(window.openSession(named));
    fixtures::layoutNow(window, QSize(1600, 1000));
    BatchingPanel* panel = window.batchingPanel();
    QComboBox* engine = control<QComboBox>(*panel, "batchingEngine");
    EXPECT_EQ(engine->currentData().toString(), QStringLiteral("vllm"));
    EXPECT_EQ(panel->inputs().engine, QStringLiteral("vllm@0.12"));
    EXPECT_TRUE(panel->detailText().contains(QLatin1String("vLLM 0.12 engine profile: ")))
        << panel->detailText().toStdString();
    EXPECT_TRUE(panel->detailText().contains(QLatin1String("0.12 falls back to vLLM 0.10")))
        << panel->detailText().toStdString();
    const QStringList workload = test::cliArgs("--model llama-2-7b --gpu h100-sxm --batch 16 --context 8192");
    const double vllm =
        fixtures::cliModelJson(workload + test::cliArgs("--engine vllm@0.12")).value(u"tokens_per_s").toDouble();
    EXPECT_NEAR(panel->scenario().report.tokensPerSecond, vllm, 1e-9 * vllm);

    ASSERT_TRUE(fixtures::chooseByKeys(engine, QStringLiteral("llama.cpp")));
    const QString saved = dir.filePath(QStringLiteral("llama.json"));
    ASSERT_TRUE(window.saveSession(saved));
    const Result<Session> back = loadSession(saved);
    ASSERT_TRUE(back.ok()) << back.error().message.toStdString();
    EXPECT_EQ(back.value().engine, QStringLiteral("llama.cpp"));

    // A session of before the field: the default engine.
    ASSERT_TRUE(window.openSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json")));
    EXPECT_EQ(engine->currentData().toString(), kGenericEngineId);
    EXPECT_TRUE(panel->inputs().engine.isEmpty());
    EXPECT_EQ(panel->scenario().config.efficiency, EngineTerms::measured());
    // And the saved one brings llama.cpp back.
    ASSERT_TRUE(window.openSession(saved));
    EXPECT_EQ(engine->currentData().toString(), QStringLiteral("llama.cpp"));
    const double llama =
        fixtures::cliModelJson(workload + test::cliArgs("--engine llama.cpp")).value(u"tokens_per_s").toDouble();
    EXPECT_NEAR(panel->scenario().report.tokensPerSecond, llama, 1e-9 * llama);
}
