#include "core/model/serving/serving_latency.h"

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

Error invalid(const QString& message)
{
    return makeError(Error::Code::InvalidArgument, message);
}

// A batch of `running` requests in its steady state: its mean step, the time between tokens and a request's time
// from admission to its first token.
struct InSlot {
    double stepSeconds = 0;
    double itlSeconds = 0;
    double prefillSeconds = 0;
    double outputTokensPerSecond = 0;
    double seconds = 0;  // prefill + (output - 1) x itl: how long a request holds its slot
};

InSlot inSlot(const LlmModel& model, std::int64_t running, const RequestMix& mix, const SchedulingPolicy& policy)
{
    const double p = static_cast<double>(mix.prompt), o = static_cast<double>(mix.output);
    const double accepted = model.config().speculative.acceptance;
    InSlot s;
    if (policy.chunkedPrefill) {
        const ServingEstimate serving = model.serving(running, mix.prompt, mix.output);
        s.stepSeconds = serving.step.seconds;
        s.itlSeconds = serving.tpotSeconds;
        s.outputTokensPerSecond = serving.outputTokensPerSecond;
        // Decode tokens first, then as much of the prompt as the budget leaves, beside the other requests' decodes.
        const double room = static_cast<double>(policy.tokenBudget - running + 1);
        const double others = static_cast<double>(running - 1);
        const double fullChunks = std::floor(p / room), rest = p - fullChunks * room;
        s.prefillSeconds = 0.5 * s.stepSeconds;
        if (fullChunks > 0)
            s.prefillSeconds += fullChunks * model.mixedStep(others, serving.meanContext, room, p).seconds;
        if (rest > 0)
            s.prefillSeconds += model.mixedStep(others, serving.meanContext, rest, p).seconds;
    } else {
        // The prefill is a pass of its own, ahead of the decodes; the running requests wait for it.
        const double meanContext = p + o / 2.0;
        const double decode = model.decodeStep(running, std::llround(meanContext)).seconds;
        const double prefill = model.prefill(1, mix.prompt).seconds;
        const double arrivals = static_cast<double>(running) * accepted / (o - 1.0);
        s.stepSeconds = decode + arrivals * prefill;
        s.itlSeconds = s.stepSeconds / accepted;
        s.outputTokensPerSecond = arrivals * o / s.stepSeconds;
        s.prefillSeconds = 0.5 * decode + prefill;
    }
    s.seconds = s.prefillSeconds + (o - 1.0) * s.itlSeconds;
    return s;
}

// Closed loop without chunked prefill: the engine puts as many whole waiting prompts into a step as its token
// budget holds, so requests that arrive together get their first tokens together, finish together and come back
// together: the loop runs in waves. Each wave's `running` prompts are prefilled group after group (each group's step
// also decodes the requests of the groups before it), and a request's first token comes at the end of its group's
// step: the mean over the wave.
double waveFirstTokenSeconds(const LlmModel& model, std::int64_t running, const RequestMix& mix,
                             const SchedulingPolicy& policy)
{
    const double p = static_cast<double>(mix.prompt);
    const std::int64_t perStep = std::max<std::int64_t>(1, policy.tokenBudget / mix.prompt);
    const double setUp = model.config().efficiency.prefillSeconds;
    double clock = 0, sum = 0;
    for (std::int64_t done = 0; done < running;) {
        const std::int64_t group = std::min(perStep, running - done);
        const double g = static_cast<double>(group);
        clock += model.mixedStep(static_cast<double>(done), p, g * p, p).seconds + setUp;
        sum += g * clock;
        done += group;
    }
    return sum / static_cast<double>(running);
}

// Erlang C: the chance an arrival waits in an M/M/m queue with offered load a < m, through the stable recurrence of
// Erlang B.
double erlangC(std::int64_t servers, double load)
{
    double b = 1.0;
    for (std::int64_t k = 1; k <= servers; ++k)
        b = load * b / (static_cast<double>(k) + load * b);
    const double m = static_cast<double>(servers);
    return m * b / (m - load * (1.0 - b));
}

}  // namespace

