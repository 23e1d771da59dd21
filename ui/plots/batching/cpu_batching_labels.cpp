#include "ui/plots/batching/cpu_batching_labels.h"

#include "core/model/units.h"
#include "ui/plots/batching/overlay_text.h"
#include "ui/plots/batching/weight_precision_curves.h"
#include "ui/plots/layout/text_metrics.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>

namespace ridgeline::ui {

namespace {

using overlay::kPad;
using overlay::label;
using overlay::tooSmall;
using overlay::tr;

// A machine's name in `room`: whole, else its part before a colon (a session's title reads "the CPU: what was
// run"), else elided.
QString machineNameIn(const QString& name, const TextMetrics& metrics, double room)
{
    if (metrics.horizontalAdvance(name) <= room)
        return name;
    const qsizetype colon = name.indexOf(QLatin1Char(':'));
    if (colon > 0 && metrics.horizontalAdvance(name.left(colon)) <= room)
        return name.left(colon);
    return metrics.elidedText(name, Qt::ElideRight, room);
}

// The plot's top corners: the machine's name quiet at the left, `right` (what the chart concludes) at the right. The
// conclusion has the room it needs; the name what is left, and none when that is too little to say anything.
void placeTopCorners(OverlayContent& out, const QString& machineName, const QString& right, const QRectF& plot,
                     const ChartTheme& theme)
{
    const TextMetrics metrics(theme.kernelLabelFont);
    const double rightWidth = right.isEmpty() ? 0.0 : metrics.horizontalAdvance(right);
    if (!right.isEmpty())
        out.texts.push_back(
            label(right, QPointF(std::max(plot.left() + kPad, plot.right() - kPad - rightWidth), plot.top() + kPad),
                  theme.text, theme));
    const double room = plot.width() - 2.0 * kPad - (right.isEmpty() ? 0.0 : rightWidth + 2.0 * kPad);
    if (room < 4.0 * metrics.averageCharWidth())
        return;
    const QString name = machineNameIn(machineName, metrics, std::min(room, plot.width() / 2.0));
    if (!name.isEmpty() && metrics.horizontalAdvance(name) <= room)
        out.texts.push_back(label(name, QPointF(plot.left() + kPad, plot.top() + kPad), theme.mutedText, theme));
}

// A label beside the vertical line at `x`: right of it where it fits, else left, never out of the plot.
double besideLine(double x, double width, const QRectF& plot)
{
    const double left = x + kPad + width <= plot.right() - kPad ? x + kPad : x - kPad - width;
    return std::max(plot.left() + kPad, left);
}

// Decode by weight precision: each precision's knee (dotted, in its colour, the labels stacked from the bottom) and,
// top right, how much faster batch 1 runs with fewer bytes per weight.
OverlayContent layoutWeightPrecisionLabels(const CpuBatchingData& data, const PlotMapping& mapping,
                                           const ChartTheme& theme)
{
    OverlayContent out;
    const QRectF& plot = mapping.plot;
    const TextMetrics metrics(theme.kernelLabelFont);
    const double lineHeight = metrics.height();
    int row = 0;
    QStringList speedups;
    for (const WeightPrecisionCurve& curve : data.byWeightPrecision) {
        const QColor color = theme.kernelColor(QStringLiteral("decode-") + curve.precision);
        if (curve.kneeBatch && *curve.kneeBatch >= mapping.range.xMin && *curve.kneeBatch <= mapping.range.xMax) {
            const double x = mapping.toPixel(QPointF(*curve.kneeBatch, mapping.range.yMin)).x();
            out.lines.push_back({QLineF(x, plot.top(), x, plot.bottom()), QPen(color, 1.5, Qt::DotLine)});
            const QString text = tr("ridgeline::ui::CpuBatchingChart", "%1 knee B \u2248 %2")
                                     .arg(curve.precision, formatSignificant(*curve.kneeBatch, 2));
            const double left = besideLine(x, metrics.horizontalAdvance(text), plot);
            out.texts.push_back(
                label(text, QPointF(left, plot.bottom() - kPad - (row + 1) * lineHeight), color, theme));
            ++row;
        }
        if (const double speedup = batchOneSpeedup(data.byWeightPrecision, curve.precision);
            speedup > 0.0 && curve.precision != QLatin1String("fp32"))
            speedups << QStringLiteral("%1 %2\u00d7").arg(curve.precision, formatSignificant(speedup, 2));
    }
    const QString speedup = speedups.isEmpty() ? QString()
                                               : tr("ridgeline::ui::CpuBatchingChart", "B = 1: %1 fp32's tokens/s")
                                                     .arg(speedups.join(QStringLiteral(", ")));
    placeTopCorners(out, data.machineName, speedup, plot, theme);
    return out;
}

}  // namespace

// The knee, the machine and how close the largest batch gets to its roof (or the curves by weight precision).
OverlayContent layoutCpuBatchingLabels(const CpuBatchingData& data, const PlotMapping& mapping, const ChartTheme& theme)
{
    OverlayContent out;
    const QRectF& plot = mapping.plot;
    if (!tooSmall(plot) && data.valid && !data.byWeightPrecision.empty())
        return layoutWeightPrecisionLabels(data, mapping, theme);
    if (tooSmall(plot) || !data.valid || data.measured.empty())
        return out;
    const TextMetrics metrics(theme.kernelLabelFont);
    const double lineHeight = metrics.height();
    if (data.kneeBatch && *data.kneeBatch >= mapping.range.xMin && *data.kneeBatch <= mapping.range.xMax) {
        const double x = mapping.toPixel(QPointF(*data.kneeBatch, mapping.range.yMin)).x();
        out.lines.push_back({QLineF(x, plot.top(), x, plot.bottom()), QPen(theme.mutedText, 2.0, Qt::DotLine)});
        const QString text = QCoreApplication::translate("ridgeline::ui::CpuBatchingChart", "roofline knee B \u2248 %1")
                                 .arg(formatSignificant(*data.kneeBatch, 2));
        const double left = besideLine(x, metrics.horizontalAdvance(text), plot);
        out.texts.push_back(label(text, QPointF(left, plot.bottom() - kPad - lineHeight), theme.text, theme));
    }
    // The largest measured batch against its prediction: how close this CPU gets to its own roof.
    const QPointF last = data.measured.back();
    double predictedAtLast = 0.0;
    for (const QPointF& p : data.predicted)
        if (p.x() <= last.x())
            predictedAtLast = p.y();
    const QString share =
        predictedAtLast > 0.0
            ? QCoreApplication::translate("ridgeline::ui::CpuBatchingChart", "B = %1: %2 of the roofline")
                  .arg(formatGrouped(last.x()))
                  .arg(QStringLiteral("%1 %").arg(formatSignificant(100.0 * last.y() / predictedAtLast, 2)))
            : QString();
    // Which machine, top left and quiet, beside the share.
    placeTopCorners(out, data.machineName, share, plot, theme);
    return out;
}

}  // namespace ridgeline::ui
