#include "ui/plots/batching/frontier_chart_data.h"

#include "core/model/serving/frontier.h"
#include "core/model/units.h"
#include "ui/plots/layout/text_metrics.h"

#include <QCoreApplication>
#include <QLineF>
#include <QStringList>

#include <algorithm>
#include <array>

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

QRectF boxOf(const AnnotationText& t)
{
    const TextMetrics metrics(t.font);
    return QRectF(t.origin, QSizeF(metrics.horizontalAdvance(t.text), metrics.height()));
}

// A label beside `at`, kept inside the plot: above it on the preferred side, else above on the other, else below,
// the first place no text in `taken` covers (the first of them when none is free).
AnnotationText beside(const QString& words, QPointF at, bool preferLeft, const ChartTheme& theme, const QRectF& plot,
                      const std::vector<AnnotationText>& taken)
{
    const TextMetrics metrics(theme.kernelLabelFont);
    const double w = metrics.horizontalAdvance(words), h = metrics.height();
    auto place = [&](bool left, bool above) {
        const double x = std::clamp(left ? at.x() - kPad - w : at.x() + kPad, plot.left() + kPad,
                                    std::max(plot.left() + kPad, plot.right() - kPad - w));
        const double y = std::clamp(above ? at.y() - h - kPad : at.y() + kPad, plot.top() + kPad,
                                    std::max(plot.top(), plot.bottom() - h));
        AnnotationText t = text(words, QPointF(x, y), theme.mutedText, theme);
        t.boxed = true;
        return t;
    };
    const std::array<AnnotationText, 4> candidates{place(preferLeft, true), place(!preferLeft, true),
                                                   place(preferLeft, false), place(!preferLeft, false)};
    for (const AnnotationText& candidate : candidates) {
        const QRectF box = boxOf(candidate);
        if (std::none_of(taken.begin(), taken.end(), [&](const AnnotationText& t) { return boxOf(t).intersects(box); }))
            return candidate;
    }
    return candidates.front();
}

QString costText(double usdPerMillion)
{
    return tr("%1 per million output tokens").arg(formatDollars(usdPerMillion));
}

QString bestName(const FrontierChartData& data, std::size_t i)
{
    QString name = data.hasTargets() ? tr("B = %1, best within the targets").arg(formatGrouped(data.batches[i]))
                                     : tr("B = %1, the cheapest").arg(formatGrouped(data.batches[i]));
    if (i < data.costPerMillionOutput.size())
        name += tr(": %1 / M out").arg(formatDollars(data.costPerMillionOutput[i]));
    return name;
}

// The targets' line (the ITL target as tokens/s per user, everything left of it too slow for each user) and, bottom
// left where a frontier never runs, what the targets are and how many batches meet them.
void addTargetMarks(const FrontierChartData& data, const PlotMapping& mapping, const ChartTheme& theme,
                    OverlayContent& out)
{
    const QRectF& plot = mapping.plot;
    QStringList lines;
    if (data.hasTargets()) {
        QStringList parts;
        if (data.settings.targets.ttftSeconds)
            parts << tr("TTFT ≤ %1").arg(formatSeconds(*data.settings.targets.ttftSeconds));
        if (data.settings.targets.itlSeconds)
            parts << tr("ITL ≤ %1").arg(formatSeconds(*data.settings.targets.itlSeconds));
        const auto meeting = std::count(data.meets.begin(), data.meets.end(), true);
        lines << tr("Targets %1: %2 of %3 batches meet both")
                     .arg(parts.join(QStringLiteral(", ")))
                     .arg(static_cast<qint64>(meeting))
                     .arg(static_cast<qint64>(data.meets.size()));
        if (!data.targetNote.isEmpty())
            lines << data.targetNote;
        else if (!data.best)
            lines << tr("No batch meets them: relax a target or change the model or GPU");
    }
    const TextMetrics metrics(theme.kernelLabelFont);
    const double lineHeight = metrics.height() + 2;
    double top = plot.bottom() - kPad - static_cast<double>(lines.size()) * lineHeight;
    // Over the notes, left of the line: the side of the plot that is too slow for each user.
    if (data.settings.targets.itlSeconds) {
        const double x = mapping.toPixel(QPointF(1.0 / *data.settings.targets.itlSeconds, 1.0)).x();
        if (x > plot.left() && x < plot.right()) {
            QPen pen(theme.regression, 1.5, Qt::DashLine);
            out.lines.push_back({QLineF(x, plot.top(), x, plot.bottom()), pen, LineRole::Mark, QStringLiteral("itl")});
            const QString words = tr("ITL over %1").arg(formatSeconds(*data.settings.targets.itlSeconds));
            AnnotationText t = text(
                words,
                QPointF(std::max(plot.left() + kPad, x - kPad - metrics.horizontalAdvance(words)), top - lineHeight),
                theme.regression, theme);
            t.role = TextRole::Note;
            out.texts.push_back(t);
        }
    }
    for (const QString& line : lines) {
        AnnotationText t = text(line, QPointF(plot.left() + kPad, top), theme.text, theme);
        t.boxed = true;
        t.role = TextRole::Note;
        out.texts.push_back(t);
        top += lineHeight;
    }
}

