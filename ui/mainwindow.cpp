#include "ui/mainwindow.h"

#include "core/import/import_session.h"
#include "core/import/import_summary.h"
#include "core/import/importer.h"
#include "core/measure/probe.h"
#include "core/model/gpu_roofs.h"
#include "core/scene/deck.h"
#include "core/session/bundled_session.h"
#include "core/session/session_json.h"
#include "ui/chart/bandwidth_chart.h"
#include "ui/chart/chart_export.h"
#include "ui/models/kernel_table_model.h"
#include "ui/models/point_explanation.h"
#include "ui/models/session_list_model.h"
#include "ui/panels/batching_panel.h"
#include "ui/settings.h"
#include "ui/talk/deck_export.h"
#include "ui/talk/presentation_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>
#include <optional>

namespace ridgeline::ui {

namespace {

const QString kSessionFilter = QStringLiteral("Ridgeline sessions (*.json);;All files (*)");

// Dropped files the window takes: sessions and profiler output (.json), profiler tables (.csv).
QStringList localDroppedFiles(const QMimeData* mime)
{
    QStringList files;
    if (!mime || !mime->hasUrls())
        return files;
    for (const QUrl& url : mime->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ||
            path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive))
            files << path;
    }
    return files;
}

// A .json file is a session when its format tag says so (ERT's roofline.json is JSON too). A file that does
// not parse but names the tag is a broken session: the session loader says what is wrong with it.
bool isSessionFile(const QString& path)
{
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return false;
    QFile file(path);
    if (file.size() > kMaxSessionFileBytes || !file.open(QIODevice::ReadOnly))
        return true;  // the loader refuses it with the reason
    const QByteArray bytes = file.readAll();
    QJsonParseError error{};
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        return bytes.contains(Session::kFormat.toUtf8());
    return document.isObject() && document.object().value(QLatin1String("format")).toString() == Session::kFormat;
}

