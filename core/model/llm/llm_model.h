#pragma once
// The analytical LLM inference model: memory, decode step, prefill, serving under load, tensor and expert
// parallelism, mixture of experts and speculative decoding on a GPU, as a roofline of FLOPs and bytes per kernel
// plus what engines spend beyond it (core/model/llm/engine_terms.h). Qt Core only; one evaluation is microseconds, so a
// panel can call it on every slider step. The CLI (`ridgeline model`) and the GUI call the same functions.
//
// What is counted (and what is not):
// - Weights are read once per forward pass, whatever the batch; for MoE only the experts some token in the pass
//   routes to (expected distinct experts E (1 - (1 - k/E)^tokens), uniform routing). The input embedding table is
//   a gather of one row per token; a tied table is read in full as the LM head. Each module group (attention,
//   dense FFN and shared experts, routed experts, embeddings and LM head) is stored in its own format with its
//   block scales (number_format.h).
// - Each sequence reads its own KV cache: min(context, sliding window) tokens x KV bytes per token.
// - FLOPs: 2 per active weight per token (matmuls, LM head included) plus attention: 4 x query heads x head dim
//   per cached token per layer (QK^T and AV). MLA decode uses the absorbed form (scores over kv_lora_rank + rope
//   dims, values over kv_lora_rank); MLA prefill the decompressed form.
// - Each kernel is its own roofline: a GEMM group takes max(weight bytes / (bandwidth x its format's share),
//   FLOPs / (peak of its precision x that precision's share)) plus the part of the smaller of the two that the
//   engine does not overlap (EngineTerms::overlap); attention the same over KV bytes (the KV format's share) and
//   its FLOPs (at the bf16 peak); a per-query-head decode attention kernel (DecodeAttention) waits on the larger of
//   the KV stream and its repeated reads of each KV head. Bandwidth is the datasheet figure or, for the measured terms,
//   what the card sustains in STREAM. A forward pass is the sum of its kernels, the tensor-parallel all-reduces (two
//   per layer of tokens x hidden bf16 activations, not overlapped) and the engine's fixed times: per layer, per pass,
//   per collective, per decoded sequence per layer, and once per prefill. Memory needed = weights + KV cache (no
//   activation workspace, no fragmentation).

#include "core/model/catalog/links.h"
#include "core/model/llm/decode_attention.h"
#include "core/model/llm/engine_terms.h"
#include "core/model/llm/inference_config.h"
#include "core/model/llm/step_operators.h"
#include "core/model/number_format.h"
#include "core/model/roofline.h"
#include "core/result.h"

#include <QStringList>

#include <cstdint>
#include <optional>

