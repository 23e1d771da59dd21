// The window: opening, overlaying, bad files, saving, the measurement runner wired to the chart.

#include "ui/mainwindow.h"
#include "core/scene/scene_facts.h"
#include "core/session/decode_energy.h"
#include "core/session/format/session_json.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui/window_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/bandwidth_chart.h"
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/cpu_batching_chart.h"
#include "ui/chart/decode_roofline_chart.h"
#include "ui/measurement_dock.h"
#include "ui/models/kernel_table_model.h"
#include "ui/models/session_list_model.h"
#include "ui/models/settings.h"
#include "ui/panels/batching_panel.h"
#include "ui/talk/presentation_window.h"
#include "ui/talk/scene_view.h"
#include "ui/talk/speaker_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPointer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>

using namespace ridgeline;
using namespace ridgeline::ui;
using ridgeline::fixtures::closeMessageBoxes;
using ridgeline::fixtures::writeSession;

namespace {

// A fake engine: reports a ceiling at a time until told to stop; never finishes on its own.
Result<Session> endlessMeasurement(const MeasureOptions&, const ProgressCallback& progress,
                                   const PartialResultCallback& partial)
{
    Session soFar = fixtures::zen4Session();
    soFar.kernels.clear();
    for (int step = 0;; ++step) {
        if (!progress({step % 100, 100, QStringLiteral("fake step %1").arg(step)}))
            return makeError(Error::Code::Cancelled, QStringLiteral("cancelled"));
        if (step == 1 && partial)
            partial(soFar);
        std::this_thread::yield();
    }
}

}  // namespace

TEST(UiMainWindow, OpeningASessionFillsChartTablesAndTitle)
{
    QTemporaryDir dir;
    const Session session = fixtures::zen4Session();
    const QString path = writeSession(dir, QStringLiteral("zen4.json"), session);
    MainWindow window;
    ASSERT_TRUE(window.openSession(path));
    EXPECT_EQ(window.chart()->ceilingSeries().size(), 6);
    EXPECT_EQ(window.chart()->kernelPointCount(), static_cast<int>(session.kernels.size()));
    EXPECT_EQ(window.kernelModel()->rowCount(), static_cast<int>(session.kernels.size()));
    EXPECT_EQ(window.sessionModel()->rowCount(), 1);
    EXPECT_EQ(window.bandwidthChart()->curvePointCount(), static_cast<int>(session.bandwidthCurve.size()));
    EXPECT_TRUE(window.windowTitle().contains(QStringLiteral("zen4.json")));
    ridgeline::fixtures::layoutNow(window, QSize(1600, 1000));
    ridgeline::fixtures::grabImage(window).save(ridgeline::fixtures::outputPath(QStringLiteral("mainwindow.png")));
}

TEST(UiMainWindow, ABadFileLeavesTheWindowAsItWasAndSaysWhy)
{
    QTemporaryDir dir;
    const QString good = writeSession(dir, QStringLiteral("good.json"), fixtures::zen4Session());
    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    {
        QFile file(bad);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{ \"format\": \"ridgeline-session\", \"schema_version\": 1, \"kernels\": [ ");
    }
    MainWindow window;
    ASSERT_TRUE(window.openSession(good));
    QSignalSpy errors(&window, &MainWindow::errorReported);
    EXPECT_FALSE(window.openSession(bad));
    ASSERT_EQ(errors.count(), 1);
    EXPECT_TRUE(errors.first().at(1).toString().contains(QStringLiteral("bad.json")));
    EXPECT_EQ(window.findChildren<QMessageBox*>().size(), 1);
    // Unchanged: same primary session, same series, same table.
    EXPECT_EQ(window.currentPath(), QFileInfo(good).absoluteFilePath());
    EXPECT_EQ(window.sessionModel()->rowCount(), 1);
    EXPECT_EQ(window.chart()->kernelPointCount(), 16);
    EXPECT_EQ(window.kernelModel()->rowCount(), 16);
    closeMessageBoxes(window);

    EXPECT_FALSE(window.openSession(dir.filePath(QStringLiteral("missing.json"))));
    EXPECT_EQ(errors.count(), 2);
    EXPECT_EQ(window.chart()->kernelPointCount(), 16);
    closeMessageBoxes(window);
}