QString explainHint()
{
    return QCoreApplication::translate("MainWindow",
                                       "<p>Click a kernel on the chart (or a row in the table) to see which ceiling "
                                       "binds it, how close it gets, and what would move it.</p>");
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : MainWindow(MeasureFunction(&measureMachine), parent) {}

MainWindow::MainWindow(MeasureFunction measure, QWidget* parent) : QMainWindow(parent)
{
    setObjectName(QStringLiteral("RidgelineMainWindow"));
    setAcceptDrops(true);
    m_settings = new Settings(this);
    m_sessions = new SessionListModel(this);
    m_kernels = new KernelTableModel(this);
    m_runner = new MeasureRunner(std::move(measure), this);

    setWindowIcon(QIcon(QStringLiteral(":/icons/ridgeline.svg")));
    m_chart = new RooflineChart(this);
    m_batching = new BatchingPanel(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_chart, tr("&Roofline"));
    // The explorer needs more room than a small window has: let it scroll rather than grow the window.
    auto* batchingScroll = new QScrollArea(this);
    batchingScroll->setWidgetResizable(true);
    batchingScroll->setFrameShape(QFrame::NoFrame);
    batchingScroll->setWidget(m_batching);
    m_tabs->addTab(batchingScroll, tr("&Batching && KV cache"));
    setCentralWidget(m_tabs);

    createDocks();
    createActions();
    createTalkMenu();
    createHelpMenu();
    createStatusBar();
    applySettingsToChart();
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::onTabChanged);

    connect(m_chart, &RooflineChart::kernelClicked, this, &MainWindow::onKernelClicked);
    connect(m_sessions, &SessionListModel::visibilityChanged, this, &MainWindow::refresh);
    connect(m_bandwidth, &BandwidthChart::levelSelected, m_chart, &RooflineChart::setHighlightedLevel);
    connect(m_chart, &RooflineChart::levelClicked, m_bandwidth, &BandwidthChart::setSelectedLevel);
    connect(m_runner, &MeasureRunner::progressChanged, this, &MainWindow::onMeasureProgress);
    connect(m_runner, &MeasureRunner::partialResult, this, &MainWindow::onMeasurePartial);
    connect(m_runner, &MeasureRunner::finished, this, &MainWindow::onMeasureFinished);
    connect(m_runner, &MeasureRunner::failed, this, [this](const QString& message) {
        onMeasureEnded();
        reportError(tr("Measurement failed"), message);
    });
    connect(m_runner, &MeasureRunner::cancelled, this, [this] {
        onMeasureEnded();
        statusBar()->showMessage(tr("Measurement cancelled; the previous session is unchanged."), 5000);
    });

    resize(1600, 1000);
    restoreGeometry(m_settings->windowGeometry());
    restoreState(m_settings->windowState());
    updateTitle();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks);

    m_sessionView = new QListView(this);
    m_sessionView->setModel(m_sessions);
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

    auto* proxy = new QSortFilterProxyModel(this);
    m_kernelProxy = proxy;
    proxy->setSourceModel(m_kernels);
    proxy->setSortRole(KernelTableModel::SortRole);
    proxy->setFilterRole(KernelTableModel::SearchRole);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy->setFilterKeyColumn(KernelTableModel::Name);
    m_kernelFilter = new QLineEdit(this);
    m_kernelFilter->setObjectName(QStringLiteral("KernelFilter"));
    m_kernelFilter->setPlaceholderText(tr("Filter kernels by name (Ctrl+F)"));
    m_kernelFilter->setClearButtonEnabled(true);
    connect(m_kernelFilter, &QLineEdit::textChanged, this, &MainWindow::onKernelFilterChanged);
    m_kernelView = new QTableView(this);
    m_kernelView->setModel(proxy);
    m_kernelView->setSortingEnabled(true);
    m_kernelView->sortByColumn(-1, Qt::AscendingOrder);  // the session's own order until a header is clicked
    m_kernelView->setWordWrap(false);
    m_kernelView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_kernelView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_kernelView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_kernelView->horizontalHeader()->setStretchLastSection(false);
    m_kernelView->verticalHeader()->hide();
    connect(m_kernelView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this, proxy](const QModelIndex& current) {
                if (!current.isValid())
                    return;
                const int kernel = proxy->mapToSource(current).row();
                m_chart->setSelectedKernel(0, kernel);
                onKernelClicked(0, kernel);
            });
    auto* kernelDock = new QDockWidget(tr("Kernels"), this);
    kernelDock->setObjectName(QStringLiteral("KernelsDock"));
    auto* kernelPane = new QWidget(this);
    auto* kernelLayout = new QVBoxLayout(kernelPane);
    kernelLayout->setContentsMargins(0, 0, 0, 0);
    kernelLayout->setSpacing(2);
    kernelLayout->addWidget(m_kernelFilter);
    kernelLayout->addWidget(m_kernelView);
    kernelDock->setWidget(kernelPane);
    addDockWidget(Qt::BottomDockWidgetArea, kernelDock);

    m_bandwidth = new BandwidthChart(this);
    auto* bandwidthDock = new QDockWidget(tr("Bandwidth vs working set"), this);
    bandwidthDock->setObjectName(QStringLiteral("BandwidthDock"));
    bandwidthDock->setWidget(m_bandwidth);
    addDockWidget(Qt::BottomDockWidgetArea, bandwidthDock);
    tabifyDockWidget(kernelDock, bandwidthDock);
    kernelDock->raise();
    // The chart is the point: docks start small (a saved state overrides this).
    resizeDocks({sessionDock, explainDock}, {90, 500}, Qt::Vertical);
    resizeDocks({kernelDock}, {190}, Qt::Vertical);
    resizeDocks({explainDock}, {300}, Qt::Horizontal);
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open =
        file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open…"), this, &MainWindow::onOpen);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    QAction* overlay = file->addAction(tr("&Add Overlay…"), this, &MainWindow::onAddOverlay);
    overlay->setToolTip(tr("Draw another session (another machine, or before/after) on the same chart"));
    QAction* importAction = file->addAction(tr("&Import Profile…"), this, &MainWindow::onImport);
    importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    importAction->setToolTip(
        tr("Put kernels from Nsight Compute, likwid or a plain CSV (or ERT ceilings) on the "
           "chart"));
    file->addSeparator();
    m_saveAction =
        file->addAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("&Save"), this, &MainWindow::onSave);
    m_saveAction->setShortcut(QKeySequence::Save);
    QAction* saveAs = file->addAction(tr("Save &As…"), this, &MainWindow::onSaveAs);
    saveAs->setShortcut(QKeySequence::SaveAs);
    file->addSeparator();
    QMenu* exportMenu = file->addMenu(tr("&Export Chart"));
    QAction* exportPng = exportMenu->addAction(tr("PNG image…"), this,
                                               [this] { onExport(tr("PNG images (*.png)"), QStringLiteral("png")); });
    exportPng->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportMenu->addAction(tr("SVG drawing…"), this,
                          [this] { onExport(tr("SVG drawings (*.svg)"), QStringLiteral("svg")); });
    exportMenu->addAction(tr("PDF document…"), this,
                          [this] { onExport(tr("PDF documents (*.pdf)"), QStringLiteral("pdf")); });
    exportMenu->addAction(tr("CSV of the points…"), this,
                          [this] { onExport(tr("CSV files (*.csv)"), QStringLiteral("csv")); });
    QAction* copy = file->addAction(tr("&Copy Chart"), this, &MainWindow::onCopyChart);
    copy->setShortcut(QKeySequence::Copy);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_darkTheme = view->addAction(tr("&Dark Theme"));
    m_darkTheme->setCheckable(true);
    m_darkTheme->setChecked(m_settings->theme() == ThemeKind::Dark);
    connect(m_darkTheme, &QAction::toggled, this, [this](bool on) {
        m_settings->setTheme(on ? ThemeKind::Dark : ThemeKind::Light);
        applySettingsToChart();
    });
    m_shade = view->addAction(tr("&Shade Memory- and Compute-Bound Regions"));
    m_shade->setCheckable(true);
    m_shade->setChecked(m_settings->shadeRegions());
    connect(m_shade, &QAction::toggled, this, [this](bool on) {
        m_settings->setShadeRegions(on);
        applySettingsToChart();
    });
    m_iso = view->addAction(tr("&Iso-Efficiency Lines (50 %, 80 %)"));
    m_iso->setCheckable(true);
    m_iso->setChecked(m_settings->isoEfficiency());
    connect(m_iso, &QAction::toggled, this, [this](bool on) {
        m_settings->setIsoEfficiency(on);
        applySettingsToChart();
    });
    m_sizeByTime = view->addAction(tr("Size Imported Kernels by &Time Share"));
    m_sizeByTime->setCheckable(true);
    m_sizeByTime->setToolTip(tr("Dot area in proportion to the kernel's share of its profile's total time"));
    m_sizeByTime->setChecked(m_settings->sizeByTimeShare());
    connect(m_sizeByTime, &QAction::toggled, this, [this](bool on) {
        m_settings->setSizeByTimeShare(on);
        applySettingsToChart();
    });
    view->addSeparator();
    QAction* find = view->addAction(tr("&Find Kernel"), this, [this] {
        if (auto* dock = findChild<QDockWidget*>(QStringLiteral("KernelsDock"))) {
            dock->show();
            dock->raise();
        }
        m_kernelFilter->setFocus();
        m_kernelFilter->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    QAction* reset = view->addAction(QIcon::fromTheme(QStringLiteral("zoom-original")), tr("&Reset View"), m_chart,
                                     &RooflineChart::resetView);
    reset->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    // GPU rooflines beside the CPU: same physics, different ratio.
    m_gpuMenu = view->addMenu(tr("&GPU Rooflines"));
    QMenu* formats = m_gpuMenu->addMenu(tr("&Number Format"));
    m_gpuFormats = new QActionGroup(this);
    for (const NumberFormat format : {NumberFormat::Fp32, NumberFormat::Tf32, NumberFormat::Bf16, NumberFormat::Fp16,
                                      NumberFormat::Fp8, NumberFormat::Int8}) {
        QAction* action = formats->addAction(numberFormatName(format));
        action->setCheckable(true);
        action->setChecked(format == NumberFormat::Bf16);
        action->setData(static_cast<int>(format));
        m_gpuFormats->addAction(action);
    }
    connect(m_gpuFormats, &QActionGroup::triggered, this, &MainWindow::applyGpuRoofs);
    m_gpuMenu->addSeparator();
    if (const Result<std::vector<GpuSpec>>& gpus = builtinGpus(); gpus.ok()) {
        for (const GpuSpec& gpu : gpus.value()) {
            QAction* action = m_gpuMenu->addAction(gpu.name);
            action->setCheckable(true);
            action->setData(gpu.id);
            action->setToolTip(gpu.source);
            connect(action, &QAction::toggled, this, &MainWindow::applyGpuRoofs);
            m_gpuActions << action;
        }
    }
    m_gpuMenu->addSeparator();
    m_gpuMenu->addAction(tr("&Custom GPU…"), this, &MainWindow::onCustomGpu);
    m_gpuMenu->addAction(tr("C&lear GPU Rooflines"), this, [this] {
        m_customRoofs.clear();
        for (QAction* action : std::as_const(m_gpuActions)) {
            const QSignalBlocker blocker(action);
            action->setChecked(false);
        }
        applyGpuRoofs();
    });
    view->addSeparator();
    QAction* showRoofline = view->addAction(tr("Show the &Roofline"), this, [this] { m_tabs->setCurrentIndex(0); });
    showRoofline->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    QAction* showBatching =
        view->addAction(tr("Show &Batching && KV Cache"), this, [this] { m_tabs->setCurrentIndex(1); });
    showBatching->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* measure = menuBar()->addMenu(tr("&Measure"));
    m_measureQuick = measure->addAction(tr("Measure (&quick)"), this, [this] { startMeasurement(true); });
    m_measureQuick->setToolTip(tr("A few seconds: fewer sizes and repetitions"));
    m_measureFull = measure->addAction(tr("Measure (&full)"), this, [this] { startMeasurement(false); });
    m_measureFull->setToolTip(tr("About half a minute: every size, more repetitions"));
    QAction* cancel = measure->addAction(tr("&Cancel Measurement"), this, &MainWindow::cancelMeasurement);
    cancel->setShortcut(QKeySequence(Qt::Key_Escape));

    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("MainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(open);
    toolbar->addAction(m_saveAction);
    toolbar->addSeparator();
    toolbar->addAction(m_measureQuick);
    toolbar->addAction(m_measureFull);
    toolbar->addSeparator();
    toolbar->addAction(reset);
    toolbar->addAction(exportPng);
    toolbar->addAction(m_shade);
    toolbar->addAction(m_iso);

    connect(m_settings, &Settings::recentFilesChanged, this, &MainWindow::updateRecentMenu);
    updateRecentMenu();
}

void MainWindow::onTabChanged(int index)
{
    // The docks explain the roofline; on the explorer they only take its room. Each comes back as it was.
    // isHidden, not isVisible: the tab can change before the window is first shown.
    const bool roofline = index == 0;
    if (!roofline && m_docksHiddenForExplorer.isEmpty())
        m_rooflineState = saveState();  // what closing on the explorer saves, so the docks come back next time
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        if (roofline) {
            if (m_docksHiddenForExplorer.contains(dock))
                dock->show();
        } else if (!dock->isHidden()) {
            m_docksHiddenForExplorer.append(dock);
            dock->hide();
        }
    }
    if (roofline) {
        m_docksHiddenForExplorer.clear();
        m_rooflineState.clear();
    }
}

void MainWindow::createTalkMenu()
{
    QMenu* talk = menuBar()->addMenu(tr("&Talk"));
    QAction* present = talk->addAction(QIcon::fromTheme(QStringLiteral("x-office-presentation")), tr("&Present"), this,
                                       &MainWindow::startPresentation);
    present->setShortcut(QKeySequence(Qt::Key_F5));
    present->setToolTip(tr("The source text's story in eight scenes, full screen (F5; Esc leaves)"));
    talk->addAction(tr("Present &Deck File…"), this, &MainWindow::onPresentDeckFile);
    talk->addAction(tr("&Save View as Scene…"), this, &MainWindow::onSaveViewAsScene);
    talk->addAction(tr("&Export Slides as PDF…"), this, &MainWindow::onExportSlides);
    if (auto* toolbar = findChild<QToolBar*>(QStringLiteral("MainToolBar"))) {
        toolbar->addSeparator();
        toolbar->addAction(present);
    }
}

const Session* MainWindow::primarySession() const
{
    return m_sessions->sessions().empty() ? nullptr : &m_sessions->sessions().front().session;
}

PresentationWindow* MainWindow::presentation() const
{
    return m_presentation.data();
}

void MainWindow::startPresentation()
{
    const Result<Deck> deck = defaultDeck();
    if (!deck) {
        reportError(tr("Cannot present"), deck.error().message);
        return;
    }
    present(deck.value());
}

void MainWindow::present(const Deck& deck)
{
    // Without an open session the measured scenes show the bundled one, a real measurement.
    const Result<Session> bundled = bundledSession();
    const Session* session = primarySession() ? primarySession() : (bundled ? &bundled.value() : nullptr);
    // Its own top-level window; it deletes itself when the speaker leaves.
    auto* presentation = new PresentationWindow(deck, session);
    presentation->setAttribute(Qt::WA_DeleteOnClose);
    connect(presentation, &PresentationWindow::finished, presentation, &QWidget::close);
    m_presentation = presentation;
    presentation->present();
}

void MainWindow::onPresentDeckFile()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Present Deck"), sessionDirectory(), tr("Ridgeline decks (*.json)"));
    if (path.isEmpty())
        return;
    const Result<Deck> deck = loadDeck(path);
    if (!deck) {
        reportError(tr("Cannot present"), deck.error().message);
        return;
    }
    present(deck.value());
}