namespace ridgeline {

// Where one forward pass's time goes; the parts sum to its duration. Each kernel's time is charged to what
// bounds it: a memory-bound GEMM to weights, memory-bound attention to KV, a compute-bound kernel to compute.
struct StepBreakdown {
    double weights = 0;        // GEMMs waiting on the weight stream
    double kv = 0;             // attention waiting on the KV cache
    double compute = 0;        // GEMMs and attention waiting on the tensor cores
    double communication = 0;  // tensor-parallel all-reduces (link latency and bytes)
    double overhead = 0;       // the engine's fixed times per layer, per pass and per collective
    double total() const { return weights + kv + compute + communication + overhead; }
    StepBreakdown& operator+=(const StepBreakdown& other);
    StepBreakdown scaled(double factor) const;
};

// One decode step (with speculative decoding: draft plus verify), a prefill or a mixed serving step, per GPU when
// parallel.
struct StepCost {
    double flops = 0;  // per GPU
    double bytes = 0;  // per GPU: weights + KV
    double weightBytes = 0;
    double kvBytes = 0;
    double computeSeconds = 0;  // all FLOPs at the effective peaks, as if nothing else ran
    double memorySeconds = 0;   // all bytes at the effective bandwidths, as if nothing else ran
    double commSeconds = 0;     // tensor-parallel all-reduces
    double overheadSeconds = 0;
    double seconds = 0;           // the sum of the kernels' rooflines + comm + overhead = breakdown.total()
    double intensity = 0;         // flops / bytes, FLOP/byte
    Bound bound = Bound::Memory;  // what the larger part of the kernel time waits on
    StepBreakdown breakdown;
    double tokens = 0;          // positions through the GEMMs (decode: batch, x (draft tokens + 1) when speculating)
    double expertsTouched = 0;  // per MoE layer (0 for dense models)
    double attentionFlops = 0;  // per GPU: the part of `flops` spent on QK^T and AV over the cache
    StepOperators operators;    // each kernel, all-reduce and fixed time; their seconds sum to `seconds`
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

// Continuous batching at `batch` requests in flight, each with `prompt` tokens in and `output` out: every step
// decodes each running request and folds in the prefill of the requests that replace finished ones (prefill
// tokens per step = batch x tokens per step x prompt / (output - 1)), so under load a step is longer than a pure
// decode step and the inter-token latency with it.
struct ServingEstimate {
    double prefillTokensPerStep = 0;
    double meanContext = 0;            // KV length of a running request, averaged over its life
    StepCost step;                     // the mixed step
    double tpotSeconds = 0;            // mean time per output token of one request (inter-token latency)
    double outputTokensPerSecond = 0;  // all requests together
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
    int nodes = 1;
    std::int64_t maxBatch = 0;  // largest batch that fits at this context (capped at kMaxBatch)
    // decode step at (batch, context)
    StepCost step;
    double tokensPerStep = 1;  // per sequence: the speculative acceptance, else 1
    double tokensPerSecond = 0;
    double tokensPerSecondPerSequence = 0;
    double weightsOnlyIntensity = 0;  // the source text's view: matmul FLOPs / weight bytes (= batch)
    NumberFormat computePrecision = NumberFormat::Bf16;    // of the FFN and expert GEMMs
    NumberFormat attentionPrecision = NumberFormat::Bf16;  // of the attention projections
    NumberFormat headPrecision = NumberFormat::Bf16;       // storage of embeddings and LM head
    double peakTflops = 0;                                 // dense peak used, before efficiency
    double ridgeFlopPerByte = 0;                           // of the effective roof (with efficiencies)
    double datasheetRidgeFlopPerByte = 0;                  // peak / bandwidth
    std::optional<std::int64_t> kneeBatch;  // smallest batch where decode is compute-bound at this context
    Efficiency efficiency;                  // the shares this configuration's weights and GEMMs run at
    EngineTerms terms;                      // all of them, and the fixed times
    double commFraction = 0;                // share of the step spent in all-reduces
    // prompt / output
    std::optional<StepCost> prefill;
    std::optional<double> ttftSeconds;
    std::optional<double> e2eLatencySeconds;
    std::optional<double> throughputTokensPerSecond;  // batch x output / e2e latency
    std::optional<double> meanDecodeStepSeconds;      // static batch: mean time per output token after the first
    std::optional<ServingEstimate> serving;           // output >= 2: the same lengths under continuous batching
    QStringList notes;                                // assumptions a reader should see (fallback precision, ...)
};

class LlmModel {
public:
    // Validates everything (shapes, ranges, NaN, overflow) once; afterwards evaluations cannot fail.
    static Result<LlmModel> create(const InferenceConfig& config);

    const InferenceConfig& config() const { return m_config; }
    const ParamCounts& params() const { return m_params; }