TEST(UiMainWindow, OverlaysAddASessionInItsOwnColourAndTheLegendNamesTheMachine)
{
    QTemporaryDir dir;
    MainWindow window;
    ASSERT_TRUE(window.openSession(writeSession(dir, QStringLiteral("a.json"), fixtures::zen4Session())));
    ASSERT_TRUE(window.addOverlay(writeSession(dir, QStringLiteral("b.json"), fixtures::zen4FasterDramSession())));
    EXPECT_EQ(window.sessionModel()->rowCount(), 2);
    EXPECT_EQ(window.chart()->sessions().size(), 2u);
    EXPECT_EQ(window.chart()->ceilingSeries().size(), 12);
    // Hiding the overlay takes it off the chart.
    window.sessionModel()->setData(window.sessionModel()->index(1), Qt::Unchecked, Qt::CheckStateRole);
    EXPECT_EQ(window.chart()->sessions().size(), 1u);
}

TEST(UiMainWindow, SaveWritesASessionThatLoadsBack)
{
    QTemporaryDir dir;
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    const QString path = dir.filePath(QStringLiteral("saved.json"));
    ASSERT_TRUE(window.saveSession(path));
    EXPECT_EQ(window.currentPath(), QFileInfo(path).absoluteFilePath());
    const Result<Session> loaded = loadSession(path);
    ASSERT_TRUE(loaded.ok());
    EXPECT_EQ(loaded.value().kernels.size(), fixtures::zen4Session().kernels.size());
}

TEST(UiMainWindow, ClickingAKernelExplainsIt)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    fixtures::layoutNow(window, QSize(1600, 1000));
    window.chart()->setSelectedKernel(0, 5);
    emit window.chart()->kernelClicked(0, 5);  // add 4096
    EXPECT_TRUE(window.explanationHtml().contains(QStringLiteral("DRAM 40 GB/s")));
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("mainwindow_explain.png")));
}

TEST(UiMainWindow, SelectingABandwidthPlateauHighlightsItsRoof)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    emit window.bandwidthChart()->levelSelected(QStringLiteral("L2"));
    EXPECT_EQ(window.chart()->highlightedLevel(), QStringLiteral("L2"));
}

TEST(UiMainWindow, ACancelledMeasurementKeepsThePreviousSession)
{
    QTemporaryDir dir;
    MainWindow window(&endlessMeasurement);
    const QString path = writeSession(dir, QStringLiteral("before.json"), fixtures::zen4Session());
    ASSERT_TRUE(window.openSession(path));
    QSignalSpy progress(window.runner(), &MeasureRunner::progressChanged);
    QSignalSpy partial(window.runner(), &MeasureRunner::partialResult);
    QSignalSpy cancelled(window.runner(), &MeasureRunner::cancelled);
    window.startMeasurement(true);
    EXPECT_TRUE(window.runner()->isRunning());
    ASSERT_TRUE(partial.wait());
    // The partial run is on the chart (no kernels yet) while it lasts.
    EXPECT_EQ(window.chart()->kernelPointCount(), 0);
    EXPECT_GE(progress.count(), 1);
    window.cancelMeasurement();
    ASSERT_TRUE(cancelled.wait());
    EXPECT_FALSE(window.runner()->isRunning());
    EXPECT_EQ(window.currentPath(), QFileInfo(path).absoluteFilePath());
    EXPECT_EQ(window.chart()->kernelPointCount(), 16);
    EXPECT_EQ(window.kernelModel()->rowCount(), 16);
}

