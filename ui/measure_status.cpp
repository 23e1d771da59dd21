#include "ui/measure_status.h"

#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

namespace ridgeline::ui {

MeasureStatus::MeasureStatus(QStatusBar* bar) : QObject(bar)
{
    m_stage = new QLabel(bar);
    m_progress = new QProgressBar(bar);
    m_progress->setMaximumWidth(260);
    m_progress->setTextVisible(true);
    m_cancel = new QPushButton(tr("Cancel"), bar);
    connect(m_cancel, &QPushButton::clicked, this, &MeasureStatus::cancelRequested);
    bar->addPermanentWidget(m_stage);
    bar->addPermanentWidget(m_progress);
    bar->addPermanentWidget(m_cancel);
    m_stage->hide();
    m_progress->hide();
    m_cancel->hide();
}

void MeasureStatus::started()
{
    m_progress->setRange(0, 0);  // busy until the engine says how many steps there are
    m_stage->setText(tr("Starting measurement…"));
    m_stage->show();
    m_progress->show();
    m_cancel->show();
}

void MeasureStatus::progress(int done, int total, const QString& stage)
{
    if (total > 0) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    }
    if (!stage.isEmpty())
        m_stage->setText(stage);
}

void MeasureStatus::cancelling()
{
    m_stage->setText(tr("Cancelling…"));
    m_cancel->setEnabled(false);
}

void MeasureStatus::ended()
{
    m_cancel->setEnabled(true);
    m_stage->hide();
    m_progress->hide();
    m_cancel->hide();
}

}  // namespace ridgeline::ui
