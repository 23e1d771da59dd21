#pragma once
// The window's document, without widgets: the open sessions (the first primary, the others overlays), the
// primary's file and whether it has unsaved changes, and the policies for opening, overlaying, saving and
// importing. Every failure changes nothing and is reported once through errorOccurred.

#include "core/import/kernel/import_result.h"
#include "core/session/session.h"
#include "ui/models/session_list_model.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

class QMimeData;
class QUndoStack;

namespace ridgeline::ui {

class Settings;

class SessionDocument : public QObject {
    Q_OBJECT
public:
    // Recent files and the last directory go to `settings`.
    explicit SessionDocument(Settings* settings, QObject* parent = nullptr);

    SessionListModel* model() const { return m_sessions; }
    const Session* primary() const;
    // The primary session's file; empty when there is none or it is not saved yet.
    QString currentPath() const;
    // Unsaved changes: a measurement or import not yet written, or a kernel removed since the last save.
    bool isDirty() const;
    // For the title bar and file names: the file's name, a built-in session's name, or "Unsaved measurement";
    // empty when nothing is open.
    QString displayName() const;
    // Edits of the primary session that can be undone (removing kernels); cleared when another session opens.
    QUndoStack* undoStack() const { return m_undo; }
    // The folder the file dialogs start in: the last one used, else Documents, else home (export_naming.h).
    QString directory() const;

    // Opens a session file as the primary session (the others close). A failure is reported under errorTitle
    // (default "Cannot open session").
    bool open(const QString& path, const QString& errorTitle = {});
    // Adds a session file as an overlay beside the ones open (opens it when none is).
    bool addOverlay(const QString& path);
    // A session that is not (yet) a file, e.g. a finished measurement; unsaved when it has no path.
    void setSession(const Session& session, const QString& path = {});
    // A session that comes with Ridgeline (the bundled measurement, an example): nothing to lose, so not unsaved,
    // and no file of its own (Save asks where). `name` is what the title bar says.
    void showBuiltIn(const Session& session, const QString& name);
    // Closes every open session; the window shows its start page. Nothing asks here: the caller asked first.
    void closeAll();
    // Takes overlay `row` (1 or more) off the chart; the primary session and its unsaved changes stay. False for the
    // primary or a row that is not there.
    bool removeOverlay(int row);
    // Removes kernel `index` of the primary session, as an undoable step; false when there is no such kernel.
    bool removeKernel(int index);
    // Writes the primary session (through saveFile, core/save_file.h), which then belongs to `path`.
    bool save(const QString& path);
    // Reads profiler files (format detected), all or nothing, as `ridgeline import` does (core importFiles: likwid
    // files with a group each of one program's run are read as one run), and places them as it does
    // (core/import/import_session.h placeImports): kernels join the primary session (which becomes unsaved) unless
    // they ran on another CPU; those, and ceilings of another machine, come as overlays of sessions of their own
    // (when none is open, the first session becomes the primary). The summary's "into" lines say where each went.
    // GPU kernels whose files name no catalog GPU are not drawn against this CPU's roof: the document
    // asks which GPU they ran on (gpuQuestion) and waits; nothing changes until answerGpu or cancelImport. Returns
    // true when the files were read (imported, or waiting for that answer), false on error.
    bool importFiles(const QStringList& paths);
    // A fit of the LLM model to the person's benchmark results (the Calibrate dialog, as `ridgeline calibrate`
    // --into): appended to the primary session's calibrations as an undoable step; a new session that measured
    // nothing holds it when none is open.
    void addCalibration(Calibration calibration);
    // The serving engine the batching tab models with (Session::engine) in the primary session, which becomes
    // unsaved; nothing happens without a primary session or when it already names that engine.
    void setEngine(const QString& engine);
    // Takes calibration `index` out of the primary session, as an undoable step; false when there is no such one.
    bool removeCalibration(int index);
    // The answer to gpuQuestion: a catalog GPU id, or "" to import those kernels without a roof.
    void answerGpu(const QString& gpuId);
    void cancelImport();
    bool importWaiting() const { return m_pending.has_value(); }

    // A .json file is a session when its format tag says so (ERT's roofline.json is JSON too); a file that does not
    // parse but names the tag is a broken session, which the session loader then explains.
    static bool isSessionFile(const QString& path);
    // The local files of a drop the window takes: sessions and profiler output (.json), profiler tables (.csv),
    // likwid-perfctr's -O output redirected to a file (.log, .txt), benchmark results in JSON Lines (.jsonl).
    static QStringList droppedFiles(const QMimeData* mime);

signals:
    void changed();       // the sessions or their visibility changed: everything drawn from them follows
    void replaced();      // the primary session is a different one (its explanation no longer applies)
    void titleChanged();  // the primary's file or the unsaved mark changed
    void errorOccurred(const QString& title, const QString& message);
    void statusMessage(const QString& text, int milliseconds);
    void imported(const QStringList& summaryLines);  // importSummaryLines of each file, a blank line between
    // An import is waiting: `kernels` GPU kernels have no catalog GPU; deviceNames are what their files call the
    // device ("" when a file does not say). Answer with answerGpu or cancelImport.
    void gpuQuestion(int kernels, const QStringList& deviceNames);

private:
    friend class RemoveKernelCommand;
    friend class CalibrationCommand;
    void markDirty(bool dirty);
    // The primary session changed in place by `edit` (an undoable step or its undo): redraw, mark the title.
    void editPrimary(const std::function<void(Session&)>& edit);
    // The primary's kernels change in place (a removal and its undo).
    void takeKernel(int index);
    void insertKernel(int index, const KernelResult& kernel);
    // The primary's calibrations change in place (added, removed, undone).
    void takeCalibration(int index);
    void insertCalibration(int index, const Calibration& calibration);
    // A different primary session: nothing of the old one's edits can be undone.
    void startOver(bool dirty, const QString& builtInName = {});
    bool addImports(std::vector<ImportResult> imports, const QStringList& paths);

    struct PendingImport {
        std::vector<ImportResult> imports;
        QStringList paths;
    };
    std::optional<PendingImport> m_pending;

    Settings* m_settings = nullptr;
    SessionListModel* m_sessions = nullptr;
    QUndoStack* m_undo = nullptr;
    bool m_dirty = false;   // changed in ways the undo stack does not hold (a measurement, an import)
    QString m_builtInName;  // set while the primary is a built-in session
};

}  // namespace ridgeline::ui