TEST(UiMainWindow, AFinishedMeasurementBecomesTheUnsavedPrimarySession)
{
    const MeasureFunction instant = [](const MeasureOptions& options, const ProgressCallback& progress,
                                       const PartialResultCallback&) -> Result<Session> {
        progress({1, 1, QStringLiteral("done")});
        Session s = fixtures::zen4Session();
        s.quick = options.quick;
        return s;
    };
    MainWindow window(instant);
    QSignalSpy finished(window.runner(), &MeasureRunner::finished);
    window.startMeasurement(true);
    ASSERT_TRUE(finished.wait());
    EXPECT_EQ(window.chart()->kernelPointCount(), 16);
    EXPECT_TRUE(window.currentPath().isEmpty());
    EXPECT_TRUE(window.windowTitle().contains(QLatin1Char('*')));
}

TEST(UiMainWindow, CatalogGpusAndACustomGpuDrawBesideTheCpu)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    QAction* h100 = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->data().toString() == QLatin1String("h100-sxm"))
            h100 = action;
    ASSERT_NE(h100, nullptr);
    h100->setChecked(true);
    ASSERT_EQ(window.chart()->extraRoofs().size(), 1u);
    EXPECT_TRUE(window.chart()->extraRoofs().front().name.contains(QStringLiteral("H100")));
    EXPECT_TRUE(window.chart()->extraRoofs().front().name.contains(QStringLiteral("bf16")));
    EXPECT_EQ(window.chart()->extraRoofSeries().size(), 1);
    // The CPU's roofs are still all there.
    EXPECT_EQ(window.chart()->ceilingSeries().size(), 6);
}

TEST(UiMainWindow, DroppingSessionFilesOpensTheFirstAndOverlaysTheRest)
{
    QTemporaryDir dir;
    const QString a = writeSession(dir, QStringLiteral("a.json"), fixtures::zen4Session());
    const QString b = writeSession(dir, QStringLiteral("b.json"), fixtures::zen4FasterDramSession());
    MainWindow window;
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(a), QUrl::fromLocalFile(b)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    EXPECT_EQ(window.sessionModel()->rowCount(), 2);
    EXPECT_EQ(window.currentPath(), QFileInfo(a).absoluteFilePath());
}

TEST(UiMainWindow, RecentFilesAndGeometryPersistThroughSettings)
{
    QTemporaryDir dir;
    const QString path = writeSession(dir, QStringLiteral("recent.json"), fixtures::zen4Session());
    {
        MainWindow window;
        ASSERT_TRUE(window.openSession(path));
        window.resize(1234, 777);
        window.show();
        window.close();
    }
    Settings settings;
    EXPECT_EQ(settings.recentFiles().value(0), QFileInfo(path).absoluteFilePath());
    EXPECT_FALSE(settings.windowGeometry().isEmpty());
    MainWindow again;
    EXPECT_EQ(again.size(), QSize(1234, 777));
}

TEST(UiMainWindow, CancellingTheRealEngineKeepsThePreviousSession)
{
    QTemporaryDir dir;
    const QString path = writeSession(dir, QStringLiteral("before.json"), fixtures::zen4Session());
    MainWindow window;  // the real measureMachine
    ASSERT_TRUE(window.openSession(path));
    QSignalSpy progress(window.runner(), &MeasureRunner::progressChanged);
    QSignalSpy cancelled(window.runner(), &MeasureRunner::cancelled);
    window.startMeasurement(true);
    ASSERT_TRUE(progress.wait());
    window.cancelMeasurement();
    ASSERT_TRUE(cancelled.count() > 0 || cancelled.wait());
    EXPECT_EQ(window.currentPath(), QFileInfo(path).absoluteFilePath());
    EXPECT_EQ(window.chart()->kernelPointCount(), 16);
    EXPECT_EQ(window.chart()->sessions().front().title, fixtures::zen4Session().title);
}

