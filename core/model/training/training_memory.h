#pragma once
// What one GPU holds during a training step: weights, gradients and optimizer state (by precision policy and
// optimizer, divided by tensor and pipeline parallelism and sharded by ZeRO over the data-parallel ranks), the
// activations the backward needs, and the largest temporary buffers.
//
// Model states per parameter (Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion
// Parameter Models", section 3.1): mixed precision with Adam holds 2 (fp16/bf16 weights) + 2 (gradients) + 12 (fp32
// master weights, momentum, variance) = 16 bytes per parameter. fp32 holds 4 + 4 + 8; SGD with momentum keeps one
// moment instead of two; 8-bit Adam (Dettmers et al. 2022) keeps both moments in one byte each.
//
// Activations per layer (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models",
// section 4): s b h (34 + 5 a s / h) bytes with 16-bit activations and 1-byte dropout masks, for s tokens, b
// sequences, hidden h, a heads and an FFN of 4h. Tensor parallelism with sequence parallelism divides all of it by
// t (section 4.2.2); selective recomputation drops the 5 a s / h term (the attention scores, softmax and dropout);
// full recomputation keeps only each layer's input, 2 s b h, plus one layer's activations while it is recomputed.
// The terms are kept by tensor, so other FFN widths, gated FFNs, grouped KV heads and fp32 activations follow.

#include "core/model/training/training_config.h"

namespace ridgeline {

// Bytes per parameter of the three model states, before any sharding.
struct StateBytesPerParam {
    double weights = 0;    // the copy the forward reads (16-bit in mixed precision)
    double gradients = 0;  // in the weights' format
    double optimizer = 0;  // master weights (mixed precision) and the moments
    double total() const { return weights + gradients + optimizer; }
};
StateBytesPerParam stateBytesPerParam(PrecisionPolicy precision, Optimizer optimizer);

// Bytes of one activation value: 2 in mixed precision, 4 in fp32.
double activationBytes(PrecisionPolicy precision);

// One layer's stored activations for one micro-batch on one GPU (the tensor-parallel share), in two parts: the
// part linear in the sequence and the attention part quadratic in it (the 5 a s / h term). With checkpointing
// none; training_memory.cpp applies selective and full.
struct LayerActivations {
    double linear = 0;      // 34 s b h in the paper's case
    double attention = 0;   // 5 a s^2 b
    double layerInput = 0;  // 2 s b h: what full checkpointing keeps
    double total() const { return linear + attention; }
};
LayerActivations layerActivations(const TrainingConfig& config);

struct TrainingMemory {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;   // the layers' stored activations, all micro-batches in flight on the first stage
    double temporary = 0;     // logits and the loss's fp32 copy; ZeRO-3's gathered layers
    double capacity = 0;      // the card's memory
    double paramsPerGpu = 0;  // parameters this GPU's model-parallel rank holds before ZeRO
    int layersPerStage = 0;
    std::int64_t microBatchesInFlight = 1;  // on the first pipeline stage (1F1B: min(pp, accumulation steps))
    double total() const { return weights + gradients + optimizer + activations + temporary; }
    bool fits() const { return total() <= capacity; }
};

// The configuration must have passed checkTrainingConfig.
TrainingMemory trainingMemory(const TrainingConfig& config, const ParamCounts& params);

}  // namespace ridgeline