    // A decode step of `batch` sequences at KV length `context` (draft and verify when speculating).
    StepCost decodeStep(std::int64_t batch, std::int64_t context) const;
    StepCost prefill(std::int64_t batch, std::int64_t promptTokens) const;
    // Sum of the decode steps that take a static batch from KV length firstContext to lastContext (inclusive), in
    // closed form: one step per context, or one per `acceptance` contexts when speculating.
    double decodeSecondsSum(std::int64_t batch, std::int64_t firstContext, std::int64_t lastContext) const;
    ServingEstimate serving(std::int64_t concurrency, std::int64_t promptTokens, std::int64_t outputTokens) const;
    // One continuous-batching step: `decodeBatch` sequences decoding at KV length `context` with `prefillTokens`
    // tokens of prompts `promptTokens` long prefilled in the same pass (whole prompts or a chunk of one).
    StepCost mixedStep(double decodeBatch, double context, double prefillTokens, double promptTokens) const;
    std::optional<std::int64_t> kneeBatch(std::int64_t context) const;
    Result<MemoryUse> memory(std::int64_t batch, std::int64_t context) const;
    std::int64_t maxBatch(std::int64_t context) const;
    double expectedExpertsTouched(double tokens) const;
    std::int64_t kvTokens(std::int64_t context) const;
    std::int64_t kvBytesPerToken() const { return m_kvBytesPerToken; }
    std::int64_t weightsBytes() const { return m_weightsBytes; }
    Roof effectiveRoof() const;  // of the FFN GEMMs: their precision's peak and their format's bandwidth

    Result<InferenceReport> report() const;

private:
    // One module group's GEMMs: its weights, its FLOPs per token, the precision and shares it runs at.
    struct Group {
        double params = 0;  // streamed every pass (routed experts: all of them; see weightBytes)
        double flopsPerToken = 0;
        double bytesPerParam = 0;
        double bandwidth = 0;  // effective, bytes/s
        double peak = 0;       // effective, FLOP/s
        bool routed = false;   // the routed experts: only the touched ones are read
        QString name;          // as an operator of the step
    };
    // What one forward pass does, before it becomes time.
    struct Pass {
        double tokens = 0;         // positions through the GEMMs
        double decodePairs = 0;    // (query, cached key) pairs per layer over the batch, absorbed MLA form
        double prefillPairs = 0;   // causal (query, key) pairs per layer, decompressed form
        double kvReadTokens = 0;   // cached positions read per layer
        double kvWriteTokens = 0;  // new positions written per layer
        double sequences = 0;      // sequences decoded (each pays the engine's per-sequence time)
        double layers = 0;         // layers run (the draft runs one)
    };
    // The steps of create() after the configuration was checked (core/model/llm/inference_config_check.h).
    NumberFormat multiplyIn(NumberFormat storage);  // the precision a format multiplies in; notes a 16-bit fallback
    double baseBandwidth() const;
    Group weightGroup(double params, double flopsPerToken, NumberFormat storage);
    void setUpWeightGroups();
    std::optional<Error> countWeightBytes();
    void setUpAttention();
    std::optional<Error> countKvBytes();
    void noteLayoutAssumptions();

    StepCost run(const Pass& pass) const;
    double decodeBlockShare(double sequences) const;  // share of the KV bandwidth decode attention can draw
    Pass decodePass(double batch, double context) const;
    Pass draftPass(double batch, double context) const;
    double expertBytesPerGpu(double tokens) const;

    InferenceConfig m_config;
    ParamCounts m_params;
    NumberFormat m_computePrecision = NumberFormat::Bf16;
    NumberFormat m_attentionPrecision = NumberFormat::Bf16;
    Group m_attention, m_dense, m_experts, m_head;
    double m_gatheredBytesPerToken = 0;  // embedding (and position) rows, untied tables only
    double m_gatherRows = 0;             // the table's rows: a gather never reads more than the table
    double m_attentionPeak = 0;          // effective, FLOP/s (bf16)
    double m_kvBandwidth = 0;            // effective, bytes/s
    double m_headReadsPerKvByte = 1;     // per-query-head decode attention: query heads per KV head on a GPU
    double m_decodeAttentionFlops = 0;   // per layer per cached token per query token
    double m_prefillAttentionFlops = 0;
    std::int64_t m_kvBytesPerToken = 0;
    std::int64_t m_weightsBytes = 0;
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
