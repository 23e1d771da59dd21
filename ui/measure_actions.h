#pragma once
// The Measure menu and what a run does to the window: it asks before a new run would replace unsaved work,
// starts the engine on its worker thread (ui/runner), shows partial results, progress and Cancel, makes the
// finished session the unsaved primary one, and then says in one message what in it cannot be trusted (kernels
// above their roofs, fp32 close to fp64, wide spreads, a busy machine: ui/models/run_warnings.h), offering to
// measure again.

#include "core/session/session.h"
#include "ui/runner/measure_runner.h"

#include <QMessageBox>
#include <QObject>
#include <QPointer>

#include <functional>
#include <optional>

class QAction;
class QMenuBar;
class QWidget;

namespace ridgeline::ui {

class FileActions;
class MeasureStatus;
class SessionDocument;

class MeasureActions : public QObject {
    Q_OBJECT
public:
    MeasureActions(QWidget* window, MeasureFunction measure, SessionDocument* document, FileActions* files,
                   MeasureStatus* status);

    void addTo(QMenuBar* menus);
    QAction* quickAction() const { return m_quick; }
    QAction* fullAction() const { return m_full; }
    MeasureRunner* runner() const { return m_runner; }

    // Starts a run unless one is running; asks first when an unsaved session would be replaced (askFirst).
    bool start(bool quick, bool askFirst = true);
    void cancel();
    // The one-minute load average when a run starts (default: /proc/loadavg); tests give a fixed one.
    void setLoadAverageProbe(std::function<std::optional<double>()> probe) { m_loadProbe = std::move(probe); }
    // The message shown after the last run, while it is open ("RunWarningsBox"); null otherwise.
    QMessageBox* warningBox() const { return m_warningBox; }

signals:
    void started();  // a new run began: what belonged to the previous session's view no longer applies
    void partialResult(const ridgeline::Session& soFar);
    void ended();  // finished, failed or cancelled: the window shows the open sessions again
    void errorOccurred(const QString& title, const QString& message);
    void statusMessage(const QString& text, int milliseconds);

private:
    void onFinished(const Session& session);
    void onEnded();
    void warnAbout(const Session& session);

    QWidget* m_window = nullptr;
    SessionDocument* m_document = nullptr;
    FileActions* m_files = nullptr;
    MeasureStatus* m_status = nullptr;
    MeasureRunner* m_runner = nullptr;
    QAction* m_quick = nullptr;
    QAction* m_full = nullptr;
    bool m_lastQuick = true;
    std::function<std::optional<double>()> m_loadProbe;
    std::optional<double> m_loadAtStart;
    QPointer<QMessageBox> m_warningBox;
};

}  // namespace ridgeline::ui
