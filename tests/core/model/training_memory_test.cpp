// The training step's memory and FLOPs against the published derivations they come from, and the source text's
// cheap moves: mixed precision halves the activations, accumulation keeps them at the micro-batch's, checkpointing
// trades about a third more compute for most of them.
#include "core/model/training/training_step.h"
#include "tests/core/model/training_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::trainingConfig;

namespace {

constexpr double kGiB = 1073741824.0;

TrainingReport evaluate(const TrainingConfig& c)
{
    Result<TrainingReport> r = evaluateTraining(c);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message.toStdString());
    return r.ok() ? r.value() : TrainingReport{};
}

}  // namespace

// ZeRO (Rajbhandari et al. 2020), section 3.1: mixed-precision Adam holds 2 + 2 + 12 = 16 bytes per parameter.
TEST(TrainingMemory, MixedPrecisionAdamIsSixteenBytesPerParameterAsInTheZeroPaper)
{
    const StateBytesPerParam mixed = stateBytesPerParam(PrecisionPolicy::Bf16Mixed, Optimizer::AdamW);
    EXPECT_EQ(mixed.weights, 2.0);
    EXPECT_EQ(mixed.gradients, 2.0);
    EXPECT_EQ(mixed.optimizer, 12.0);
    EXPECT_EQ(stateBytesPerParam(PrecisionPolicy::Fp16Mixed, Optimizer::AdamW).total(), 16.0);
    EXPECT_EQ(stateBytesPerParam(PrecisionPolicy::Fp32, Optimizer::AdamW).total(), 16.0);  // 4 + 4 + 8
    EXPECT_EQ(stateBytesPerParam(PrecisionPolicy::Bf16Mixed, Optimizer::Sgd).total(), 12.0);
    EXPECT_EQ(stateBytesPerParam(PrecisionPolicy::Bf16Mixed, Optimizer::Adam8bit).total(), 10.0);
}

// ZeRO, Figure 1: a 7.5B model over 64 data-parallel GPUs needs 120 GB per GPU as the baseline, 31.4 GB with the
// optimizer state sharded (P_os), 16.6 GB with gradients too (P_os+g) and 1.9 GB with everything (P_os+g+p).
TEST(TrainingMemory, ZeroStagesShardAsTheZeroPapersFigureOne)
{
    TrainingConfig c = trainingConfig(modelFromParamCount(7.5e9).value(), "h100-sxm");
    c.gpusPerNode = 8;
    c.nodes = 8;
    c.globalBatch = 64;
    const double expected[] = {120.0, 31.4, 16.6, 1.875};
    for (int stage = 0; stage <= 3; ++stage) {
        c.zeroStage = stage;
        const TrainingMemory m = evaluate(c).memory;
        EXPECT_NEAR((m.weights + m.gradients + m.optimizer) / 1e9, expected[stage], 0.05) << "ZeRO-" << stage;
    }
}

// Korthikanti et al. 2022, equation 1: s b h (34 + 5 a s / h) bytes per layer; with tensor and sequence parallelism
// (equation 4 without recomputation) all of it over t; selective recomputation leaves 34 s b h / t (equation 6);
// full recomputation keeps the layer input, 2 s b h / t. GPT-3 175B is the paper's shape (FFN 4h, GELU, MHA), and
// the paper's attention writes its scores to memory.
TEST(TrainingMemory, ActivationsPerLayerAreKorthikantiEquations)
{
    const ModelSpec gpt3 = test::model("gpt-3-175b");
    TrainingConfig c = trainingConfig(gpt3, "h100-sxm");
    c.attention = AttentionKernel::Materialised;
    c.sequence = 2048;
    c.microBatch = 1;
    const double s = 2048, b = 1, h = gpt3.hidden, a = gpt3.heads;
    const LayerActivations one = layerActivations(c);
    EXPECT_NEAR(one.total(), s * b * h * (34.0 + 5.0 * a * s / h), 1.0);
    EXPECT_NEAR(one.linear, 34.0 * s * b * h, 1.0);
    EXPECT_NEAR(one.layerInput, 2.0 * s * b * h, 1.0);
    c.tensorParallel = 8;
    c.gpusPerNode = 8;
    c.globalBatch = 1;
    const LayerActivations eight = layerActivations(c);
    EXPECT_NEAR(eight.total(), s * b * h / 8.0 * (34.0 + 5.0 * a * s / h), 1.0);
    EXPECT_NEAR(eight.linear, 34.0 * s * b * h / 8.0, 1.0);  // selective recomputation, equation 6
    EXPECT_NEAR(eight.layerInput, 2.0 * s * b * h / 8.0, 1.0);
}

