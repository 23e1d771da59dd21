#pragma once
// Which scheduler a serving computation runs: the engine's (schedulingPolicy, serving_latency.h), with each term a
// person set explicitly on top, and where every term came from. The one rule for every front end that serves an
// engine (`ridgeline model` with --frontier, --split or serving figures, the batching tab's frontier, the talk's
// serving scenes): the engine's own limits unless a term is given, so that one engine gives one frontier wherever it
// is asked for. An engine whose profile sets no scheduler term (generic, vLLM, ...) runs vLLM's defaults. Qt Core only.

#include "core/model/llm/engine_profile.h"
#include "core/model/serving/serving_latency.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace ridgeline {

// Where one scheduler term comes from: vLLM's defaults (the serving model's, serving_latency.h), the engine's profile
// (EngineProfile::schedulerSource) or the person (a command-line option).
enum class SchedulerOrigin { Default, Engine, Given };
QString schedulerOriginKey(SchedulerOrigin origin);  // "vllm-default", "engine", "given"

// The terms a person set; empty: the engine's (or vLLM's default).
struct SchedulerOverrides {
    std::optional<bool> chunkedPrefill;
    std::optional<std::int64_t> maxRunning;
    std::optional<std::int64_t> tokenBudget;
};

struct SchedulerChoice {
    SchedulingPolicy policy;
    QString engineId;        // the engine asked for ("generic" when none was)
    QString engineName;      // "TensorRT-LLM"
    QString engineCitation;  // where the engine's limits come from (EngineProfile::schedulerSource); empty: none
    SchedulerOrigin chunkedPrefill = SchedulerOrigin::Default;
    SchedulerOrigin maxRunning = SchedulerOrigin::Default;
    SchedulerOrigin tokenBudget = SchedulerOrigin::Default;
    SchedulerOrigin kvMemoryShare = SchedulerOrigin::Default;
    SchedulerOrigin firstTokenLagSteps = SchedulerOrigin::Default;

    bool anyFrom(SchedulerOrigin origin) const;
};

// vLLM's scheduler defaults, as the serving model cites them.
extern const char* const kVllmSchedulerCitation;

// The engine's policy with the given terms on top. Does not check the result (checkRequestMix does, and a front end
// that reads options says which of them to change: schedulerConflict).
SchedulerChoice chooseScheduler(const EngineProfile& engine, const SchedulerOverrides& given = {});

// The scheduler of the engine a request names (InferenceRequest::engine, NAME[@VERSION]), with nothing given: empty,
// or a name no engine answers to (the request itself is refused where it resolves), is generic's: vLLM's defaults.
SchedulerChoice engineScheduler(const QString& engineSpec);

// Why the choice cannot run (a token budget not above the largest batch, whose decode tokens come first), naming
// where each of the two came from ("--max-running" for a given term, "TensorRT-LLM's" for the engine's), or nothing.
std::optional<QString> schedulerConflict(const SchedulerChoice& choice, const QString& maxRunningOption,
                                         const QString& tokenBudgetOption);

// One line: "chunked prefill beside the decodes, at most 2,048 requests, 8,192 tokens a step, 90 % of the free
// memory for the KV cache, first token 3.25 steps after its prefill under load (TensorRT-LLM's scheduler)"; the
// parenthesis names the origins ("vLLM's scheduler defaults", "given: at most ...; the rest TensorRT-LLM's").
QString schedulerText(const SchedulerChoice& choice);
// The short form for a chart: "TensorRT-LLM's scheduler: up to 2,048 running, 8,192 tokens a step, KV 90 %".
QString schedulerSummary(const SchedulerChoice& choice);

}  // namespace ridgeline
