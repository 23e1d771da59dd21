#pragma once
// What a person asks of the LLM model, before any catalog look-up: a model and a GPU by catalog id or by
// their own numbers, precisions, batch, context, GPUs and link. The command line, the batching panel and the
// talk's scenes all fill one of these and call resolveInference(), so the same question gets the same
// defaults and the same answer everywhere.

#include "core/model/catalog/catalog.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/engine_profile.h"
#include "core/model/llm/llm_model.h"
#include "core/result.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace ridgeline {

// The defaults every front end shares: Llama 2 7B on an H100 at 8,192 tokens of context (the source text's
// KV-cache example: 512 KiB per token, 4 GiB per sequence).
inline const QString kDefaultModelId = QStringLiteral("llama-2-7b");
inline const QString kDefaultGpuId = QStringLiteral("h100-sxm");
inline constexpr std::int64_t kDefaultContext = 8192;
// A custom GPU's memory when none is given: an 80 GiB card, like the source text's 300 TFLOP/s, 2 TB/s GPU.
inline constexpr double kDefaultCustomMemoryGib = 80.0;

struct InferenceRequest {
    // The model: a catalog id, or kCustomId with either a full shape (customShape) or a parameter count
    // (a Llama-2-like model of that size, modelFromParamCount).
    QString modelId = kDefaultModelId;
    double customParams = 7e9;
    std::optional<ModelSpec> customShape;
    // The GPU: a catalog id, or kCustomId with one dense peak for every precision (the source text's GPU).
    QString gpuId = kDefaultGpuId;
    double customPeakTflops = 300.0;
    double customBandwidthTbs = 2.0;
    double customMemoryGib = kDefaultCustomMemoryGib;
    NumberFormat weights = NumberFormat::Bf16;
    NumberFormat kv = NumberFormat::Bf16;
    std::int64_t batch = 1;
    std::int64_t context = kDefaultContext;
    std::int64_t prompt = 0;  // > 0: prefill and time to first token
    std::int64_t output = 0;  // > 0 (with a prompt): end-to-end latency of a static batch
    int gpus = 1;             // tensor-parallel degree
    QString linkId;           // the link between the GPUs; empty: the card's own (defaultLinkId)
    Efficiency efficiency;    // Efficiency::ideal() is the "ideal datasheet" switch
    // What engines reach and spend (engine_terms.h): set, these terms (setEngineChoice() sets the front ends'
    // default, EngineTerms::measured(); a calibration gives its own); empty, the plain roofline of `efficiency`
    // (what a default-constructed request, e.g. a talk scene, asks for).
    std::optional<EngineTerms> terms;
    // A serving engine's profile, NAME or NAME@VERSION (engine_profile.h): set, its terms for the resolved card's
    // memory family replace `terms` (so that another card gets that engine's terms for its memory), and its
    // collectives run at the shares of the links they reach; empty, `terms`, with collectives at datasheet rates.
    QString engine;
    // Terms set on top of the engine's or `terms`, in order (the command line's --term NAME=VALUE).
    std::vector<std::pair<EngineTerm, double>> termEdits;
    // Per-module formats, experts over GPUs, nodes, speculative decoding.
    std::optional<NumberFormat> attentionWeights;  // empty: the weights' format
    std::optional<NumberFormat> headWeights;       // empty: InferenceConfig::headFormat()'s rule
    int expertParallel = 1;
    // GPUs per node: -1, the card's interconnect domain when it names a network between nodes (8 on HGX boards,
    // 72 in an NVL72 rack); 0, all in one node; else this many (it divides gpus).
    int gpusPerNode = -1;
    QString networkLinkId;  // between nodes; empty: the card's own network link
    // The all-reduce kernels inside a node; empty: the engine's own over the link (EngineProfile::allReduceKernels),
    // NCCL without an engine.
    std::optional<AllReduceKernels> allReduce;
    SpeculativeDecoding speculative;
    DecodeAttention decodeAttention = DecodeAttention::Grouped;  // the engine's decode attention kernel
    // Whether it splits a sequence's KV over thread blocks (EngineSelection::splitsDecodeAttention, which `engine`
    // sets when given; --engine's version sets it with the terms).
    bool decodeSplitsKv = true;

    bool ideal() const { return terms ? terms->isIdeal() : efficiency.bandwidth == 1.0 && efficiency.compute == 1.0; }
};

// What the model charges beyond the datasheet, as the command line and the batching tab offer it. One home for the
// default, so that `ridgeline model` and the window give the same answer to the same question.
enum class EngineChoice {
    Measured,  // EngineTerms::measured(): shares and fixed times fitted on published measurements (the default)
    Plain,     // the plain roofline: one bandwidth and one compute share of the datasheet, no fixed times (--plain)
    Ideal,     // the datasheet: every share 1, no fixed times (--ideal)
};
inline constexpr EngineChoice kDefaultEngineChoice = EngineChoice::Measured;

// Sets the request's terms (and efficiency) for the choice and clears its engine; Plain uses `plainShares` (default
// 0.75 and 0.6).
void setEngineChoice(InferenceRequest& request, EngineChoice choice, const Efficiency& plainShares = Efficiency{});
// The choice the request's terms are; nullopt for terms of their own (a calibration's fit, --term) and for an
// engine profile (the generic one included: it names itself).
std::optional<EngineChoice> engineChoiceOf(const InferenceRequest& request);

// The link a card's GPUs talk over when none is named: its own GPU-to-GPU link (NVLink, Infinity Fabric),
// else its host link (PCIe), else PCIe 4.
QString defaultLinkId(const GpuSpec& gpu);

// The link id the request resolves to: its own, or its GPU's default (empty when the GPU is unknown).
QString effectiveLinkId(const InferenceRequest& request);
// The engine's own all-reduce kernels over the request's link at its version (EngineSelection::allReduceKernels),
// unless the request names them.
AllReduceKernels engineAllReduce(const InferenceRequest& request, const EngineSelection& engine);

// The request's model alone: a catalog look-up, the custom shape or the model of customParams parameters.
Result<ModelSpec> resolveModelSpec(const InferenceRequest& request);

// Catalog look-ups, custom model and GPU, link: the model's whole input, or the first thing that is wrong.
// The link is looked up whenever one is named, and the card's own is used when gpus > 1 and none is; beyond
// one node the network is looked up the same way.
Result<InferenceConfig> resolveInference(const InferenceRequest& request);

}  // namespace ridgeline