// A real quick measurement in the window (about 4.5 s on two cores, alone or beside two busy ones): the chart shows
// the run as it goes, from partial results, and the finished session is the window's, saved and loaded back whole.
// The grabs it leaves show the chart half-way and at the end.
TEST(UiMainWindow, ARealQuickMeasurementFillsTheChartAsItGoes)
{
    MainWindow window;
    fixtures::layoutNow(window, QSize(1600, 1000));
    QSignalSpy partial(window.runner(), &MeasureRunner::partialResult);
    QSignalSpy finished(window.runner(), &MeasureRunner::finished);
    QSignalSpy failed(window.runner(), &MeasureRunner::failed);
    // What the chart shows after each partial result (the window's own handler runs first: it connected first).
    int mostPointsWhileRunning = 0;
    QObject::connect(window.runner(), &MeasureRunner::partialResult, &window, [&] {
        EXPECT_EQ(window.chart()->sessions().size(), 1u);
        mostPointsWhileRunning = std::max(mostPointsWhileRunning, window.chart()->kernelPointCount());
    });
    window.startMeasurement(true);
    ASSERT_TRUE(partial.wait(60000)) << "no partial result within a minute";
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("measure_partial.png")));
    ASSERT_TRUE(finished.count() > 0 || finished.wait(120000))
        << "the run did not finish within two minutes"
        << (failed.isEmpty() ? std::string() : ": " + failed.first().value(0).toString().toStdString());
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("measure_finished.png")));

    EXPECT_GE(partial.count(), 2) << "the chart was filled once, not as the run went";
    EXPECT_GT(mostPointsWhileRunning, 0) << "no kernel reached the chart before the run finished";
    const Session measured = finished.value(0).value(0).value<Session>();
    ASSERT_FALSE(measured.kernels.empty());
    EXPECT_GE(window.chart()->kernelPointCount(), mostPointsWhileRunning);
    const QString path = fixtures::outputPath(QStringLiteral("measured_quick.json"));
    ASSERT_TRUE(window.saveSession(path));
    const Result<Session> loaded = loadSession(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().kernels.size(), measured.kernels.size());
    EXPECT_EQ(loaded.value().computeCeilings.size(), measured.computeCeilings.size());

    // The decode batches' energy, or why this machine has none, in the Measurement dock and on the batching tab's
    // CPU curve (wrapped to the plot, under the machine's name).
    ASSERT_FALSE(measured.energy.basis.isEmpty());
    const auto* dock = window.findChild<MeasurementDock*>();
    ASSERT_NE(dock, nullptr);
    EXPECT_TRUE(dock->report().contains(measured.energy.basis)) << dock->report().toStdString();
    {
        auto* report = dock->findChild<QPlainTextEdit*>(QStringLiteral("MeasurementReport"));
        ASSERT_NE(report, nullptr);
        const_cast<MeasurementDock*>(dock)->raise();
        report->moveCursor(QTextCursor::Start);
        ASSERT_TRUE(report->find(QStringLiteral("energy per token")) || report->find(QStringLiteral("energy: RAPL")));
        fixtures::layoutNow(window, QSize(1600, 1000));
        fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("measure_finished_report.png")));
    }
    window.tabs()->setCurrentIndex(1);
    fixtures::layoutNow(window, QSize(1600, 1000));
    const QStringList texts = window.batchingPanel()->cpuChart()->texts();
    const qsizetype energy = texts.indexOf(QRegularExpression(QStringLiteral(".*energy per token.*")));
    ASSERT_GE(energy, 0) << texts.join(QStringLiteral(" | ")).toStdString();
    EXPECT_EQ(texts.mid(energy).join(QLatin1Char(' ')), decodeEnergySummary(measured));
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("measure_finished_batching.png")));
}

TEST(UiMainWindow, CopyChartPutsAnImageOfTheChartOnTheClipboard)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    fixtures::layoutNow(window, QSize(1600, 1000));
    QAction* copy = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->shortcut() == QKeySequence(QKeySequence::Copy))
            copy = action;
    ASSERT_NE(copy, nullptr);
    QApplication::clipboard()->clear();
    copy->trigger();
    const QImage image = QApplication::clipboard()->image();
    EXPECT_EQ(image.size(), window.chart()->size() * window.devicePixelRatio());
}

