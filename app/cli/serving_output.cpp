// `ridgeline model`'s serving latency and cost: JSON keys and table rows.
#include "app/cli/serving_output.h"

#include "core/model/units.h"

namespace ridgeline::cli {

namespace {

QJsonValue optionalNumber(const std::optional<double>& value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

void row(QTextStream& out, const char* label, const QString& value)
{
    out << "  " << QString::fromLatin1(label).leftJustified(24) << value << '\n';
}

}  // namespace

QJsonObject schedulingJson(const SchedulerChoice& choice)
{
    const SchedulingPolicy& policy = choice.policy;
    QJsonObject o;
    o[QStringLiteral("chunked_prefill")] = policy.chunkedPrefill;
    o[QStringLiteral("max_running")] = static_cast<qint64>(policy.maxRunning);
    o[QStringLiteral("token_budget")] = static_cast<qint64>(policy.tokenBudget);
    o[QStringLiteral("kv_memory_share")] = policy.kvMemoryShare;
    o[QStringLiteral("first_token_lag_steps")] = policy.firstTokenLagSteps;
    o[QStringLiteral("engine")] = choice.engineId;
    // Each term's origin: "given" (an option), "engine" (its profile, cited below) or "vllm-default".
    QJsonObject sources;
    sources[QStringLiteral("chunked_prefill")] = schedulerOriginKey(choice.chunkedPrefill);
    sources[QStringLiteral("max_running")] = schedulerOriginKey(choice.maxRunning);
    sources[QStringLiteral("token_budget")] = schedulerOriginKey(choice.tokenBudget);
    sources[QStringLiteral("kv_memory_share")] = schedulerOriginKey(choice.kvMemoryShare);
    sources[QStringLiteral("first_token_lag_steps")] = schedulerOriginKey(choice.firstTokenLagSteps);
    o[QStringLiteral("scheduler_source")] = sources;
    o[QStringLiteral("engine_citation")] = choice.engineCitation.isEmpty() || !choice.anyFrom(SchedulerOrigin::Engine)
                                               ? QJsonValue()
                                               : QJsonValue(choice.engineCitation);
    o[QStringLiteral("vllm_default_citation")] = QString::fromUtf8(kVllmSchedulerCitation);
    return o;
}

QString schedulingText(const SchedulerChoice& choice)
{
    return schedulerText(choice);
}

void addServingLatencyJson(QJsonObject& o, const ServingLatency& latency, const ServingOptions& options)
{
    o[QStringLiteral("serving_ttft_s")] = latency.ttftSeconds;
    o[QStringLiteral("serving_itl_s")] = latency.itlSeconds;
    o[QStringLiteral("serving_e2e_latency_s")] = latency.e2eSeconds;
    o[QStringLiteral("serving_slot_wait_s")] = latency.slotWaitSeconds;
    o[QStringLiteral("serving_running")] = static_cast<qint64>(latency.running);
    o[QStringLiteral("serving_queued")] = latency.queued;
    o[QStringLiteral("serving_arrival_rate")] =
        options.arrivalRate > 0 ? QJsonValue(options.arrivalRate) : QJsonValue();
    o[QStringLiteral("scheduling")] = schedulingJson(options.scheduler);
}

void printServingLatency(QTextStream& out, const ServingLatency& latency, const ServingOptions& options)
{
    row(out, "scheduling", schedulingText(options.scheduler));
    if (options.arrivalRate > 0)
        row(out, "arrivals",
            QStringLiteral("%1 requests/s at random: %2 running at once")
                .arg(options.arrivalRate, 0, 'g', 4)
                .arg(latency.running));
    else if (latency.queued > 0)
        row(out, "running",
            QStringLiteral("%1, the other %2 wait for a slot").arg(latency.running).arg(latency.queued, 0, 'f', 0));
    row(out, "time to first token",
        latency.slotWaitSeconds > 1e-3 * latency.ttftSeconds  // else a slot is as good as free
            ? QStringLiteral("%1 (%2 waiting for a slot, then %3)")
                  .arg(formatSeconds(latency.ttftSeconds), formatSeconds(latency.slotWaitSeconds),
                       formatSeconds(latency.prefillSeconds))
            : QStringLiteral("%1 (a slot is free: half a step, then the prompt)")
                  .arg(formatSeconds(latency.ttftSeconds)));
    row(out, "inter-token latency", formatSeconds(latency.itlSeconds));
    row(out, "end-to-end latency", formatSeconds(latency.e2eSeconds));
}

void addPriceJson(QJsonObject& o, const CostInputs& inputs)
{
    o[QStringLiteral("gpu_hour_price")] = optionalNumber(inputs.gpuHourPrice);
    const QString source = priceSourceKey(inputs);
    o[QStringLiteral("price_source")] = source.isEmpty() ? QJsonValue() : QJsonValue(source);
    // Whose example, and when: "Lambda 2026-09-20".
    o[QStringLiteral("price_example_of")] =
        inputs.gpuHourPrice && inputs.priceSource == PriceSource::Example ? QJsonValue(inputs.exampleOf) : QJsonValue();
}

void addCostJson(QJsonObject& o, const TokenCost& cost, const CostInputs& inputs, const GpuPower& power)
{
    o[QStringLiteral("cost_per_million_input_tokens")] = optionalNumber(cost.perMillionInput);
    o[QStringLiteral("cost_per_million_output_tokens")] = optionalNumber(cost.perMillionOutput);
    o[QStringLiteral("joules_per_output_token")] = optionalNumber(cost.joulesPerOutputToken);
    addPriceJson(o, inputs);
    o[QStringLiteral("gpu_power_w")] = power.watts > 0 ? QJsonValue(power.watts) : QJsonValue();
    o[QStringLiteral("power_source")] = power.watts <= 0    ? QJsonValue()
                                        : power.fromCatalog ? QJsonValue(QStringLiteral("catalog"))
                                                            : QJsonValue(QStringLiteral("given"));
}

void printCost(QTextStream& out, const TokenCost& cost, const CostInputs& inputs, const GpuPower& power)
{
    out << "\nCost and energy (per GPU)\n";
    row(out, "price", inputs.gpuHourPrice ? priceText(inputs) : QStringLiteral("none given (--gpu-hour-price USD)"));
    if (cost.perMillionOutput)
        row(out, "per million output", formatDollars(*cost.perMillionOutput) + QStringLiteral(" (the whole GPU-hour)"));
    if (cost.perMillionInput)
        row(out, "per million input",
            formatDollars(*cost.perMillionInput) + QStringLiteral(" (the prefill's share of it)"));
    row(out, "power", power.watts > 0 ? powerText(power) : QStringLiteral("unknown for this GPU (--gpu-power-w W)"));
    if (cost.joulesPerOutputToken)
        row(out, "energy", QStringLiteral("%1 J per output token").arg(formatSignificant(*cost.joulesPerOutputToken)));
}

}  // namespace ridgeline::cli
