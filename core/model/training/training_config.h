#pragma once
// One training step's configuration: the model, the GPU and its two links (inside a node, between nodes), the
// batch (sequence, micro-batch, global batch), the precision policy, the optimizer, activation checkpointing and
// the parallel layout (tensor, pipeline and data parallel, ZeRO stage). Plain values and the one check of them;
// the memory, the step and the cheapest fix are computed in training_memory, training_step and training_fix.

#include "core/model/catalog/catalog.h"
#include "core/model/catalog/links.h"
#include "core/result.h"

#include <QString>
#include <QStringView>

#include <cstdint>
#include <optional>

namespace ridgeline {

// fp32: weights, gradients, activations and optimizer state all fp32 (matmuls on TF32 tensor cores where the card
// has them). bf16 / fp16 mixed: 16-bit weights, gradients and activations with fp32 master weights in the optimizer
// (Micikevicius et al. 2018, "Mixed Precision Training"); fp16 also scales the loss, which costs no memory.
enum class PrecisionPolicy { Fp32, Bf16Mixed, Fp16Mixed };
// AdamW: two fp32 moments; SGD with momentum: one; 8-bit Adam: two 8-bit moments (Dettmers et al. 2022).
enum class Optimizer { AdamW, Sgd, Adam8bit };
// Korthikanti et al. 2022: none keeps every activation; selective recomputes the attention core (drops the
// 5 a s / h term); full keeps only each layer's input and runs the forward again in the backward. selective-op is
// torchtitan's op-level policy (training_memory.h): it keeps the layer input, every other matmul's output and the
// attention kernel's output, and recomputes the rest.
enum class Checkpointing { None, Selective, Full, SelectiveOp };
// How attention's s x s scores are computed. flash: one fused kernel (FlashAttention, Dao et al. 2022, or any fused
// scaled-dot-product attention) keeps them on chip, with the softmax, masking and dropout inside it; it writes only
// its output and one softmax statistic per row, and the backward recomputes the scores. materialised: QK^T, the
// softmax and the dropout are separate kernels that write the scores to memory and keep them for the backward
// (Megatron-LM of 2021-22, eager attention).
enum class AttentionKernel { Flash, Materialised };

QString precisionPolicyName(PrecisionPolicy policy);     // "fp32", "bf16-mixed", "fp16-mixed"
QString optimizerName(Optimizer optimizer);              // "adamw", "sgd", "adam8bit"
QString checkpointingName(Checkpointing checkpointing);  // "none", "selective", "full", "selective-op"
QString attentionKernelName(AttentionKernel kernel);     // "flash", "materialised"
std::optional<PrecisionPolicy> parsePrecisionPolicy(QStringView name);
std::optional<Optimizer> parseOptimizer(QStringView name);
std::optional<Checkpointing> parseCheckpointing(QStringView name);
std::optional<AttentionKernel> parseAttentionKernel(QStringView name);

inline constexpr std::int64_t kMaxTrainingSequence = 10'000'000;
inline constexpr std::int64_t kMaxTrainingBatch = 100'000'000;  // sequences, micro or global
inline constexpr int kMaxTrainingGpus = 100'000;
// The machine a "box" is when the card names no interconnect domain of its own (PCIe cards): eight per server.
inline constexpr int kDefaultBoxGpus = 8;
// Share of the last micro-batch's backward the data-parallel gradient collectives hide under. PyTorch DDP and ZeRO
// launch them bucket by bucket as the backward produces gradients (Li et al. 2020, "PyTorch Distributed", VLDB), so
// most of the traffic overlaps; the last bucket and the link's contention with the backward's own traffic do not.
// 0.8 is an assumption, not a measurement; 0 serialises them, 1 hides all that fits under the backward.
inline constexpr double kDefaultDataParallelOverlap = 0.8;

struct TrainingConfig {
    ModelSpec model;
    GpuSpec gpu;
    LinkSpec link;     // between the GPUs of one node
    LinkSpec network;  // between nodes, one NIC per GPU
    int gpusPerNode = 1;
    int nodes = 1;
    std::int64_t sequence = 4096;  // tokens per sequence
    std::int64_t microBatch = 1;   // sequences per GPU per forward/backward
    std::int64_t globalBatch = 1;  // sequences per optimizer step, all GPUs together
    PrecisionPolicy precision = PrecisionPolicy::Bf16Mixed;
    Optimizer optimizer = Optimizer::AdamW;
    Checkpointing checkpointing = Checkpointing::None;
    // Fused attention is what PyTorch's scaled_dot_product_attention, Megatron-LM's --use-flash-attn, llm-foundry
    // and torchtitan run on the cards that have it; materialised describes older stacks and eager attention.
    AttentionKernel attention = AttentionKernel::Flash;
    int tensorParallel = 1;
    int pipelineParallel = 1;
    int zeroStage = 0;  // 0: plain data parallel; 1 optimizer, 2 + gradients, 3 + parameters sharded
    double dataParallelOverlap = kDefaultDataParallelOverlap;

    int gpus() const { return gpusPerNode * nodes; }
    int modelParallel() const { return tensorParallel * pipelineParallel; }
    int dataParallel() const { return gpus() / modelParallel(); }
    // Micro-batches each data-parallel rank runs per step (gradient accumulation steps; the pipeline's m).
    std::int64_t accumulationSteps() const { return globalBatch / (microBatch * dataParallel()); }
};

// The network between nodes when neither the command nor the card names one: InfiniBand NDR, 400 Gb/s per GPU, as in
// NVIDIA's DGX H100 (eight ConnectX-7 NDR ports, one per GPU; DGX H100 user guide, "Hardware Overview").
inline const QString kDefaultTrainingNetworkId = QStringLiteral("infiniband-ndr");

// Looks the two links up: `linkId` between the GPUs of a node (empty: the card's own, defaultLinkId) and
// `networkId` between nodes (empty: the card's own network link, else kDefaultTrainingNetworkId).
std::optional<Error> resolveTrainingLinks(TrainingConfig& config, const QString& linkId, const QString& networkId);

// The first thing wrong, naming its field as the command line does ("micro-batch", "global batch", "tp", "pp",
// "zero", "sequence", "gpus"): ranges, divisibility, the model's own shapes. Nothing when the step can be computed.
std::optional<Error> checkTrainingConfig(const TrainingConfig& config);

}  // namespace ridgeline