// FlashAttention (Dao et al. 2022) never writes the scores: no 5 a s / h term, whatever the sequence; the kernel
// keeps one fp32 softmax statistic per row and head (4 a bytes per token). Selective recomputation then drops
// nothing and keeps what no checkpointing keeps.
TEST(TrainingMemory, FlashAttentionKeepsNoScores)
{
    const ModelSpec gpt3 = test::model("gpt-3-175b");
    TrainingConfig c = trainingConfig(gpt3, "h100-sxm");
    c.sequence = 2048;
    ASSERT_EQ(c.attention, AttentionKernel::Flash);
    const double s = 2048, h = gpt3.hidden, a = gpt3.heads;
    const LayerActivations flash = layerActivations(c);
    EXPECT_EQ(flash.attention, 0.0);
    EXPECT_NEAR(flash.linear, s * (34.0 * h + 4.0 * a), 1.0);
    c.sequence = 32768;
    EXPECT_NEAR(layerActivations(c).total() / flash.total(), 16.0, 1e-9);  // linear in the sequence
    c.checkpointing = Checkpointing::Selective;
    const TrainingMemory selective = evaluate(c).memory;
    c.checkpointing = Checkpointing::None;
    EXPECT_DOUBLE_EQ(selective.activations, evaluate(c).memory.activations);
    // Materialised, the same layer at 32,768 tokens keeps 5 a s / h = 39 times 34 s b h more for the scores.
    c.attention = AttentionKernel::Materialised;
    EXPECT_NEAR(layerActivations(c).attention / (34.0 * 32768 * h), 5.0 * a * 32768 / h / 34.0, 1e-9);
}

// torchtitan's op-level policy on Llama 3 8B (h 4,096, 8 KV heads of 128, SwiGLU FFN 14,336): per token it keeps
// the layer input (h), q (h), v (1,024), the gate (14,336), the down projection's output (h) and the attention
// output (h) in bf16, and the 32 heads' fp32 statistics: 2 x 31,744 + 128 bytes. It recomputes k, o and up.
TEST(TrainingMemory, OpLevelCheckpointingKeepsEveryOtherMatmul)
{
    TrainingConfig c = trainingConfig(test::model("llama-3-8b"), "h100-sxm");
    c.sequence = 8192;
    const LayerActivations layer = layerActivations(c);
    EXPECT_NEAR(layer.opSaved, 8192.0 * (2.0 * 31744.0 + 128.0), 1.0);
    c.checkpointing = Checkpointing::SelectiveOp;
    const TrainingReport op = evaluate(c);
    const double layers = 32;
    EXPECT_NEAR(op.memory.activations, layers * layer.opSaved + (layer.total() - layer.opSaved), 1.0);
    EXPECT_NEAR(op.recomputeFlops, 2.0 * 4096.0 * (1024.0 + 4096.0 + 14336.0) * layers * 8192.0, 1.0);
    c.checkpointing = Checkpointing::Full;
    const TrainingReport full = evaluate(c);
    c.checkpointing = Checkpointing::None;
    const TrainingReport none = evaluate(c);
    EXPECT_LT(op.memory.activations, none.memory.activations / 2.0);
    EXPECT_GT(op.memory.activations, full.memory.activations);
    EXPECT_LT(op.recomputeFlops, full.recomputeFlops / 2.0);
}

// The source text: "Mixed precision halves the activation memory and roughly doubles matrix multiply throughput."
TEST(TrainingMemory, MixedPrecisionHalvesActivationsAndRoughlyDoublesMatmuls)
{
    TrainingConfig c = trainingConfig(test::model("llama-2-7b"), "h100-sxm");
    c.precision = PrecisionPolicy::Fp32;
    const TrainingReport fp32 = evaluate(c);
    c.precision = PrecisionPolicy::Bf16Mixed;
    const TrainingReport mixed = evaluate(c);
    const double ratio = mixed.memory.activations / fp32.memory.activations;
    // Just over a half: the 16-bit values halve, the 1-byte dropout masks (1 of the 5 a s / h bytes) do not.
    EXPECT_GT(ratio, 0.5);
    EXPECT_LT(ratio, 0.55);
    const double speedup = fp32.time.matmul / mixed.time.matmul;  // TF32 against bf16 tensor cores
    EXPECT_GT(speedup, 1.8);
    EXPECT_LT(speedup, 2.6);
    EXPECT_EQ(fp32.matmulPrecision, NumberFormat::Tf32);
}

