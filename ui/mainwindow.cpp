#include "ui/mainwindow.h"

#include "core/scene/scene_facts.h"
#include "core/session/format/bundled_session.h"
#include "core/session/format/session_json.h"
#include "ui/chart/bandwidth_chart.h"
#include "ui/dialogs.h"
#include "ui/file_actions.h"
#include "ui/gpu_menu.h"
#include "ui/import_gpu_dialog.h"
#include "ui/kernel_dock.h"
#include "ui/measure_actions.h"
#include "ui/measure_status.h"
#include "ui/measurement_dock.h"
#include "ui/models/kernel_table_model.h"
#include "ui/models/session_document.h"
#include "ui/models/session_list_model.h"
#include "ui/models/settings.h"
#include "ui/panels/batching_panel.h"
#include "ui/panels/training_panel.h"
#include "ui/plots/roofline/point_explanation.h"
#include "ui/session_list_view.h"
#include "ui/talk/talk_actions.h"
#include "ui/welcome_panel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QStatusBar>
#include <QTabWidget>
#include <QTextBrowser>
#include <QToolBar>
#include <QUndoStack>

namespace ridgeline::ui {

namespace {

// 1600 x 1000 where the screen has room, else nine tenths of what it has: a first window (no saved geometry) never
// reaches past a laptop screen's edge.
QSize firstWindowSize(const QScreen* screen)
{
    const QSize wanted(1600, 1000);
    return screen ? wanted.boundedTo(screen->availableGeometry().size() * 0.9) : wanted;
}

QString explainHint()
{
    return QCoreApplication::translate("MainWindow",
                                       "<p>Click a kernel on the chart (or a row in the table) to see which ceiling "
                                       "binds it, how close it gets, and what would move it.</p>");
}

// The palette the application started with: the light theme gives it back.
const QPalette& startupPalette()
{
    static const QPalette palette = QApplication::palette();
    return palette;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : MainWindow(MeasureFunction(&measureMachine), parent) {}

// The wiring constructor: it makes the parts and connects them.
MainWindow::MainWindow(MeasureFunction measure, QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("RidgelineMainWindow"));
    setAcceptDrops(true);
    m_settings = new Settings(this);
    m_document = new SessionDocument(m_settings, this);
    m_kernels = new KernelTableModel(this);
    startupPalette();

    setWindowIcon(QIcon(QStringLiteral(":/icons/ridgeline.svg")));
    m_chart = new RooflineChart(this);
    m_batching = new BatchingPanel(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_chart, tr("&Roofline"));
    // The explorers need more room than a small window has: they scroll rather than grow the window.
    m_training = new TrainingPanel(this);
    for (auto [panel, title] :
         {std::pair<QWidget*, QString>{m_batching, tr("&Batching && KV cache")}, {m_training, tr("&Training")}}) {
        auto* scroll = new QScrollArea(this);
        scroll->setWidgetResizable(true);
        scroll->setFrameShape(QFrame::NoFrame);
        scroll->setWidget(panel);
        m_tabs->addTab(scroll, title);
    }
    // Tab goes from the tab bar into the page under it (the chart, a panel's first control), then on to the docks:
    // the pages were made before the tab widget, which put them ahead of its tab bar in the focus chain.
    for (int page = m_tabs->count() - 1; page >= 0; --page)
        setTabOrder(m_tabs->tabBar(), m_tabs->widget(page));
    setCentralWidget(m_tabs);

    m_talk = new TalkActions(
        this, m_document, [this] { return currentViewAsScene(); },
        [this] { return m_tabs->tabText(m_tabs->currentIndex()).remove(u'&'); });
    m_gpuMenu = new GpuMenu(this);
    m_measureStatus = new MeasureStatus(statusBar());

    createDocks();
    m_file = new FileActions(this, m_document, m_settings, m_chart, m_batching, m_training);
    m_file->addTo(menuBar());
    m_sessionView->addAction(m_file->closeAction());
    connect(m_file, &FileActions::errorOccurred, this, &MainWindow::reportError);
    connect(m_file, &FileActions::statusMessage, this, &MainWindow::showStatus);
    connect(m_file, &FileActions::calibrated, this, [this] { m_tabs->setCurrentIndex(1); });
    m_measure = new MeasureActions(this, std::move(measure), m_document, m_file, m_measureStatus);
    createEditMenu();
    createViewMenu();
    m_measure->addTo(menuBar());
    createToolBar();
    m_welcome = new WelcomePanel(m_chart);
    m_talk->addTo(menuBar(), findChild<QToolBar*>(QStringLiteral("MainToolBar")));
    createHelpMenu();
    applySettingsToChart();
    connectParts();

    resize(firstWindowSize(screen()));
    restoreGeometry(m_settings->windowGeometry());
    // A saved layout is the user's; without one the docks get their share when the window first shows.
    m_docksSized = restoreState(m_settings->windowState());
    updateTitle();
    updateWelcome();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectParts()
{
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::onTabChanged);
    connect(m_document, &SessionDocument::changed, this, &MainWindow::refresh);
    connect(m_document, &SessionDocument::replaced, this, [this] { m_explain->setHtml(explainHint()); });
    connect(m_document, &SessionDocument::titleChanged, this, &MainWindow::updateTitle);
    connect(m_document, &SessionDocument::errorOccurred, this, &MainWindow::reportError);
    connect(m_document, &SessionDocument::statusMessage, this, &MainWindow::showStatus);
    connect(m_document, &SessionDocument::imported, this, [this](const QStringList& lines) {
        showImportSummary(this, lines);
        emit importFinished(lines);
    });
    // GPU kernels whose file names no catalog GPU: ask which one, without blocking.
    connect(m_document, &SessionDocument::gpuQuestion, this, [this](int kernels, const QStringList& names) {
        askImportGpu(
            this, kernels, names, [this](const QString& id) { m_document->answerGpu(id); },
            [this] { m_document->cancelImport(); });
    });
    connect(m_talk, &TalkActions::errorOccurred, this, &MainWindow::reportError);
    connect(m_talk, &TalkActions::statusMessage, this, &MainWindow::showStatus);
    connect(m_gpuMenu, &GpuMenu::roofsChanged, this, [this] { m_chart->setExtraRoofs(m_gpuMenu->roofs()); });
    connect(m_gpuMenu, &GpuMenu::statusMessage, this, &MainWindow::showStatus);
    connect(m_chart, &RooflineChart::kernelClicked, this, &MainWindow::onKernelClicked);
    connect(m_bandwidth, &BandwidthChart::levelSelected, m_chart, &RooflineChart::setHighlightedLevel);
    connect(m_chart, &RooflineChart::levelClicked, m_bandwidth, &BandwidthChart::setSelectedLevel);
    connect(m_kernelDock, &KernelDock::removeRequested, m_document, &SessionDocument::removeKernel);
    connect(m_batching, &BatchingPanel::removeCalibrationRequested, m_document, &SessionDocument::removeCalibration);
    connect(m_batching, &BatchingPanel::engineChanged, m_document, &SessionDocument::setEngine);

    connect(m_measure, &MeasureActions::started, this, &MainWindow::onMeasureStarted);
    // Only the chart shows a partial run; the open sessions stay as they were until it finishes.
    connect(m_measure, &MeasureActions::partialResult, this,
            [this](const Session& soFar) { m_chart->setSessions({soFar}); });
    connect(m_measure, &MeasureActions::ended, this, &MainWindow::refresh);  // a cancelled run leaves them as they were
    connect(m_measure, &MeasureActions::errorOccurred, this, &MainWindow::reportError);
    connect(m_measure, &MeasureActions::statusMessage, this, &MainWindow::showStatus);

    connect(m_welcome, &WelcomePanel::bundledRequested, this,
            [this] { openBuiltIn(bundledSession(), tr("Bundled measurement")); });
    connect(m_welcome, &WelcomePanel::measureRequested, this, [this] { startMeasurement(true); });
    connect(m_welcome, &WelcomePanel::exampleRequested, this, [this](const ExampleSession& example) {
        openBuiltIn(loadSession(example.resource), tr("Example: %1").arg(example.title.section(u':', 0, 0)));
    });
}

void MainWindow::createDocks()
{
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_sessionView = new SessionListView(m_document, this);
    auto* sessionDock = new QDockWidget(tr("Sessions"), this);
    sessionDock->setObjectName(QStringLiteral("SessionsDock"));
    sessionDock->setWidget(m_sessionView);
    addDockWidget(Qt::RightDockWidgetArea, sessionDock);

    m_explain = new QTextBrowser(this);
    m_explain->setOpenLinks(false);
    m_explain->setHtml(explainHint());
    auto* explainDock = new QDockWidget(tr("Explain this point"), this);
    explainDock->setObjectName(QStringLiteral("ExplainDock"));
    explainDock->setWidget(m_explain);
    addDockWidget(Qt::RightDockWidgetArea, explainDock);

    auto* kernelDock = new KernelDock(m_kernels, this);
    m_kernelDock = kernelDock;
    connect(kernelDock, &KernelDock::filterChanged, m_chart, &RooflineChart::setKernelFilter);
    connect(kernelDock, &KernelDock::kernelChosen, this, [this](int kernel) {
        m_chart->setSelectedKernel(0, kernel);
        onKernelClicked(0, kernel);
    });
    addDockWidget(Qt::BottomDockWidgetArea, kernelDock);

    m_bandwidth = new BandwidthChart(this);
    auto* bandwidthDock = new QDockWidget(tr("Bandwidth vs working set"), this);
    bandwidthDock->setObjectName(QStringLiteral("BandwidthDock"));
    bandwidthDock->setWidget(m_bandwidth);
    addDockWidget(Qt::BottomDockWidgetArea, bandwidthDock);
    tabifyDockWidget(kernelDock, bandwidthDock);
    m_measurement = new MeasurementDock(this);
    addDockWidget(Qt::BottomDockWidgetArea, m_measurement);
    tabifyDockWidget(bandwidthDock, m_measurement);
    kernelDock->raise();
}

QAction* MainWindow::addToggle(QMenu* menu, const QString& text, bool checked, std::function<void(bool)> apply)
{
    QAction* action = menu->addAction(text);
    action->setCheckable(true);
    action->setChecked(checked);
    connect(action, &QAction::toggled, this, [this, apply = std::move(apply)](bool on) {
        apply(on);
        applySettingsToChart();
    });
    return action;
}

void MainWindow::createEditMenu()
{
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    QAction* redo = m_document->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(m_kernelDock->removeAction());
}

void MainWindow::createViewMenu()
{
    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_viewMenu = view;
    m_darkTheme = addToggle(view, tr("&Dark Theme"), m_settings->theme() == ThemeKind::Dark,
                            [this](bool on) { m_settings->setTheme(on ? ThemeKind::Dark : ThemeKind::Light); });
    m_shade = addToggle(view, tr("&Shade Memory- and Compute-Bound Regions"), m_settings->shadeRegions(),
                        [this](bool on) { m_settings->setShadeRegions(on); });
    m_iso = addToggle(view, tr("&Iso-Efficiency Lines (50 %, 80 %)"), m_settings->isoEfficiency(),
                      [this](bool on) { m_settings->setIsoEfficiency(on); });
    m_sizeByTime = addToggle(view, tr("Size Imported Kernels by &Time Share"), m_settings->sizeByTimeShare(),
                             [this](bool on) { m_settings->setSizeByTimeShare(on); });
    m_sizeByTime->setToolTip(tr("Dot area in proportion to the kernel's share of its profile's total time"));
    m_allNames = addToggle(view, tr("&Name Every Kernel"), m_settings->allKernelNames(),
                           [this](bool on) { m_settings->setAllKernelNames(on); });
    m_allNames->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N));
    m_allNames->setToolTip(tr("Every kernel's name where it has room; off: the selected, extreme and key points'"));
    view->addSeparator();
    QAction* find = view->addAction(tr("&Find Kernel"), m_kernelDock, &KernelDock::focusFilter);
    find->setShortcut(QKeySequence::Find);
    m_resetView = view->addAction(QIcon::fromTheme(QStringLiteral("zoom-original")), tr("&Reset View"), m_chart,
                                  &RooflineChart::resetView);
    m_resetView->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    QAction* back = view->addAction(QIcon::fromTheme(QStringLiteral("go-previous")), tr("Zoom &Back"), m_chart,
                                    &RooflineChart::zoomBack);
    back->setShortcut(QKeySequence::Back);
    back->setToolTip(tr("The view before the last zoom, pan or reset"));
    QAction* forward = view->addAction(QIcon::fromTheme(QStringLiteral("go-next")), tr("Zoom &Forward"), m_chart,
                                       &RooflineChart::zoomForward);
    forward->setShortcut(QKeySequence::Forward);
    const auto enableHistory = [this, back, forward] {
        back->setEnabled(m_chart->canZoomBack());
        forward->setEnabled(m_chart->canZoomForward());
    };
    connect(m_chart, &RooflineChart::historyChanged, this, enableHistory);
    enableHistory();
    // GPU rooflines beside the CPU: same physics, different ratio.
    view->addMenu(m_gpuMenu);
    view->addSeparator();
    const QString shows[] = {tr("Show the &Roofline"), tr("Show &Batching && KV Cache"), tr("Show the &Training Step")};
    for (int tab = 0; tab < 3; ++tab)
        view->addAction(shows[tab], this, [this, tab] { m_tabs->setCurrentIndex(tab); })
            ->setShortcut(QKeySequence(QKeyCombination(Qt::ControlModifier, Qt::Key(Qt::Key_1 + tab))));
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());
    view->addSeparator();
    QAction* reopen = view->addAction(tr("Reopen the Last Session at Start"));
    reopen->setCheckable(true);
    reopen->setChecked(m_settings->reopenLastSession());
    connect(reopen, &QAction::toggled, m_settings, &Settings::setReopenLastSession);
}