Scene MainWindow::currentViewAsScene() const
{
    Scene scene;
    scene.kind = QStringLiteral("view");
    if (m_tabs->currentIndex() == 1) {
        const InferenceRequest& in = m_batching->inputs();
        scene.view = QStringLiteral("batching");
        scene.modelId = in.modelId;
        if (in.gpuId == kCustomId) {
            scene.gpu.peakTflops = in.customPeakTflops;
            scene.gpu.bandwidthTbs = in.customBandwidthTbs;
            scene.gpu.memoryGib = in.customMemoryGib;
        } else {
            scene.gpu.catalogId = in.gpuId;
        }
        scene.batch = in.batch;
        scene.context = in.context;
        scene.tensorParallel = in.gpus;
        if (in.gpus > 1)
            scene.links = QStringList{effectiveLinkId(in)};
        scene.ideal = in.ideal();
    } else {
        scene.view = QStringLiteral("roofline");
        if (!m_selectedKernelName.isEmpty())
            scene.highlight = QStringList{m_selectedKernelName};
        // The zoom the speaker chose is part of the view: keep both log axes' ranges.
        const PlotRange range = m_chart->visibleRange();
        if (isLogRange(range.xMin, range.xMax))
            scene.intensityRange = AxisRange{range.xMin, range.xMax};
        if (isLogRange(range.yMin, range.yMax))
            scene.performanceRange = AxisRange{range.yMin, range.yMax};
        scene.hiddenKinds = m_chart->hiddenKernelKinds();
        // A scene draws one GPU beside the CPU: the first one shown, by its numbers and name.
        if (!m_chart->extraRoofs().empty()) {
            const NamedRoof& gpu = m_chart->extraRoofs().front();
            scene.gpu.label = gpu.name;
            scene.gpu.peakTflops = gpu.roof.peakGflops / 1e3;
            scene.gpu.bandwidthTbs = gpu.roof.bandwidthGbps / 1e3;
        }
    }
    return scene;
}