// The batching explorer is the window's second tab and shows the open session's measured
// CPU batching curve over the model's prediction.
TEST(UiMainWindow, TheBatchingTabShowsTheOpenSessionsCpuCurve)
{
    ui::MainWindow window;
    ASSERT_EQ(window.tabs()->count(), 3);
    EXPECT_EQ(window.tabs()->tabText(1), QStringLiteral("&Batching && KV cache"));
    EXPECT_EQ(window.tabs()->tabText(2), QStringLiteral("&Training"));
    EXPECT_FALSE(window.batchingPanel()->cpuChart()->hasOverlay());
    window.setSession(fixtures::zen4Session());
    EXPECT_TRUE(window.batchingPanel()->cpuChart()->hasOverlay());
    window.show();
    window.tabs()->setCurrentIndex(1);
    for (const QDockWidget* dock : window.findChildren<QDockWidget*>())
        EXPECT_FALSE(dock->isVisible()) << "the roofline's docks give the explorer their room";
    fixtures::layoutNow(window, QSize(1600, 1000));
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("mainwindow_batching_tab.png")));
    window.tabs()->setCurrentIndex(0);
    EXPECT_FALSE(window.findChildren<QDockWidget*>().isEmpty());
    for (const QDockWidget* dock : window.findChildren<QDockWidget*>())
        EXPECT_TRUE(dock->isVisible()) << "and get it back on the roofline";
}

// The explorer chosen before the window appears (View menu, a scene) still gets the room; quitting on
// it does not save the docks as closed, so the roofline has them at the next start.
TEST(UiMainWindow, DocksHideForTheExplorerBeforeShowAndReturnAfterQuittingOnIt)
{
    {
        ui::MainWindow window;
        window.tabs()->setCurrentIndex(1);
        fixtures::layoutNow(window, QSize(1280, 800));
        for (const QDockWidget* dock : window.findChildren<QDockWidget*>())
            EXPECT_FALSE(dock->isVisible()) << dock->windowTitle().toStdString();
        window.close();
    }
    ui::MainWindow again;
    fixtures::layoutNow(again, QSize(1280, 800));
    ASSERT_EQ(again.tabs()->currentIndex(), 0);
    EXPECT_FALSE(again.findChildren<QDockWidget*>().isEmpty());
    for (const QDockWidget* dock : again.findChildren<QDockWidget*>())
        EXPECT_TRUE(dock->isVisible()) << dock->windowTitle().toStdString() << " came back";
}

// F5 presents the default deck with the open session's measurements; Esc leaves.
TEST(UiMainWindow, F5PresentsTheDefaultDeckAndEscLeaves)
{
    ui::MainWindow window;
    window.setSession(fixtures::zen4Session());
    window.show();
    QAction* present = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->shortcut() == QKeySequence(Qt::Key_F5))
            present = action;
    ASSERT_NE(present, nullptr);
    present->trigger();
    QPointer<ui::PresentationWindow> presentation = window.presentation();
    ASSERT_NE(presentation, nullptr);
    EXPECT_EQ(presentation->sceneCount(), 12);
    EXPECT_EQ(presentation->currentScene(), 0);
    QTest::keyClick(presentation, Qt::Key_Escape);
    EXPECT_TRUE(presentation.isNull() || !presentation->isVisible());
}

// Alt+F5 presents with the speaker view beside the slides (offscreen has one screen: it stays in front); closing
// the speaker view ends the talk.
TEST(UiMainWindow, AltF5PresentsWithTheSpeakerView)
{
    ui::MainWindow window;
    window.setSession(fixtures::zen4Session());
    window.show();
    QAction* present = nullptr;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->shortcut() == QKeySequence(Qt::ALT | Qt::Key_F5))
            present = action;
    ASSERT_NE(present, nullptr);
    present->trigger();
    QPointer<ui::PresentationWindow> presentation = window.presentation();
    ASSERT_NE(presentation, nullptr);
    QPointer<ui::SpeakerView> speaker;
    for (QWidget* top : QApplication::topLevelWidgets())
        if (auto* view = qobject_cast<ui::SpeakerView*>(top); view && view->isVisible())
            speaker = view;
    ASSERT_NE(speaker, nullptr);
    EXPECT_EQ(speaker->positionText(), QStringLiteral("Slide 1 of 12"));
    EXPECT_TRUE(presentation->isVisible());
    speaker->close();
    EXPECT_TRUE(presentation.isNull() || !presentation->isVisible());
}

