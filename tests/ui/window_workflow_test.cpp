// "no lost work" and "honest warnings": Open, Quit and a new measurement ask Save / Discard / Cancel
// about unsaved work and honour the answer; the last session reopens at start (a missing or broken file is named,
// not a crash); the empty chart offers the bundled measurement, a measurement and an example; after a run, one
// message says what cannot be trusted and offers a rerun; a new run clears what belonged to the old view. Every
// answer is a real mouse click or key press on the real dialog.

#include "core/session/format/session_json.h"
#include "tests/ui/modal_util.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui/window_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/bandwidth_chart.h"
#include "ui/file_actions.h"
#include "ui/mainwindow.h"
#include "ui/measure_actions.h"
#include "ui/models/session_document.h"
#include "ui/models/settings.h"
#include "ui/welcome_panel.h"

#include <QAction>
#include <QDialog>
#include <QDockWidget>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QToolBar>
#include <QToolButton>

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

using namespace ridgeline;
using namespace ridgeline::ui;
using ridgeline::fixtures::closeMessageBoxes;
using ridgeline::fixtures::showActive;
using ridgeline::fixtures::writeSession;

namespace {

// The toolbar button of an action, clicked with the mouse.
void clickToolButton(MainWindow& window, QAction* action)
{
    auto* toolbar = window.findChild<QToolBar*>(QStringLiteral("MainToolBar"));
    QWidget* button = toolbar->widgetForAction(action);
    ASSERT_NE(button, nullptr);
    QTest::mouseClick(button, Qt::LeftButton, Qt::NoModifier, button->rect().center());
}

// A fake engine that returns `session` at once.
MeasureFunction returning(const Session& session)
{
    return [session](const MeasureOptions&, const ProgressCallback& progress,
                     const PartialResultCallback&) -> Result<Session> {
        progress({1, 1, QStringLiteral("done")});
        return session;
    };
}

// A fake engine that runs until cancelled, reporting progress.
Result<Session> untilCancelled(const MeasureOptions&, const ProgressCallback& progress, const PartialResultCallback&)
{
    for (int step = 0;; ++step) {
        if (!progress({step % 100, 100, QStringLiteral("fake step")}))
            return makeError(Error::Code::Cancelled, QStringLiteral("cancelled"));
        std::this_thread::yield();
    }
}

}  // namespace

TEST(UiLostWork, QuitAsksAboutAnUnsavedMeasurementAndHonoursEachAnswer)
{
    QTemporaryDir dir;
    MainWindow window;
    window.setSession(fixtures::zen4Session());  // a finished measurement: unsaved, no file
    showActive(window, QSize(1280, 800));

    auto asked = fixtures::clickWhenAsked(QMessageBox::Cancel);
    EXPECT_FALSE(window.close());
    EXPECT_TRUE(asked->seen);
    EXPECT_EQ(asked->className, QStringLiteral("QMessageBox"));
    EXPECT_TRUE(asked->text.contains(QStringLiteral("Unsaved measurement")));
    EXPECT_TRUE(asked->informativeText.contains(QStringLiteral("quitting")));
    EXPECT_TRUE(window.isVisible()) << "Cancel keeps the window and the measurement";

    // Save: the file dialog asks where, the session is written, then the window closes.
    const QString path = dir.filePath(QStringLiteral("kept.json"));
    std::shared_ptr<fixtures::ModalSeen> fileDialog;
    asked = fixtures::saveAsWhenAsked(path, &fileDialog);
    EXPECT_TRUE(window.close());
    ASSERT_TRUE(fileDialog && fileDialog->seen);
    EXPECT_EQ(fileDialog->className, QStringLiteral("QFileDialog"));
    const Result<Session> saved = loadSession(path);
    ASSERT_TRUE(saved.ok());
    EXPECT_EQ(saved.value().kernels.size(), fixtures::zen4Session().kernels.size());
    EXPECT_EQ(Settings().lastSession(), QFileInfo(path).absoluteFilePath()) << "reopened at the next start";
}