std::optional<Error> MainWindow::appendSceneToDeck(Scene scene, const QString& path)
{
    Deck deck;
    deck.title = tr("My talk");
    if (QFileInfo::exists(path)) {
        Result<Deck> existing = loadDeck(path);
        if (!existing)
            return existing.error();  // never overwrite a file that is not a deck
        deck = std::move(existing).value();
    }
    // A unique id from the title: "kv-cache-at-8k", "kv-cache-at-8k-2", ...
    QString base = scene.title.toLower();
    base.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    base = base.isEmpty() ? QStringLiteral("scene") : base;
    scene.id = base;
    for (int n = 2;
         std::any_of(deck.scenes.begin(), deck.scenes.end(), [&](const Scene& s) { return s.id == scene.id; }); ++n)
        scene.id = base + u'-' + QString::number(n);
    deck.scenes.push_back(std::move(scene));
    return saveDeck(deck, path);
}

void MainWindow::onSaveViewAsScene()
{
    Scene scene = currentViewAsScene();
    bool ok = false;
    scene.title = QInputDialog::getText(this, tr("Save View as Scene"), tr("Title:"), QLineEdit::Normal,
                                        m_tabs->tabText(m_tabs->currentIndex()).remove(u'&'), &ok);
    if (!ok || scene.title.trimmed().isEmpty())
        return;
    scene.caption = QInputDialog::getMultiLineText(
        this, tr("Save View as Scene"),
        tr("Caption (numbers as {placeholders}, e.g. {tokens_s}, {step_ms}, {kv_total_gib}, {max_batch}):"), QString(),
        &ok);
    if (!ok)
        return;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Add the Scene to a Deck"), sessionDirectory() + QStringLiteral("/talk.json"),
        tr("Ridgeline decks (*.json)"), nullptr, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty())
        return;
    if (const auto error = appendSceneToDeck(std::move(scene), path)) {
        reportError(tr("Scene not saved"), error->message);
        return;
    }
    statusBar()->showMessage(tr("Added the scene to %1").arg(path), 5000);
}

