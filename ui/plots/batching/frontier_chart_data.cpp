#include "ui/plots/batching/frontier_chart_data.h"

#include "core/model/serving/frontier.h"
#include "core/model/units.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>

namespace ridgeline::ui {

namespace {

constexpr double kPad = 6.0;

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::FrontierChart", text);
}

AnnotationText text(const QString& words, QPointF topLeft, const QColor& color, const ChartTheme& theme)
{
    AnnotationText t;
    t.text = words;
    t.origin = topLeft;
    t.color = color;
    t.font = theme.kernelLabelFont;
    t.halo = theme.background;
    return t;
}

// A label beside `at`, on the side with room, kept inside the plot.
AnnotationText beside(const QString& words, QPointF at, bool preferLeft, const ChartTheme& theme, const QRectF& plot)
{
    const QFontMetricsF metrics(theme.kernelLabelFont);
    const double w = metrics.horizontalAdvance(words), h = metrics.height();
    double left = preferLeft ? at.x() - kPad - w : at.x() + kPad;
    left = std::clamp(left, plot.left() + kPad, std::max(plot.left() + kPad, plot.right() - kPad - w));
    const double top = std::clamp(at.y() - h - kPad, plot.top() + kPad, std::max(plot.top(), plot.bottom() - h));
    AnnotationText t = text(words, QPointF(left, top), theme.mutedText, theme);
    t.boxed = true;
    return t;
}

}  // namespace

FrontierChartData frontierChartData(const InferenceConfig& config)
{
    FrontierChartData d;
    // Without stated lengths the requests fill the context slider's window, so the frontier's step runs at the
    // contexts the tab's headline does (up to its full context) rather than at a fixed 1,024 + 1,024 that would
    // show a different tokens/s at the same batch.
    const bool stated = config.prompt > 0 && config.output >= 2;
    const std::int64_t output = std::clamp<std::int64_t>(config.context / 2, 2, kFrontierOutput);
    d.prompt = stated ? config.prompt : std::max<std::int64_t>(1, config.context - output);
    d.output = stated ? config.output : output;
    d.requestedBatch = config.batch;
    const Result<LlmModel> model = LlmModel::create(config);
    if (!model) {
        d.reason = model.error().message;
        return d;
    }
    const Result<std::vector<FrontierPoint>> points = servingFrontier(model.value(), d.prompt, d.output);
    const Result<ServingLatency> current =
        servingLatency(model.value(), RequestMix{d.prompt, d.output, std::max<std::int64_t>(1, config.batch), 0.0});
    if (!points || !current) {
        d.reason = !points ? points.error().message : current.error().message;
        return d;
    }
    const double gpus = config.tensorParallel;
    for (const FrontierPoint& p : points.value()) {
        d.points.emplace_back(p.tokensPerSecondPerUser, p.tokensPerSecondPerGpu);
        d.batches.push_back(p.batch);
    }
    d.currentBatch = current.value().running;
    d.current = QPointF(1.0 / current.value().itlSeconds, current.value().outputTokensPerSecond / gpus);
    d.valid = !d.points.empty();
    return d;
}

OverlayLayers layoutFrontierLabels(const FrontierChartData& data, const PlotMapping& mapping, const ChartTheme& theme)
{
    OverlayLayers out;
    const QRectF& plot = mapping.plot;
    if (!data.valid || plot.width() < 20 || plot.height() < 20)
        return out;
    // Batch 1 sits bottom right (fast for each user, little per GPU); the largest batch top left.
    out.fixed.texts.push_back(beside(tr("B = %1").arg(formatGrouped(data.batches.front())),
                                     mapping.toPixel(data.points.front()), true, theme, plot));
    out.fixed.texts.push_back(beside(tr("B = %1, the most that fits").arg(formatGrouped(data.batches.back())),
                                     mapping.toPixel(data.points.back()), false, theme, plot));
    // The tab's batch: a ring on its point, its numbers top right, where a frontier never runs.
    const QPointF at = mapping.toPixel(data.current);
    out.moving.rings.push_back({at, 11.0, QPen(theme.highlight, 2.5)});
    const QString numbers = data.requestedBatch > data.currentBatch
                                ? tr("B = %1 (%2 decoding, the rest wait): %3 tok/s per GPU, %4 tok/s per user")
                                      .arg(formatGrouped(data.requestedBatch), formatGrouped(data.currentBatch),
                                           formatGrouped(data.current.y()), formatSignificant(data.current.x()))
                                : tr("B = %1: %2 tok/s per GPU, %3 tok/s per user")
                                      .arg(formatGrouped(data.currentBatch), formatGrouped(data.current.y()),
                                           formatSignificant(data.current.x()));
    const QFontMetricsF metrics(theme.kernelLabelFont);
    const double w = metrics.horizontalAdvance(numbers);
    out.moving.texts.push_back(text(numbers,
                                    QPointF(std::max(plot.left() + kPad, plot.right() - kPad - w), plot.top() + kPad),
                                    theme.highlight, theme));
    return out;
}

}  // namespace ridgeline::ui
