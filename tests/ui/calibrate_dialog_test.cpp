// File > Calibrate the Model on Benchmark Results…: the person picks their result
// files in the file dialog, types what the files do not record, clicks Fit; the fit runs on a worker thread, joins
// the open session (unsaved) and the batching tab draws the runs over the model's curves. What cannot be fitted is
// said in the dialog, which stays open, and the session does not change. Fixture: tests/data/bench/
// latency_sweep_mi300x (vLLM's published benchmark_latency.py medians, as the README's `ridgeline calibrate` example).

#include "ui/calibrate_dialog.h"
#include "core/bench/calibration/calibration_record_builder.h"
#include "core/model/catalog/user_catalog.h"
#include "core/session/format/session_json.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/batching_tab_support.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/calibration_chart.h"
#include "ui/mainwindow.h"
#include "ui/models/session_document.h"
#include "ui/panels/batching_panel.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QMimeData>
#include <QPointer>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;
using namespace ridgeline::ui;
using fixtures::control;

namespace {

const QString kSweepDir = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bench/latency_sweep_mi300x");

struct CalibrateFixture {
    QTemporaryDir dir;
    MainWindow window;
    QString sessionPath;
    CalibrateFixture()
    {
        sessionPath = dir.filePath(QStringLiteral("zen4.json"));
        EXPECT_FALSE(saveSession(fixtures::zen4Session(), sessionPath).has_value());
        EXPECT_TRUE(window.openSession(sessionPath));
        fixtures::layoutNow(window, QSize(1600, 1000));
    }
};

CalibrateDialog* openCalibrateDialog(MainWindow& window)
{
    QAction* action = window.findChild<QAction*>(QStringLiteral("calibrateAction"));
    EXPECT_NE(action, nullptr);
    if (!action)
        return nullptr;
    action->trigger();
    return fixtures::openDialog<CalibrateDialog>("CalibrateDialog");
}

void typeInto(QWidget* field, const QString& text)
{
    QTest::mouseClick(field, Qt::LeftButton, Qt::NoModifier, field->rect().center());
    QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(field, text);
}

void click(QWidget* button)
{
    QTest::mouseClick(button, Qt::LeftButton, Qt::NoModifier, button->rect().center());
}

// Add Files…: in the file dialog, go to `folder`, then type the names ("a.json" "b.json") and press Return.
void addFiles(CalibrateDialog& dialog, const QString& folder, const QStringList& names)
{
    click(control<QPushButton>(dialog, "calibrateAddFiles"));
    const QPointer<QFileDialog> files = fixtures::openDialog<QFileDialog>("CalibrateFileDialog");
    ASSERT_NE(files, nullptr);
    QLineEdit* name = files->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    typeInto(name, folder);
    QTest::keyClick(name, Qt::Key_Return);
    QStringList quoted;
    for (const QString& n : names)
        quoted << QLatin1Char('"') + n + QLatin1Char('"');
    typeInto(name, quoted.join(QLatin1Char(' ')));
    QTest::keyClick(name, Qt::Key_Return);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_TRUE(files.isNull());
}

// Fit, then wait for the worker thread's answer (the dialog closes on success, says why it did not otherwise).
void fit(CalibrateDialog& dialog)
{
    QPointer<CalibrateDialog> alive(&dialog);
    click(control<QPushButton>(dialog, "calibrateFit"));
    for (int i = 0; i < 6000 && alive && alive->isFitting(); ++i)
        QTest::qWait(10);  // a guard against a hang, not a time limit: a fit takes well under a second here
    QCoreApplication::processEvents();
}

}  // namespace