TEST(UiLostWork, DiscardLetsTheWindowCloseAndNothingIsWritten)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    showActive(window, QSize(1280, 800));
    auto asked = fixtures::clickWhenAsked(QMessageBox::Discard);
    EXPECT_TRUE(window.close());
    EXPECT_TRUE(asked->seen);
    EXPECT_TRUE(Settings().lastSession().isEmpty()) << "an unsaved session has no file to reopen";
}

TEST(UiLostWork, CtrlOWithAnUnsavedImportAsksFirstAndCancelKeepsIt)
{
    QTemporaryDir dir;
    const QString other = writeSession(dir, QStringLiteral("other.json"), fixtures::zen4FasterDramSession());
    MainWindow window;
    ASSERT_TRUE(window.openSession(writeSession(dir, QStringLiteral("zen4.json"), fixtures::zen4Session())));
    ASSERT_TRUE(window.importFiles({QStringLiteral(RIDGELINE_TEST_DATA_DIR "/import/plain.csv")}));
    closeMessageBoxes(window);  // the import summary
    ASSERT_TRUE(window.document()->isDirty());
    showActive(window, QSize(1280, 800));
    const std::size_t kernels = window.document()->primary()->kernels.size();

    auto asked = fixtures::clickWhenAsked(QMessageBox::Cancel);
    QTest::keyClick(&window, Qt::Key_O, Qt::ControlModifier);
    EXPECT_TRUE(asked->seen);
    EXPECT_TRUE(asked->text.contains(QStringLiteral("zen4.json")));
    EXPECT_TRUE(asked->informativeText.contains(QStringLiteral("opening another session")));
    EXPECT_EQ(window.document()->primary()->kernels.size(), kernels);
    EXPECT_TRUE(window.document()->isDirty());

    // Discard, then the file dialog: the other session opens.
    std::shared_ptr<fixtures::ModalSeen> fileDialog;
    asked = fixtures::whenModal([other, &fileDialog](QWidget* modal) {
        auto* box = qobject_cast<QMessageBox*>(modal);
        if (!box)
            return;
        fileDialog = fixtures::typeFileWhenAsked(other, box);
        QAbstractButton* discard = box->button(QMessageBox::Discard);
        QTest::mouseClick(discard, Qt::LeftButton, Qt::NoModifier, discard->rect().center());
    });
    showActive(window, QSize(1280, 800));  // the closed question hands the focus back, as a window manager does
    QTest::keyClick(&window, Qt::Key_O, Qt::ControlModifier);
    EXPECT_TRUE(asked->seen);
    ASSERT_TRUE(fileDialog);
    EXPECT_TRUE(fileDialog->seen);
    EXPECT_EQ(window.currentPath(), QFileInfo(other).absoluteFilePath());
    EXPECT_FALSE(window.document()->isDirty());
}

TEST(UiLostWork, ANewMeasurementAsksAndSaveWritesTheOpenFileFirst)
{
    QTemporaryDir dir;
    const QString path = writeSession(dir, QStringLiteral("zen4.json"), fixtures::zen4Session());
    MainWindow window(&untilCancelled);
    ASSERT_TRUE(window.openSession(path));
    ASSERT_TRUE(window.document()->removeKernel(0));  // an edit: unsaved
    showActive(window, QSize(1280, 800));

    auto asked = fixtures::clickWhenAsked(QMessageBox::Cancel);
    clickToolButton(window, window.measureActions()->quickAction());
    EXPECT_TRUE(asked->seen);
    EXPECT_TRUE(asked->informativeText.contains(QStringLiteral("measuring")));
    EXPECT_FALSE(window.runner()->isRunning()) << "Cancel: no run";

    asked = fixtures::clickWhenAsked(QMessageBox::Save);
    clickToolButton(window, window.measureActions()->quickAction());
    EXPECT_TRUE(asked->seen);
    EXPECT_TRUE(window.runner()->isRunning());
    EXPECT_EQ(loadSession(path).value().kernels.size(), fixtures::zen4Session().kernels.size() - 1)
        << "Save wrote the edit to the open file before the run";
    QSignalSpy cancelled(window.runner(), &MeasureRunner::cancelled);
    window.cancelMeasurement();
    ASSERT_TRUE(cancelled.wait());
}

