// `ridgeline model --frontier`'s output: the JSON object and the table.
#include "app/cli/frontier_output.h"

#include "app/cli/serving_output.h"
#include "core/model/units.h"

#include <QJsonArray>

namespace ridgeline::cli {

namespace {

QJsonValue optionalNumber(const std::optional<double>& value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

TokenCost pointCost(const FrontierView& view, const FrontierPoint& p)
{
    return frontierPointCost(p, view.config.tensorParallel, view.options.cost.gpuHourPrice, view.power);
}

QJsonObject pointJson(const FrontierView& view, const FrontierPoint& p)
{
    QJsonObject o;
    o[QStringLiteral("batch")] = static_cast<qint64>(p.batch);
    o[QStringLiteral("tokens_per_s_per_gpu")] = p.tokensPerSecondPerGpu;
    o[QStringLiteral("tokens_per_s_per_user")] = p.tokensPerSecondPerUser;
    o[QStringLiteral("ttft_s")] = p.latency.ttftSeconds;
    o[QStringLiteral("itl_s")] = p.latency.itlSeconds;
    o[QStringLiteral("e2e_latency_s")] = p.latency.e2eSeconds;
    o[QStringLiteral("meets_targets")] = p.meetsTargets();
    const TokenCost cost = pointCost(view, p);
    if (cost.perMillionOutput)
        o[QStringLiteral("cost_per_million_output_tokens")] = *cost.perMillionOutput;
    if (cost.perMillionInput)
        o[QStringLiteral("cost_per_million_input_tokens")] = *cost.perMillionInput;
    if (cost.joulesPerOutputToken)
        o[QStringLiteral("joules_per_output_token")] = *cost.joulesPerOutputToken;
    return o;
}

QString targetsText(const FrontierTargets& t)
{
    QStringList parts;
    if (t.ttftSeconds)
        parts << QStringLiteral("time to first token <= %1").arg(formatSeconds(*t.ttftSeconds));
    if (t.itlSeconds)
        parts << QStringLiteral("inter-token latency <= %1").arg(formatSeconds(*t.itlSeconds));
    return parts.isEmpty() ? QStringLiteral("none (--ttft-target S, --itl-target S)")
                           : parts.join(QStringLiteral(", ")) + QStringLiteral("; * meets them");
}

}  // namespace

QJsonObject frontierJson(const FrontierView& view)
{
    const InferenceConfig& c = view.config;
    QJsonObject o;
    o[QStringLiteral("model")] = c.model.id;
    o[QStringLiteral("gpu")] = c.gpu.id;
    o[QStringLiteral("tensor_parallel")] = c.tensorParallel;
    o[QStringLiteral("prompt")] = static_cast<qint64>(c.prompt);
    o[QStringLiteral("output")] = static_cast<qint64>(c.output);
    o[QStringLiteral("scheduling")] = schedulingJson(view.options.scheduler);
    o[QStringLiteral("ttft_target_s")] = optionalNumber(view.options.targets.ttftSeconds);
    o[QStringLiteral("itl_target_s")] = optionalNumber(view.options.targets.itlSeconds);
    o[QStringLiteral("min_ttft_s")] = view.minimums.ttftSeconds;
    o[QStringLiteral("min_itl_s")] = view.minimums.itlSeconds;
    addPriceJson(o, view.options.cost);
    o[QStringLiteral("gpu_power_w")] = view.power.watts > 0 ? QJsonValue(view.power.watts) : QJsonValue();
    o[QStringLiteral("power_source")] = view.power.watts <= 0    ? QJsonValue()
                                        : view.power.fromCatalog ? QJsonValue(QStringLiteral("catalog"))
                                                                 : QJsonValue(QStringLiteral("given"));
    QJsonArray points;
    for (const FrontierPoint& p : view.points)
        points.append(pointJson(view, p));
    o[QStringLiteral("frontier")] = points;
    return o;
}

void printFrontierTable(QTextStream& out, const FrontierView& view)
{
    const InferenceConfig& c = view.config;
    out << c.model.name << " on " << c.gpu.name
        << (c.tensorParallel > 1 ? QStringLiteral(" x%1").arg(c.tensorParallel) : QString())
        << ": throughput against interactivity, prompt " << formatGrouped(c.prompt) << " and output "
        << formatGrouped(c.output) << " tokens\n";
    out << "  scheduling: " << schedulingText(view.options.scheduler) << '\n';
    out << "  price: "
        << (view.options.cost.gpuHourPrice ? priceText(view.options.cost)
                                           : QStringLiteral("none given (--gpu-hour-price USD)"))
        << "; power: " << (view.power.watts > 0 ? powerText(view.power) : QStringLiteral("unknown (--gpu-power-w W)"))
        << '\n';
    out << "  targets: " << targetsText(view.options.targets) << '\n';
    out << "  one request alone: time to first token " << formatSeconds(view.minimums.ttftSeconds)
        << ", inter-token latency " << formatSeconds(view.minimums.itlSeconds) << "\n\n";
    out << "  batch  tok/s/GPU  tok/s/user       TTFT        ITL        e2e   $/M out    $/M in   J/token\n";
    for (const FrontierPoint& p : view.points) {
        const TokenCost cost = pointCost(view, p);
        auto column = [](const std::optional<double>& v, bool money) {
            return (v ? (money ? formatDollars(*v) : formatSignificant(*v, 3)) : QStringLiteral("-"))
                .rightJustified(10);
        };
        out << QString::number(p.batch).rightJustified(7) << formatGrouped(p.tokensPerSecondPerGpu).rightJustified(11)
            << formatGrouped(p.tokensPerSecondPerUser, 1).rightJustified(12)
            << formatSeconds(p.latency.ttftSeconds).rightJustified(11)
            << formatSeconds(p.latency.itlSeconds).rightJustified(11)
            << formatSeconds(p.latency.e2eSeconds).rightJustified(11) << column(cost.perMillionOutput, true)
            << column(cost.perMillionInput, true) << column(cost.joulesPerOutputToken, false)
            << (p.meetsTargets() && (view.options.targets.ttftSeconds || view.options.targets.itlSeconds)
                    ? QStringLiteral("  *")
                    : QString())
            << '\n';
    }
}

}  // namespace ridgeline::cli