TEST(UiCalibrate, FiveLatencyRunsFromTheMenuJoinTheSessionAndTheCurveBendsThroughThem)
{
    CalibrateFixture f;
    ASSERT_FALSE(f.window.document()->isDirty());
    QPointer<CalibrateDialog> dialog = openCalibrateDialog(f.window);
    ASSERT_NE(dialog, nullptr);
    fixtures::layoutNow(*dialog, dialog->size());
    const QStringList names = {QStringLiteral("batch_1.json"), QStringLiteral("batch_4.json"),
                               QStringLiteral("batch_16.json"), QStringLiteral("batch_64.json"),
                               QStringLiteral("batch_128.json")};
    addFiles(*dialog, kSweepDir, names);
    ASSERT_EQ(dialog->files().size(), 5);
    EXPECT_TRUE(dialog->files().front().endsWith(QLatin1String("batch_1.json")));
    // Each file says what it is as it is added.
    const QListWidget* list = control<QListWidget>(*dialog, "calibrateFiles");
    EXPECT_EQ(list->item(0)->text(), QStringLiteral("batch_1.json  \u00b7  vLLM latency result, 1 run"));
    // vLLM's latency JSON records neither the setup nor the batch: the person says what ran.
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*dialog, "calibrateModel"), QStringLiteral("llama-3.1-70b")));
    ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*dialog, "calibrateGpu"), QStringLiteral("mi300x")));
    typeInto(control<QSpinBox>(*dialog, "calibrateTp")->findChild<QLineEdit*>(), QStringLiteral("8"));
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*dialog, "calibrateWeights"), static_cast<int>(NumberFormat::Fp8)));
    ASSERT_TRUE(
        fixtures::chooseByKeys(control<QComboBox>(*dialog, "calibrateKv"), static_cast<int>(NumberFormat::Fp8)));
    typeInto(control<QLineEdit>(*dialog, "calibrateBatch"), QStringLiteral("1,4,16,64,128"));
    typeInto(control<QLineEdit>(*dialog, "calibrateInputLen"), QStringLiteral("128"));
    typeInto(control<QLineEdit>(*dialog, "calibrateOutputLen"), QStringLiteral("2048"));
    fixtures::grabImage(*dialog).save(fixtures::outputPath(QStringLiteral("calibrate_dialog.png")));
    fit(*dialog);
    ASSERT_TRUE(dialog.isNull() || !dialog->isVisible()) << (dialog ? dialog->problemText().toStdString() : "");

    // The fit joined the open session, which now has something unsaved.
    const Session* session = f.window.document()->primary();
    ASSERT_NE(session, nullptr);
    ASSERT_EQ(session->calibrations.size(), 1u);
    EXPECT_EQ(session->calibrations.front().points.size(), 5u);
    EXPECT_TRUE(f.window.document()->isDirty());
    EXPECT_EQ(session->kernels.size(), fixtures::zen4Session().kernels.size());  // nothing else changed
    // The batching tab shows it: the five runs over the curves, which bend through them as the command line's fit
    // does (README: after the fit 17.79 s at batch 1, within 3.5 % of every run).
    EXPECT_EQ(f.window.findChild<QTabWidget*>()->currentIndex(), 1);
    CalibrationChart* chart = f.window.batchingPanel()->calibrationChart();
    ASSERT_TRUE(chart->isVisible());
    ASSERT_TRUE(chart->hasData());
    const QList<QPointF> measured = chart->measuredSeries()->points();
    ASSERT_EQ(measured.size(), 5);
    auto after = [&](double batch) {
        for (const QPointF& a : chart->afterSeries()->points())
            if (a.x() == batch)
                return a.y();
        return -1.0;
    };
    EXPECT_NEAR(after(1.0), 17.79, 0.005);
    for (const QPointF& p : measured)
        EXPECT_LT(std::fabs(after(p.x()) / p.y() - 1.0), 0.036) << p.x();
    // The tab now models what was measured, with the fitted terms: its own curves are the fit's.
    const InferenceRequest& inputs = f.window.batchingPanel()->inputs();
    EXPECT_EQ(inputs.modelId, QStringLiteral("llama-3.1-70b"));
    EXPECT_EQ(inputs.gpuId, QStringLiteral("mi300x"));
    EXPECT_EQ(inputs.gpus, 8);
    EXPECT_EQ(inputs.weights, NumberFormat::Fp8);
    EXPECT_EQ(inputs.kv, NumberFormat::Fp8);
    EXPECT_EQ(inputs.batch, 128);
    EXPECT_EQ(inputs.context, 128 + 2048);
    const QComboBox* engine = control<QComboBox>(*f.window.batchingPanel(), "batchingEngine");
    EXPECT_EQ(engine->currentText(), QStringLiteral("Fitted to batch_1.json"));
    ASSERT_TRUE(inputs.terms.has_value());
    EXPECT_EQ(*inputs.terms, fittedTerms(session->calibrations.front()).value());
    fixtures::layoutNow(f.window, QSize(1600, 1000));
    fixtures::grabImage(f.window).save(fixtures::outputPath(QStringLiteral("calibrate_window_after.png")));

    // Saved, it is the session the command line writes: loaded back, the same calibration.
    const QString saved = f.dir.filePath(QStringLiteral("calibrated.json"));
    ASSERT_TRUE(f.window.document()->save(saved));
    const Result<Session> loaded = loadSession(saved);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    ASSERT_EQ(loaded.value().calibrations.size(), 1u);
    EXPECT_EQ(loaded.value().calibrations.front().points.size(), 5u);
}