// The tab's batch: a ring on its point, its numbers top right, where a frontier never runs; under them its cost and
// whether it meets the targets.
void addCurrentNumbers(const FrontierChartData& data, const PlotMapping& mapping, const ChartTheme& theme,
                       OverlayContent& out)
{
    const QRectF& plot = mapping.plot;
    out.rings.push_back({mapping.toPixel(data.current), 11.0, QPen(theme.highlight, 2.5)});
    QStringList lines;
    lines << (data.requestedBatch > data.currentBatch
                  ? tr("B = %1 (%2 decoding, the rest wait): %3 tok/s per GPU, %4 tok/s per user")
                        .arg(formatGrouped(data.requestedBatch), formatGrouped(data.currentBatch),
                             formatGrouped(data.current.y()), formatSignificant(data.current.x()))
                  : tr("B = %1: %2 tok/s per GPU, %3 tok/s per user")
                        .arg(formatGrouped(data.currentBatch), formatGrouped(data.current.y()),
                             formatSignificant(data.current.x())));
    QStringList second;
    if (data.currentCostPerMillionOutput)
        second << costText(*data.currentCostPerMillionOutput);
    if (data.hasTargets()) {
        QStringList missed;
        if (!data.currentMeetsTtft)
            missed << tr("TTFT");
        if (!data.currentMeetsItl)
            missed << tr("ITL");
        second << (missed.isEmpty() ? tr("within the targets")
                                    : tr("misses the %1 target").arg(missed.join(QStringLiteral(" and "))));
    }
    if (!second.isEmpty())
        lines << second.join(QStringLiteral(", "));
    const TextMetrics metrics(theme.kernelLabelFont);
    double top = plot.top() + kPad;
    for (const QString& line : lines) {
        const double w = metrics.horizontalAdvance(line);
        out.texts.push_back(
            text(line, QPointF(std::max(plot.left() + kPad, plot.right() - kPad - w), top), theme.highlight, theme));
        top += metrics.height() + 2;
    }
}

}  // namespace

RequestLengths frontierLengths(const InferenceConfig& config)
{
    // Without stated lengths the requests fill the context slider's window, so the frontier's step runs at the
    // contexts the tab's headline does (up to its full context) rather than at a fixed 1,024 + 1,024 that would
    // show a different tokens/s at the same batch.
    if (config.prompt > 0 && config.output >= 2)
        return {config.prompt, config.output};
    return requestLengthsInContext(config.context);
}

std::optional<QString> checkFrontierSettings(const InferenceConfig& config, const SchedulerChoice& scheduler,
                                             const FrontierSettings& settings)
{
    if (const std::optional<QString> refused = checkCostInputs(CostInputs{settings.gpuHourPrice, std::nullopt}))
        return refused;
    if (!settings.targets.ttftSeconds && !settings.targets.itlSeconds)
        return std::nullopt;
    const Result<LlmModel> model = LlmModel::create(config);
    if (!model)
        return model.error().message;
    const RequestLengths lengths = frontierLengths(config);
    const Result<TargetMinimums> minimums =
        targetMinimums(model.value(), lengths.prompt, lengths.output, scheduler.policy);
    if (!minimums)
        return minimums.error().message;
    return checkTargets(settings.targets, minimums.value());
}