TEST(UiLostWork, NothingUnsavedMeansNoQuestion)
{
    QTemporaryDir dir;
    MainWindow window;
    ASSERT_TRUE(window.openSession(writeSession(dir, QStringLiteral("clean.json"), fixtures::zen4Session())));
    showActive(window, QSize(1280, 800));
    auto asked = fixtures::clickWhenAsked(QMessageBox::Cancel);
    EXPECT_TRUE(window.close());
    QTest::qWait(50);
    EXPECT_FALSE(asked->seen);
}

TEST(UiStartup, TheLastSessionReopensAndAMissingOrBrokenOneIsNamed)
{
    QTemporaryDir dir;
    const QString path = writeSession(dir, QStringLiteral("last.json"), fixtures::zen4Session());
    {
        MainWindow window;
        ASSERT_TRUE(window.openSession(path));
        window.show();
        EXPECT_TRUE(window.close());
    }
    {
        MainWindow window;
        EXPECT_TRUE(window.reopenLastSession());
        EXPECT_EQ(window.currentPath(), QFileInfo(path).absoluteFilePath());
        EXPECT_TRUE(window.welcomePanel()->isHidden());
    }
    // Broken since: the loader's reason, under a title that says what was being done.
    {
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write("{ \"format\": \"ridgeline-session\", \"schema_version\": 2, ");
    }
    {
        MainWindow window;
        QSignalSpy errors(&window, &MainWindow::errorReported);
        EXPECT_FALSE(window.reopenLastSession());
        ASSERT_EQ(errors.count(), 1);
        EXPECT_EQ(errors.front().at(0).toString(), QStringLiteral("Cannot reopen the last session"));
        EXPECT_TRUE(errors.front().at(1).toString().contains(QStringLiteral("last.json")));
        fixtures::layoutNow(window, QSize(1280, 800));
        EXPECT_TRUE(window.welcomePanel()->isVisible()) << "the empty chart offers what to start from";
        closeMessageBoxes(window);
    }
    // Gone since.
    QFile::remove(path);
    {
        MainWindow window;
        QSignalSpy errors(&window, &MainWindow::errorReported);
        EXPECT_FALSE(window.reopenLastSession());
        ASSERT_EQ(errors.count(), 1);
        EXPECT_TRUE(errors.front().at(1).toString().contains(path));
        EXPECT_TRUE(errors.front().at(1).toString().contains(QStringLiteral("no longer there")));
        closeMessageBoxes(window);
    }
    // The setting off: nothing reopens, nothing is said.
    Settings settings;
    settings.setLastSession(writeSession(dir, QStringLiteral("again.json"), fixtures::zen4Session()));
    settings.setReopenLastSession(false);
    {
        MainWindow window;
        EXPECT_FALSE(window.reopenLastSession());
        EXPECT_EQ(window.document()->primary(), nullptr);
    }
    settings.setReopenLastSession(true);
    settings.setLastSession({});
}

// A first window (no saved geometry) takes 1600 x 1000 where the screen has room and nine tenths of a smaller
// screen: never past its edge (a 1366 x 768 laptop; the offscreen platform's screen is 800 x 600).
TEST(UiStartup, AFirstWindowFitsTheScreen)
{
    MainWindow window;
    window.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
    const QSize screen = window.screen()->availableGeometry().size();
    EXPECT_LE(window.frameGeometry().width(), screen.width()) << screen.width();
    EXPECT_LE(window.frameGeometry().height(), screen.height()) << screen.height();
    EXPECT_EQ(window.size(), QSize(1600, 1000).boundedTo(screen * 0.9));
    window.close();
}

