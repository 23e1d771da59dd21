#pragma once
// The batching explorer's computation, without widgets: the panel's inputs in, everything its charts and
// labels show out. Every number comes from the core LLM model (LlmModel), the same code as
// `ridgeline model`; this file only samples it over batch and packs the results for drawing.

#include "core/model/llm/inference_request.h"
#include "core/model/llm/llm_model.h"
#include "core/model/serving/scheduler_choice.h"
#include "core/session/session.h"
#include "ui/plots/batching/batch_samples.h"
#include "ui/plots/batching/batching_chart_data.h"

#include <QString>

#include <cstdint>
#include <optional>

namespace ridgeline::ui {

inline constexpr std::int64_t kPanelMinBatch = 1;
inline constexpr std::int64_t kPanelMaxBatch = 4096;
// Down to one token: the source text's batching table is the weights-only view, where the KV cache is ~0.
inline constexpr std::int64_t kPanelMinContext = 1;
inline constexpr std::int64_t kPanelMaxContext = 1 << 20;

struct BatchingScenario {
    std::optional<Error> error;  // set: nothing else is valid, show the message instead of numbers
    InferenceReport report;
    InferenceConfig config;     // what the request resolved to (model, GPU, links)
    SchedulerChoice scheduler;  // the engine's scheduler, which the frontier runs (engineScheduler)
    QString modelName;
    QString gpuName;
    QString linkName;  // the link tensor parallelism uses, and the sockets it crosses (set when gpus > 1)
    ThroughputData throughput;
    DecodeRooflineData roofline;
    MemoryBarData memory;
    StepBreakdownData breakdown;  // the decode step at the current batch
};

// Resolves the request (resolveInference: catalog look-ups, custom model and GPU, link) and evaluates it.
BatchingScenario computeBatchingScenario(const InferenceRequest& request);

// Error messages for people: "got nan" becomes "got not a number", "inf" "an infinite value".
QString withoutNonFiniteNumbers(QString message);

// The roofline applied to this CPU: the session's decode kernel (a d x d fp32 matrix times B vectors) on a
// "GPU" made of the best fp32 compute ceiling and the DRAM ceiling (session_roof.h).
CpuBatchingData predictCpuBatching(const Session& session);

}  // namespace ridgeline::ui
