#include "core/model/serving/disaggregation.h"

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

Error invalid(const QString& message)
{
    return makeError(Error::Code::InvalidArgument, message);
}

// What one split is built from: its engines, the largest prefill pass and decode batch, the transfer.
struct Pools {
    double prefillEngines = 0;
    double decodeEngines = 0;
    std::int64_t largestPass = 0;     // prompts per prefill pass
    std::int64_t largestRunning = 0;  // requests decoding together
    double meanContext = 0;           // a decoding request's KV length over its life
};

double passSeconds(const LlmModel& model, std::int64_t prompts, std::int64_t prompt)
{
    return model.prefill(prompts, prompt).seconds;
}

// Seconds between a request's tokens at a decode batch of `running`.
double itlSeconds(const LlmModel& model, std::int64_t running, double meanContext)
{
    return model.decodeStep(running, std::llround(meanContext)).seconds / model.config().speculative.acceptance;
}

// The smallest n in [1, largest] with fits(n), which holds at `largest` and, once it holds, for every larger n.
template <typename Fits>
std::int64_t smallestThatFits(std::int64_t largest, Fits fits)
{
    std::int64_t low = 0, high = largest;
    while (high - low > 1) {
        const std::int64_t mid = low + (high - low) / 2;
        (fits(mid) ? high : low) = mid;
    }
    return high;
}

// The M/D/1 queue's mean wait for a server busy `rho` of the time with deterministic service `serviceSeconds`.
double deterministicWait(double rho, double serviceSeconds)
{
    return rho > 0 && rho < 1 ? rho * serviceSeconds / (2.0 * (1.0 - rho)) : 0.0;
}

// Fills the figures of `s` for Poisson arrivals at `rate`, below s.maxRequestsPerSecond.
void evaluateAt(const LlmModel& model, const RequestMix& mix, const SplitInputs& inputs, const Pools& pools,
                double rate, SplitServing& s)
{
    const double o = static_cast<double>(mix.output);
    s.requestsPerSecond = rate;
    // Prefill: the smallest pass that keeps up, then an M/D/1 queue of passes.
    const double perPrefill = rate / pools.prefillEngines;
    s.prefillBatch = smallestThatFits(pools.largestPass, [&](std::int64_t b) {
        return perPrefill * passSeconds(model, b, mix.prompt) < static_cast<double>(b);
    });
    s.prefillSeconds = passSeconds(model, s.prefillBatch, mix.prompt);
    const double rho = perPrefill * s.prefillSeconds / static_cast<double>(s.prefillBatch);
    s.prefillWaitSeconds = deterministicWait(rho, s.prefillSeconds);
    // The link: one prompt's KV after another on each prefill engine's links, an M/D/1 queue too.
    const double linkRho = perPrefill * s.kvTransferSeconds;
    const double onLink = s.kvTransferSeconds + deterministicWait(linkRho, s.kvTransferSeconds);
    s.exposedTransferSeconds = inputs.overlapTransfer ? std::max(0.0, onLink - s.prefillSeconds) : onLink;
    s.ttftSeconds = s.prefillWaitSeconds + s.prefillSeconds + s.exposedTransferSeconds;
    // Decode: the smallest batch that keeps up (Little's law), then the M/M/m wait for a slot.
    const double perDecode = rate / pools.decodeEngines;
    s.decodeBatch = smallestThatFits(pools.largestRunning, [&](std::int64_t b) {
        return perDecode * (o - 1.0) * itlSeconds(model, b, pools.meanContext) <= static_cast<double>(b);
    });
    s.itlSeconds = itlSeconds(model, s.decodeBatch, pools.meanContext);
    const double hold = (o - 1.0) * s.itlSeconds;
    s.decodeWaitSeconds = slotWaitSeconds(pools.largestRunning, perDecode * hold, hold);
    s.e2eSeconds = s.ttftSeconds + s.decodeWaitSeconds + hold;
    s.tokensPerSecondPerGpu = rate * o / static_cast<double>(s.prefillGpus + s.decodeGpus);
    s.prefillUtilisation = std::clamp(rate / s.prefillCapacity, 0.0, 1.0);
    s.decodeUtilisation = std::clamp(rate / s.decodeCapacity, 0.0, 1.0);
    s.linkUtilisation = std::clamp(rate / s.linkCapacity, 0.0, 1.0);
    const StepCost prefill = model.prefill(s.prefillBatch, mix.prompt);
    const StepCost decode = model.decodeStep(s.decodeBatch, std::llround(pools.meanContext));
    s.prefillIntensity = prefill.intensity;
    s.prefillBound = prefill.bound;
    s.decodeIntensity = decode.intensity;
    s.decodeBound = decode.bound;
}

