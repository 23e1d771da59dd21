#include "ui/models/measurement_summary.h"

#include "core/model/units.h"

#include <QCoreApplication>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("MeasurementSummary", text);
}

QString ghz(double value)
{
    return formatSignificant(value, 3) + QStringLiteral(" GHz");
}

QString clockText(const ClockMeasurement& clock, double measuredGhz)
{
    QString text = tr("Clock %1").arg(ghz(measuredGhz));
    if (clock.addChainGhz > 0.0 && clock.mulChainGhz > 0.0)
        text += tr(" (add chain %1, imul chain %2)").arg(ghz(clock.addChainGhz), ghz(clock.mulChainGhz));
    if (clock.doubtful)
        text += tr(", doubtful: %1").arg(clock.doubt);
    return text;
}

}  // namespace

MeasurementSummary summarizeMeasurement(const Session& session)
{
    MeasurementSummary summary;
    summary.measured = !session.computeCeilings.empty() && session.machine.clockGhz > 0.0;
    if (!summary.measured) {
        summary.headline = tr("No measurement of this machine in this session: nothing to report.");
        return summary;
    }
    int impossible = 0;
    int doubtful = 0;
    for (const Finding& f : session.findings) {
        if (f.kind == QLatin1String("impossible"))
            ++impossible;
        else if (f.kind == QLatin1String("doubtful"))
            ++doubtful;
    }
    QStringList parts{clockText(session.machine.clock, session.machine.clockGhz)};
    if (impossible > 0)
        parts << (impossible == 1 ? tr("1 impossible result") : tr("%1 impossible results").arg(impossible));
    if (doubtful > 0)
        parts << tr("%1 doubtful").arg(doubtful);
    if (!session.skipped.empty())
        parts << tr("%1 not measured").arg(session.skipped.size());
    if (session.noisy())
        parts << tr("noisy: the machine was busy");
    if (impossible == 0 && doubtful == 0 && session.skipped.empty() && !session.noisy())
        parts << tr("every check passed");
    summary.headline = parts.join(QStringLiteral(" · "));
    summary.severity = impossible > 0 ? MeasurementSummary::Severity::Impossible
                       : doubtful > 0 || session.machine.clock.doubtful || session.noisy()
                           ? MeasurementSummary::Severity::Doubtful
                           : MeasurementSummary::Severity::Fine;
    return summary;
}

}  // namespace ridgeline::ui