TEST(UiCalibrate, WhatCannotBeFittedIsSaidInTheDialogAndTheSessionStaysAsItWas)
{
    CalibrateFixture f;
    QPointer<CalibrateDialog> dialog = openCalibrateDialog(f.window);
    ASSERT_NE(dialog, nullptr);
    auto* problem = control<QLabel>(*dialog, "calibrateProblem");
    EXPECT_FALSE(control<QPushButton>(*dialog, "calibrateFit")->isEnabled());  // no file yet

    // The latency runs without the facts they do not record: the dialog names its own fields.
    addFiles(*dialog, kSweepDir, {QStringLiteral("batch_1.json"), QStringLiteral("batch_4.json")});
    fit(*dialog);
    ASSERT_FALSE(dialog.isNull());
    EXPECT_TRUE(dialog->isVisible());
    EXPECT_TRUE(problem->isVisible());
    EXPECT_TRUE(dialog->problemText().contains(QLatin1String("batch_1.json"))) << dialog->problemText().toStdString();
    EXPECT_TRUE(dialog->problemText().contains(QLatin1String("Model"))) << dialog->problemText().toStdString();
    EXPECT_FALSE(dialog->problemText().contains(QLatin1String("--"))) << dialog->problemText().toStdString();

    // Three batch sizes for two files.
    typeInto(control<QLineEdit>(*dialog, "calibrateBatch"), QStringLiteral("1,4,16"));
    fit(*dialog);
    EXPECT_TRUE(dialog->problemText().contains(QLatin1String("Batch gives 3 values for 2 files")))
        << dialog->problemText().toStdString();

    // A file that is no benchmark result: named, with what it looks like.
    QFile junk(f.dir.filePath(QStringLiteral("notes.json")));
    ASSERT_TRUE(junk.open(QIODevice::WriteOnly));
    junk.write("{\"hello\": [1, 2,");
    junk.close();
    QListWidget* list = control<QListWidget>(*dialog, "calibrateFiles");
    list->selectAll();
    click(control<QPushButton>(*dialog, "calibrateRemoveFiles"));
    EXPECT_EQ(dialog->files().size(), 0);
    EXPECT_FALSE(control<QPushButton>(*dialog, "calibrateFit")->isEnabled());
    addFiles(*dialog, f.dir.path(), {QStringLiteral("notes.json")});
    EXPECT_TRUE(list->item(0)->text().contains(QLatin1String("not a benchmark result")))
        << list->item(0)->text().toStdString();
    EXPECT_TRUE(list->item(0)->toolTip().startsWith(QLatin1String("notes.json: a JSON file of none")))
        << list->item(0)->toolTip().toStdString();
    control<QLineEdit>(*dialog, "calibrateBatch")->clear();
    fit(*dialog);
    EXPECT_TRUE(dialog->problemText().startsWith(QLatin1String("notes.json"))) << dialog->problemText().toStdString();

    // Nothing changed: no calibration, nothing unsaved, the roofline tab still in front.
    const Session* session = f.window.document()->primary();
    ASSERT_NE(session, nullptr);
    EXPECT_TRUE(session->calibrations.empty());
    EXPECT_FALSE(f.window.document()->isDirty());
    EXPECT_EQ(f.window.findChild<QTabWidget*>()->currentIndex(), 0);
    fixtures::grabImage(*dialog).save(fixtures::outputPath(QStringLiteral("calibrate_dialog_problem.png")));
    dialog->reject();
}

