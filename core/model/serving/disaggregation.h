#pragma once
// Disaggregated serving: prefill GPUs and decode GPUs as two pools with a link between them, against colocated
// serving on the same GPUs (core/model/serving/serving_latency.h). Every time comes from LlmModel's steps; each pool
// runs engines of the model's tensor-parallel degree. Qt Core only.
//
// The path of a request and the assumptions, each an input with its default:
// - Prefill pool: each engine prefills waiting prompts in passes of at most the token budget (SchedulingPolicy,
//   vLLM's max_num_batched_tokens) and never fewer than one prompt; under Poisson arrivals it takes the smallest
//   pass that keeps up, and a prompt waits as in an M/D/1 queue of passes, rho x pass / (2 (1 - rho)), which for
//   one prompt a pass is DistServe's prefill model (Zhong et al., "DistServe", OSDI 2024, arXiv 2401.09670, §3.1).
// - KV transfer: the prompt's KV cache (its KV bytes per token x prompt) goes from the prefill engine's GPUs to the
//   decode engine's, each GPU its share over its own link, latency + bytes / bandwidth per direction. It does not
//   hold up either GPU's passes (NIXL's transfers are non-blocking: NVIDIA Dynamo docs, "Disaggregated Serving");
//   by default it follows the prefill, on the time to first token; overlapped, it is sent layer by layer during the
//   prefill and only what outlasts the prefill is waited for (Patel et al., "Splitwise", ISCA 2024, arXiv 2311.18677).
// - Decode pool: each engine decodes up to the largest batch the policy and its memory allow (prompt + output
//   tokens a request); the running batch is the smallest that keeps up (Little's law) and a request waits for a
//   slot as in serving_latency's M/M/m queue. The first token comes from the prefill, so a request holds its decode
//   slot for output - 1 steps.
// - Closed loop (concurrency c): the arrival rate that keeps c requests in flight (Little's law); beyond the most
//   the pools serve, the rest wait before their prefill.
// - Utilisation: the share of a pool's capacity the mix uses, requests per second over the most it serves (the
//   prefill pool at its largest pass, the decode pool at its largest batch, the link one prompt after another).
// - On the roofline: each pool's pass as a point (its FLOPs over its bytes, and what bounds it), so the prefill is
//   seen near the compute roof and the decode on the bandwidth roof; the KV transfer's roof is the link's bandwidth.
// - Targets (optional): a split meets them when its time to first token and inter-token latency are within them;
//   the best split is then chosen among those that do, as DistServe's goodput counts only requests within them.

#include "core/model/catalog/links.h"
#include "core/model/serving/frontier.h"
#include "core/model/serving/serving_latency.h"

#include <QString>

#include <optional>
#include <vector>