SchedulingPolicy schedulingPolicy(const EngineProfile& engine)
{
    SchedulingPolicy policy;
    if (engine.maxRunning > 0)
        policy.maxRunning = std::min(engine.maxRunning, kMaxBatch);
    if (engine.tokenBudget > 0)
        policy.tokenBudget = std::min(engine.tokenBudget, kMaxContext);
    if (engine.kvMemoryShare > 0)
        policy.kvMemoryShare = std::min(engine.kvMemoryShare, 1.0);
    policy.firstTokenLagSteps = std::max(engine.firstTokenLagSteps, 0.0);
    return policy;
}

std::optional<Error> checkRequestMix(const RequestMix& mix, const SchedulingPolicy& policy)
{
    if (mix.prompt < 1 || mix.prompt > kMaxContext)
        return invalid(QStringLiteral("the prompt must be between 1 and %1 tokens").arg(kMaxContext));
    if (mix.output < 2 || mix.output > kMaxContext)
        return invalid(
            QStringLiteral("the output must be between 2 and %1 tokens (one after the first)").arg(kMaxContext));
    if (mix.concurrency < 1 || mix.concurrency > kMaxBatch)
        return invalid(QStringLiteral("the concurrency must be between 1 and %1 requests").arg(kMaxBatch));
    if (!std::isfinite(mix.arrivalRate) || mix.arrivalRate < 0)
        return invalid(QStringLiteral("the arrival rate must be a finite number of requests per second above 0"));
    if (policy.maxRunning < 1 || policy.maxRunning > kMaxBatch)
        return invalid(QStringLiteral("the largest batch must be between 1 and %1 requests").arg(kMaxBatch));
    if (policy.tokenBudget <= policy.maxRunning || policy.tokenBudget > kMaxContext)
        return invalid(QStringLiteral("the token budget must be above the largest batch (%1), whose decode tokens "
                                      "come first, and at most %2")
                           .arg(policy.maxRunning)
                           .arg(kMaxContext));
    return std::nullopt;
}

std::int64_t largestRunning(const LlmModel& model, std::int64_t prompt, std::int64_t output,
                            const SchedulingPolicy& policy)
{
    const std::int64_t fits = model.maxBatch(prompt + output);
    if (policy.kvMemoryShare >= 1.0)
        return std::min(policy.maxRunning, fits);
    const Result<MemoryUse> one = model.memory(1, prompt + output);
    if (!one || one.value().kvPerGpu <= 0)
        return std::min(policy.maxRunning, fits);
    const double free = static_cast<double>(one.value().capacityPerGpu - one.value().weightsPerGpu);
    const auto kept =
        static_cast<std::int64_t>(std::floor(policy.kvMemoryShare * free / static_cast<double>(one.value().kvPerGpu)));
    return std::min({policy.maxRunning, fits, std::max<std::int64_t>(kept, 0)});
}

double slotWaitSeconds(std::int64_t servers, double load, double holdSeconds)
{
    const double m = static_cast<double>(servers);
    if (servers < 1 || !(load >= 0) || load >= m)
        return 0;
    return erlangC(servers, load) * holdSeconds / (m - load);
}

double maxRequestsPerSecond(const LlmModel& model, const RequestMix& mix, const SchedulingPolicy& policy)
{
    const std::int64_t largest = largestRunning(model, mix.prompt, mix.output, policy);
    return largest < 1 ? 0.0 : static_cast<double>(largest) / inSlot(model, largest, mix, policy).seconds;
}

