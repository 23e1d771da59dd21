#include "ui/measure_actions.h"

#include "core/measure/machine/system_facts.h"
#include "ui/file_actions.h"
#include "ui/measure_status.h"
#include "ui/models/run_warnings.h"
#include "ui/models/session_document.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QThread>

namespace ridgeline::ui {

MeasureActions::MeasureActions(QWidget* window, MeasureFunction measure, SessionDocument* document, FileActions* files,
                               MeasureStatus* status)
    : QObject(window),
      m_window(window),
      m_document(document),
      m_files(files),
      m_status(status),
      m_runner(new MeasureRunner(std::move(measure), this)),
      m_loadProbe([] { return readLoadAverage(ProbeSources{}); })
{
    connect(m_runner, &MeasureRunner::progressChanged, m_status, &MeasureStatus::progress);
    connect(m_runner, &MeasureRunner::partialResult, this, &MeasureActions::partialResult);
    connect(m_runner, &MeasureRunner::finished, this, &MeasureActions::onFinished);
    connect(m_runner, &MeasureRunner::failed, this, [this](const QString& message) {
        onEnded();
        emit errorOccurred(tr("Measurement failed"), message);
    });
    connect(m_runner, &MeasureRunner::cancelled, this, [this] {
        onEnded();
        emit statusMessage(tr("Measurement cancelled; the previous session is unchanged."), 5000);
    });
    connect(m_status, &MeasureStatus::cancelRequested, this, &MeasureActions::cancel);
}

void MeasureActions::addTo(QMenuBar* menus)
{
    QMenu* measure = menus->addMenu(tr("&Measure"));
    m_quick = measure->addAction(tr("Measure (&quick)"), this, [this] { start(true); });
    m_quick->setToolTip(tr("A few seconds: fewer sizes and repetitions"));
    m_full = measure->addAction(tr("Measure (&full)"), this, [this] { start(false); });
    m_full->setToolTip(tr("About half a minute: every size, more repetitions"));
    QAction* cancelAction = measure->addAction(tr("&Cancel Measurement"), this, &MeasureActions::cancel);
    cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
}

bool MeasureActions::start(bool quick, bool askFirst)
{
    if (m_runner->isRunning())
        return false;
    // The run replaces the primary session when it finishes: what is unsaved in it goes then.
    if (askFirst && !m_files->maybeSave(tr("measuring this machine")))
        return false;
    MeasureOptions options;
    options.quick = quick;
    options.generator =
        QStringLiteral("ridgeline %1 (window, %2)")
            .arg(QCoreApplication::applicationVersion(), quick ? QStringLiteral("quick") : QStringLiteral("full"));
    // Read before the run's own threads raise it.
    m_loadAtStart = m_loadProbe ? m_loadProbe() : std::nullopt;
    if (!m_runner->start(options))
        return false;
    m_lastQuick = quick;
    if (m_warningBox)
        m_warningBox->close();
    m_quick->setEnabled(false);
    m_full->setEnabled(false);
    m_status->started();
    emit started();
    return true;
}

void MeasureActions::cancel()
{
    if (!m_runner->isRunning())
        return;
    m_status->cancelling();
    m_runner->cancel();
}

void MeasureActions::onEnded()
{
    m_quick->setEnabled(true);
    m_full->setEnabled(true);
    m_status->ended();
    emit ended();
}

void MeasureActions::onFinished(const Session& session)
{
    onEnded();
    m_document->setSession(session);
    emit statusMessage(tr("Measurement finished in %1 s; save it with Ctrl+S.").arg(session.wallSeconds, 0, 'f', 1),
                       8000);
    warnAbout(session);
}

void MeasureActions::warnAbout(const Session& session)
{
    const std::vector<RunWarning> warnings =
        runWarnings(session, RunContext{m_loadAtStart, QThread::idealThreadCount()});
    if (warnings.empty())
        return;
    // One message for everything, window-modal without a nested event loop (open(), not exec()).
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Measure Again?"), runWarningsMessage(warnings),
                                QMessageBox::NoButton, m_window);
    box->setObjectName(QStringLiteral("RunWarningsBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* again = box->addButton(tr("Measure &Again"), QMessageBox::AcceptRole);
    again->setObjectName(QStringLiteral("MeasureAgainButton"));
    QPushButton* keep = box->addButton(tr("&Keep This Run"), QMessageBox::RejectRole);
    keep->setObjectName(QStringLiteral("KeepRunButton"));
    box->setDefaultButton(keep);
    const bool quick = m_lastQuick;
    // The user chose to replace this run: no question about saving it first.
    connect(again, &QPushButton::clicked, this, [this, quick] { start(quick, false); });
    m_warningBox = box;
    box->open();
}

}  // namespace ridgeline::ui
