#include "ui/measurement_dock.h"

#include "core/session/measure_report.h"
#include "ui/models/measurement_summary.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace ridgeline::ui {

MeasurementDock::MeasurementDock(QWidget* parent) : QDockWidget(tr("Measurement"), parent)
{
    setObjectName(QStringLiteral("MeasurementDock"));
    auto* body = new QWidget(this);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(6, 4, 6, 4);
    m_headline = new QLabel(body);
    m_headline->setObjectName(QStringLiteral("MeasurementHeadline"));
    m_headline->setWordWrap(true);
    m_headline->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_report = new QPlainTextEdit(body);
    m_report->setObjectName(QStringLiteral("MeasurementReport"));
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::NoWrap);  // a table: columns stay aligned, the view scrolls
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    layout->addWidget(m_headline);
    layout->addWidget(m_report, 1);
    setWidget(body);
    clear();
}

void MeasurementDock::setSession(const Session& session)
{
    const MeasurementSummary summary = summarizeMeasurement(session);
    m_headline->setText(summary.headline);
    // The palette's own colours where all is well; a warning colour that reads on light and dark themes.
    QString style;
    if (summary.severity == MeasurementSummary::Severity::Impossible)
        style = QStringLiteral("QLabel { color: #d0342c; font-weight: bold; }");
    else if (summary.severity == MeasurementSummary::Severity::Doubtful)
        style = QStringLiteral("QLabel { color: #c77700; font-weight: bold; }");
    m_headline->setStyleSheet(style);
    m_report->setPlainText(summary.measured ? measureReportText(session) : QString());
}

void MeasurementDock::clear()
{
    setSession(Session{});
}

QString MeasurementDock::headline() const
{
    return m_headline->text();
}

QString MeasurementDock::report() const
{
    return m_report->toPlainText();
}

}  // namespace ridgeline::ui
