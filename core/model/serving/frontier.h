#pragma once
// The frontier serving benchmarks draw (InferenceX, NVIDIA's AIConfigurator, the Dynamo planner): output tokens/s per
// GPU against tokens/s per user (1 / inter-token latency), one point per batch of requests in flight, with targets
// for the time to first token and the inter-token latency marking the points that meet them. Batching moves along
// it: each point is a closed loop of that many requests (core/model/serving/serving_latency.h). Qt Core only.

#include "core/model/serving/serving_latency.h"
#include "core/model/serving/token_cost.h"

#include <QString>

#include <optional>
#include <vector>

namespace ridgeline {

// The lengths a frontier uses when none are given: InferenceX's 1k / 1k scenario.
inline constexpr std::int64_t kFrontierPrompt = 1024;
inline constexpr std::int64_t kFrontierOutput = 1024;

// Requests that fill `context` tokens: at most kFrontierOutput of them output (at least 2), the rest prompt (at least
// 1). The batching tab and the talk's serving scenes, which have a context and no lengths, serve these.
struct RequestLengths {
    std::int64_t prompt = 0;
    std::int64_t output = 0;
};
RequestLengths requestLengthsInContext(std::int64_t context);

struct FrontierTargets {
    std::optional<double> ttftSeconds;
    std::optional<double> itlSeconds;
};

struct FrontierPoint {
    std::int64_t batch = 0;  // requests in flight
    ServingLatency latency;
    double tokensPerSecondPerGpu = 0;   // output tokens
    double tokensPerSecondPerUser = 0;  // 1 / inter-token latency
    bool meetsTtft = true;              // no target: met
    bool meetsItl = true;
    bool meetsTargets() const { return meetsTtft && meetsItl; }
};

// 1, 2, 4, ... up to `largest`, which is always the last.
std::vector<std::int64_t> frontierBatches(std::int64_t largest);

// The lowest each target can be: the time to first token and the inter-token latency of one request alone (batch 1).
struct TargetMinimums {
    double ttftSeconds = 0;
    double itlSeconds = 0;
};
Result<TargetMinimums> targetMinimums(const LlmModel& model, std::int64_t prompt, std::int64_t output,
                                      const SchedulingPolicy& policy = {});

// What is wrong with the targets, or nothing: each must be a finite number of seconds, at least its minimum (the
// message names the target and says what the minimum is).
std::optional<QString> checkTargets(const FrontierTargets& targets, const TargetMinimums& minimums);

// One point: `batch` requests always in flight (beyond the largest batch the rest wait for a slot), marked against
// the targets.
Result<FrontierPoint> frontierPoint(const LlmModel& model, std::int64_t prompt, std::int64_t output, std::int64_t batch,
                                    const SchedulingPolicy& policy = {}, const FrontierTargets& targets = {});

// The frontier over frontierBatches(largestRunning(...)): batch 1 to the largest the policy and the memory allow.
Result<std::vector<FrontierPoint>> servingFrontier(const LlmModel& model, std::int64_t prompt, std::int64_t output,
                                                   const SchedulingPolicy& policy = {},
                                                   const FrontierTargets& targets = {});

// A point's cost and energy per token (token_cost.h's rule) on `gpus` GPUs: its output and input tokens/s per GPU and
// the prefill's share of the time.
TokenCost frontierPointCost(const FrontierPoint& point, int gpus, const std::optional<double>& gpuHourPrice,
                            const GpuPower& power);

// The best point that meets the targets: the most output tokens/s per GPU, as a deployment that must meet them would
// choose (AIConfigurator's and InferenceX's reading of the frontier). Empty when none meets them.
std::optional<std::size_t> bestMeetingTargets(const std::vector<FrontierPoint>& points);

}  // namespace ridgeline