void MainWindow::createToolBar()
{
    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("MainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(m_file->openAction());
    toolbar->addAction(m_file->saveAction());
    toolbar->addSeparator();
    toolbar->addAction(m_measure->quickAction());
    toolbar->addAction(m_measure->fullAction());
    toolbar->addSeparator();
    toolbar->addAction(m_resetView);
    toolbar->addAction(m_file->exportPngAction());
    toolbar->addAction(m_shade);
    toolbar->addAction(m_iso);
}

QSortFilterProxyModel* MainWindow::kernelProxy() const
{
    return m_kernelDock->proxy();
}

QLineEdit* MainWindow::kernelFilter() const
{
    return m_kernelDock->filter();
}

SessionListModel* MainWindow::sessionModel() const
{
    return m_document->model();
}

PresentationWindow* MainWindow::presentation() const
{
    return m_talk->presentation();
}

void MainWindow::startPresentation()
{
    m_talk->startPresentation();
}

void MainWindow::present(const Deck& deck)
{
    m_talk->present(deck);
}

Scene MainWindow::currentViewAsScene() const
{
    // The Training tab has no scene: Save View as Scene is off there (onTabChanged).
    return m_tabs->currentIndex() == 1 ? batchingViewScene(m_batching->inputs())
                                       : rooflineViewScene(*m_chart, m_selectedKernelName);
}

std::optional<Error> MainWindow::appendSceneToDeck(Scene scene, const QString& path)
{
    return TalkActions::appendSceneToDeck(std::move(scene), path);
}

void MainWindow::createHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, [this] { showShortcuts(this, menuBar()); });
    shortcuts->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Ridgeline"), this, [this] { showAbout(this); });
}