// "Gradient accumulation gets you a large effective batch with small resident activations."
TEST(TrainingMemory, AccumulationKeepsResidentActivationsAtTheMicroBatch)
{
    TrainingConfig c = trainingConfig(test::model("llama-2-7b"), "h100-sxm");
    c.microBatch = 1;
    c.globalBatch = 1;
    const TrainingReport one = evaluate(c);
    c.globalBatch = 64;
    const TrainingReport accumulated = evaluate(c);
    EXPECT_EQ(accumulated.accumulationSteps, 64);
    EXPECT_DOUBLE_EQ(accumulated.memory.activations, one.memory.activations);
    EXPECT_DOUBLE_EQ(accumulated.memory.total(), one.memory.total());
    c.microBatch = 64;
    const TrainingReport wide = evaluate(c);
    EXPECT_EQ(wide.accumulationSteps, 1);
    EXPECT_NEAR(wide.memory.activations / one.memory.activations, 64.0, 1e-9);
    // The same step either way: the same tokens and FLOPs.
    EXPECT_DOUBLE_EQ(wide.modelFlops, accumulated.modelFlops);
    EXPECT_DOUBLE_EQ(wide.tokensPerStep, accumulated.tokensPerStep);
}

// "Activation checkpointing trades about a third more compute for a large memory saving." Selective recomputation
// is about the stored scores: materialised attention.
TEST(TrainingMemory, FullCheckpointingCutsActivationsForAThirdMoreCompute)
{
    TrainingConfig c = trainingConfig(test::model("llama-2-7b"), "h100-sxm");
    c.attention = AttentionKernel::Materialised;
    const TrainingReport none = evaluate(c);
    c.checkpointing = Checkpointing::Full;
    const TrainingReport full = evaluate(c);
    EXPECT_LT(full.memory.activations, none.memory.activations / 10.0);
    EXPECT_NEAR(full.recomputeFlops / full.modelFlops, 1.0 / 3.0, 1e-12);
    EXPECT_NEAR(full.time.recompute / full.time.compute(), 1.0 / 3.0, 0.05);
    EXPECT_DOUBLE_EQ(full.modelFlops, none.modelFlops);  // MFU counts the model's FLOPs, not the recomputation
    EXPECT_LT(full.mfu, none.mfu);
    c.checkpointing = Checkpointing::Selective;
    const TrainingReport selective = evaluate(c);
    EXPECT_LT(selective.memory.activations, none.memory.activations);
    EXPECT_GT(selective.memory.activations, full.memory.activations);
    EXPECT_LT(selective.recomputeFlops, full.recomputeFlops / 3.0);  // only attention's QK^T and AV
}

// Narayanan et al. 2021, section 5.1: 72 B s l h^2 (1 + s / 6h + V / 12 l h) model FLOPs per step for GPT models
// (the 96 of their equation includes full recomputation). GPT-3 has biases and learned positions, which it leaves
// out, so the count agrees within a fraction of a percent.
TEST(TrainingMemory, StepFlopsAreMegatronsFormula)
{
    const ModelSpec gpt3 = test::model("gpt-3-175b");
    TrainingConfig c = trainingConfig(gpt3, "h100-sxm");
    c.sequence = 2048;
    const double B = 1, s = 2048, l = gpt3.layers, h = gpt3.hidden, V = gpt3.vocab;
    const double megatron = 72.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (12.0 * l * h));
    EXPECT_NEAR(evaluate(c).modelFlops / megatron, 1.0, 0.002);
    c.checkpointing = Checkpointing::Full;
    EXPECT_NEAR(evaluate(c).stepFlops() / (megatron * 96.0 / 72.0), 1.0, 0.002);
}

// The source text's question: "does a 7B model train on one 80 GiB card, and what does checkpointing buy me?"
// No: bf16-mixed AdamW states alone are 16 x 6.74e9 bytes = 100.4 GiB. With 8-bit Adam (10 bytes per parameter,
// 62.8 GiB) the states fit; at 4,096 tokens the activations are ~17 GiB with flash attention (~97 GiB with the
// scores materialised, Korthikanti's count), which is just too much, and full checkpointing takes them under 2 GiB.
TEST(TrainingMemory, SevenBillionOnOneEightyGibCard)
{
    TrainingConfig c = trainingConfig(test::model("llama-2-7b"), "h100-sxm");
    const TrainingReport adamw = evaluate(c);
    EXPECT_NEAR((adamw.memory.weights + adamw.memory.gradients + adamw.memory.optimizer) / kGiB, 100.4, 0.1);
    EXPECT_FALSE(adamw.memory.fits());
    c.checkpointing = Checkpointing::Full;
    EXPECT_FALSE(evaluate(c).memory.fits());  // checkpointing alone cannot save it
    c.optimizer = Optimizer::Adam8bit;
    c.checkpointing = Checkpointing::None;
    const TrainingReport none = evaluate(c);
    EXPECT_FALSE(none.memory.fits());
    EXPECT_NEAR(none.memory.activations / kGiB, 17.1, 0.5);
    c.attention = AttentionKernel::Materialised;
    EXPECT_NEAR(evaluate(c).memory.activations / kGiB, 97.0, 1.0);
    c.attention = AttentionKernel::Flash;
    c.checkpointing = Checkpointing::Full;
    const TrainingReport full = evaluate(c);
    EXPECT_TRUE(full.memory.fits());
    EXPECT_LT(full.memory.activations / kGiB, 2.0);
    EXPECT_NEAR(full.memory.total() / kGiB, 65.8, 0.5);
}

