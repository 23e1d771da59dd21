#pragma once
// A transformer's shapes (ModelSpec, as the model catalog states them) and the parameter counts they imply,
// exact in int64: the model catalog's checks, the LLM model's weights and FLOPs, and models given only by a count.

#include "core/result.h"

#include <QString>

#include <cstdint>

namespace ridgeline {

enum class NormKind { Rms, Layer };

struct ModelSpec {
    QString id;
    QString name;
    QString source;
    int layers = 0;
    int hidden = 0;
    int heads = 0;    // query heads
    int kvHeads = 0;  // key/value heads (== heads for MHA, fewer for GQA)
    int headDim = 0;
    int ffn = 0;  // FFN inner size of dense layers
    int vocab = 0;
    bool tiedEmbeddings = false;
    bool gatedFfn = true;     // SwiGLU: three matrices; GELU MLP: two
    bool qkvBias = false;     // Qwen2
    bool linearBias = false;  // GPT-3: every linear layer and the MLP have biases
    NormKind norm = NormKind::Rms;
    int learnedPositions = 0;  // GPT-3's learned position table (rows)
    int slidingWindow = 0;     // 0 = full attention; else the KV cache keeps only this many tokens
    int maxContext = 0;        // trained context, informational
    // Tensor-parallel all-reduces a layer as engines implement the architecture: after attention and after the
    // MLP; 1 where attention and the MLP run side by side from one input and engines add their outputs before one
    // (Falcon 40B/180B in TensorRT-LLM, vLLM and TGI).
    int allReducesPerLayer = 2;
    // Mixture of experts (0 = dense model)
    int experts = 0;
    int activeExperts = 0;
    int sharedExperts = 0;    // experts every token uses (DeepSeek-V3: 1)
    int moeFfn = 0;           // inner size of one routed expert
    int sharedExpertFfn = 0;  // inner size of one shared expert; 0 = moeFfn (Qwen2-MoE: 5632 against 1408)
    int denseLayers = 0;      // first layers with a dense FFN (DeepSeek-V3: 3)
    bool routerBias = false;  // DeepSeek-V3's e_score_correction_bias
    // Multi-head latent attention (DeepSeek); kvLoraRank > 0 switches it on
    int qLoraRank = 0;
    int kvLoraRank = 0;
    int qkNopeHeadDim = 0;
    int qkRopeHeadDim = 0;
    int vHeadDim = 0;
    // A model given only by its parameter count: weights and FLOPs use this count, KV the derived shapes.
    std::int64_t paramsOverride = 0;

    bool isMoe() const { return experts > 0; }
    bool isMla() const { return kvLoraRank > 0; }
    int moeLayers() const { return isMoe() ? layers - denseLayers : 0; }
};

// Parameter counts from the shapes, exact in int64.
struct ParamCounts {
    std::int64_t total = 0;
    std::int64_t embedding = 0;  // input token table (also the LM head when tied)
    std::int64_t lmHead = 0;     // 0 when tied
    std::int64_t positional = 0;
    std::int64_t perExpert = 0;       // one routed expert in one layer
    std::int64_t routedExperts = 0;   // all routed experts of all layers
    std::int64_t activePerToken = 0;  // total minus the routed experts a token does not use
    // The rest of the total by module, all layers together (total = embedding + lmHead + positional + attention +
    // denseFfn + sharedExperts + routedExperts + router + norms), so that each can be stored in its own format.
    std::int64_t attention = 0;  // q, k, v, o projections (MLA: the low-rank down and up projections), biases
    std::int64_t denseFfn = 0;   // FFN of the dense layers
    std::int64_t sharedExperts = 0;
    std::int64_t router = 0;  // expert gates (and DeepSeek's routing bias)
    std::int64_t norms = 0;
};

// Checks the shapes (positive, heads divisible, params <= 1e13) and counts. Errors name the field.
Result<ParamCounts> countParams(const ModelSpec& model);

// A Llama-2-like model of roughly `params` parameters: MHA, head dim 128, 12 h^2 per layer, h = 128 L.
Result<ModelSpec> modelFromParamCount(double params);

}  // namespace ridgeline
