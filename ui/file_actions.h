#pragma once
// The File menu: open, open recent, add an overlay, compare with another session, import profiles, calibrate the LLM
// model on benchmark results, save, save as, export what the current tab shows (the roofline, the batching charts or
// the training step: PNG, SVG, PDF, CSV) and copy it. The document does the work; this asks for files and sizes, and
// asks before anything unsaved would be thrown away.

#include "core/result.h"

#include <QImage>
#include <QObject>
#include <QPointer>

#include <optional>

class QAction;
class QMenu;
class QMenuBar;
class QWidget;

namespace ridgeline {
struct Session;
}

namespace ridgeline::ui {

class BatchingPanel;
class CompareDialog;
class RooflineChart;
class SessionDocument;
class Settings;
class TrainingPanel;

enum class ExportTarget { Roofline, Batching, Training };

class FileActions : public QObject {
    Q_OBJECT
public:
    // `window` parents the dialogs; `chart`, `batching` and `training` are what Export and Copy draw.
    FileActions(QWidget* window, SessionDocument* document, Settings* settings, RooflineChart* chart,
                BatchingPanel* batching, TrainingPanel* training);

    void addTo(QMenuBar* menus);
    QAction* openAction() const { return m_openAction; }
    QAction* saveAction() const { return m_saveAction; }
    QAction* exportPngAction() const { return m_exportPng; }
    QAction* copyAction() const { return m_copy; }
    QAction* compareAction() const { return m_compareAction; }
    QAction* closeAction() const { return m_closeAction; }
    // Before/after: the primary session against the session file at `path`. A file that does not load
    // is reported (naming it and why) and nothing changes; the window's sessions stay as they are either way.
    bool compareWithFile(const QString& path);

    // File > Calibrate the Model on Benchmark Results…, with these files already in the dialog.
    void calibrate(const QStringList& benchmarkFiles = {});
    // Moves the benchmark results (vLLM, SGLang, GuideLLM, llama-bench) out of `files` and returns them: they go to
    // calibrate(), not to the profile importers.
    static QStringList takeBenchmarkResults(QStringList& files);

    // What Export and Copy draw: the window's current tab.
    void setExportTarget(ExportTarget target);
    ExportTarget exportTarget() const { return m_target; }

    // Before something replaces an unsaved session: Save / Discard / Cancel, as desktop programs ask. `action`
    // finishes the question "Save the changes before ...?" ("opening another session", "quitting"). True when the
    // caller may go on: nothing was unsaved, the session was saved, or the user chose to discard it.
    bool maybeSave(const QString& action);
    // Saves the primary session, asking for a file when it has none; false when cancelled or it failed.
    bool save();
    // Shows the file dialog and opens the chosen session (after maybeSave).
    void open();
    // File > Close Session: every open session closes (after maybeSave); the window shows its start page.
    void closeSession();

signals:
    void errorOccurred(const QString& title, const QString& message);
    void statusMessage(const QString& text, int milliseconds);
    void exported(const QString& path, ExportTarget target);
    void calibrated();  // a calibration joined the primary session: the batching tab shows it

private:
    void onAddOverlay();
    void onCompareWith();
    void compareWithOpen(int row);
    void showComparison(const QString& afterName, const Session& after);
    void updateCompareMenu();
    void onImport();
    bool saveAs();
    void onExport(const QString& filter, const QString& suffix);
    void onCopy();
    void updateRecentMenu();
    void updateExportMenu();
    // "AMD EPYC (Zen 4), 2 vCPUs" or "Llama 2 7B on H100 SXM": what the default file names start with.
    QString exportSubject() const;
    // The current tab's picture at `size`, as Copy puts it on the clipboard.
    QImage renderCurrent(QSize size, double ratio) const;
    std::optional<Error> exportCurrent(const QString& path, QSize size, double ratio) const;

    QWidget* m_window = nullptr;
    SessionDocument* m_document = nullptr;
    Settings* m_settings = nullptr;
    RooflineChart* m_chart = nullptr;
    BatchingPanel* m_batching = nullptr;
    TrainingPanel* m_training = nullptr;
    ExportTarget m_target = ExportTarget::Roofline;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_exportMenu = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_exportPng = nullptr;
    QAction* m_exportCsv = nullptr;
    QAction* m_copy = nullptr;
    QAction* m_compareAction = nullptr;
    QMenu* m_compareOpenMenu = nullptr;    // the overlays, each to compare with the primary without a file dialog
    QMenu* m_removeOverlayMenu = nullptr;  // the overlays, each to take off the chart
    QAction* m_closeAction = nullptr;
    QPointer<CompareDialog> m_compare;
};

}  // namespace ridgeline::ui

Q_DECLARE_METATYPE(ridgeline::ui::ExportTarget)
