#include "core/model/training/training_step.h"

#include "core/model/catalog/links.h"
#include "core/model/llm/engine_terms.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace ridgeline {

namespace {

// Times the stored activations' bytes cross the memory per layer per micro-batch: forward, backward and the
// gradients' writes and reads by unfused kernels (norms, activation functions, residual adds, layout copies). Fitted
// on the validation set's fit part together with kFlashFlopsPerL1Byte (tests/data/README.md); a recomputation runs
// the forward's third of them again.
constexpr double kElementwisePasses = 10.0;
constexpr double kBackwardShare = 2.0 / 3.0;     // the backward's part of forward + backward FLOPs
constexpr double kTensorParallelPerLayer = 4.0;  // all-reduces per layer per micro-batch, forward and backward
constexpr double kRecomputedPerLayer = 2.0;      // the forward's two again when full recomputation reruns it
constexpr double kCausalShare = 0.5;             // a causal fused kernel skips the blocks above the diagonal
// Of attention's counted forward and backward FLOPs (4 + 8 s^2 h per layer) the fused kernel runs: its backward
// computes QK^T again (Dao et al. 2022, algorithm 4: 4 + 10), and causally only the blocks on or below the diagonal.
constexpr double kFlashExecutedShare = kCausalShare * 14.0 / 12.0;
// A fused attention kernel streams the K and V blocks through shared memory, every warp reading them again for its
// rows, and the backward sends the score gradients through it as well: its rate is bounded by the SMs' L1/shared
// bandwidth (GpuSpec::l1Tbs) at this many FLOPs per byte read, where that is below the GEMMs' rate. Fitted on the
// validation set's fit part (llm-foundry's H100 table, its only fused-attention rows) together with
// kElementwisePasses; the A100 rows held out test it. Where the catalog has no L1 figure: the share of the dense
// peak it gives the H100 (5.5 x 32.9 TB/s of 989 TFLOP/s).
constexpr double kFlashFlopsPerL1Byte = 5.5;
constexpr double kFlashShareWithoutL1 = 0.18;
// The GEMMs' share of the dense peak by format, with which kElementwisePasses and kFlashFlopsPerL1Byte were fitted:
// the inference model's fitted compute shares of that fit (engine_terms.cpp, as fitted before Falcon's single
// all-reduce a layer). Kept here rather than read from the inference terms: the inference fit part sets bf16's share
// with eight decode and serving rows of one 8B model, so it moves whenever an unrelated inference term does, and the
// training terms fitted with it would no longer be a fit. Other formats take the inference priors.
constexpr std::array kTrainingGemmShares = {
    std::pair{NumberFormat::Bf16, 0.6775}, std::pair{NumberFormat::Fp16, 0.7824}, std::pair{NumberFormat::Fp8, 0.5415}};

double trainingGemmShare(NumberFormat format)
{
    for (const auto& [known, share] : kTrainingGemmShares)
        if (known == format)
            return share;
    return EngineTerms::priors().computeShare(format);
}

// The precision the matmuls run in: the policy's 16-bit format, or TF32 for fp32 where the card has it.
NumberFormat matmulPrecisionOf(const TrainingConfig& c, QStringList& notes)
{
    const NumberFormat wanted = c.precision == PrecisionPolicy::Fp32        ? NumberFormat::Tf32
                                : c.precision == PrecisionPolicy::Fp16Mixed ? NumberFormat::Fp16
                                                                            : NumberFormat::Bf16;
    for (NumberFormat format : {wanted, NumberFormat::Bf16, NumberFormat::Fp16, NumberFormat::Fp32})
        if (c.gpu.peakTflops(format) > 0) {
            if (format != wanted)
                notes << QStringLiteral("%1 has no %2 peak: the matmuls are timed at its %3 peak")
                             .arg(c.gpu.name, numberFormatName(wanted), numberFormatName(format));
            return format;
        }
    return wanted;
}

// The format whose GEMM share times the matmuls. fp16 and bf16 GEMMs run on the same tensor cores at the same peak
// where a card has both (A100, H100), so they reach the same share: bf16's. The inference fit's fp16 share (0.78
// against 0.68) comes from other engines' rows, not from a faster fp16 GEMM; the training validation's fit part
// (Megatron-LM 2021 in fp16, 20-34 % too fast on the fp16 share) agrees.
NumberFormat shareFormatOf(const TrainingConfig& c, NumberFormat matmul)
{
    const bool samePeak = c.gpu.peakTflops(NumberFormat::Bf16) == c.gpu.peakTflops(NumberFormat::Fp16);
    return matmul == NumberFormat::Fp16 && samePeak ? NumberFormat::Bf16 : matmul;
}

// The parameters a token multiplies by: all it uses except the input table, which is a gather (a tied table is
// the LM head and stays). A model given only by its count is taken whole, as 6 N counts it.
double matmulParamsOf(const ModelSpec& m, const ParamCounts& counts)
{
    if (m.paramsOverride > 0)
        return static_cast<double>(counts.total);
    const std::int64_t gathered = counts.positional + (m.tiedEmbeddings ? 0 : counts.embedding);
    return static_cast<double>(std::max<std::int64_t>(0, counts.activePerToken - gathered));
}

// QK^T and AV per layer per sequence, forward only: 2 s^2 a (d_qk + d_v), which is 4 s^2 h for d = h / a.
double attentionForwardFlops(const TrainingConfig& c)
{
    const ModelSpec& m = c.model;
    const double dq = m.isMla() ? m.qkNopeHeadDim + m.qkRopeHeadDim : m.headDim;
    const double dv = m.isMla() ? m.vHeadDim : m.headDim;
    const double s = static_cast<double>(c.sequence);
    return 2.0 * s * s * m.heads * (dq + dv) * m.layers;
}

// The matmuls torchtitan's op-level policy recomputes, forward FLOPs per token over all layers: k, o and the FFN's
// up projection (a GELU FFN: its down projection), the ones at even places in its order (training_memory.h).
double opRecomputedMatmulFlops(const ModelSpec& m)
{
    const double kv = m.isMla() ? m.heads : m.kvHeads;
    const double dq = m.isMla() ? m.qkNopeHeadDim + m.qkRopeHeadDim : m.headDim;
    const double dv = m.isMla() ? m.vHeadDim : m.headDim;
    const double ffn = m.isMoe() ? static_cast<double>(m.activeExperts) * m.moeFfn : m.ffn;
    return 2.0 * m.hidden * (kv * dq + m.heads * dv + ffn) * m.layers;
}

void countFlops(const TrainingConfig& c, const ParamCounts& counts, TrainingReport& r)
{
    r.matmulParams = matmulParamsOf(c.model, counts);
    const double sequences = static_cast<double>(c.globalBatch);
    r.tokensPerStep = sequences * static_cast<double>(c.sequence);
    const double matmulForward = 2.0 * r.matmulParams * r.tokensPerStep;
    const double attentionForward = attentionForwardFlops(c) * sequences;
    r.modelFlops = 3.0 * (matmulForward + attentionForward);
    r.attentionFlops = 3.0 * attentionForward;
    const bool flash = c.attention == AttentionKernel::Flash;
    switch (c.checkpointing) {
        case Checkpointing::None:
            r.recomputeFlops = 0.0;
            break;
        case Checkpointing::Selective:
            r.recomputeFlops = attentionForward;
            r.recomputedAttentionFlops = attentionForward;
            break;
        case Checkpointing::Full:
            r.recomputeFlops = matmulForward + attentionForward;
            r.recomputedAttentionFlops = attentionForward;
            break;
        case Checkpointing::SelectiveOp:
            r.recomputedAttentionFlops = flash ? 0.0 : attentionForward;
            r.recomputeFlops = opRecomputedMatmulFlops(c.model) * r.tokensPerStep + r.recomputedAttentionFlops;
            break;
    }
}

// The link a group of `size` ranks, `stride` apart, crosses: its collective's time and the link's name.
struct GroupLinks {
    int size = 1;
    int perNode = 1;  // ranks of the group in one node (== size: the group fits in one node)
    bool crossesNodes() const { return perNode < size; }
};

GroupLinks groupLinks(const TrainingConfig& c, int size, int stride)
{
    GroupLinks g;
    g.size = size;
    g.perNode = stride >= c.gpusPerNode ? 1 : std::min(size, std::max(1, c.gpusPerNode / stride));
    return g;
}

QString linkName(const TrainingConfig& c, const GroupLinks& g)
{
    if (!g.crossesNodes())
        return c.link.name;
    return g.perNode > 1 ? QStringLiteral("%1 + %2").arg(c.link.name, c.network.name) : c.network.name;
}

double allReduce(const TrainingConfig& c, const GroupLinks& g, double bytes)
{
    // At the links' datasheet rates, which the training terms were fitted with (tests/data/README.md).
    return allReduceSeconds(atDatasheetRates(c.link), atDatasheetRates(c.network), g.size, g.perNode, bytes);
}

// Tensor-parallel all-reduces and pipeline sends: on the critical path, every micro-batch.
void criticalPathCommunication(const TrainingConfig& c, TrainingReport& r, double& tensorSeconds, double& sendSeconds)
{
    const double m = static_cast<double>(r.accumulationSteps);
    const double act = activationBytes(c.precision);
    const double layerTokens = static_cast<double>(c.sequence) * static_cast<double>(c.microBatch);
    const double layerBytes = layerTokens * c.model.hidden * act;
    tensorSeconds = 0;
    if (c.tensorParallel > 1) {
        const GroupLinks g = groupLinks(c, c.tensorParallel, 1);
        const double perLayer =
            kTensorParallelPerLayer + (c.checkpointing == Checkpointing::Full ? kRecomputedPerLayer : 0.0);
        const double count = perLayer * r.memory.layersPerStage * m;
        tensorSeconds = count * allReduce(c, g, layerBytes);
        r.collectives.push_back({QStringLiteral("tensor-parallel all-reduce"), linkName(c, g), g.crossesNodes(), count,
                                 layerBytes, tensorSeconds});
    }
    sendSeconds = 0;
    if (c.pipelineParallel > 1) {
        const int stride = c.tensorParallel * r.dataParallel;
        const bool crosses = static_cast<std::int64_t>(stride) * c.pipelineParallel > c.gpusPerNode;
        const LinkSpec& link = crosses ? c.network : c.link;
        const double bytes = layerBytes / c.tensorParallel;  // sequence parallel: each rank sends its share
        const double count = 2.0 * m;                        // activations forward, their gradients backward
        sendSeconds = count * (link.latencyUs * 1e-6 + bytes / (link.gbPerSecPerDirection * 1e9));
        r.collectives.push_back({QStringLiteral("pipeline send"), link.name, crosses, count, bytes, sendSeconds});
    }
}

// Data-parallel gradient collectives (ZeRO: reduce-scatter and all-gather, counted in all-reduce volumes, ZeRO paper
// section 7): plain and ZeRO-1 once per step under the last micro-batch's backward; ZeRO-2 reduce-scatters every
// micro-batch; ZeRO-3 also gathers the parameters for each forward and backward (1.5 x the all-reduce volume).
double dataParallelSeconds(const TrainingConfig& c, TrainingReport& r, double& window)
{
    const double m = static_cast<double>(r.accumulationSteps);
    const double backward = kBackwardShare * (r.time.compute() + r.time.recompute);
    window = backward / m;
    if (r.dataParallel <= 1)
        return 0.0;
    const GroupLinks g = groupLinks(c, r.dataParallel, c.tensorParallel);
    const double bytes = r.memory.paramsPerGpu * stateBytesPerParam(c.precision, c.optimizer).gradients;
    double allReduces = 1.0;
    QString what = QStringLiteral("data-parallel gradient all-reduce");
    if (c.zeroStage == 2) {
        allReduces = 0.5 * m + 0.5;
        window = backward;
        what = QStringLiteral("ZeRO-2 reduce-scatter and all-gather");
    } else if (c.zeroStage == 3) {
        allReduces = (1.5 + (c.checkpointing == Checkpointing::Full ? 0.5 : 0.0)) * m;
        window = r.time.compute() + r.time.recompute;
        what = QStringLiteral("ZeRO-3 all-gathers and reduce-scatter");
    } else if (c.zeroStage == 1) {
        what = QStringLiteral("ZeRO-1 reduce-scatter and all-gather");
    }
    const double seconds = allReduces * allReduce(c, g, bytes);
    r.collectives.push_back({what, linkName(c, g), g.crossesNodes(), allReduces, bytes, seconds});
    return seconds;
}

// The loss's traffic over one micro-batch's logits on this GPU: the logits, their fp32 copy, the log-probabilities,
// the log-probabilities' gradient, the fp32 logits' gradient and its 16-bit copy, each written once and read once.
double lossBytes(const TrainingConfig& c)
{
    const double act = activationBytes(c.precision);
    const double tokens = static_cast<double>(c.sequence) * static_cast<double>(c.microBatch) / c.tensorParallel;
    return tokens * c.model.vocab * 2.0 * (2.0 * act + 4.0 * 4.0);
}

double matmulPeak(const TrainingConfig& c)
{
    QStringList ignored;
    return c.gpu.peakTflops(matmulPrecisionOf(c, ignored));
}

void timeStep(const TrainingConfig& c, TrainingReport& r)
{
    const double gpus = c.gpus();
    const double m = static_cast<double>(r.accumulationSteps);
    r.matmulPrecision = matmulPrecisionOf(c, r.notes);
    r.peakTflops = c.gpu.peakTflops(r.matmulPrecision);
    r.matmulShare = trainingGemmShare(shareFormatOf(c, r.matmulPrecision));
    const double rate = r.peakTflops * 1e12 * r.matmulShare;
    const double bandwidth = c.gpu.sustainedBandwidthTbs() * 1e12;

    const LayerActivations layer = layerActivations(c);
    const double layerRuns = static_cast<double>(r.memory.layersPerStage) * m;
    const StateBytesPerParam state = stateBytesPerParam(c.precision, c.optimizer);
    const double updated = r.memory.paramsPerGpu / (c.zeroStage >= 1 ? r.dataParallel : 1.0);
    const double optimizerBytes = updated * (2.0 * (state.weights + state.optimizer) + state.gradients);
    const double attentionRate = c.attention != AttentionKernel::Flash ? rate
                                 : c.gpu.l1Tbs > 0 ? std::min(rate, c.gpu.l1Tbs * 1e12 * kFlashFlopsPerL1Byte)
                                                   : std::min(rate, r.peakTflops * 1e12 * kFlashShareWithoutL1);
    const double executed = c.attention == AttentionKernel::Flash ? kFlashExecutedShare : 1.0;
    const double recomputeExecuted = c.attention == AttentionKernel::Flash ? kCausalShare : 1.0;
    r.time.matmul =
        (r.modelFlops - r.attentionFlops) / gpus / rate + executed * r.attentionFlops / gpus / attentionRate;
    r.time.memoryBound =
        (kElementwisePasses * layer.total() * layerRuns + lossBytes(c) * m + optimizerBytes) / bandwidth;
    const double recomputedBytes = checkpointedLayer(c, layer).recomputed;
    r.time.recompute = (r.recomputeFlops - r.recomputedAttentionFlops) / gpus / rate +
                       recomputeExecuted * r.recomputedAttentionFlops / gpus / attentionRate +
                       kElementwisePasses / 3.0 * recomputedBytes * layerRuns / bandwidth;

    double tensorSeconds = 0, sendSeconds = 0, window = 0;
    criticalPathCommunication(c, r, tensorSeconds, sendSeconds);
    r.dataParallelSeconds = dataParallelSeconds(c, r, window);
    const double dataExposed = std::max(0.0, r.dataParallelSeconds - c.dataParallelOverlap * window);
    r.time.communication = tensorSeconds + sendSeconds + dataExposed;

    const double p = c.pipelineParallel;
    r.bubbleFraction = (p - 1.0) / (m + p - 1.0);
    const double perMicroBatch = (r.time.compute() + r.time.recompute + tensorSeconds + sendSeconds) / m;
    r.time.bubble = (p - 1.0) * perMicroBatch;
    r.tokensPerSecond = r.tokensPerStep / r.time.total();
    r.mfu = r.modelFlops / gpus / (r.time.total() * r.peakTflops * 1e12);
}

}  // namespace

