#include "core/model/serving/frontier.h"

#include "core/model/units.h"

#include <algorithm>
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

RequestLengths requestLengthsInContext(std::int64_t context)
{
    const std::int64_t output = std::clamp<std::int64_t>(context / 2, 2, kFrontierOutput);
    return {std::max<std::int64_t>(1, context - output), output};
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

Result<FrontierPoint> frontierPoint(const LlmModel& model, std::int64_t prompt, std::int64_t output, std::int64_t batch,
                                    const SchedulingPolicy& policy, const FrontierTargets& targets)
{
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
    point.tokensPerSecondPerGpu = point.latency.outputTokensPerSecond / model.config().tensorParallel;
    point.tokensPerSecondPerUser = 1.0 / point.latency.itlSeconds;
    point.meetsTtft = !targets.ttftSeconds || point.latency.ttftSeconds <= *targets.ttftSeconds;
    point.meetsItl = !targets.itlSeconds || point.latency.itlSeconds <= *targets.itlSeconds;
    return point;
}

Result<std::vector<FrontierPoint>> servingFrontier(const LlmModel& model, std::int64_t prompt, std::int64_t output,
                                                   const SchedulingPolicy& policy, const FrontierTargets& targets)
{
    std::vector<FrontierPoint> points;
    for (const std::int64_t batch : frontierBatches(largestRunning(model, prompt, output, policy))) {
        const Result<FrontierPoint> point = frontierPoint(model, prompt, output, batch, policy, targets);
        if (!point)
            return point.error();
        points.push_back(point.value());
    }
    if (points.empty())
        return makeError(Error::Code::Range,
                         QStringLiteral("one request of %1 + %2 tokens does not fit in the GPU's memory beside the "
                                        "weights")
                             .arg(prompt)
                             .arg(output));
    return points;
}

TokenCost frontierPointCost(const FrontierPoint& point, int gpus, const std::optional<double>& gpuHourPrice,
                            const GpuPower& power)
{
    const double n = std::max(1, gpus);
    const TokenRates rates{point.tokensPerSecondPerGpu, point.latency.inputTokensPerSecond / n,
                           point.latency.prefillShare};
    return tokenCost(rates, gpuHourPrice, power);
}

std::optional<std::size_t> bestMeetingTargets(const std::vector<FrontierPoint>& points)
{
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < points.size(); ++i)
        if (points[i].meetsTargets() &&
            (!best || points[i].tokensPerSecondPerGpu > points[*best].tokensPerSecondPerGpu))
            best = i;
    return best;
}

}  // namespace ridgeline
