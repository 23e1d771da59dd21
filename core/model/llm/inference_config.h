#pragma once
// What the LLM model is asked (llm_model.h): the model, the GPU, the formats, batch and lengths, the parallel layout
// and its links, speculative decoding and the engine's terms, with the bounds every front end checks against
// (inference_config_check.h). Plain data, so the check and the model depend on it and not on each other.

#include "core/model/catalog/catalog.h"
#include "core/model/catalog/links.h"
#include "core/model/llm/decode_attention.h"
#include "core/model/llm/engine_terms.h"
#include "core/model/number_format.h"

#include <cstdint>
#include <optional>

namespace ridgeline {

inline constexpr std::int64_t kMaxBatch = 65536;
inline constexpr std::int64_t kMaxContext = 10'000'000;
inline constexpr int kMaxTensorParallel = 1024;
inline constexpr int kMaxSpeculativeTokens = 64;

// Speculative decoding: a draft proposes `tokens` tokens, the model checks them (and makes one of its own) in one
// pass over batch x (tokens + 1) positions. `acceptance` is the mean number of tokens each sequence gains per
// step, the accepted drafts plus that one: between 1 and tokens + 1. The draft is counted as one layer of the
// target model and its LM head per proposed token (a multi-token-prediction head, EAGLE or MEDUSA-like).
struct SpeculativeDecoding {
    int tokens = 0;  // 0 = off
    double acceptance = 1.0;
    bool enabled() const { return tokens > 0; }
};

struct InferenceConfig {
    ModelSpec model;
    GpuSpec gpu;
    NumberFormat weights = NumberFormat::Bf16;     // FFN and expert weights; attention too unless given below
    std::optional<NumberFormat> attentionWeights;  // q, k, v, o projections (MLA: its low-rank projections)
    std::optional<NumberFormat> headWeights;       // embeddings, LM head, router, norms; empty: see headFormat()
    NumberFormat kv = NumberFormat::Bf16;
    std::int64_t batch = 1;    // sequences decoded together (under load: requests in flight)
    std::int64_t context = 1;  // tokens each sequence attends to in this step (its KV length)
    std::int64_t prompt = 0;   // > 0: prefill of this many tokens per sequence (TTFT)
    std::int64_t output = 0;   // > 0 (needs a prompt): tokens generated after it (static batch and serving)
    int tensorParallel = 1;
    int expertParallel = 1;  // MoE: experts spread over this many of the tensor-parallel GPUs (divides both)
    LinkSpec link;           // between GPUs in a node; required when tensorParallel > 1
    int gpusPerNode = 0;     // 0 or >= tensorParallel: one node; else it divides tensorParallel
    LinkSpec network;        // between nodes; required when tensorParallel > gpusPerNode > 0
    AllReduceKernels allReduce = AllReduceKernels::Nccl;  // inside a node (links.h)
    SpeculativeDecoding speculative;
    DecodeAttention decodeAttention = DecodeAttention::Grouped;
    // Whether decode attention splits a sequence's KV over thread blocks (EngineProfile::splitsDecodeAttention);
    // false: batch x heads blocks walk whole contexts, and fewer than the GPU's SMs read the cache at that share.
    bool decodeSplitsKv = true;
    EngineTerms efficiency;  // shares of datasheet peaks and fixed times; the plain roofline unless set

    // Embeddings and LM head stay 16-bit when the rest is quantised below that, as ModelOpt, Quark and
    // llm-compressor checkpoints keep them; unless set explicitly.
    NumberFormat headFormat() const;
    NumberFormat attentionFormat() const { return attentionWeights.value_or(weights); }
};

}  // namespace ridgeline