// The current view saved as a scene, appended to a deck file; a file that is not a deck is
// never overwritten.
TEST(UiMainWindow, SavingTheViewAsASceneAppendsToADeckFile)
{
    ui::MainWindow window;
    window.tabs()->setCurrentIndex(1);
    window.batchingPanel()->setModel(QStringLiteral("llama-2-7b"));
    window.batchingPanel()->setCustomGpu(300.0, 2.0, 80.0);
    window.batchingPanel()->setIdeal(true);
    window.batchingPanel()->setContext(8192);
    window.batchingPanel()->setBatch(16);
    Scene scene = window.currentViewAsScene();
    EXPECT_EQ(scene.view, QStringLiteral("batching"));
    EXPECT_EQ(scene.batch, 16);
    scene.title = QStringLiteral("KV cache at 8k");
    scene.caption = QStringLiteral("{kv_total_gib} of KV cache");

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("talk.json"));
    ASSERT_FALSE(window.appendSceneToDeck(scene, path).has_value());
    ASSERT_FALSE(window.appendSceneToDeck(scene, path).has_value());
    const Result<Deck> deck = loadDeck(path);
    ASSERT_TRUE(deck.ok()) << deck.error().message.toStdString();
    ASSERT_EQ(deck.value().scenes.size(), 2u);
    EXPECT_EQ(deck.value().scenes[0].id, QStringLiteral("kv-cache-at-8k"));
    EXPECT_EQ(deck.value().scenes[1].id, QStringLiteral("kv-cache-at-8k-2"));
    const Result<SceneFacts> facts = computeSceneFacts(deck.value().scenes[1], nullptr);
    ASSERT_TRUE(facts.ok()) << facts.error().message.toStdString();
    EXPECT_EQ(facts.value().caption, QStringLiteral("64.0 GiB of KV cache"));

    const QString notADeck = dir.filePath(QStringLiteral("notes.json"));
    {
        QFile file(notADeck);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{\"my\": \"notes\"}");
    }
    EXPECT_TRUE(window.appendSceneToDeck(scene, notADeck).has_value());
    QFile file(notADeck);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), QByteArray("{\"my\": \"notes\"}"));

    // On the roofline tab the scene keeps the chart's current zoom.
    window.tabs()->setCurrentIndex(0);
    const Scene roofline = window.currentViewAsScene();
    EXPECT_EQ(roofline.view, QStringLiteral("roofline"));
    ASSERT_TRUE(roofline.intensityRange.has_value());
    ASSERT_TRUE(roofline.performanceRange.has_value());
    EXPECT_GT(roofline.intensityRange->max, roofline.intensityRange->min);
    EXPECT_GT(roofline.performanceRange->min, 0.0);
}

// A saved view records which kernel kinds the legend hid and the GPU drawn beside the CPU, and a scene
// built from it shows the same ("which series are visible").
TEST(UiMainWindow, ASavedViewKeepsHiddenKernelKindsAndTheGpuBesideTheCpu)
{
    ui::MainWindow window;
    window.setSession(fixtures::zen4Session());
    window.chart()->setExtraRoofs({NamedRoof{QStringLiteral("H100 SXM (bf16)"), Roof{989.4e3, 3350.0}}});
    window.chart()->setKernelKindVisible(QStringLiteral("add"), false);
    ASSERT_EQ(window.chart()->hiddenKernelKinds(), QStringList{QStringLiteral("add")});

    Scene scene = window.currentViewAsScene();
    EXPECT_EQ(scene.hiddenKinds, QStringList{QStringLiteral("add")});
    EXPECT_EQ(scene.gpu.label, QStringLiteral("H100 SXM (bf16)"));
    EXPECT_DOUBLE_EQ(scene.gpu.peakTflops, 989.4);
    EXPECT_DOUBLE_EQ(scene.gpu.bandwidthTbs, 3.35);
    scene.title = QStringLiteral("CPU beside H100, no adds");

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("talk.json"));
    ASSERT_FALSE(window.appendSceneToDeck(scene, path).has_value());
    const Result<Deck> deck = loadDeck(path);
    ASSERT_TRUE(deck.ok()) << deck.error().message.toStdString();
    ASSERT_EQ(deck.value().scenes.size(), 1u);

    const Session session = fixtures::zen4Session();
    ui::SceneView view(deck.value().scenes.front(), &session);
    ASSERT_NE(view.rooflineChart(), nullptr);
    EXPECT_EQ(view.rooflineChart()->hiddenKernelKinds(), QStringList{QStringLiteral("add")});
    ASSERT_EQ(view.rooflineChart()->extraRoofs().size(), 1u);
    EXPECT_EQ(view.rooflineChart()->extraRoofs().front().name, QStringLiteral("H100 SXM (bf16)"));

    // And the legend brings the kind back.
    view.rooflineChart()->setKernelKindVisible(QStringLiteral("add"), true);
    EXPECT_TRUE(view.rooflineChart()->hiddenKernelKinds().isEmpty());
}