void MainWindow::onExportSlides()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Slides"), sessionDirectory(), tr("PDF (*.pdf)"));
    if (path.isEmpty())
        return;
    const Result<Deck> deck = defaultDeck();
    if (!deck) {
        reportError(tr("Slides not exported"), deck.error().message);
        return;
    }
    const Result<Session> bundled = bundledSession();
    const Session* session = primarySession() ? primarySession() : (bundled ? &bundled.value() : nullptr);
    if (const auto error = exportDeckPdf(deck.value(), session, path, QSize(1920, 1080))) {
        reportError(tr("Slides not exported"), error->message);
        return;
    }
    statusBar()->showMessage(tr("Wrote %1 slides to %2").arg(deck.value().scenes.size()).arg(path), 5000);
}

void MainWindow::createHelpMenu()
{
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* shortcuts = help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    shortcuts->setShortcut(QKeySequence::HelpContents);
    help->addAction(tr("&About Ridgeline"), this, &MainWindow::showAbout);
}

void MainWindow::showShortcuts()
{
    // Built from the actions themselves, so the list can never disagree with the keys that work.
    QString rows;
    for (const QMenu* menu : menuBar()->findChildren<QMenu*>()) {
        for (const QAction* action : menu->actions()) {
            if (action->shortcut().isEmpty())
                continue;
            rows += QStringLiteral("<tr><td><b>%1</b>&nbsp;&nbsp;</td><td>%2</td></tr>")
                        .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                             action->text().remove(u'&').toHtmlEscaped());
        }
    }
    rows += tr("<tr><td><b>Wheel / drag</b>&nbsp;&nbsp;</td><td>Zoom / rubber-band zoom on the chart</td></tr>");
    QMessageBox box(QMessageBox::NoIcon, tr("Keyboard Shortcuts"), QStringLiteral("<table>%1</table>").arg(rows),
                    QMessageBox::Close, this);
    box.exec();
}

void MainWindow::showAbout()
{
    const MachineInfo machine = probeMachine();
    QMessageBox::about(this, tr("About Ridgeline"),
                       tr("<h3>Ridgeline %1</h3><p>The roofline model and LLM batching, made tangible.</p>"
                          "<p>OpenBLAS %2, kernel <b>%3</b> (%4 threads)<br>Qt %5<br>%6, %7 CPUs</p>")
                           .arg(QCoreApplication::applicationVersion(), machine.openblasVersion, machine.openblasCore)
                           .arg(machine.openblasThreads)
                           .arg(QString::fromLatin1(qVersion()), machine.cpuModel.toHtmlEscaped())
                           .arg(machine.cores));
}

void MainWindow::createStatusBar()
{
    m_stage = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(260);
    m_progress->setTextVisible(true);
    m_cancelButton = new QPushButton(tr("Cancel"), this);
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelMeasurement);
    statusBar()->addPermanentWidget(m_stage);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancelButton);
    m_stage->hide();
    m_progress->hide();
    m_cancelButton->hide();
}

void MainWindow::applySettingsToChart()
{
    ChartOptions options = m_chart->options();
    options.theme = m_settings->theme();
    options.shadeRegions = m_settings->shadeRegions();
    options.isoEfficiency = m_settings->isoEfficiency();
    options.sizeByTimeShare = m_settings->sizeByTimeShare();
    m_chart->setOptions(options);
    m_bandwidth->setTheme(options.theme);
    m_batching->setTheme(options.theme);
}

void MainWindow::refresh()
{
    m_chart->setSessions(m_sessions->visibleSessions());
    const bool any = !m_sessions->sessions().empty();
    if (any) {
        m_kernels->setSession(m_sessions->sessions().front().session);
        m_bandwidth->setSession(m_sessions->sessions().front().session);
        m_batching->setSession(m_sessions->sessions().front().session);  // its measured CPU batching curve
    } else {
        m_kernels->clear();
        m_bandwidth->setSession(Session{});
        m_batching->clearSession();
    }
    updateTitle();
}

