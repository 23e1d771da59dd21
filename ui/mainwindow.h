#pragma once
// The roofline window: chart in the middle, sessions / explanation / kernels / bandwidth staircase in docks,
// file and measurement actions in the menu and toolbar, progress and Cancel in the status bar. It wires its
// parts together: the document (ui/models/session_document), the Talk menu (ui/talk/talk_actions), the GPU
// Rooflines menu (gpu_menu), the measurement status (measure_status) and the dialogs (dialogs).

#include "core/scene/deck.h"
#include "core/session/session.h"
#include "ui/chart/roofline_chart.h"
#include "ui/runner/measure_runner.h"

#include <QMainWindow>

#include <functional>

class QAction;
class QDockWidget;
class QLineEdit;
class QMenu;
class QSortFilterProxyModel;
class QTabWidget;
class QTextBrowser;

namespace ridgeline::ui {

class BandwidthChart;
class BatchingPanel;
class TrainingPanel;
class FileActions;
class GpuMenu;
class KernelDock;
class MeasurementDock;
class KernelTableModel;
class MeasureActions;
class MeasureStatus;
class PresentationWindow;
class SessionDocument;
class SessionListView;
class SessionListModel;
class Settings;
class TalkActions;
class WelcomePanel;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    // For tests: a fake engine in place of measureMachine.
    MainWindow(MeasureFunction measure, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a session file as the primary session; on failure shows why and keeps the current view.
    bool openSession(const QString& path);
    // At start without files: the session open when the window last closed, when the setting says so. A file
    // that is gone or broken is named in a message, and the empty chart offers what to start from instead.
    bool reopenLastSession();
    // Adds a session file as an overlay beside the ones already open.
    bool addOverlay(const QString& path);
    // Shows a session that is not (yet) a file, e.g. a finished measurement.
    void setSession(const Session& session, const QString& path = {});
    bool saveSession(const QString& path);
    // File > Import and drag and drop: reads profiler files (format detected), all or nothing. On
    // success the kernels join the primary session (which becomes unsaved), or form a new session when none is
    // open, or an overlay when the files carry ceilings of another machine and the primary has its own; a
    // summary dialog says what was read and skipped. On any error nothing changes and the error is shown.
    bool importFiles(const QStringList& paths);

    // Asks first when an unsaved session would be replaced (Save / Discard / Cancel).
    void startMeasurement(bool quick);
    void cancelMeasurement();
    MeasureActions* measureActions() const { return m_measure; }
    FileActions* fileActions() const { return m_file; }
    KernelDock* kernelDock() const { return m_kernelDock; }
    // The offer on the empty chart (bundled measurement, measure, example); hidden while a session is open.
    WelcomePanel* welcomePanel() const { return m_welcome; }

    RooflineChart* chart() const { return m_chart; }
    BatchingPanel* batchingPanel() const { return m_batching; }
    TrainingPanel* trainingPanel() const { return m_training; }
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
    MeasurementDock* measurementDock() const { return m_measurement; }
    SessionListModel* sessionModel() const;
    SessionDocument* document() const { return m_document; }
    KernelTableModel* kernelModel() const { return m_kernels; }
    // The Kernels dock's view of the model: filtered by the search field.
    QSortFilterProxyModel* kernelProxy() const;
    QLineEdit* kernelFilter() const;
    QAction* sizeByTimeAction() const { return m_sizeByTime; }
    MeasureRunner* runner() const;
    QString currentPath() const;
    QString explanationHtml() const;

signals:
    // Every problem shown to the user in a dialog, also as a signal (tests, status bar).
    void errorReported(const QString& title, const QString& message);
    // An import succeeded; the lines are the summary the dialog shows (importSummaryLines per file).
    void importFinished(const QStringList& summaryLines);

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createDocks();
    void sizeDocks();
    void createEditMenu();
    void createViewMenu();
    void createToolBar();
    void createHelpMenu();
    void connectParts();
    void refresh();
    void applySettingsToChart();
    void updateTitle();
    void reportError(const QString& title, const QString& message);
    void showStatus(const QString& text, int milliseconds);
    void onKernelClicked(int session, int kernel);
    void onMeasureStarted();
    void onTabChanged(int index);
    void updateWelcome();
    void openBuiltIn(const Result<Session>& session, const QString& name);
    QAction* addToggle(QMenu* menu, const QString& text, bool checked, std::function<void(bool)> apply);

    Settings* m_settings = nullptr;
    SessionDocument* m_document = nullptr;
    TalkActions* m_talk = nullptr;
    FileActions* m_file = nullptr;
    MeasureStatus* m_measureStatus = nullptr;
    MeasureActions* m_measure = nullptr;
    WelcomePanel* m_welcome = nullptr;
    GpuMenu* m_gpuMenu = nullptr;
    QTabWidget* m_tabs = nullptr;  // the roofline, the batching explorer and the training step
    RooflineChart* m_chart = nullptr;
    BatchingPanel* m_batching = nullptr;
    TrainingPanel* m_training = nullptr;
    BandwidthChart* m_bandwidth = nullptr;
    MeasurementDock* m_measurement = nullptr;
    KernelTableModel* m_kernels = nullptr;
    QTextBrowser* m_explain = nullptr;
    SessionListView* m_sessionView = nullptr;
    KernelDock* m_kernelDock = nullptr;

    QMenu* m_viewMenu = nullptr;
    QAction* m_resetView = nullptr;
    QAction* m_darkTheme = nullptr;
    QAction* m_shade = nullptr;
    QAction* m_iso = nullptr;
    QAction* m_allNames = nullptr;
    QAction* m_sizeByTime = nullptr;
    QString m_selectedKernelName;                  // the kernel last clicked on the roofline
    QList<QDockWidget*> m_docksHiddenForExplorer;  // roofline docks to bring back when leaving the explorer
    QByteArray m_rooflineState;                    // the dock layout of the roofline tab while the explorer hides it
    bool m_docksSized = false;                     // the first show gave the docks their share of the window
};

}  // namespace ridgeline::ui