// A benchmark result dropped on the window (with a profile) goes to the Calibrate dialog, already listed; the profile
// is imported as before. Through Import Profile… too: a benchmark result is no profile.
TEST(UiCalibrate, ADroppedBenchmarkResultOpensTheDialogWithIt)
{
    CalibrateFixture f;
    const QString bench = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bench/sglang_2025.jsonl");
    const QString profile = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/import/plain.csv");
    const std::size_t kernelsBefore = f.window.document()->primary()->kernels.size();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(bench), QUrl::fromLocalFile(profile)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&f.window, &enter);
    ASSERT_TRUE(enter.isAccepted());
    QDropEvent dropped(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&f.window, &dropped);
    QPointer<CalibrateDialog> dialog = fixtures::openDialog<CalibrateDialog>("CalibrateDialog");
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->files(), QStringList{bench});
    EXPECT_TRUE(control<QListWidget>(*dialog, "calibrateFiles")->item(0)->text().contains(QLatin1String("SGLang")))
        << control<QListWidget>(*dialog, "calibrateFiles")->item(0)->text().toStdString();
    EXPECT_TRUE(control<QPushButton>(*dialog, "calibrateFit")->isEnabled());
    EXPECT_GT(f.window.document()->primary()->kernels.size(), kernelsBefore);  // the profile was imported
    dialog->reject();
}