double prefillTimeShare(const LlmModel& model, std::int64_t running, std::int64_t prompt, std::int64_t output)
{
    const double p = static_cast<double>(prompt), o = static_cast<double>(std::max<std::int64_t>(output, 2));
    const double arrivals = static_cast<double>(running) * model.config().speculative.acceptance / (o - 1.0);
    const double prefill = arrivals * model.prefill(1, prompt).seconds;
    const double decode = model.decodeStep(running, std::llround(p + o / 2.0)).seconds;
    return prefill / (prefill + decode);
}

Result<ServingLatency> servingLatency(const LlmModel& model, const RequestMix& mix, const SchedulingPolicy& policy)
{
    if (std::optional<Error> refused = checkRequestMix(mix, policy))
        return *refused;
    const std::int64_t largest = largestRunning(model, mix.prompt, mix.output, policy);
    if (largest < 1)
        return makeError(Error::Code::Range,
                         QStringLiteral("one request of %1 + %2 tokens does not fit in the GPU's memory beside the "
                                        "weights")
                             .arg(mix.prompt)
                             .arg(mix.output));
    ServingLatency r;
    const double o = static_cast<double>(mix.output);
    InSlot slot;
    if (mix.arrivalRate > 0) {
        const double most = maxRequestsPerSecond(model, mix, policy);
        if (mix.arrivalRate >= most)
            return makeError(Error::Code::Range,
                             QStringLiteral("%1 requests/s is more than the engine serves: at most %2 requests/s, "
                                            "%3 requests at once")
                                 .arg(mix.arrivalRate, 0, 'g', 4)
                                 .arg(most, 0, 'g', 4)
                                 .arg(largest));
        // The smallest batch that keeps up: Little's law, rate x time in the batch <= batch.
        std::int64_t low = 0, high = largest;
        while (high - low > 1) {
            const std::int64_t mid = low + (high - low) / 2;
            const InSlot at = inSlot(model, mid, mix, policy);
            (mix.arrivalRate * at.seconds <= static_cast<double>(mid) ? high : low) = mid;
        }
        r.running = high;
        slot = inSlot(model, r.running, mix, policy);
        const double load = mix.arrivalRate * slot.seconds;
        r.slotWaitSeconds = slotWaitSeconds(largest, load, slot.seconds);
        r.requestsPerSecond = mix.arrivalRate;
        r.outputTokensPerSecond = mix.arrivalRate * o;
        r.queued = mix.arrivalRate * r.slotWaitSeconds;
        r.prefillSeconds = slot.prefillSeconds;
    } else {
        r.running = std::min(mix.concurrency, largest);
        slot = inSlot(model, r.running, mix, policy);
        r.prefillSeconds =
            policy.chunkedPrefill ? slot.prefillSeconds : waveFirstTokenSeconds(model, r.running, mix, policy);
        const double others = static_cast<double>(r.running - 1) / static_cast<double>(r.running);
        r.prefillSeconds += policy.firstTokenLagSteps * others * slot.stepSeconds;
        // Little's law over the slots: each of the running requests holds its slot from admission to its last
        // token, so a closed loop completes running / that time requests a second; its rate is what the client
        // counts (output tokens over the run), whatever the decode steps alone would give.
        r.requestsPerSecond = static_cast<double>(r.running) / (r.prefillSeconds + (o - 1.0) * slot.itlSeconds);
        r.outputTokensPerSecond = r.requestsPerSecond * o;
        r.queued = static_cast<double>(mix.concurrency - r.running);
        r.slotWaitSeconds = r.queued / r.requestsPerSecond;
    }
    r.ttftSeconds = r.slotWaitSeconds + r.prefillSeconds;
    r.itlSeconds = slot.itlSeconds;
    r.e2eSeconds = r.ttftSeconds + (o - 1.0) * r.itlSeconds;
    r.stepSeconds = slot.stepSeconds;
    r.inputTokensPerSecond = r.requestsPerSecond * static_cast<double>(mix.prompt);
    r.prefillShare = prefillTimeShare(model, r.running, mix.prompt, mix.output);
    return r;
}

}  // namespace ridgeline