// Closed loop: the rate that keeps `concurrency` requests in flight, rate x end-to-end latency (Little's law),
// found by bisection below the capacity; what the pools cannot take waits before its prefill.
void evaluateClosedLoop(const LlmModel& model, const RequestMix& mix, const SplitInputs& inputs, const Pools& pools,
                        SplitServing& s)
{
    const double c = static_cast<double>(mix.concurrency);
    double low = 0, high = s.maxRequestsPerSecond * (1.0 - 1e-9);
    evaluateAt(model, mix, inputs, pools, high, s);
    if (high * s.e2eSeconds <= c) {
        const double waiting = (c - high * s.e2eSeconds) / high;
        s.prefillWaitSeconds += waiting;
        s.ttftSeconds += waiting;
        s.e2eSeconds += waiting;
        return;
    }
    for (int i = 0; i < 100 && high - low > 1e-12 * high; ++i) {
        const double mid = 0.5 * (low + high);
        evaluateAt(model, mix, inputs, pools, mid, s);
        (mid * s.e2eSeconds < c ? low : high) = mid;
    }
    evaluateAt(model, mix, inputs, pools, 0.5 * (low + high), s);
}

std::optional<Error> checkPool(int gpus, int tensorParallel, const char* pool)
{
    if (gpus < 1)
        return invalid(QStringLiteral("the %1 pool needs at least one GPU").arg(QLatin1String(pool)));
    if (gpus % tensorParallel != 0)
        return invalid(QStringLiteral("the %1 pool's %2 GPUs are not a whole number of engines of %3 GPUs (the "
                                      "tensor-parallel degree)")
                           .arg(QLatin1String(pool))
                           .arg(gpus)
                           .arg(tensorParallel));
    return std::nullopt;
}

Result<Pools> pools(const LlmModel& model, const RequestMix& mix, const SplitInputs& inputs)
{
    const int tp = model.config().tensorParallel;
    for (const auto& [gpus, name] : {std::pair{inputs.prefillGpus, "prefill"}, std::pair{inputs.decodeGpus, "decode"}})
        if (std::optional<Error> refused = checkPool(gpus, tp, name))
            return *refused;
    if (!std::isfinite(inputs.link.gbPerSecPerDirection) || inputs.link.gbPerSecPerDirection <= 0 ||
        !std::isfinite(inputs.link.latencyUs) || inputs.link.latencyUs < 0)
        return invalid(QStringLiteral("the link between the pools has no bandwidth: name one from the link catalog"));
    if (std::optional<Error> refused = checkRequestMix(mix, inputs.policy))
        return *refused;
    Pools p;
    p.prefillEngines = inputs.prefillGpus / tp;
    p.decodeEngines = inputs.decodeGpus / tp;
    const std::int64_t fitPrompts = model.maxBatch(mix.prompt);
    p.largestRunning = largestRunning(model, mix.prompt, mix.output, inputs.policy);
    if (fitPrompts < 1 || p.largestRunning < 1)
        return makeError(Error::Code::Range,
                         QStringLiteral("one request of %1 + %2 tokens does not fit in the GPU's memory beside the "
                                        "weights")
                             .arg(mix.prompt)
                             .arg(mix.output));
    p.largestPass = std::clamp<std::int64_t>(inputs.policy.tokenBudget / mix.prompt, 1, fitPrompts);
    p.meanContext = static_cast<double>(mix.prompt) + static_cast<double>(mix.output) / 2.0;
    return p;
}

QString bottleneckOf(const SplitServing& s)
{
    if (s.prefillCapacity <= s.decodeCapacity && s.prefillCapacity <= s.linkCapacity)
        return QStringLiteral("prefill");
    return s.decodeCapacity <= s.linkCapacity ? QStringLiteral("decode") : QStringLiteral("link");
}

}  // namespace

double kvTransferSeconds(double bytesPerGpu, const LinkSpec& link)
{
    return link.latencyUs * 1e-6 + bytesPerGpu / (link.gbPerSecPerDirection * 1e9);
}

Result<SplitServing> splitServing(const LlmModel& model, const RequestMix& mix, const SplitInputs& inputs)
{
    const Result<Pools> built = pools(model, mix, inputs);
    if (!built)
        return built.error();
    const Pools& p = built.value();
    SplitServing s;
    s.prefillGpus = inputs.prefillGpus;
    s.decodeGpus = inputs.decodeGpus;
    s.kvBytes = static_cast<double>(model.kvBytesPerToken()) * static_cast<double>(model.kvTokens(mix.prompt));
    const Result<MemoryUse> one = model.memory(1, mix.prompt);
    s.kvBytesPerGpu = one ? static_cast<double>(one.value().kvPerGpu) : s.kvBytes;
    s.kvTransferSeconds = kvTransferSeconds(s.kvBytesPerGpu, inputs.link);
    const double o = static_cast<double>(mix.output);
    s.prefillCapacity =
        p.prefillEngines * static_cast<double>(p.largestPass) / passSeconds(model, p.largestPass, mix.prompt);
    s.decodeCapacity = p.decodeEngines * static_cast<double>(p.largestRunning) /
                       ((o - 1.0) * itlSeconds(model, p.largestRunning, p.meanContext));
    s.linkCapacity = p.prefillEngines / s.kvTransferSeconds;
    s.maxRequestsPerSecond = std::min({s.prefillCapacity, s.decodeCapacity, s.linkCapacity});
    s.bottleneck = bottleneckOf(s);
    if (mix.arrivalRate > 0) {
        s.keepsUp = mix.arrivalRate < s.maxRequestsPerSecond;
        if (s.keepsUp)
            evaluateAt(model, mix, inputs, p, mix.arrivalRate, s);
    } else {
        s.keepsUp = true;
        evaluateClosedLoop(model, mix, inputs, p, s);
    }
    s.meetsTargets = s.keepsUp;
    return s;
}

