#pragma once
// One training step on the GPU's roofline: FLOPs, time per operation class, communication over the link each
// collective crosses, the pipeline bubble, tokens per second and model FLOPs utilisation. Qt Core only.
//
// FLOPs (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM",
// section 5.1): forward and backward are 6 x parameters x tokens for the matmuls plus 12 L h s^2 per sequence for
// attention's QK^T and AV (forward 4 L h s^2, backward twice that). Full recomputation runs the forward again (a
// third more); selective only the attention core's (Korthikanti et al. 2022). Model FLOPs, and so MFU (Chowdhery et
// al. 2022, PaLM, appendix B), leave the recomputation out; the step's FLOPs put it in.
//
// Time: matmuls at the dense tensor peak of the policy's precision (TF32 for fp32) times the GEMM share the inference
// model measured (EngineTerms::measured(), one home for that share); elementwise work, norms, the loss over the
// logits and the optimizer update at the card's sustained bandwidth (the stored activations per layer crossing the
// memory a fitted number of times). With flash attention the scores never reach memory; the fused kernel runs the
// causal half of attention's FLOPs and a second QK^T in its backward (Dao et al. 2022), at a rate bounded by the
// SMs' L1/shared-memory bandwidth. Materialised scores are written and read like any stored activation. Tensor-parallel
// all-reduces (4 per layer per micro-batch, 6 with full recomputation; Megatron's f and g operators, Shoeybi et al.
// 2019) and pipeline sends are on the critical path; data-parallel collectives hide under the backward by
// TrainingConfig::dataParallelOverlap. Ranks are placed tensor parallel innermost, then data parallel, then pipeline
// (Megatron's default order), so each group's collective runs over the node's interconnect while it fits in a node and
// over the network when it does not (core/model/catalog/links.h's hierarchical all-reduce).

#include "core/model/number_format.h"
#include "core/model/training/training_config.h"
#include "core/model/training/training_memory.h"

#include <QStringList>

#include <vector>

namespace ridgeline {

// One kind of collective in the step, per GPU, with the link it crosses.
struct TrainingCollective {
    QString what;  // "tensor-parallel all-reduce"
    QString link;  // the link's name; "... + InfiniBand NDR 400 Gb/s" when it crosses nodes
    bool crossesNodes = false;
    double count = 0;    // per step
    double bytes = 0;    // per collective
    double seconds = 0;  // all of them in the step, before any overlap
};

struct TrainingStepTime {
    double matmul = 0;         // GEMMs and attention at the tensor-core rate
    double memoryBound = 0;    // elementwise, norms and the optimizer update at the sustained bandwidth
    double recompute = 0;      // what checkpointing runs again
    double communication = 0;  // exposed: tensor and pipeline parallel, and data parallel beyond the overlap
    double bubble = 0;         // the pipeline's idle slots
    double compute() const { return matmul + memoryBound; }
    double total() const { return compute() + recompute + communication + bubble; }
};

struct TrainingReport {
    TrainingMemory memory;
    std::int64_t params = 0;
    double matmulParams = 0;  // the parameters a token multiplies by (no embedding gather, no unused experts)
    int dataParallel = 1;
    std::int64_t accumulationSteps = 1;
    double tokensPerStep = 0;
    double modelFlops = 0;                // per step, all GPUs: 6 N tokens + attention
    double recomputeFlops = 0;            // per step, all GPUs
    double attentionFlops = 0;            // of modelFlops: QK^T and AV, forward and backward
    double recomputedAttentionFlops = 0;  // of recomputeFlops
    double stepFlops() const { return modelFlops + recomputeFlops; }
    NumberFormat matmulPrecision = NumberFormat::Bf16;
    double peakTflops = 0;   // dense datasheet peak of that precision, per GPU
    double matmulShare = 0;  // of it the GEMMs reach
    TrainingStepTime time;
    double dataParallelSeconds = 0;  // before the overlap
    double bubbleFraction = 0;       // (p - 1) / (m + p - 1)
    double tokensPerSecond = 0;
    double mfu = 0;
    std::vector<TrainingCollective> collectives;
    QStringList notes;
};

// Checks the configuration (checkTrainingConfig) and computes the step; the error names the field at fault.
Result<TrainingReport> evaluateTraining(const TrainingConfig& config);

}  // namespace ridgeline