FrontierChartData frontierChartData(const InferenceConfig& config, const SchedulerChoice& scheduler,
                                    const FrontierSettings& settings)
{
    FrontierChartData d;
    d.maxRunning = scheduler.policy.maxRunning;
    const RequestLengths lengths = frontierLengths(config);
    d.prompt = lengths.prompt;
    d.output = lengths.output;
    d.requestedBatch = config.batch;
    d.settings = settings;
    d.price = withCatalogPrice(CostInputs{settings.gpuHourPrice, std::nullopt}, config.gpu);
    const Result<LlmModel> model = LlmModel::create(config);
    if (!model) {
        d.reason = model.error().message;
        return d;
    }
    const Result<std::vector<FrontierPoint>> points =
        servingFrontier(model.value(), d.prompt, d.output, scheduler.policy, settings.targets);
    const Result<FrontierPoint> current = frontierPoint(
        model.value(), d.prompt, d.output, std::max<std::int64_t>(1, config.batch), scheduler.policy, settings.targets);
    if (!points || !current) {
        d.reason = !points ? points.error().message : current.error().message;
        return d;
    }
    // The frontier starts at batch 1, one request alone: the targets' minimums (targetMinimums), not evaluated twice
    // on every slider step.
    const ServingLatency& alone = points.value().front().latency;
    d.minimums = TargetMinimums{alone.ttftSeconds, alone.itlSeconds};
    if (const std::optional<QString> refused = checkTargets(settings.targets, d.minimums))
        d.targetNote = *refused;
    const GpuPower power = gpuPower(CostInputs{}, config.gpu);
    for (const FrontierPoint& p : points.value()) {
        d.points.emplace_back(p.tokensPerSecondPerUser, p.tokensPerSecondPerGpu);
        d.batches.push_back(p.batch);
        d.meets.push_back(p.meetsTargets());
        if (d.price.gpuHourPrice)
            d.costPerMillionOutput.push_back(
                frontierPointCost(p, config.tensorParallel, d.price.gpuHourPrice, power).perMillionOutput.value_or(0));
    }
    // token_cost.h's rule at one token/s per GPU: every other point's cost is this over its rate.
    d.costAtOneTokenPerSecond = tokenCost(TokenRates{1.0, 0.0, 0.0}, d.price.gpuHourPrice, GpuPower{}).perMillionOutput;
    d.best = bestMeetingTargets(points.value());
    const FrontierPoint& at = current.value();
    d.currentBatch = at.latency.running;
    d.current = QPointF(at.tokensPerSecondPerUser, at.tokensPerSecondPerGpu);
    d.currentMeetsTtft = at.meetsTtft;
    d.currentMeetsItl = at.meetsItl;
    if (d.price.gpuHourPrice)
        d.currentCostPerMillionOutput =
            frontierPointCost(at, config.tensorParallel, d.price.gpuHourPrice, power).perMillionOutput;
    d.valid = !d.points.empty();
    return d;
}

std::optional<std::pair<double, double>> costAxisRange(const FrontierChartData& data, double low, double high)
{
    if (!data.costAtOneTokenPerSecond || !(low > 0) || !(high > low))
        return std::nullopt;
    return std::pair{*data.costAtOneTokenPerSecond / high, *data.costAtOneTokenPerSecond / low};
}

std::optional<std::size_t> frontierPointAt(const std::vector<QPointF>& pixels, QPointF pixel, double radius)
{
    std::optional<std::size_t> nearest;
    double nearestDistance = radius;
    for (std::size_t i = 0; i < pixels.size(); ++i) {
        const double distance = QLineF(pixels[i], pixel).length();
        if (distance <= nearestDistance) {
            nearest = i;
            nearestDistance = distance;
        }
    }
    return nearest;
}

OverlayLayers layoutFrontierLabels(const FrontierChartData& data, const PlotMapping& mapping, const ChartTheme& theme)
{
    OverlayLayers out;
    const QRectF& plot = mapping.plot;
    if (!data.valid || plot.width() < 20 || plot.height() < 20)
        return out;
    // Batch 1 sits bottom right (fast for each user, little per GPU); the largest batch top left. The best point
    // within the targets is named beside its own point instead, in the colour of the points that meet them.
    // The current point's numbers first: the names beside the points keep clear of them too (a long curve, as a
    // scheduler of 2,048 running draws, reaches up under them).
    addCurrentNumbers(data, mapping, theme, out.moving);
    addTargetMarks(data, mapping, theme, out.fixed);
    const auto taken = [&out] {
        std::vector<AnnotationText> all = out.fixed.texts;
        all.insert(all.end(), out.moving.texts.begin(), out.moving.texts.end());
        return all;
    };
    const std::size_t last = data.points.size() - 1;
    const bool named = data.best && (data.hasTargets() || data.price.gpuHourPrice);
    if (named) {
        const std::size_t b = *data.best;
        const QPointF at = mapping.toPixel(data.points[b]);
        AnnotationText best = beside(bestName(data, b), at, b == 0, theme, plot, taken());
        best.color = theme.improvement;
        out.fixed.texts.push_back(best);
        out.fixed.rings.push_back({at, 9.0, QPen(theme.improvement, 2.0)});
    }
    for (const std::size_t i : {std::size_t{0}, last}) {
        if ((named && data.best == i) || (i == last && last == 0))
            continue;
        const QString name = i == 0 ? tr("B = %1").arg(formatGrouped(data.batches[i]))
                             : data.batches[i] >= data.maxRunning
                                 ? tr("B = %1, the most the scheduler runs").arg(formatGrouped(data.batches[i]))
                                 : tr("B = %1, the most that fits").arg(formatGrouped(data.batches[i]));
        out.fixed.texts.push_back(beside(name, mapping.toPixel(data.points[i]), i == 0, theme, plot, taken()));
    }
    return out;
}

QString frontierPriceNote(const FrontierChartData& data)
{
    return data.valid && data.price.gpuHourPrice ? tr("Costs at %1").arg(priceText(data.price)) : QString();
}

}  // namespace ridgeline::ui
