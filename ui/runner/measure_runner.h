#pragma once
// Runs a measurement on a worker thread (a one-thread pool) and reports to the GUI through signals.
// The engine stays Qt-free; this bridges its callbacks: progress -> QPromise (throttled to 25 Hz by
// QFutureInterface), partial sessions -> a 40 ms coalescing timer, cancel -> the callback returns false.

#include "core/measure/engine.h"

#include <QFutureWatcher>
#include <QMutex>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace ridgeline::ui {

// The engine entry point; tests put a fake in its place.
using MeasureFunction =
    std::function<Result<Session>(const MeasureOptions&, const ProgressCallback&, const PartialResultCallback&)>;

struct MeasureOutcome {
    Session session;
    bool failed = false;
    Error error;  // when failed
};

class MeasureRunner : public QObject {
    Q_OBJECT
public:
    explicit MeasureRunner(QObject* parent = nullptr);
    MeasureRunner(MeasureFunction measure, QObject* parent = nullptr);
    ~MeasureRunner() override;  // cancels and waits: the worker never outlives the runner

    bool isRunning() const;
    // Starts a run; false (and nothing happens) when one is already running.
    bool start(const MeasureOptions& options);
    void cancel();

signals:
    void started();
    void progressChanged(int done, int total, const QString& stage);
    void partialResult(const ridgeline::Session& soFar);  // coalesced: at most one per 40 ms
    void finished(const ridgeline::Session& session);
    void failed(const QString& message);
    void cancelled();

private:
    void onWorkerFinished();
    void onPartialPosted(quint64 generation);
    void flushPartial();

    MeasureFunction m_measure;
    QThreadPool m_pool;
    QFutureWatcher<MeasureOutcome> m_watcher;
    QTimer m_partialTimer;
    QMutex m_partialMutex;
    std::optional<Session> m_latestPartial;                // guarded by m_partialMutex
    std::shared_ptr<std::atomic<bool>> m_cancelRequested;  // shared with the running job
    std::atomic<quint64> m_generation{0};                  // results of an older run are dropped (hotspot's JobTracker)
    bool m_running = false;
};

}  // namespace ridgeline::ui