Result<ColocatedServing> colocatedServing(const LlmModel& model, const RequestMix& mix, int gpus,
                                          const SchedulingPolicy& policy)
{
    const int tp = model.config().tensorParallel;
    if (std::optional<Error> refused = checkPool(gpus, tp, "colocated"))
        return *refused;
    ColocatedServing c;
    c.gpus = gpus;
    c.engines = gpus / tp;
    const double engines = c.engines;
    RequestMix each = mix;
    each.arrivalRate = mix.arrivalRate / engines;
    each.concurrency = std::max<std::int64_t>(1, std::llround(static_cast<double>(mix.concurrency) / engines));
    if (std::optional<Error> refused = checkRequestMix(each, policy))
        return *refused;
    c.maxRequestsPerSecond = engines * maxRequestsPerSecond(model, each, policy);
    if (c.maxRequestsPerSecond <= 0)
        return makeError(Error::Code::Range,
                         QStringLiteral("one request of %1 + %2 tokens does not fit in the GPU's memory beside the "
                                        "weights")
                             .arg(mix.prompt)
                             .arg(mix.output));
    c.keepsUp = mix.arrivalRate <= 0 || mix.arrivalRate < c.maxRequestsPerSecond;
    if (!c.keepsUp)
        return c;
    const Result<ServingLatency> latency = servingLatency(model, each, policy);
    if (!latency)
        return latency.error();
    c.latency = latency.value();
    c.requestsPerSecond = engines * c.latency.requestsPerSecond;
    c.tokensPerSecondPerGpu = engines * c.latency.outputTokensPerSecond / static_cast<double>(gpus);
    c.utilisation = std::clamp(c.requestsPerSecond / c.maxRequestsPerSecond, 0.0, 1.0);
    return c;
}

Result<TargetMinimums> splitTargetMinimums(const LlmModel& model, const RequestMix& mix, const SplitInputs& inputs)
{
    const Result<Pools> built = pools(model, mix, inputs);
    if (!built)
        return built.error();
    const Result<MemoryUse> one = model.memory(1, mix.prompt);
    const double bytes = one ? static_cast<double>(one.value().kvPerGpu) : 0.0;
    const double prefill = passSeconds(model, 1, mix.prompt);
    const double transfer = kvTransferSeconds(bytes, inputs.link);
    TargetMinimums m;
    m.ttftSeconds = prefill + (inputs.overlapTransfer ? std::max(0.0, transfer - prefill) : transfer);
    m.itlSeconds = itlSeconds(model, 1, built.value().meanContext);
    return m;
}

bool meetsTargets(const SplitServing& split, const FrontierTargets& targets)
{
    return split.keepsUp && (!targets.ttftSeconds || split.ttftSeconds <= *targets.ttftSeconds) &&
           (!targets.itlSeconds || split.itlSeconds <= *targets.itlSeconds);
}

Result<SplitSweep> splitSweep(const LlmModel& model, const RequestMix& mix, int totalGpus, const SplitInputs& inputs,
                              const FrontierTargets& targets)
{
    const int tp = model.config().tensorParallel;
    if (totalGpus < 2 * tp || totalGpus % tp != 0)
        return invalid(QStringLiteral("%1 GPUs do not make two pools of whole engines of %2 GPUs (the "
                                      "tensor-parallel degree): at least %3, a multiple of %2")
                           .arg(totalGpus)
                           .arg(tp)
                           .arg(2 * tp));
    SplitSweep sweep;
    const Result<ColocatedServing> colocated = colocatedServing(model, mix, totalGpus, inputs.policy);
    if (!colocated)
        return colocated.error();
    sweep.colocated = colocated.value();
    for (int prefill = tp; prefill < totalGpus; prefill += tp) {
        SplitInputs at = inputs;
        at.prefillGpus = prefill;
        at.decodeGpus = totalGpus - prefill;
        Result<SplitServing> s = splitServing(model, mix, at);
        if (!s)
            return s.error();
        s.value().meetsTargets = meetsTargets(s.value(), targets);
        sweep.splits.push_back(s.value());
    }
    const bool closedLoop = mix.arrivalRate <= 0;
    for (std::size_t i = 0; i < sweep.splits.size(); ++i) {
        const SplitServing& s = sweep.splits[i];
        if (!s.meetsTargets)
            continue;
        if (!sweep.best)
            sweep.best = i;
        const SplitServing& b = sweep.splits[*sweep.best];
        if (closedLoop ? s.tokensPerSecondPerGpu > b.tokensPerSecondPerGpu : s.e2eSeconds < b.e2eSeconds)
            sweep.best = i;
    }
    return sweep;
}

}  // namespace ridgeline
