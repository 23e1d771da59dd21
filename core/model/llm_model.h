#pragma once
// The analytical LLM inference model: memory, decode step, prefill, tensor parallelism and MoE on a GPU,
// as a roofline of FLOPs and bytes. Qt Core only; one evaluation is microseconds, so a panel can call it
// on every slider step. The CLI (`ridgeline model`) and the GUI call the same functions.
//
// What is counted (and what is not):
// - Weights are read once per decode step, whatever the batch; for MoE only the experts some token in the
//   step routes to (expected distinct experts E (1 - (1 - k/E)^tokens)). The input embedding table is a
//   gather of one row per token; a tied table is read in full as the LM head.
// - Each sequence reads its own KV cache: min(context, sliding window) tokens x KV bytes per token.
// - FLOPs: 2 per active weight per token (matmuls, LM head included) plus attention: 4 x query heads x
//   head dim per cached token per layer (QK^T and AV). MLA decode uses the absorbed form (scores over
//   kv_lora_rank + rope dims, values over kv_lora_rank); MLA prefill the decompressed form.
// - Step time = max(FLOPs / (peak x compute efficiency), bytes / (bandwidth x bandwidth efficiency)) +
//   tensor-parallel communication (two ring all-reduces of batch x hidden bf16 activations per layer,
//   not overlapped). Activations, norms, softmax and kernel launch overheads are not counted; memory
//   needed = weights + KV cache (no activation workspace, no allocator fragmentation).

#include "core/model/catalog.h"
#include "core/model/links.h"
#include "core/model/number_format.h"
#include "core/model/roofline.h"
#include "core/result.h"

#include <QStringList>

#include <cstdint>
#include <optional>

namespace ridgeline {

inline constexpr std::int64_t kMaxBatch = 65536;
inline constexpr std::int64_t kMaxContext = 10'000'000;
inline constexpr int kMaxTensorParallel = 1024;

// Defaults, checked against published serving measurements (tests/data/README.md, "LLM serving
// measurements"; test LlmReality): decode in TensorRT-LLM and llama.cpp streams weights and KV at about
// 75 % of datasheet bandwidth, and prefill GEMMs run at about 60 % of the dense tensor peak.
inline constexpr double kDefaultBandwidthEfficiency = 0.75;
inline constexpr double kDefaultComputeEfficiency = 0.6;

struct Efficiency {
    double bandwidth = kDefaultBandwidthEfficiency;   // share of datasheet bandwidth reached
    double compute = kDefaultComputeEfficiency;       // share of dense peak reached
    static Efficiency ideal() { return {1.0, 1.0}; }  // the "ideal datasheet" switch
};

struct InferenceConfig {
    ModelSpec model;
    GpuSpec gpu;
    NumberFormat weights = NumberFormat::Bf16;
    NumberFormat kv = NumberFormat::Bf16;
    std::int64_t batch = 1;    // sequences decoded together
    std::int64_t context = 1;  // tokens each sequence attends to in this step (its KV length)
    std::int64_t prompt = 0;   // > 0: prefill of this many tokens per sequence (TTFT)
    std::int64_t output = 0;   // > 0 (needs a prompt): static batch generating this many tokens after it
    int tensorParallel = 1;
    LinkSpec link;  // required when tensorParallel > 1
    Efficiency efficiency;
};

// One forward pass (a decode step or a prefill), per GPU when tensor-parallel.
struct StepCost {
    double flops = 0;  // per GPU
    double bytes = 0;  // per GPU: weights + KV
    double weightBytes = 0;
    double kvBytes = 0;
    double computeSeconds = 0;  // flops / effective peak
    double memorySeconds = 0;   // bytes / effective bandwidth
    double commSeconds = 0;     // tensor-parallel all-reduces
    double seconds = 0;         // max(compute, memory) + comm
    double intensity = 0;       // flops / bytes, FLOP/byte
    Bound bound = Bound::Memory;
    double expertsTouched = 0;  // per MoE layer (0 for dense models)
    double attentionFlops = 0;  // per GPU: the part of `flops` spent on QK^T and AV over the cache
    // The attention alone as a point on the roofline: its FLOPs over the KV bytes it reads. Query heads per
    // KV head for MHA/GQA (1 and 4 in bf16: always memory-bound); much higher for absorbed MLA.
    double attentionIntensity() const { return kvBytes > 0 ? attentionFlops / kvBytes : 0.0; }
};

struct MemoryUse {
    std::int64_t weightsPerGpu = 0;
    std::int64_t kvPerGpu = 0;
    std::int64_t requiredPerGpu = 0;
    std::int64_t capacityPerGpu = 0;
    bool fits = false;
};

struct InferenceReport {
    // model
    std::int64_t params = 0;
    std::int64_t activeParams = 0;
    std::int64_t weightsBytes = 0;
    std::int64_t kvBytesPerToken = 0;
    std::int64_t kvTokensPerSequence = 0;  // min(context, sliding window)
    std::int64_t kvBytesPerSequence = 0;
    std::int64_t kvBytesTotal = 0;  // whole batch, all GPUs together
    // memory, per GPU
    MemoryUse memory;
    int gpus = 1;
    std::int64_t maxBatch = 0;  // largest batch that fits at this context (capped at kMaxBatch)
    // decode step at (batch, context)
    StepCost step;
    double tokensPerSecond = 0;
    double tokensPerSecondPerSequence = 0;
    double weightsOnlyIntensity = 0;  // the source text's view: matmul FLOPs / weight bytes (= batch)
    NumberFormat computePrecision = NumberFormat::Bf16;
    double peakTflops = 0;                  // dense peak used, before efficiency
    double ridgeFlopPerByte = 0;            // of the effective roof (with efficiencies)
    double datasheetRidgeFlopPerByte = 0;   // peak / bandwidth
    std::optional<std::int64_t> kneeBatch;  // smallest batch where decode is compute-bound at this context
    Efficiency efficiency;
    double commFraction = 0;  // share of the step spent in all-reduces
    // prompt / output
    std::optional<StepCost> prefill;
    std::optional<double> ttftSeconds;
    std::optional<double> e2eLatencySeconds;
    std::optional<double> throughputTokensPerSecond;  // batch x output / e2e latency
    QStringList notes;                                // assumptions a reader should see (fallback precision, ...)
};

class LlmModel {
public:
    // Validates everything (shapes, ranges, NaN, overflow) once; afterwards evaluations cannot fail.
    static Result<LlmModel> create(const InferenceConfig& config);

