#include "ui/chart/chart_description.h"

#include "core/model/units.h"

#include <QAbstractAxis>
#include <QAbstractSeries>
#include <QChart>
#include <QLogValueAxis>
#include <QValueAxis>

namespace ridgeline::ui {
namespace {

QString axisRange(const QAbstractAxis& axis)
{
    if (const auto* log = qobject_cast<const QLogValueAxis*>(&axis))
        return QObject::tr("%1 to %2, log scale")
            .arg(formatSignificant(log->min(), 3), formatSignificant(log->max(), 3));
    if (const auto* value = qobject_cast<const QValueAxis*>(&axis))
        return QObject::tr("%1 to %2").arg(formatSignificant(value->min(), 3), formatSignificant(value->max(), 3));
    return {};
}

}  // namespace

QStringList chartParts(const QChart& chart)
{
    QStringList parts;
    for (const QAbstractAxis* axis : chart.axes()) {
        if (!axis->isVisible())
            continue;
        const QString title = axis->titleText().isEmpty() ? QObject::tr("axis") : axis->titleText();
        const QString range = axisRange(*axis);
        parts << (range.isEmpty() ? title : QObject::tr("%1: %2").arg(title, range));
    }
    QStringList series;
    for (const QAbstractSeries* s : chart.series())
        if (s->isVisible() && !s->name().trimmed().isEmpty() && !series.contains(s->name()))
            series << s->name();
    if (!series.isEmpty())
        parts << QObject::tr("shows %1").arg(series.join(QStringLiteral(", ")));
    return parts;
}

}  // namespace ridgeline::ui
