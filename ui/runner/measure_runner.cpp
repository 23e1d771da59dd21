#include "ui/runner/measure_runner.h"

#include <QPromise>
#include <QtConcurrent/QtConcurrentRun>

namespace ridgeline::ui {

namespace {

// PlotJuggler's repaint coalescing: many partial results, one repaint per 40 ms.
constexpr int kPartialCoalesceMs = 40;

}  // namespace

MeasureRunner::MeasureRunner(QObject* parent) : MeasureRunner(&measureMachine, parent) {}

MeasureRunner::MeasureRunner(MeasureFunction measure, QObject* parent) : QObject(parent), m_measure(std::move(measure))
{
    m_pool.setMaxThreadCount(1);
    m_partialTimer.setSingleShot(true);
    m_partialTimer.setInterval(kPartialCoalesceMs);
    connect(&m_partialTimer, &QTimer::timeout, this, &MeasureRunner::flushPartial);
    connect(&m_watcher, &QFutureWatcher<MeasureOutcome>::finished, this, &MeasureRunner::onWorkerFinished);
    connect(&m_watcher, &QFutureWatcher<MeasureOutcome>::progressValueChanged, this,
            [this](int value) { emit progressChanged(value, m_watcher.progressMaximum(), m_watcher.progressText()); });
    connect(&m_watcher, &QFutureWatcher<MeasureOutcome>::progressTextChanged, this, [this](const QString& text) {
        emit progressChanged(m_watcher.progressValue(), m_watcher.progressMaximum(), text);
    });
}

MeasureRunner::~MeasureRunner()
{
    m_watcher.disconnect(this);
    if (m_cancelRequested)
        m_cancelRequested->store(true);
    m_pool.waitForDone();
}

bool MeasureRunner::isRunning() const
{
    return m_running;
}

bool MeasureRunner::start(const MeasureOptions& options)
{
    if (m_running)
        return false;
    m_running = true;
    const quint64 generation = ++m_generation;
    {
        QMutexLocker lock(&m_partialMutex);
        m_latestPartial.reset();
    }
    MeasureFunction measure = m_measure;
    // Our own flag rather than QFuture::cancel(): a cancelled future reports "finished" at once and may
    // skip the job, while the GUI must know when the engine has really returned and freed its buffers.
    m_cancelRequested = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<std::atomic<bool>> cancelRequested = m_cancelRequested;
    QFuture<MeasureOutcome> future = QtConcurrent::run(
        &m_pool, [this, measure, options, generation, cancelRequested](QPromise<MeasureOutcome>& promise) {
            const ProgressCallback progress = [&promise, cancelRequested](const MeasureProgress& p) {
                promise.setProgressRange(0, p.total);
                promise.setProgressValueAndText(p.done, p.stage);
                return !cancelRequested->load();
            };
            const PartialResultCallback partial = [this, generation](const Session& soFar) {
                bool post = false;
                {
                    QMutexLocker lock(&m_partialMutex);
                    post = !m_latestPartial.has_value();
                    m_latestPartial = soFar;
                }
                if (post)
                    QMetaObject::invokeMethod(
                        this, [this, generation] { onPartialPosted(generation); }, Qt::QueuedConnection);
            };
            Result<Session> result = measure(options, progress, partial);
            MeasureOutcome outcome;
            if (cancelRequested->load()) {
                outcome.failed = true;
                outcome.error = makeError(Error::Code::Cancelled, QStringLiteral("cancelled"));
            } else if (result) {
                outcome.session = std::move(result).value();
            } else {
                outcome.failed = true;
                outcome.error = result.error();
            }
            promise.addResult(std::move(outcome));
        });
    m_watcher.setFuture(future);
    emit started();
    return true;
}

void MeasureRunner::cancel()
{
    if (m_running && m_cancelRequested)
        m_cancelRequested->store(true);
}

void MeasureRunner::onPartialPosted(quint64 generation)
{
    if (generation != m_generation.load() || !m_running || m_cancelRequested->load())
        return;
    if (!m_partialTimer.isActive())
        m_partialTimer.start();
}

void MeasureRunner::flushPartial()
{
    std::optional<Session> partial;
    {
        QMutexLocker lock(&m_partialMutex);
        partial.swap(m_latestPartial);
    }
    if (partial && m_running && !m_cancelRequested->load())
        emit partialResult(*partial);
}

void MeasureRunner::onWorkerFinished()
{
    m_running = false;
    m_partialTimer.stop();
    {
        QMutexLocker lock(&m_partialMutex);
        m_latestPartial.reset();
    }
    const QFuture<MeasureOutcome> future = m_watcher.future();
    if (m_cancelRequested->load() || future.resultCount() == 0) {
        emit cancelled();
        return;
    }
    const MeasureOutcome outcome = future.result();
    if (outcome.failed) {
        if (outcome.error.code == Error::Code::Cancelled)
            emit cancelled();
        else
            emit failed(outcome.error.message);
        return;
    }
    emit finished(outcome.session);
}

}  // namespace ridgeline::ui