// torchtitan PR #165 logged both of PyTorch's figures for FSDP2 on 8 H100s: peak active 23.92 % and reserved 32.64 %
// of 95.04 GiB with full checkpointing, 52.13 % and 62.51 % with selective. The reserved figure is the allocated one
// and that cache; whether a step fits is decided on the allocated one, which the allocator frees its cache to reach.
TEST(TrainingMemory, ReservedIsAllocatedAndTheCachingAllocatorsPublishedReserve)
{
    constexpr double kTorchtitanGiB = 95.0396;
    TrainingConfig c = trainingConfig(test::model("llama-3.1-8b"), "h100-sxm");
    c.checkpointing = Checkpointing::Full;
    const TrainingMemory full = evaluate(c).memory;
    EXPECT_NEAR(full.allocatorReserve / kGiB, (0.3264 - 0.2392) * kTorchtitanGiB, 0.01);
    EXPECT_DOUBLE_EQ(full.reserved(), full.total() + full.allocatorReserve);
    for (Checkpointing other : {Checkpointing::None, Checkpointing::Selective, Checkpointing::SelectiveOp}) {
        c.checkpointing = other;
        EXPECT_NEAR(evaluate(c).memory.allocatorReserve / kGiB, (0.6251 - 0.5213) * kTorchtitanGiB, 0.01);
    }
    // A card filled to its last allocated byte still fits: the cache is given back before an out-of-memory error;
    // the CUDA context and NCCL's buffers are not, so they count.
    TrainingMemory edge = full;
    edge.capacity = edge.onCard();
    EXPECT_TRUE(edge.fits());
    EXPECT_GT(edge.reserved(), edge.capacity);
    edge.capacity = edge.total();
    EXPECT_FALSE(edge.fits());
}

// Outside the allocator: the CUDA context on every GPU (400 MiB, PyTorch's lazily loaded context) and NCCL's buffers
// for each connection on each channel (4 MiB Simple + 512 KiB LL + 4,915,200 bytes LL128): 16 channels over NVLink,
// 2 over PCIe; all-reduces connect a ring and a tree (3 connections), ZeRO's reduce-scatters and gathers a ring (1).
// nvidia-smi's figure is the reserved one and both.
TEST(TrainingMemory, CudaContextAndNcclBuffersAreOnTheCardOutsidePytorchsFigures)
{
    constexpr double kMiB = 1048576.0;
    const double connection = 4.0 * kMiB + 0.5 * kMiB + 4915200.0;
    TrainingConfig c = trainingConfig(test::model("llama-3.1-8b"), "h100-sxm");
    c.gpusPerNode = 1;
    c.globalBatch = 1;
    const TrainingMemory one = evaluate(c).memory;
    EXPECT_DOUBLE_EQ(one.cudaContext, 400.0 * kMiB);
    EXPECT_EQ(one.ncclBuffers, 0.0) << "one GPU opens no communicator";
    EXPECT_DOUBLE_EQ(one.device(), one.reserved() + 400.0 * kMiB);

    c.gpusPerNode = 8;
    c.globalBatch = 8;
    const TrainingMemory ddp = evaluate(c).memory;
    EXPECT_DOUBLE_EQ(ddp.ncclBuffers, 3.0 * 16.0 * connection);  // about 441 MiB
    c.zeroStage = 3;
    EXPECT_DOUBLE_EQ(evaluate(c).memory.ncclBuffers, 16.0 * connection);
    c.zeroStage = 0;
    c.tensorParallel = 2;
    c.pipelineParallel = 2;
    c.globalBatch = 2;
    EXPECT_DOUBLE_EQ(evaluate(c).memory.ncclBuffers, (3.0 + 3.0 + 2.0) * 16.0 * connection);

    TrainingConfig pcie = trainingConfig(test::model("llama-3.1-8b"), "l40s");
    pcie.gpusPerNode = 8;
    pcie.globalBatch = 8;
    const TrainingMemory l40s = evaluate(pcie).memory;
    EXPECT_DOUBLE_EQ(l40s.ncclBuffers, 3.0 * 2.0 * connection);
    EXPECT_DOUBLE_EQ(l40s.onCard(), l40s.total() + l40s.cudaContext + l40s.ncclBuffers);
}
