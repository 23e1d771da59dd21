#include "core/model/serving/frontier.h"

#include "core/model/units.h"

#include <cmath>

namespace ridgeline {

std::vector<std::int64_t> frontierBatches(std::int64_t largest)
{
    std::vector<std::int64_t> batches;
    for (std::int64_t b = 1; b < largest; b *= 2)
        batches.push_back(b);
    if (largest >= 1)
        batches.push_back(largest);
    return batches;
}

Result<TargetMinimums> targetMinimums(const LlmModel& model, std::int64_t prompt, std::int64_t output,
                                      const SchedulingPolicy& policy)
{
    RequestMix mix;
    mix.prompt = prompt;
    mix.output = output;
    mix.concurrency = 1;
    const Result<ServingLatency> alone = servingLatency(model, mix, policy);
    if (!alone)
        return alone.error();
    return TargetMinimums{alone.value().ttftSeconds, alone.value().itlSeconds};
}

std::optional<QString> checkTargets(const FrontierTargets& targets, const TargetMinimums& minimums)
{
    auto check = [](const std::optional<double>& target, double minimum, const char* what) -> std::optional<QString> {
        if (!target)
            return std::nullopt;
        if (!std::isfinite(*target) || *target <= 0)
            return QStringLiteral("the %1 target must be a finite number of seconds above 0").arg(QLatin1String(what));
        if (*target < minimum)
            return QStringLiteral("the %1 target %2 is below the physical minimum: %3 for one request alone (batch 1)")
                .arg(QLatin1String(what), formatSeconds(*target), formatSeconds(minimum));
        return std::nullopt;
    };
    if (std::optional<QString> refused = check(targets.ttftSeconds, minimums.ttftSeconds, "time-to-first-token"))
        return refused;
    return check(targets.itlSeconds, minimums.itlSeconds, "inter-token latency");
}

Result<std::vector<FrontierPoint>> servingFrontier(const LlmModel& model, std::int64_t prompt, std::int64_t output,
                                                   const SchedulingPolicy& policy, const FrontierTargets& targets)
{
    const double gpus = model.config().tensorParallel;
    std::vector<FrontierPoint> points;
    for (const std::int64_t batch : frontierBatches(largestRunning(model, prompt, output, policy))) {
        RequestMix mix;
        mix.prompt = prompt;
        mix.output = output;
        mix.concurrency = batch;
        const Result<ServingLatency> latency = servingLatency(model, mix, policy);
        if (!latency)
            return latency.error();
        FrontierPoint point;
        point.batch = batch;
        point.latency = latency.value();
        point.tokensPerSecondPerGpu = point.latency.outputTokensPerSecond / gpus;
        point.tokensPerSecondPerUser = 1.0 / point.latency.itlSeconds;
        point.meetsTtft = !targets.ttftSeconds || point.latency.ttftSeconds <= *targets.ttftSeconds;
        point.meetsItl = !targets.itlSeconds || point.latency.itlSeconds <= *targets.itlSeconds;
        points.push_back(point);
    }
    if (points.empty())
        return makeError(Error::Code::Range,
                         QStringLiteral("one request of %1 + %2 tokens does not fit in the GPU's memory beside the "
                                        "weights")
                             .arg(prompt)
                             .arg(output));
    return points;
}

}  // namespace ridgeline
