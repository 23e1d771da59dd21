#pragma once
// The GPU and model catalogs (resources/gpus.json, resources/models.json, compiled in as :/catalogs/...).
// Plain value structs; the loader checks format and schema_version and refuses what it does not know.

#include "core/model/number_format.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringView>

#include <array>
#include <cstdint>
#include <vector>

namespace ridgeline {

// STREAM triad over datasheet bandwidth of the HBM cards measured alike (A100 80GB 1.70 / 2.039, H100 SXM
// 2.97 / 3.35, H200 4.15 / 4.8 TB/s; samuel-bohman/AI-benchmarking-guide, Azure_Results): the share a card without a
// published measurement is taken to sustain.
inline constexpr double kTypicalSustainedShare = 0.862;

struct GpuSpec {
    QString id;
    QString name;
    QString vendor;
    QString memoryType;               // "HBM3", "GDDR6X"
    double memoryGib = 0;             // capacity in GiB (2^30 bytes): vendors' "80GB" of HBM is 80 GiB
    QString memoryDatasheet;          // the capacity as the datasheet writes it
    double bandwidthTbs = 0;          // TB/s, 1e12 bytes/s, as the datasheet writes it
    double measuredBandwidthTbs = 0;  // STREAM triad as published for this card (0 = none found), TB/s
    QString measuredBandwidthSource;
    std::array<double, kAllNumberFormats.size()> denseTflops{};  // by NumberFormat; 0 = not supported. Never sparse.
    QString interconnect;                                        // link id for GPU-to-GPU ("nvlink4"), empty when none
    double interconnectGbPerDirection = 0;
    int scaleUpGpus = 0;  // GPUs one interconnect domain joins (8 in an HGX node, 72 in an NVL72 rack); 0 = none
    QString networkLink;  // link id between nodes, one NIC per GPU ("infiniband-ndr"); empty when not stated
    QString hostLink;     // "pcie5"
    double tdpWatts = 0;
    QString source;

    std::int64_t memoryBytes() const;  // memoryGib x 2^30
    // What streaming kernels can reach: the measured STREAM triad, or the datasheet figure x kTypicalSustainedShare.
    double sustainedBandwidthTbs() const;
    // The dense tensor peak a stored format multiplies at (mxfp4 at the fp4 rate); 0 when the card has none.
    double peakTflops(NumberFormat precision) const { return denseTflops[formatIndex(tensorPrecisionOf(precision))]; }
    void setPeakTflops(NumberFormat precision, double tflops)
    {
        denseTflops[static_cast<std::size_t>(precision)] = tflops;
    }
};

// A user's own card: one peak for every precision.
Result<GpuSpec> customGpu(double peakTflops, double bandwidthTbs, double memoryGib);

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

// Catalog files.
Result<std::vector<GpuSpec>> parseGpuCatalog(const QByteArray& json);
Result<std::vector<ModelSpec>> parseModelCatalog(const QByteArray& json);

// The built-in catalogs, loaded once from the compiled-in resources.
const Result<std::vector<GpuSpec>>& builtinGpus();
const Result<std::vector<ModelSpec>>& builtinModels();
Result<GpuSpec> findGpu(QStringView id);
Result<ModelSpec> findModel(QStringView id);

}  // namespace ridgeline