// Regression: the explorer's charts drew no title, tick labels or legend text when the tab was first
// opened in a window already on screen (their items were cached as pixmaps before Qt Charts laid them
// out). The strip above the plot holds the title: it must hold text-coloured pixels.
TEST(UiMainWindow, TheExplorerOpenedLaterDrawsItsChartTitlesAndTicks)
{
    ui::MainWindow window;
    window.setSession(fixtures::zen4Session());
    fixtures::layoutNow(window, QSize(1600, 1000));
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    window.tabs()->setCurrentIndex(1);
    for (int i = 0; i < 5; ++i)
        QCoreApplication::processEvents();
    const auto inkAbovePlot = [](QChartView& view) {
        const QImage image = fixtures::grabImage(view);
        const QColor text = view.palette().color(QPalette::WindowText);
        const int top = static_cast<int>(view.chart()->plotArea().top()) - 4;
        int ink = 0;
        for (int y = 0; y < top; ++y)
            for (int x = 0; x < image.width(); ++x)
                ink += fixtures::colorDistance(image.pixelColor(x, y), text) < 120 ? 1 : 0;
        return ink;
    };
    EXPECT_GT(inkAbovePlot(*window.batchingPanel()->throughputChart()), 200) << "the title 'Throughput vs batch'";
    EXPECT_GT(inkAbovePlot(*window.batchingPanel()->rooflineChart()), 200) << "the GPU roofline's title";
}

TEST(UiMainWindow, TheMeasurementDockShowsTheClockChecksAndWhatWasNotMeasured)
{
    MainWindow window;
    ASSERT_TRUE(window.openSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json")));
    ridgeline::fixtures::layoutNow(window, QSize(1600, 1000));
    MeasurementDock* dock = window.measurementDock();
    ASSERT_NE(dock, nullptr);
    // Reached as a user would: its tab beside the Kernels and Bandwidth docks, clicked.
    QTabBar* tabs = nullptr;
    int index = -1;
    for (QTabBar* bar : window.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == dock->windowTitle()) {
                tabs = bar;
                index = i;
            }
    ASSERT_NE(tabs, nullptr) << "the Measurement dock is tabbed with the bottom docks";
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(index).center());
    EXPECT_TRUE(dock->isVisible());
    EXPECT_TRUE(dock->headline().contains(QStringLiteral("5 impossible results"))) << dock->headline().toStdString();
    const QString report = dock->report();
    EXPECT_TRUE(report.contains(QStringLiteral("add chain 3.59 GHz, imul chain 3.69 GHz"))) << report.toStdString();
    EXPECT_TRUE(report.contains(QStringLiteral("checks (! impossible, ? doubtful)")));
    EXPECT_TRUE(report.contains(QStringLiteral("bf16 amx x1")));
    ridgeline::fixtures::grabImage(window).save(
        ridgeline::fixtures::outputPath(QStringLiteral("measurement_dock.png")));
}
