#include "ui/plots/batching/serving_scene_data.h"

#include "core/model/units.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>

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

OverlayContent layoutServingSceneLabels(const ServingSceneChartData& data, const PlotMapping& mapping,
                                        const ChartTheme& theme)
{
    OverlayContent out;
    const QRectF& plot = mapping.plot;
    if (!data.valid || plot.width() < 20 || plot.height() < 20)
        return out;
    const QFontMetricsF metrics(theme.kernelLabelFont);
    for (std::size_t i = 0; i < data.points.size(); ++i) {
        const QPointF at = mapping.toPixel(data.points[i]);
        const QString& words = data.labels.value(static_cast<qsizetype>(i));
        const double w = metrics.horizontalAdvance(words), h = metrics.height();
        // Above the curve: to the left of a rising one, to the right of a falling one.
        double left = data.rising ? at.x() - kPad - w : at.x() + kPad;
        left = std::clamp(left, plot.left() + kPad, std::max(plot.left() + kPad, plot.right() - kPad - w));
        const double top =
            std::clamp(at.y() - h - kPad / 2, plot.top() + kPad, std::max(plot.top(), plot.bottom() - h));
        AnnotationText t;
        t.text = words;
        t.origin = QPointF(left, top);
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