void MainWindow::updateTitle()
{
    QString name = tr("Untitled");
    if (!m_sessions->sessions().empty()) {
        const OpenSession& primary = m_sessions->sessions().front();
        name = primary.path.isEmpty() ? tr("Unsaved measurement") : QFileInfo(primary.path).fileName();
    }
    setWindowTitle(QStringLiteral("%1%2 — Ridgeline").arg(name, m_dirty ? QStringLiteral(" *") : QString()));
}

QString MainWindow::currentPath() const
{
    return m_sessions->sessions().empty() ? QString() : m_sessions->sessions().front().path;
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

bool MainWindow::openSession(const QString& path)
{
    Result<Session> loaded = loadSession(path);
    if (!loaded) {
        reportError(tr("Cannot open session"), loaded.error().message);
        m_settings->removeRecentFile(path);
        return false;
    }
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_sessions->setSessions({OpenSession{std::move(loaded).value(), absolute, true}});
    m_settings->addRecentFile(absolute);
    m_settings->setLastDirectory(QFileInfo(absolute).absolutePath());
    m_dirty = false;
    m_explain->setHtml(explainHint());
    refresh();
    statusBar()->showMessage(tr("Opened %1").arg(absolute), 4000);
    return true;
}

bool MainWindow::addOverlay(const QString& path)
{
    if (m_sessions->sessions().empty())
        return openSession(path);
    Result<Session> loaded = loadSession(path);
    if (!loaded) {
        reportError(tr("Cannot add overlay"), loaded.error().message);
        return false;
    }
    m_sessions->append(OpenSession{std::move(loaded).value(), QFileInfo(path).absoluteFilePath(), true});
    m_settings->addRecentFile(QFileInfo(path).absoluteFilePath());
    refresh();
    return true;
}

void MainWindow::setSession(const Session& session, const QString& path)
{
    m_sessions->setSessions({OpenSession{session, path, true}});
    m_dirty = path.isEmpty();
    refresh();
}

bool MainWindow::saveSession(const QString& path)
{
    if (m_sessions->sessions().empty())
        return false;
    if (const std::optional<Error> error = ridgeline::saveSession(m_sessions->sessions().front().session, path)) {
        reportError(tr("Cannot save session"), error->message);
        return false;
    }
    OpenSession primary = m_sessions->sessions().front();
    primary.path = QFileInfo(path).absoluteFilePath();
    m_sessions->replace(0, primary);
    m_settings->addRecentFile(primary.path);
    m_dirty = false;
    updateTitle();
    statusBar()->showMessage(tr("Saved %1").arg(primary.path), 4000);
    return true;
}

QString MainWindow::sessionDirectory() const
{
    const QString last = m_settings->lastDirectory();
    return last.isEmpty() ? QDir::homePath() : last;
}

void MainWindow::onOpen()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Session"), sessionDirectory(), kSessionFilter);
    if (!path.isEmpty())
        openSession(path);
}

void MainWindow::onAddOverlay()
{
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Add Session as Overlay"), sessionDirectory(), kSessionFilter);
    if (!path.isEmpty())
        addOverlay(path);
}

void MainWindow::onSave()
{
    if (currentPath().isEmpty())
        onSaveAs();
    else
        saveSession(currentPath());
}

void MainWindow::onSaveAs()
{
    if (m_sessions->sessions().empty())
        return;
    QString path = QFileDialog::getSaveFileName(this, tr("Save Session"), sessionDirectory(), kSessionFilter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".json");
    saveSession(path);
}

void MainWindow::onExport(const QString& filter, const QString& suffix)
{
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), sessionDirectory(), filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    QSize size = m_settings->exportSize();
    double ratio = m_settings->exportPixelRatio();
    if (suffix != QLatin1String("csv")) {
        // Size and pixel ratio, remembered: a speaker exports the same slide size every time.
        QDialog dialog(this);
        dialog.setWindowTitle(tr("Export Size"));
        auto* form = new QFormLayout(&dialog);
        auto* sizeEdit = new QLineEdit(QStringLiteral("%1x%2").arg(size.width()).arg(size.height()), &dialog);
        form->addRow(tr("Size (pixels):"), sizeEdit);
        auto* ratioSpin = new QDoubleSpinBox(&dialog);
        ratioSpin->setRange(0.5, 4.0);
        ratioSpin->setSingleStep(0.5);
        ratioSpin->setValue(ratio);
        ratioSpin->setEnabled(suffix == QLatin1String("png"));
        form->addRow(tr("Device pixel ratio (PNG):"), ratioSpin);
        auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
        form->addRow(buttons);
        connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
        connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
        if (dialog.exec() != QDialog::Accepted)
            return;
        size = parseSize(sizeEdit->text());
        if (!size.isValid()) {
            reportError(tr("Cannot export"), tr("The size must be WIDTHxHEIGHT, e.g. 1920x1080."));
            return;
        }
        ratio = ratioSpin->value();
        m_settings->setExportSize(size);
        m_settings->setExportPixelRatio(ratio);
    }
    if (const auto error = exportChart(ChartContent::of(*m_chart), path, size, ratio))
        reportError(tr("Cannot export"), error->message);
    else
        statusBar()->showMessage(tr("Exported %1").arg(path), 4000);
}