TEST(UiStartup, TheEmptyChartOffersTheBundledMeasurementAMeasurementAndAnExample)
{
    MainWindow window(returning(fixtures::zen4Session()));
    window.measureActions()->setLoadAverageProbe([] { return std::optional<double>(0.0); });
    showActive(window, QSize(1280, 800));
    WelcomePanel* welcome = window.welcomePanel();
    ASSERT_TRUE(welcome->isVisible());
    EXPECT_TRUE(window.chart()->geometry().contains(welcome->geometry().translated(window.chart()->pos())));
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("welcome_1280x800.png")));

    QPushButton* bundled = welcome->bundledButton();
    QTest::mouseClick(bundled, Qt::LeftButton, Qt::NoModifier, bundled->rect().center());
    ASSERT_NE(window.document()->primary(), nullptr);
    EXPECT_TRUE(window.document()->primary()->title.contains(QStringLiteral("EPYC")));
    EXPECT_FALSE(window.document()->isDirty()) << "nothing of the user's to lose";
    EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("Bundled measurement")));
    EXPECT_FALSE(welcome->isVisible());
    EXPECT_GT(window.chart()->kernelPointCount(), 0);
}

TEST(UiStartup, TheExampleMenuAndTheMeasureOfferWork)
{
    {
        MainWindow window;
        showActive(window, QSize(1280, 800));
        QPushButton* example = window.welcomePanel()->exampleButton();
        // The button's menu opens as a popup; Return takes its first entry.
        const auto menu = fixtures::whenPopup([](QWidget* popup) {
            QTest::keyClick(popup, Qt::Key_Down);
            QTest::keyClick(popup, Qt::Key_Return);
        });
        QTest::mouseClick(example, Qt::LeftButton, Qt::NoModifier, example->rect().center());
        ASSERT_TRUE(QTest::qWaitFor([&] { return menu->seen && window.document()->primary() != nullptr; }, 10000));
        ASSERT_NE(window.document()->primary(), nullptr);
        EXPECT_TRUE(window.document()->primary()->title.contains(QStringLiteral("Xeon")));
        EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("Example:")));
    }
    MainWindow window(returning(fixtures::zen4Session()));
    window.measureActions()->setLoadAverageProbe([] { return std::optional<double>(0.0); });
    showActive(window, QSize(1280, 800));
    QSignalSpy finished(window.runner(), &MeasureRunner::finished);
    QPushButton* measure = window.welcomePanel()->measureButton();
    QTest::mouseClick(measure, Qt::LeftButton, Qt::NoModifier, measure->rect().center());
    ASSERT_TRUE(finished.count() > 0 || finished.wait());
    EXPECT_EQ(window.chart()->kernelPointCount(), 16);
    EXPECT_TRUE(window.document()->isDirty());
    EXPECT_EQ(window.measureActions()->warningBox(), nullptr) << "a clean run on an idle machine: no warning";
}

