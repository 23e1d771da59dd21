#include "ui/plots/batching/serving_scene_data.h"

#include "core/model/units.h"
#include "ui/plots/layout/label_layout.h"
#include "ui/plots/layout/text_metrics.h"

#include <QCoreApplication>

#include <algorithm>
#include <optional>
#include <vector>

namespace ridgeline::ui {

namespace {

constexpr double kPad = 8.0;

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::ServingSceneChart", text);
}

QString lengthsOf(const ServingSweep& sweep)
{
    return tr("%1-token prompts, %2 tokens out")
        .arg(formatGrouped(sweep.lengths.prompt), formatGrouped(sweep.lengths.output));
}

}  // namespace

ServingSceneChartData servingTradeChartData(const ServingSweep& sweep)
{
    ServingSceneChartData d;
    // The model on every title that fits: the slide names it nowhere else.
    const QString what = tr("throughput against time to first token");
    d.titles = QStringList{tr("%1 on %2, %3: %4").arg(sweep.modelName, sweep.gpuName, lengthsOf(sweep), what),
                           tr("%1 on %2: %3").arg(sweep.modelName, sweep.gpuName, what),
                           tr("%1: %2").arg(sweep.modelName, what), tr("Throughput against time to first token")};
    d.xTitle = tr("Time to first token (s)");
    d.yTitle = tr("Output tokens/s per GPU");
    for (const FrontierPoint& p : sweep.points) {
        d.points.emplace_back(p.latency.ttftSeconds, p.tokensPerSecondPerGpu);
        d.labels << tr("B = %1: %2 tok/s, %3")
                        .arg(formatGrouped(p.batch), formatGrouped(p.tokensPerSecondPerGpu),
                             formatSeconds(p.latency.ttftSeconds));
    }
    d.rising = true;
    d.valid = !d.points.empty();
    return d;
}

ServingSceneChartData servingCostChartData(const ServingSweep& sweep)
{
    ServingSceneChartData d;
    const QString price = sweep.gpuHourPrice ? formatDollars(*sweep.gpuHourPrice) : QString();
    d.titles = QStringList{
        tr("Cost per million output tokens, %1 on %2 at %3 per GPU-hour, %4")
            .arg(sweep.modelName, sweep.gpuName, price, lengthsOf(sweep)),
        tr("Cost per million output tokens, %1 on %2 at %3 per GPU-hour").arg(sweep.modelName, sweep.gpuName, price),
        tr("Cost per million output tokens, %1 at %2 per GPU-hour").arg(sweep.modelName, price),
        tr("Cost per million output tokens at %1 per GPU-hour").arg(price)};
    d.xTitle = tr("Batch (requests in flight)");
    d.yTitle = tr("US dollars per million output tokens");
    d.xBase = 2.0;
    for (std::size_t i = 0; i < sweep.points.size() && i < sweep.costPerMillionOutput.size(); ++i) {
        d.points.emplace_back(static_cast<double>(sweep.points[i].batch), sweep.costPerMillionOutput[i]);
        d.labels
            << tr("B = %1: %2").arg(formatGrouped(sweep.points[i].batch), formatDollars(sweep.costPerMillionOutput[i]));
    }
    d.rising = false;
    d.valid = !d.points.empty();
    if (!d.valid)
        d.reason = tr("No price per GPU-hour: the scene needs \"gpu_hour_price\"");
    return d;
}

namespace {

// Where a point's label may go, in order: beside it on the open side of the curve (above and left of a rising one,
// above and right of a falling one), then the other three corners.
std::vector<QPointF> labelCorners(QPointF at, double w, double h, bool rising)
{
    const QPointF aboveLeft(at.x() - kPad - w, at.y() - h - kPad / 2);
    const QPointF aboveRight(at.x() + kPad, at.y() - h - kPad / 2);
    const QPointF belowRight(at.x() + kPad, at.y() + kPad / 2);
    const QPointF belowLeft(at.x() - kPad - w, at.y() + kPad / 2);
    if (rising)
        return {aboveLeft, belowRight, aboveRight, belowLeft};
    return {aboveRight, belowLeft, aboveLeft, belowRight};
}

bool crossesAny(const QRectF& box, const std::vector<QLineF>& segments, const std::vector<QRectF>& taken)
{
    for (const QLineF& segment : segments)
        if (segmentIntersectsRect(segment, box))
            return true;
    for (const QRectF& other : taken)
        if (other.intersects(box))
            return true;
    return false;
}

}  // namespace

OverlayContent layoutServingSceneLabels(const ServingSceneChartData& data, const PlotMapping& mapping,
                                        const ChartTheme& theme)
{
    OverlayContent out;
    const QRectF& plot = mapping.plot;
    if (!data.valid || plot.width() < 20 || plot.height() < 20)
        return out;
    const TextMetrics metrics(theme.kernelLabelFont);
    std::vector<QPointF> pixels;
    for (const QPointF& point : data.points)
        pixels.push_back(mapping.toPixel(point));
    std::vector<QLineF> curve;
    for (std::size_t i = 1; i < pixels.size(); ++i)
        curve.emplace_back(pixels[i - 1], pixels[i]);
    // The dots are taken first, so that no label covers a point, its own or another's.
    std::vector<QRectF> taken;
    for (const QPointF& at : pixels)
        taken.emplace_back(at.x() - kPad / 2, at.y() - kPad / 2, kPad, kPad);
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        const QPointF at = pixels[i];
        const QString& words = data.labels.value(static_cast<qsizetype>(i));
        const double w = metrics.horizontalAdvance(words), h = metrics.height();
        std::optional<QRectF> chosen;
        for (const QPointF& corner : labelCorners(at, w, h, data.rising)) {
            const QRectF box(corner, QSizeF(w, h));
            if (plot.adjusted(kPad / 2, kPad / 2, -kPad / 2, -kPad / 2).contains(box) &&
                !crossesAny(box, curve, taken)) {
                chosen = box;
                break;
            }
        }
        // None is clear: the first corner, kept inside the plot, where the boxed label covers what it must.
        if (!chosen) {
            const QPointF corner = labelCorners(at, w, h, data.rising).front();
            const double left =
                std::clamp(corner.x(), plot.left() + kPad, std::max(plot.left() + kPad, plot.right() - kPad - w));
            const double top = std::clamp(corner.y(), plot.top() + kPad, std::max(plot.top(), plot.bottom() - h));
            chosen = QRectF(left, top, w, h);
        }
        taken.push_back(*chosen);
        AnnotationText t;
        t.text = words;
        t.origin = chosen->topLeft();
        t.color = theme.text;
        t.font = theme.kernelLabelFont;
        t.halo = theme.background;
        t.boxed = true;
        t.owner = QStringLiteral("batch:%1").arg(i);
        out.texts.push_back(t);
    }
    return out;
}

}  // namespace ridgeline::ui