void MainWindow::onCopyChart()
{
    const double ratio = devicePixelRatioF();
    const QImage image = renderChartImage(ChartContent::of(*m_chart), m_chart->size(), ratio);
    QApplication::clipboard()->setImage(image);
    statusBar()->showMessage(tr("Chart copied to the clipboard"), 3000);
}

void MainWindow::onCustomGpu()
{
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Custom GPU Roofline"));
    auto* form = new QFormLayout(&dialog);
    auto* name = new QLineEdit(tr("My GPU"), &dialog);
    auto* peak = new QDoubleSpinBox(&dialog);
    peak->setRange(0.001, 100000.0);
    peak->setDecimals(3);
    peak->setValue(300.0);
    peak->setSuffix(tr(" TFLOP/s"));
    auto* bandwidth = new QDoubleSpinBox(&dialog);
    bandwidth->setRange(0.001, 1000.0);
    bandwidth->setDecimals(3);
    bandwidth->setValue(2.0);
    bandwidth->setSuffix(tr(" TB/s"));
    form->addRow(tr("Name:"), name);
    form->addRow(tr("Dense peak:"), peak);
    form->addRow(tr("Memory bandwidth:"), bandwidth);
    auto* note = new QLabel(tr("Use a dense (not with-sparsity) peak for the precision you care about."), &dialog);
    note->setWordWrap(true);
    form->addRow(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_customRoofs.push_back({name->text().trimmed().isEmpty() ? tr("Custom GPU") : name->text().trimmed(),
                             Roof{peak->value() * 1000.0, bandwidth->value() * 1000.0}});
    applyGpuRoofs();
}

void MainWindow::applyGpuRoofs()
{
    const QAction* checkedFormat = m_gpuFormats->checkedAction();
    const auto format =
        static_cast<NumberFormat>(checkedFormat ? checkedFormat->data().toInt() : static_cast<int>(NumberFormat::Bf16));
    std::vector<NamedRoof> roofs;
    QStringList missing;
    for (const QAction* action : std::as_const(m_gpuActions)) {
        if (!action->isChecked())
            continue;
        Result<NamedRoof> roof = catalogGpuRoof(action->data().toString(), format);
        if (roof)
            roofs.push_back(roof.value());
        else
            missing << action->text();
    }
    roofs.insert(roofs.end(), m_customRoofs.begin(), m_customRoofs.end());
    m_chart->setExtraRoofs(std::move(roofs));
    if (!missing.isEmpty())
        statusBar()->showMessage(
            tr("No dense %1 peak for %2").arg(numberFormatName(format), missing.join(QStringLiteral(", "))), 6000);
}

void MainWindow::updateRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = m_settings->recentFiles();
    for (const QString& path : files)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openSession(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::onKernelClicked(int session, int kernel)
{
    const std::vector<Session> visible = m_sessions->visibleSessions();
    if (session < 0 || session >= static_cast<int>(visible.size()))
        return;
    const Session& s = visible[static_cast<std::size_t>(session)];
    if (kernel < 0 || kernel >= static_cast<int>(s.kernels.size()))
        return;
    m_explain->setHtml(ridgeline::ui::explanationHtml(explainKernel(s, s.kernels[static_cast<std::size_t>(kernel)])));
    m_selectedKernelName = s.kernels[static_cast<std::size_t>(kernel)].name;
    if (QDockWidget* dock = findChild<QDockWidget*>(QStringLiteral("ExplainDock")))
        dock->show();
}

void MainWindow::startMeasurement(bool quick)
{
    if (m_runner->isRunning())
        return;
    MeasureOptions options;
    options.quick = quick;
    options.generator =
        QStringLiteral("ridgeline %1 (window, %2)")
            .arg(QCoreApplication::applicationVersion(), quick ? QStringLiteral("quick") : QStringLiteral("full"));
    if (!m_runner->start(options))
        return;
    m_measureQuick->setEnabled(false);
    m_measureFull->setEnabled(false);
    m_progress->setRange(0, 0);
    m_stage->setText(tr("Starting measurement…"));
    m_stage->show();
    m_progress->show();
    m_cancelButton->show();
}

void MainWindow::cancelMeasurement()
{
    if (!m_runner->isRunning())
        return;
    m_stage->setText(tr("Cancelling…"));
    m_cancelButton->setEnabled(false);
    m_runner->cancel();
}

void MainWindow::onMeasureProgress(int done, int total, const QString& stage)
{
    if (total > 0) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    }
    if (!stage.isEmpty())
        m_stage->setText(stage);
}

void MainWindow::onMeasurePartial(const Session& soFar)
{
    // Only the chart shows the partial run; the open sessions stay as they were until it finishes.
    m_chart->setSessions({soFar});
}

void MainWindow::onMeasureFinished(const Session& session)
{
    onMeasureEnded();
    setSession(session);
    statusBar()->showMessage(
        tr("Measurement finished in %1 s; save it with Ctrl+S.").arg(session.wallSeconds, 0, 'f', 1), 8000);
}

void MainWindow::onMeasureEnded()
{
    m_measureQuick->setEnabled(true);
    m_measureFull->setEnabled(true);
    m_cancelButton->setEnabled(true);
    m_stage->hide();
    m_progress->hide();
    m_cancelButton->hide();
    refresh();  // back to the open sessions: a cancelled run leaves them exactly as they were
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (m_runner->isRunning())
        m_runner->cancel();
    m_settings->setWindowGeometry(saveGeometry());
    m_settings->setWindowState(m_rooflineState.isEmpty() ? saveState() : m_rooflineState);
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!localDroppedFiles(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList files = localDroppedFiles(event->mimeData());
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    QStringList sessions;
    QStringList profiles;
    for (const QString& file : files)
        (isSessionFile(file) ? sessions : profiles) << file;
    // The first session opens; any others overlay it; profiler files are then imported into the result.
    if (!sessions.isEmpty()) {
        if (!openSession(sessions.first()))
            return;
        for (qsizetype i = 1; i < sessions.size(); ++i)
            addOverlay(sessions[i]);
    }
    if (!profiles.isEmpty())
        importFiles(profiles);
}

void MainWindow::onImport()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Import Profile"), sessionDirectory(),
        tr("Profiler output (*.csv *.json);;Nsight Compute, likwid or plain CSV (*.csv);;ERT roofline (*.json);;"
           "All files (*)"));
    if (!paths.isEmpty())
        importFiles(paths);
}