void MainWindow::applySettingsToChart()
{
    ChartOptions options = m_chart->options();
    options.theme = m_settings->theme();
    options.shadeRegions = m_settings->shadeRegions();
    options.isoEfficiency = m_settings->isoEfficiency();
    options.sizeByTimeShare = m_settings->sizeByTimeShare();
    options.allKernelNames = m_settings->allKernelNames();
    m_chart->setOptions(options);
    m_bandwidth->setTheme(options.theme);
    m_batching->setTheme(options.theme);
    m_training->setTheme(options.theme);
    // The whole window follows: docks, tables, menus, dialogs (chart_theme.h windowPalette).
    QApplication::setPalette(options.theme == ThemeKind::Dark ? windowPalette(ThemeKind::Dark) : startupPalette());
}

void MainWindow::refresh()
{
    m_chart->setSessions(m_document->model()->visibleSessions());
    if (const Session* primary = m_document->primary()) {
        m_kernels->setSession(*primary);
        m_bandwidth->setSession(*primary);
        m_batching->setSession(*primary);  // its measured CPU batching curve
        m_measurement->setSession(*primary);
    } else {
        m_kernels->clear();
        m_bandwidth->setSession(Session{});
        m_batching->clearSession();
        m_measurement->clear();
    }
    // A removed (or undone) kernel: an explanation of one that is gone no longer applies.
    const Session* primary = m_document->primary();
    if (!m_selectedKernelName.isEmpty() &&
        (!primary || std::none_of(primary->kernels.begin(), primary->kernels.end(),
                                  [this](const KernelResult& k) { return k.name == m_selectedKernelName; }))) {
        m_selectedKernelName.clear();
        m_explain->setHtml(explainHint());
    }
    updateTitle();
    updateWelcome();
}