// "Remove This Calibration" takes the shown series' calibration out of the session, and Edit > Undo (Ctrl+Z) puts
// it back: work the person made is not lost to one click.
TEST(UiCalibrate, RemoveThisCalibrationIsUndoable)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sweep.json"));
    ASSERT_TRUE(QFile::copy(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/calibrated_sweep.json"), path));
    MainWindow window;
    ASSERT_TRUE(window.openSession(path));
    window.findChild<QTabWidget*>()->setCurrentIndex(1);
    fixtures::layoutNow(window, QSize(1600, 1000));
    BatchingPanel* panel = window.batchingPanel();
    ASSERT_TRUE(panel->calibrationChart()->isVisible());
    auto* remove = control<QPushButton>(*panel, "batchingRemoveCalibration");
    ASSERT_TRUE(remove->isVisible());
    ASSERT_TRUE(remove->isEnabled());

    click(remove);
    EXPECT_TRUE(window.document()->primary()->calibrations.empty());
    EXPECT_TRUE(window.document()->isDirty());
    EXPECT_FALSE(panel->calibrationChart()->isVisible());
    EXPECT_EQ(control<QComboBox>(*panel, "batchingEngine")->findText(QStringLiteral("Fitted to batch_1.json")), -1);

    QTest::keyClick(&window, Qt::Key_Z, Qt::ControlModifier);
    ASSERT_EQ(window.document()->primary()->calibrations.size(), 1u);
    EXPECT_FALSE(window.document()->isDirty());  // back to what the file holds
    EXPECT_TRUE(panel->calibrationChart()->isVisible());
    EXPECT_TRUE(panel->calibrationChart()->hasData());
}

// The dialog's "Save as my engine": the fit is kept as an engine of the person's own as `ridgeline calibrate
// --save-engine` keeps it; the batching tab's engine choice then offers it, and chosen by keys it gives the command
// line's tokens/s for `--engine` with that id. An id --engine could not take is said in the dialog, which stays
// open, and nothing changes.
TEST(UiCalibrate, TheFitSavedAsAnEngineIsOfferedInTheBatchingTab)
{
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    const QByteArray previous = qgetenv("XDG_CONFIG_HOME");
    qputenv("XDG_CONFIG_HOME", home.path().toLocal8Bit());
    reloadUserCatalogs();
    const QString engines = home.path() + QStringLiteral("/ridgeline/engines.json");
    {
        CalibrateFixture f;
        QPointer<CalibrateDialog> dialog = openCalibrateDialog(f.window);
        ASSERT_NE(dialog, nullptr);
        addFiles(*dialog, kSweepDir, {QStringLiteral("batch_1.json"), QStringLiteral("batch_16.json")});
        ASSERT_TRUE(
            fixtures::chooseByKeys(control<QComboBox>(*dialog, "calibrateModel"), QStringLiteral("llama-3.1-70b")));
        ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*dialog, "calibrateGpu"), QStringLiteral("mi300x")));
        typeInto(control<QSpinBox>(*dialog, "calibrateTp")->findChild<QLineEdit*>(), QStringLiteral("8"));
        ASSERT_TRUE(fixtures::chooseByKeys(control<QComboBox>(*dialog, "calibrateWeights"),
                                           static_cast<int>(NumberFormat::Fp8)));
        ASSERT_TRUE(
            fixtures::chooseByKeys(control<QComboBox>(*dialog, "calibrateKv"), static_cast<int>(NumberFormat::Fp8)));
        typeInto(control<QLineEdit>(*dialog, "calibrateBatch"), QStringLiteral("1,16"));
        typeInto(control<QLineEdit>(*dialog, "calibrateInputLen"), QStringLiteral("128"));
        typeInto(control<QLineEdit>(*dialog, "calibrateOutputLen"), QStringLiteral("2048"));

        typeInto(control<QLineEdit>(*dialog, "calibrateEngineId"), QStringLiteral("my engine"));
        fit(*dialog);
        ASSERT_FALSE(dialog.isNull());
        EXPECT_TRUE(dialog->problemText().contains(QLatin1String("engines[0].id \"my engine\" must be")))
            << dialog->problemText().toStdString();
        EXPECT_TRUE(f.window.document()->primary()->calibrations.empty());
        EXPECT_FALSE(QFile::exists(engines));

        typeInto(control<QLineEdit>(*dialog, "calibrateEngineId"), QStringLiteral("my-mi300x"));
        fit(*dialog);
        ASSERT_TRUE(dialog.isNull() || !dialog->isVisible()) << (dialog ? dialog->problemText().toStdString() : "");
        ASSERT_TRUE(QFile::exists(engines));
        ASSERT_EQ(f.window.document()->primary()->calibrations.size(), 1u);

        BatchingPanel* panel = f.window.batchingPanel();
        QComboBox* engine = control<QComboBox>(*panel, "batchingEngine");
        const int mine = engine->findData(QStringLiteral("my-mi300x"));
        ASSERT_GE(mine, 0);
        EXPECT_EQ(engine->itemText(mine), QStringLiteral("my-mi300x (mine)"));
        ASSERT_TRUE(fixtures::chooseByKeys(engine, QStringLiteral("my-mi300x")));
        EXPECT_EQ(panel->scenario().config.efficiency,
                  fittedTerms(f.window.document()->primary()->calibrations.front()).value());
        const InferenceRequest& in = panel->inputs();
        const QJsonObject cli = fixtures::cliModelJson(
            {QStringLiteral("--model"), in.modelId, QStringLiteral("--gpu"), in.gpuId, QStringLiteral("--tp"),
             QString::number(in.gpus), QStringLiteral("--weights"), QStringLiteral("fp8"), QStringLiteral("--kv"),
             QStringLiteral("fp8"), QStringLiteral("--batch"), QString::number(in.batch), QStringLiteral("--context"),
             QString::number(in.context), QStringLiteral("--engine"), QStringLiteral("my-mi300x")});
        const double expected = cli.value(QStringLiteral("tokens_per_s")).toDouble();
        ASSERT_GT(expected, 0.0);
        EXPECT_NEAR(panel->scenario().report.tokensPerSecond, expected, 1e-9 * expected);
        EXPECT_TRUE(panel->detailText().contains(QLatin1String("my-mi300x engine profile: ")))
            << panel->detailText().toStdString();
        // Kept in the session, as any engine.
        EXPECT_EQ(f.window.document()->primary()->engine, QStringLiteral("my-mi300x"));
    }
    qputenv("XDG_CONFIG_HOME", previous);
    reloadUserCatalogs();
}