bool MainWindow::importFiles(const QStringList& paths)
{
    if (paths.isEmpty())
        return false;
    std::vector<ImportResult> imports;
    for (const QString& path : paths) {
        Result<ImportResult> imported = importFile(path);
        if (!imported) {
            reportError(tr("Nothing imported"), imported.error().message);
            return false;
        }
        imports.push_back(std::move(imported).value());
    }
    const bool haveSession = !m_sessions->sessions().empty();
    const Session* primary = haveSession ? &m_sessions->sessions().front().session : nullptr;
    const bool bringsCeilings =
        std::any_of(imports.begin(), imports.end(), [](const ImportResult& i) { return i.hasCeilings(); });
    const bool primaryHasCeilings =
        primary && (!primary->computeCeilings.empty() || !primary->bandwidthCeilings.empty());
    // Kernels join the primary session; ceilings of another machine cannot, so they come as an overlay.
    const bool asOverlay = haveSession && bringsCeilings && primaryHasCeilings;
    std::optional<Session> base;
    if (haveSession && !asOverlay)
        base = *primary;
    Result<Session> combined = sessionWithImports(base, imports);
    if (!combined) {
        reportError(tr("Nothing imported"), combined.error().message);
        return false;
    }
    if (asOverlay) {
        m_sessions->append(OpenSession{std::move(combined).value(), QString(), true});
    } else if (haveSession) {
        OpenSession updated = m_sessions->sessions().front();
        updated.session = std::move(combined).value();
        m_sessions->replace(0, std::move(updated));
        m_dirty = true;
    } else {
        m_sessions->setSessions({OpenSession{std::move(combined).value(), QString(), true}});
        m_dirty = true;
        m_explain->setHtml(explainHint());
    }
    m_settings->setLastDirectory(QFileInfo(paths.first()).absolutePath());
    refresh();

    QStringList lines;
    std::size_t kernels = 0;
    for (const ImportResult& import : imports) {
        if (!lines.isEmpty())
            lines << QString();
        lines << importSummaryLines(import);
        kernels += import.kernels.size();
    }
    const QString from = imports.size() == 1 ? imports.front().fileName : tr("%1 files").arg(imports.size());
    statusBar()->showMessage(kernels == 0
                                 ? tr("Imported the ceilings in %1").arg(from)
                                 : tr("Imported %n kernel(s) from %1", nullptr, static_cast<int>(kernels)).arg(from),
                             6000);
    showImportSummary(lines);
    emit importFinished(lines);
    return true;
}

void MainWindow::showImportSummary(const QStringList& lines)
{
    // open(), not exec(), like the error boxes: tests and drops never wait on a nested event loop.
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("ImportSummaryDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowTitle(tr("Import Summary"));
    auto* layout = new QVBoxLayout(dialog);
    auto* text = new QPlainTextEdit(dialog);
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setPlainText(lines.join(QLatin1Char('\n')));
    layout->addWidget(text);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok, dialog);
    connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    layout->addWidget(buttons);
    // Wide enough for the usual line (skip reasons are long), at most about a laptop screen.
    const QFontMetrics metrics(text->font());
    int widest = 0;
    for (const QString& line : lines)
        widest = std::max(widest, metrics.horizontalAdvance(line));
    const int height = static_cast<int>(lines.size()) * metrics.lineSpacing();
    dialog->resize(std::clamp(widest + 110, 640, 1240), std::clamp(height + 110, 240, 680));
    dialog->open();
}

void MainWindow::onKernelFilterChanged(const QString& text)
{
    m_kernelProxy->setFilterFixedString(text.trimmed());
    m_chart->setKernelFilter(text.trimmed());
}

}  // namespace ridgeline::ui