namespace ridgeline {

struct SplitInputs {
    int prefillGpus = 1;
    int decodeGpus = 1;
    LinkSpec link;                 // the link the KV cache crosses, per GPU
    bool overlapTransfer = false;  // layer by layer during the prefill (Splitwise) instead of after it
    SchedulingPolicy policy;       // the prefill pass's token budget; the decode engine's largest batch
};

// One split at the mix. When it does not keep up (keepsUp false), only the capacity figures are set.
struct SplitServing {
    int prefillGpus = 0;
    int decodeGpus = 0;
    double kvBytes = 0;                 // one prompt's KV cache, all its GPUs together
    double kvBytesPerGpu = 0;           // what each GPU sends (its share, or all of it when the KV is replicated)
    double kvTransferSeconds = 0;       // latency + per-GPU share / per-direction bandwidth
    double maxRequestsPerSecond = 0;    // the least of the three below
    double prefillCapacity = 0;         // requests/s, the prefill pool at its largest pass
    double decodeCapacity = 0;          // requests/s, the decode pool at its largest batch
    double linkCapacity = 0;            // requests/s, one prompt's KV after another on each prefill engine's links
    QString bottleneck;                 // "prefill", "decode" or "link": the least capacity
    bool keepsUp = false;               // the mix's rate is below maxRequestsPerSecond
    double requestsPerSecond = 0;       // served (closed loop: what keeps the concurrency in flight)
    std::int64_t prefillBatch = 0;      // prompts per prefill pass
    std::int64_t decodeBatch = 0;       // requests decoding together on one decode engine
    double prefillWaitSeconds = 0;      // queueing for a prefill pass
    double prefillSeconds = 0;          // the pass
    double exposedTransferSeconds = 0;  // the part of the KV transfer on the time to first token
    double ttftSeconds = 0;             // prefill wait + prefill + exposed transfer
    double decodeWaitSeconds = 0;       // waiting for a decode slot after the transfer
    double itlSeconds = 0;              // a decode step at the decode batch (per accepted token)
    double e2eSeconds = 0;              // ttft + decode wait + (output - 1) x itl
    double tokensPerSecondPerGpu = 0;   // output tokens over prefill + decode GPUs
    double prefillUtilisation = 0;      // requests/s over prefillCapacity, in [0, 1]
    double decodeUtilisation = 0;
    double linkUtilisation = 0;
    double prefillIntensity = 0;  // FLOP/byte of the prefill pass
    Bound prefillBound = Bound::Compute;
    double decodeIntensity = 0;  // FLOP/byte of the decode step
    Bound decodeBound = Bound::Memory;
    bool meetsTargets = false;  // keeps up, and within the targets (none given: keeping up is enough)
};

// Colocated serving of the same mix on the same GPUs: engines of the model's tensor-parallel degree, each with its
// share of the rate or of the concurrency (rounded, at least one request).
struct ColocatedServing {
    int gpus = 0;
    int engines = 0;
    double maxRequestsPerSecond = 0;
    bool keepsUp = false;
    ServingLatency latency;  // one engine's; its rates are the engine's
    double requestsPerSecond = 0;
    double tokensPerSecondPerGpu = 0;
    double utilisation = 0;  // requests/s over maxRequestsPerSecond, in [0, 1]
};

struct SplitSweep {
    std::vector<SplitServing> splits;  // prefill GPUs rising, one engine at a time
    std::optional<std::size_t> best;   // empty when no split keeps up
    ColocatedServing colocated;
};

// The time a prompt's KV cache takes from a prefill engine to a decode engine when each GPU sends its share,
// `bytesPerGpu`, over its own link: one hop of latency + bytesPerGpu / the per-direction bandwidth.
double kvTransferSeconds(double bytesPerGpu, const LinkSpec& link);

// Refuses a pool without GPUs or not a whole number of engines, a link without bandwidth, a mix servingLatency
// refuses, or a request that does not fit on an engine; the message names what is wrong.
Result<SplitServing> splitServing(const LlmModel& model, const RequestMix& mix, const SplitInputs& inputs);

Result<ColocatedServing> colocatedServing(const LlmModel& model, const RequestMix& mix, int gpus,
                                          const SchedulingPolicy& policy = {});

// Every split of `totalGpus` with at least one engine a pool, and the colocated engines on them all. The best, among
// the splits that meet the targets: with a concurrency, the most output tokens/s per GPU; at an arrival rate every
// split that keeps up makes the same, so the one with the shortest end-to-end latency.
Result<SplitSweep> splitSweep(const LlmModel& model, const RequestMix& mix, int totalGpus, const SplitInputs& inputs,
                              const FrontierTargets& targets = {});

// The lowest each target can be on a split: one prompt's prefill and KV transfer alone, one request decoding alone.
Result<TargetMinimums> splitTargetMinimums(const LlmModel& model, const RequestMix& mix, const SplitInputs& inputs);

// Whether a split that keeps up is within the targets (a target not given is met).
bool meetsTargets(const SplitServing& split, const FrontierTargets& targets);

}  // namespace ridgeline