Result<TrainingReport> evaluateTraining(const TrainingConfig& config)
{
    if (std::optional<Error> error = checkTrainingConfig(config))
        return *error;
    const ParamCounts counts = countParams(config.model).value();
    TrainingReport r;
    r.params = counts.total;
    r.dataParallel = config.dataParallel();
    r.accumulationSteps = config.accumulationSteps();
    r.memory = trainingMemory(config, counts);
    if (!(matmulPeak(config) > 0))
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("gpu %1 has no dense peak to time the matmuls at").arg(config.gpu.name));
    countFlops(config, counts, r);
    timeStep(config, r);
    if (config.zeroStage > 0 && r.dataParallel == 1)
        r.notes << QStringLiteral("ZeRO-%1 with one data-parallel rank shards nothing: every state stays whole")
                       .arg(config.zeroStage);
    if (config.checkpointing == Checkpointing::Selective && config.attention == AttentionKernel::Flash)
        r.notes << QStringLiteral(
            "selective checkpointing recomputes only attention's scores, which flash attention "
            "never stores: it saves nothing here; full or selective-op keep less");
    if (config.tensorParallel > 1)
        r.notes << QStringLiteral("tensor parallel with sequence parallelism: activations divided by tp");
    if (config.model.isMoe())
        r.notes << QStringLiteral("mixture of experts: no expert parallelism; every GPU holds all experts");
    return r;
}

}  // namespace ridgeline
