#pragma once
// The roofline window: chart in the middle, sessions / explanation / kernels / bandwidth staircase in docks,
// file and measurement actions in the menu and toolbar, progress and Cancel in the status bar.

#include "core/scene/deck.h"
#include "core/session/session.h"
#include "ui/chart/roofline_chart.h"
#include "ui/runner/measure_runner.h"

#include <QMainWindow>
#include <QPointer>

class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QSortFilterProxyModel;
class QPushButton;
class QTableView;
class QListView;
class QTabWidget;
class QTextBrowser;
class QTimer;

namespace ridgeline::ui {

class BandwidthChart;
class BatchingPanel;
class PresentationWindow;
class KernelTableModel;
class SessionListModel;
class Settings;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    // For tests: a fake engine in place of measureMachine.
    MainWindow(MeasureFunction measure, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a session file as the primary session; on failure shows why and keeps the current view.
    bool openSession(const QString& path);
    // Adds a session file as an overlay beside the ones already open.
    bool addOverlay(const QString& path);
    // Shows a session that is not (yet) a file, e.g. a finished measurement.
    void setSession(const Session& session, const QString& path = {});
    bool saveSession(const QString& path);
    // File > Import and drag and drop (issue 6): reads profiler files (format detected), all or nothing. On
    // success the kernels join the primary session (which becomes unsaved), or form a new session when none is
    // open, or an overlay when the files carry ceilings of another machine and the primary has its own; a
    // summary dialog says what was read and skipped. On any error nothing changes and the error is shown.
    bool importFiles(const QStringList& paths);

    void startMeasurement(bool quick);
    void cancelMeasurement();

    RooflineChart* chart() const { return m_chart; }
    BatchingPanel* batchingPanel() const { return m_batching; }
    // F5: the default deck full screen, with the primary session's measurements.
    void startPresentation();
    void present(const Deck& deck);
    // The current tab's view as a scene (kind "view"): the explorer's settings, or the roofline's
    // selected kernel. Talk > Save View as Scene adds it, with a title and caption, to a deck file.
    Scene currentViewAsScene() const;
    std::optional<Error> appendSceneToDeck(Scene scene, const QString& path);
    PresentationWindow* presentation() const;
    QTabWidget* tabs() const { return m_tabs; }
    BandwidthChart* bandwidthChart() const { return m_bandwidth; }
    SessionListModel* sessionModel() const { return m_sessions; }
    KernelTableModel* kernelModel() const { return m_kernels; }
    // The Kernels dock's view of the model: filtered by the search field.
    QSortFilterProxyModel* kernelProxy() const { return m_kernelProxy; }
    QLineEdit* kernelFilter() const { return m_kernelFilter; }
    QAction* sizeByTimeAction() const { return m_sizeByTime; }
    MeasureRunner* runner() const { return m_runner; }
    QString currentPath() const;
    QString explanationHtml() const;

signals:
    // Every problem shown to the user in a dialog, also as a signal (tests, status bar).
    void errorReported(const QString& title, const QString& message);
    // An import succeeded; the lines are the summary the dialog shows (importSummaryLines per file).
    void importFinished(const QStringList& summaryLines);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createActions();
    void createDocks();
    void createStatusBar();
    void refresh();
    void applySettingsToChart();
    void updateRecentMenu();
    void updateTitle();
    void reportError(const QString& title, const QString& message);
    void onKernelClicked(int session, int kernel);
    void onOpen();
    void onAddOverlay();
    void onImport();
    void showImportSummary(const QStringList& lines);
    void onKernelFilterChanged(const QString& text);
    void onSave();
    void onSaveAs();
    void onExport(const QString& filter, const QString& suffix);
    void onCopyChart();
    void onCustomGpu();
    void applyGpuRoofs();
    void onMeasureProgress(int done, int total, const QString& stage);
    void onMeasurePartial(const Session& soFar);
    void onMeasureFinished(const Session& session);
    void onMeasureEnded();
    void createTalkMenu();
    void createHelpMenu();
    void onExportSlides();
    void onPresentDeckFile();
    void onSaveViewAsScene();
    const Session* primarySession() const;
    void onTabChanged(int index);
    void showShortcuts();
    void showAbout();
    QString sessionDirectory() const;

    Settings* m_settings = nullptr;
    QTabWidget* m_tabs = nullptr;  // the roofline and the batching explorer
    RooflineChart* m_chart = nullptr;
    BatchingPanel* m_batching = nullptr;
    BandwidthChart* m_bandwidth = nullptr;
    SessionListModel* m_sessions = nullptr;
    KernelTableModel* m_kernels = nullptr;
    MeasureRunner* m_runner = nullptr;
    QTextBrowser* m_explain = nullptr;
    QTableView* m_kernelView = nullptr;
    QListView* m_sessionView = nullptr;
    QSortFilterProxyModel* m_kernelProxy = nullptr;
    QLineEdit* m_kernelFilter = nullptr;

    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QLabel* m_stage = nullptr;

    QMenu* m_recentMenu = nullptr;
    QMenu* m_gpuMenu = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_measureQuick = nullptr;
    QAction* m_measureFull = nullptr;
    QAction* m_darkTheme = nullptr;
    QAction* m_shade = nullptr;
    QAction* m_iso = nullptr;
    QAction* m_sizeByTime = nullptr;
    std::vector<NamedRoof> m_customRoofs;  // typed in by hand
    QList<QAction*> m_gpuActions;          // one checkable action per catalog GPU (data: id)
    QActionGroup* m_gpuFormats = nullptr;  // which dense peak (fp32, bf16 ...) the GPU roofs use
    bool m_dirty = false;
    QPointer<PresentationWindow> m_presentation;   // while a talk is on screen
    QString m_selectedKernelName;                  // the kernel last clicked on the roofline
    QList<QDockWidget*> m_docksHiddenForExplorer;  // roofline docks to bring back when leaving the explorer
    QByteArray m_rooflineState;                    // the dock layout of the roofline tab while the explorer hides it
};

}  // namespace ridgeline::ui
