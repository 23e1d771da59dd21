#include "core/model/training/training_memory.h"

#include <algorithm>
#include <vector>

namespace ridgeline {

namespace {

constexpr double kMaskBytes = 1.0;         // a dropout mask keeps one byte per value (Korthikanti et al. 2022)
constexpr double kSoftmaxStatBytes = 4.0;  // flash attention's log-sum-exp, fp32, per row and head
// PyTorch's cross-entropy (log-softmax, then the negative log-likelihood) runs in fp32: at the start of the backward
// it holds the log-probabilities, their gradient and the logits' gradient, three fp32 tensors of the logits' shape.
constexpr double kLossBytes = 3.0 * 4.0;
constexpr double kGatheredLayers = 2.0;  // ZeRO-3 holds the layer it runs and prefetches the next

bool isMixed(PrecisionPolicy precision)
{
    return precision != PrecisionPolicy::Fp32;
}

// The FFN width a token's activations run through: the dense FFN, or the experts it is routed to and the shared
// ones (every layer counted as a MoE layer).
double ffnWidth(const ModelSpec& m)
{
    if (!m.isMoe())
        return m.ffn;
    const double shared = m.sharedExpertFfn > 0 ? m.sharedExpertFfn : m.moeFfn;
    return static_cast<double>(m.activeExperts) * m.moeFfn + static_cast<double>(m.sharedExperts) * shared;
}

}  // namespace

StateBytesPerParam stateBytesPerParam(PrecisionPolicy precision, Optimizer optimizer)
{
    const double moments = optimizer == Optimizer::AdamW ? 8.0 : optimizer == Optimizer::Sgd ? 4.0 : 2.0;
    if (isMixed(precision))
        return {2.0, 2.0, 4.0 + moments};  // + the fp32 master copy the optimizer updates
    return {4.0, 4.0, moments};
}

double activationBytes(PrecisionPolicy precision)
{
    return isMixed(precision) ? 2.0 : 4.0;
}

LayerActivations layerActivations(const TrainingConfig& config)
{
    const ModelSpec& m = config.model;
    const double act = activationBytes(config.precision);
    const double h = m.hidden, a = m.heads;
    const double kv = m.isMla() ? m.heads : m.kvHeads;
    const double dq = m.isMla() ? m.qkNopeHeadDim + m.qkRopeHeadDim : m.headDim;
    const double dv = m.isMla() ? m.vHeadDim : m.headDim;
    const double f = ffnWidth(m);
    const double ffnTensors = m.gatedFfn ? 3.0 : 2.0;  // GELU: its input and output; SwiGLU: gate, up, product
    const double s = static_cast<double>(config.sequence);
    const double tokens = s * static_cast<double>(config.microBatch) / config.tensorParallel;
    const bool flash = config.attention == AttentionKernel::Flash;
    // Per token: the attention block keeps the QKV input, Q, K, V, the output projection's input and a dropout mask
    // (11 h in the paper); the MLP its input, the FFN's intermediates and a mask (19 h); two norms their inputs (4 h).
    const double softmaxStats = flash ? kSoftmaxStatBytes * a : 0.0;
    const double attentionBlock = act * (h + a * dq + kv * dq + kv * dv + a * dv) + kMaskBytes * h + softmaxStats;
    const double mlp = act * (h + ffnTensors * f) + kMaskBytes * h;
    const double norms = act * 2.0 * h;
    LayerActivations layer;
    layer.linear = tokens * (attentionBlock + mlp + norms);
    // Softmax output, its dropout mask and the dropout output: a s values per token each (5 a s / h in the paper).
    layer.attention = flash ? 0.0 : tokens * a * s * (2.0 * act + kMaskBytes);
    layer.layerInput = tokens * act * h;
    // The op-level policy: the matmul outputs in its order, every other one kept (training_memory.h).
    const double down = h;
    const std::vector<double> matmulOutputs = m.gatedFfn ? std::vector<double>{a * dq, kv * dq, kv * dv, h, f, f, down}
                                                         : std::vector<double>{a * dq, kv * dq, kv * dv, h, f, down};
    double keptOutputs = 0;
    for (std::size_t i = 0; i < matmulOutputs.size(); i += 2)
        keptOutputs += matmulOutputs[i];
    const double attentionOutput = flash ? act * a * dv + softmaxStats : 0.0;
    layer.opSaved = layer.layerInput + tokens * (act * keptOutputs + attentionOutput);
    return layer;
}

CheckpointedLayer checkpointedLayer(const TrainingConfig& config, const LayerActivations& layer)
{
    switch (config.checkpointing) {
        case Checkpointing::None:
            break;
        case Checkpointing::Selective:
            return {layer.linear, layer.attention};
        case Checkpointing::Full:
            return {layer.layerInput, layer.total()};
        case Checkpointing::SelectiveOp:
            return {layer.opSaved, std::max(0.0, layer.total() - layer.opSaved)};
    }
    return {layer.total(), 0.0};
}

double ncclBufferBytes(const TrainingConfig& config)
{
    const bool nvlink = config.link.peerToPeer && !config.link.pcie;
    const double perConnection = (nvlink ? kNcclChannelsNvlink : kNcclChannelsPcie) * kNcclConnectionBytes;
    double connections = 0;
    if (config.dataParallel() > 1)
        connections += config.zeroStage > 0 ? 1.0 : 3.0;
    if (config.tensorParallel > 1)
        connections += 3.0;
    if (config.pipelineParallel > 1)
        connections += 2.0;
    return connections * perConnection;
}

TrainingMemory trainingMemory(const TrainingConfig& config, const ParamCounts& params)
{
    TrainingMemory memory;
    const ModelSpec& m = config.model;
    const int dp = config.dataParallel();
    const StateBytesPerParam state = stateBytesPerParam(config.precision, config.optimizer);
    // Tensor and pipeline parallelism divide the parameters; the embedding and LM head are spread as if even.
    memory.paramsPerGpu = static_cast<double>(params.total) / config.modelParallel();
    const double weightsShard = config.zeroStage >= 3 ? dp : 1.0;
    const double gradientsShard = config.zeroStage >= 2 ? dp : 1.0;
    const double optimizerShard = config.zeroStage >= 1 ? dp : 1.0;
    memory.weights = memory.paramsPerGpu * state.weights / weightsShard;
    memory.gradients = memory.paramsPerGpu * state.gradients / gradientsShard;
    memory.optimizer = memory.paramsPerGpu * state.optimizer / optimizerShard;

    // 1F1B keeps min(p, m) micro-batches in flight on the first stage (Narayanan et al. 2021); without a pipeline,
    // gradient accumulation finishes each micro-batch's backward before the next forward: one.
    memory.layersPerStage = (m.layers + config.pipelineParallel - 1) / config.pipelineParallel;
    memory.microBatchesInFlight =
        config.pipelineParallel > 1 ? std::min<std::int64_t>(config.pipelineParallel, config.accumulationSteps()) : 1;
    // Plus what one layer holds again while the backward recomputes it.
    const CheckpointedLayer layer = checkpointedLayer(config, layerActivations(config));
    memory.activations =
        layer.stored * memory.layersPerStage * static_cast<double>(memory.microBatchesInFlight) + layer.recomputed;

    // The loss over one micro-batch's logits (the last stage's; counted with the first stage's activations, the
    // worst case).
    const double tokens =
        static_cast<double>(config.sequence) * static_cast<double>(config.microBatch) / config.tensorParallel;
    memory.temporary = tokens * m.vocab * kLossBytes;
    if (config.zeroStage >= 3 && dp > 1) {
        const double layerParams =
            std::max(0.0, static_cast<double>(params.total - params.embedding - params.lmHead - params.positional)) /
            m.layers;
        memory.temporary += kGatheredLayers * layerParams / config.tensorParallel * state.weights;
        // The LM head too, gathered while the loss runs, with its whole gradient from the backward's first matmul
        // until the step's reduce-scatter (the input table when tied: it is the head).
        const double head = static_cast<double>(params.lmHead > 0 ? params.lmHead : params.embedding);
        memory.temporary += head / config.tensorParallel * (state.weights + state.gradients);
    }
    memory.allocatorReserve =
        config.checkpointing == Checkpointing::Full ? kAllocatorReserveFullBytes : kAllocatorReserveBytes;
    memory.cudaContext = kCudaContextBytes;
    memory.ncclBuffers = ncclBufferBytes(config);
    memory.capacity = static_cast<double>(config.gpu.memoryBytes());
    return memory;
}

}  // namespace ridgeline