TEST(UiRunWarnings, ADoubtfulRunGetsOneMessageAndMeasureAgainStartsARun)
{
    Session doubtful = fixtures::zen4Session();
    doubtful.kernels[3].gflops = 320.0;  // sgemm 4096 above the 230 GFLOP/s fp32 roof
    doubtful.noisyMeasurements = {QStringLiteral("DRAM bandwidth")};
    std::atomic<int> runs{0};
    MainWindow window([&](const MeasureOptions& options, const ProgressCallback& progress,
                          const PartialResultCallback& partial) -> Result<Session> {
        if (++runs == 1)
            return returning(doubtful)(options, progress, partial);
        return untilCancelled(options, progress, partial);
    });
    // Four runnable tasks per CPU when the run started.
    const double load = 4.0 * QThread::idealThreadCount();
    window.measureActions()->setLoadAverageProbe([load] { return std::optional<double>(load); });
    showActive(window, QSize(1280, 800));
    QSignalSpy finished(window.runner(), &MeasureRunner::finished);
    window.startMeasurement(true);
    ASSERT_TRUE(finished.count() > 0 || finished.wait());
    QMessageBox* box = window.measureActions()->warningBox();
    ASSERT_NE(box, nullptr);
    EXPECT_EQ(window.findChildren<QMessageBox*>().size(), 1) << "one message, not one per problem";
    EXPECT_TRUE(box->text().contains(QStringLiteral("sgemm 4096")));
    EXPECT_TRUE(box->text().contains(QStringLiteral("DRAM bandwidth")));
    EXPECT_TRUE(box->text().contains(QStringLiteral("load average was")));
    fixtures::grabImage(*box).save(fixtures::outputPath(QStringLiteral("run_warnings.png")));
    // The run stays open, unsaved, behind the message.
    EXPECT_EQ(window.document()->primary()->kernels[3].gflops, 320.0);

    auto* again = box->findChild<QPushButton*>(QStringLiteral("MeasureAgainButton"));
    ASSERT_NE(again, nullptr);
    QTest::mouseClick(again, Qt::LeftButton, Qt::NoModifier, again->rect().center());
    EXPECT_TRUE(window.runner()->isRunning()) << "no question about saving: the user chose to replace this run";
    // The worker thread counts the run when it starts it: under load that is a moment after the click.
    EXPECT_TRUE(QTest::qWaitFor([&] { return runs.load() == 2; }, 5000)) << runs.load();
    QSignalSpy cancelled(window.runner(), &MeasureRunner::cancelled);
    window.cancelMeasurement();
    ASSERT_TRUE(cancelled.wait());
    EXPECT_EQ(window.document()->primary()->kernels[3].gflops, 320.0) << "a cancelled rerun keeps the first run";
}

TEST(UiMeasureState, ANewRunClearsTheExplanationTheHighlightedRoofAndTheStaircase)
{
    QTemporaryDir dir;
    MainWindow window(&untilCancelled);
    ASSERT_TRUE(window.openSession(writeSession(dir, QStringLiteral("zen4.json"), fixtures::zen4Session())));
    showActive(window, QSize(1280, 800));
    // A kernel explained (a click on its row), a roof highlighted (a click on an L2 point of the staircase).
    QTableView* table = window.findChild<QTableView*>();
    ASSERT_NE(table, nullptr);
    const QRect row = table->visualRect(table->model()->index(5, 0));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, row.center());
    ASSERT_TRUE(window.explanationHtml().contains(QStringLiteral("DRAM 40 GB/s")));
    window.findChild<QDockWidget*>(QStringLiteral("BandwidthDock"))->raise();
    QCoreApplication::processEvents();
    BandwidthChart* staircase = window.bandwidthChart();
    QTest::mouseClick(staircase->viewport(), Qt::LeftButton, Qt::NoModifier, staircase->pointPosition(6));
    ASSERT_EQ(window.chart()->highlightedLevel(), QStringLiteral("L2"));
    ASSERT_GT(staircase->curvePointCount(), 0);

    window.startMeasurement(true);
    ASSERT_TRUE(window.runner()->isRunning());
    EXPECT_FALSE(window.explanationHtml().contains(QStringLiteral("DRAM 40 GB/s")));
    EXPECT_TRUE(window.chart()->highlightedLevel().isEmpty());
    EXPECT_TRUE(staircase->selectedLevel().isEmpty());
    EXPECT_EQ(staircase->curvePointCount(), 0);
    QSignalSpy cancelled(window.runner(), &MeasureRunner::cancelled);
    window.cancelMeasurement();
    ASSERT_TRUE(cancelled.wait());
    EXPECT_GT(staircase->curvePointCount(), 0) << "a cancelled run gives the open session's staircase back";
}
