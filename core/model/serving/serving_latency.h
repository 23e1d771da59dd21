#pragma once
// The latency side of batching: for a request mix (prompt and output lengths, concurrency or arrival rate), the
// time to first token (waiting for a batch slot, then the prefill interleaved with the running requests' decode
// steps), the inter-token latency and the end-to-end latency, all from LlmModel's steps (core/model/llm/llm_model.h).
// Qt Core only.
//
// Assumptions, each an input with its default:
// - The engine admits up to maxRunning requests and puts at most tokenBudget tokens through one step: the defaults of
//   vLLM's scheduler (vllm/config/scheduler.py, SchedulerConfig: DEFAULT_MAX_NUM_SEQS 128,
//   DEFAULT_MAX_NUM_BATCHED_TOKENS 2048).
// - Chunked prefill (the default, as in vLLM's V1 engine): each step schedules the running requests' decode tokens
//   first and fills the rest of the token budget with a chunk of a waiting prompt, so a prompt is prefilled over
//   ceil(prompt / (budget - running)) steps that also decode (stall-free batching: Agrawal et al., "Taming
//   Throughput-Latency Tradeoff in LLM Inference with Sarathi-Serve", OSDI 2024). Without it a prompt runs as a pass
//   of its own ahead of the decodes (vLLM's V0 default: prefills first), and every running request waits for it.
//   A closed loop without it runs in waves (waveFirstTokenSeconds in the .cpp): the time to first token is that of
//   prefilling the whole wave's prompts, as many per step as the token budget holds.
// - A request arrives in the middle of a step and waits for it to end (half a step) before its prefill starts; one
//   prompt is prefilled at a time (max_num_partial_prefills 1), without waiting behind other prompts.
// - Closed loop (concurrency c): c clients each send their next request when the last one finishes (as
//   benchmark_serving's --max-concurrency); a running request holds its slot from admission to its last token, so
//   by Little's law the loop completes running / (time to first token in the slot + (output - 1) x ITL) requests a
//   second (what a benchmark client counts), and the c - running beyond the slots wait queued / that rate. Open
//   loop (arrival rate): Poisson arrivals; the batch is the smallest that keeps up (Little's law), and the wait for
//   a slot is the M/M/m queue's (Erlang C over maxRunning slots, each held for a request's time in the batch).

#include "core/model/llm/engine_profile.h"
#include "core/model/llm/llm_model.h"
#include "core/result.h"

#include <cstdint>
#include <optional>

namespace ridgeline {

struct SchedulingPolicy {
    bool chunkedPrefill = true;
    std::int64_t maxRunning = 128;    // vLLM's max_num_seqs: requests decoding together at most
    std::int64_t tokenBudget = 2048;  // vLLM's max_num_batched_tokens: decode and prefill tokens through one step
    double kvMemoryShare = 1.0;       // of the memory beside the weights, what the engine gives the KV cache
    // Closed loop: steps between a prefill and its first token reaching the client when other requests run (the
    // server's path; EngineProfile::firstTokenLagSteps), times (running - 1) / running.
    double firstTokenLagSteps = 0;
};

// The policy of an engine: vLLM's defaults with the limits its profile sets instead (chunked prefill kept).
SchedulingPolicy schedulingPolicy(const EngineProfile& engine);

struct RequestMix {
    std::int64_t prompt = 1024;
    std::int64_t output = 1024;
    std::int64_t concurrency = 1;  // closed loop: requests in flight
    double arrivalRate = 0;        // > 0: open loop, requests per second (concurrency is then not used)
};

struct ServingLatency {
    std::int64_t running = 0;          // requests decoding together: the batch
    double queued = 0;                 // mean requests waiting for a slot
    double slotWaitSeconds = 0;        // waiting for a batch slot
    double prefillSeconds = 0;         // from admission to the first token (half a step, then the prompt's steps)
    double ttftSeconds = 0;            // slot wait + prefill
    double itlSeconds = 0;             // mean time between a request's output tokens
    double e2eSeconds = 0;             // ttft + (output - 1) x itl
    double stepSeconds = 0;            // the mean serving step
    double requestsPerSecond = 0;      // completed, the whole deployment
    double outputTokensPerSecond = 0;  // the whole deployment (all its GPUs)
    double inputTokensPerSecond = 0;
    double prefillShare = 0;  // the prefill's share of the GPU time (prefillTimeShare)
};

// What is wrong with the mix or the policy (the checks of servingLatency below, before the memory), or nothing.
std::optional<Error> checkRequestMix(const RequestMix& mix, const SchedulingPolicy& policy);

// Checks the mix and the policy (lengths >= 1 and output >= 2, concurrency >= 1, a finite rate > 0 when given,
// maxRunning >= 1, a token budget above maxRunning) and that one request fits in memory; refuses an arrival rate
// the engine cannot keep up with at its largest batch, naming the most it serves.
Result<ServingLatency> servingLatency(const LlmModel& model, const RequestMix& mix,
                                      const SchedulingPolicy& policy = {});

// The largest batch the policy and the memory allow for requests of prompt + output tokens (0: none fits).
std::int64_t largestRunning(const LlmModel& model, std::int64_t prompt, std::int64_t output,
                            const SchedulingPolicy& policy);

// The mean wait for one of `servers` batch slots, each held `holdSeconds`, under Poisson arrivals of offered load
// `load` (arrival rate x hold, below servers): the M/M/m queue's Erlang C x hold / (servers - load); 0 outside that.
double slotWaitSeconds(std::int64_t servers, double load, double holdSeconds);

// The most requests per second one engine completes for the mix's lengths: its largest batch over a request's time in
// it (0 when no request fits).
double maxRequestsPerSecond(const LlmModel& model, const RequestMix& mix, const SchedulingPolicy& policy = {});

// The share of the GPU time charged to prefill in a serving step of `running` requests: the prefills of the requests
// that start in a step, each as a pass of its own, against that step's decode pass, each timed alone (they share
// one weight read when chunked, so this is a rule for dividing the cost, not a measurement).
double prefillTimeShare(const LlmModel& model, std::int64_t running, std::int64_t prompt, std::int64_t output);

}  // namespace ridgeline