void MainWindow::updateWelcome()
{
    m_welcome->setVisible(!m_document->primary() && !m_measure->runner()->isRunning());
}

void MainWindow::updateTitle()
{
    const QString name = m_document->primary() ? m_document->displayName() : tr("Untitled");
    setWindowTitle(
        QStringLiteral("%1%2 — Ridgeline").arg(name, m_document->isDirty() ? QStringLiteral(" *") : QString()));
}

QString MainWindow::currentPath() const
{
    return m_document->currentPath();
}

QString MainWindow::explanationHtml() const
{
    return m_explain->toHtml();
}

void MainWindow::reportError(const QString& title, const QString& message)
{
    emit errorReported(title, message);
    statusBar()->showMessage(message, 8000);
    // open(), not exec(): window-modal without a nested event loop, so nothing re-enters the caller.
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showStatus(const QString& text, int milliseconds)
{
    statusBar()->showMessage(text, milliseconds);
}

bool MainWindow::openSession(const QString& path)
{
    return m_document->open(path);
}

bool MainWindow::reopenLastSession()
{
    const QString path = m_settings->lastSession();
    if (!m_settings->reopenLastSession() || path.isEmpty())
        return false;
    const QString title = tr("Cannot reopen the last session");
    if (!QFileInfo::exists(path)) {
        reportError(title, tr("%1 is no longer there (moved or deleted since Ridgeline last closed). Open it "
                              "from where it is now, or start from one of the offers on the chart.")
                               .arg(path));
        m_settings->setLastSession({});
        return false;
    }
    return m_document->open(path, title);
}

void MainWindow::openBuiltIn(const Result<Session>& session, const QString& name)
{
    if (!session) {
        reportError(tr("Cannot open %1").arg(name), session.error().message);
        return;
    }
    m_document->showBuiltIn(session.value(), name);
}

MeasureRunner* MainWindow::runner() const
{
    return m_measure->runner();
}

bool MainWindow::addOverlay(const QString& path)
{
    return m_document->addOverlay(path);
}

void MainWindow::setSession(const Session& session, const QString& path)
{
    m_document->setSession(session, path);
}

bool MainWindow::saveSession(const QString& path)
{
    return m_document->save(path);
}

bool MainWindow::importFiles(const QStringList& paths)
{
    return m_document->importFiles(paths);
}

void MainWindow::onKernelClicked(int session, int kernel)
{
    const std::vector<Session> visible = m_document->model()->visibleSessions();
    if (session < 0 || session >= static_cast<int>(visible.size()))
        return;
    const Session& s = visible[static_cast<std::size_t>(session)];
    if (kernel < 0 || kernel >= static_cast<int>(s.kernels.size()))
        return;
    m_explain->setHtml(ridgeline::ui::explanationHtml(explainKernel(s, s.kernels[static_cast<std::size_t>(kernel)])));
    m_selectedKernelName = s.kernels[static_cast<std::size_t>(kernel)].name;
    if (session == 0)  // the table lists the primary session's kernels
        m_kernelDock->showKernel(kernel);
    if (QDockWidget* dock = findChild<QDockWidget*>(QStringLiteral("ExplainDock")))
        dock->show();
}

void MainWindow::startMeasurement(bool quick)
{
    m_measure->start(quick);
}

void MainWindow::cancelMeasurement()
{
    m_measure->cancel();
}

void MainWindow::onMeasureStarted()
{
    // What the view showed belongs to the session the run will replace: the explanation, the highlighted roof
    // and ringed kernel, the staircase. The chart shows the partial run as it comes.
    m_selectedKernelName.clear();
    m_explain->setHtml(explainHint());
    m_chart->setSelectedKernel(-1, -1);
    m_chart->setHighlightedLevel({});
    m_bandwidth->setSelectedLevel({});
    m_bandwidth->setSession(Session{});
    m_welcome->hide();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_file->maybeSave(tr("quitting"))) {
        event->ignore();
        return;
    }
    if (m_measure->runner()->isRunning())
        m_measure->cancel();
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(m_rooflineState.isEmpty() ? saveState() : m_rooflineState);
    m_settings->setLastSession(m_document->currentPath());
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!SessionDocument::droppedFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList files = SessionDocument::droppedFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    QStringList sessions;
    QStringList profiles;
    for (const QString& file : files)
        (SessionDocument::isSessionFile(file) ? sessions : profiles) << file;
    // The first session opens; any others overlay it; profiler files are then imported into the result, and
    // benchmark results go to the Calibrate dialog.
    if (!sessions.isEmpty()) {
        if (!m_file->maybeSave(tr("opening %1").arg(QFileInfo(sessions.first()).fileName())) ||
            !openSession(sessions.first()))
            return;
        for (qsizetype i = 1; i < sessions.size(); ++i)
            addOverlay(sessions[i]);
    }
    if (const QStringList results = FileActions::takeBenchmarkResults(profiles); !results.isEmpty())
        m_file->calibrate(results);
    if (!profiles.isEmpty())
        importFiles(profiles);
}

}  // namespace ridgeline::ui