    const InferenceConfig& config() const { return m_config; }
    const ParamCounts& params() const { return m_params; }

    StepCost decodeStep(std::int64_t batch, std::int64_t context) const;
    StepCost prefill(std::int64_t batch, std::int64_t promptTokens) const;
    // Sum of decode step times for contexts first..last (inclusive), in closed form.
    double decodeSecondsSum(std::int64_t batch, std::int64_t firstContext, std::int64_t lastContext) const;
    std::optional<std::int64_t> kneeBatch(std::int64_t context) const;
    Result<MemoryUse> memory(std::int64_t batch, std::int64_t context) const;
    std::int64_t maxBatch(std::int64_t context) const;
    double expectedExpertsTouched(double tokens) const;
    std::int64_t kvTokens(std::int64_t context) const;
    std::int64_t kvBytesPerToken() const { return m_kvBytesPerToken; }
    Roof effectiveRoof() const;

    Result<InferenceReport> report() const;

private:
    struct Lines {  // a step at fixed batch is affine in the KV length e: a + b e
        double compute0, compute1, memory0, memory1, comm;
    };
    Lines decodeLines(std::int64_t batch) const;
    double weightBytesRead(double tokens) const;
    StepCost finish(double flops, double attentionFlops, double weightBytes, double kvBytes, double commSeconds,
                    double experts) const;

    InferenceConfig m_config;
    ParamCounts m_params;
    NumberFormat m_computePrecision = NumberFormat::Bf16;
    double m_peakFlops = 0;  // effective, FLOP/s
    double m_bandwidth = 0;  // effective, bytes/s
    double m_matmulFlopsPerToken = 0;
    double m_decodeAttentionFlops = 0;  // per layer per cached token per query token
    double m_prefillAttentionFlops = 0;
    std::int64_t m_kvBytesPerToken = 0;
    int m_kvSplit = 1;  // GPUs the KV cache is divided over
    QStringList m_notes;
};

inline Result<InferenceReport> evaluateInference(const InferenceConfig& config)
{
    Result<LlmModel> model = LlmModel::create(config);
    if (!model)
        return model.error();
    return model.value().report();
}

}  // namespace ridgeline
