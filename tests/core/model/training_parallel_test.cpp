// Parallelism across the link hierarchy, the pipeline bubble, the cheapest fix in the source text's order, and
// every input the training step model refuses.
#include "core/model/training/training_fix.h"
#include "core/model/training/training_step.h"
#include "tests/core/model/training_test_support.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;
using ridgeline::test::trainingConfig;

namespace {

TrainingReport evaluate(const TrainingConfig& c)
{
    Result<TrainingReport> r = evaluateTraining(c);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message.toStdString());
    return r.ok() ? r.value() : TrainingReport{};
}

// The error evaluateTraining gives, or "" when it gives none.
std::string refusal(const TrainingConfig& c)
{
    const Result<TrainingReport> r = evaluateTraining(c);
    return r.ok() ? std::string() : r.error().message.toStdString();
}

}  // namespace

// The source text: "A parallelism strategy that is fine inside a box can be unusable across boxes." TP 8 for Llama 2
// 70B over NVLink 4 inside one HGX H100, against the same TP 8 with one GPU per node over 400 Gb/s InfiniBand.
TEST(TrainingParallel, TensorParallelInsideTheBoxIsCheapAndAcrossBoxesIsNot)
{
    TrainingConfig c = trainingConfig(test::model("llama-2-70b"), "h100-sxm");
    c.tensorParallel = 8;
    c.gpusPerNode = 8;
    c.checkpointing = Checkpointing::Full;
    const TrainingReport inside = evaluate(c);
    c.gpusPerNode = 1;
    c.nodes = 8;
    const TrainingReport across = evaluate(c);
    ASSERT_EQ(inside.collectives.size(), 1U);
    ASSERT_EQ(across.collectives.size(), 1U);
    EXPECT_FALSE(inside.collectives[0].crossesNodes);
    EXPECT_TRUE(across.collectives[0].crossesNodes);
    EXPECT_EQ(inside.collectives[0].link, c.link.name);
    EXPECT_EQ(across.collectives[0].link, c.network.name);
    // NVLink 4 is 9x InfiniBand NDR per direction: inside, communication is a small share of the step; across, the
    // step waits on the network longer than it computes.
    EXPECT_LT(inside.time.communication, 0.25 * inside.time.total());
    EXPECT_GT(across.time.communication, across.time.compute());
    EXPECT_GT(across.time.communication / inside.time.communication, 8.0);
    EXPECT_LT(across.mfu, 0.5 * inside.mfu);
    EXPECT_DOUBLE_EQ(across.memory.total(), inside.memory.total());  // the same shards, only the link differs
}

// Narayanan et al. 2021, section 2.2.1: the 1F1B schedule idles (p - 1) / (m + p - 1) of the step.
TEST(TrainingParallel, PipelineBubbleIsPMinusOneOverMPlusPMinusOne)
{
    TrainingConfig c = trainingConfig(test::model("llama-2-13b"), "h100-sxm");
    c.gpusPerNode = 4;
    c.pipelineParallel = 4;
    for (const std::int64_t m : {1, 4, 8, 32}) {
        c.globalBatch = m;
        const double expected = 3.0 / (static_cast<double>(m) + 3.0);
        const TrainingReport r = evaluate(c);
        EXPECT_EQ(r.accumulationSteps, m);
        EXPECT_DOUBLE_EQ(r.bubbleFraction, expected) << m;
        EXPECT_NEAR(r.time.bubble / r.time.total(), expected, 1e-9) << m;
        EXPECT_EQ(r.memory.microBatchesInFlight, std::min<std::int64_t>(4, m));
        EXPECT_EQ(r.memory.layersPerStage, 10);
    }
    c.pipelineParallel = 1;
    c.gpusPerNode = 1;
    EXPECT_EQ(evaluate(c).bubbleFraction, 0.0);
}

// Ring all-reduce of the gradients, 2 (n - 1) / n x bytes over the link, hidden under the last micro-batch's
// backward by the overlap share: none hidden at 0, as much as the backward lasts at 1.
TEST(TrainingParallel, DataParallelAllReduceAndItsOverlap)
{
    TrainingConfig c = trainingConfig(test::model("llama-2-7b"), "h100-sxm");
    c.gpusPerNode = 8;
    c.globalBatch = 8;
    c.optimizer = Optimizer::Adam8bit;
    c.dataParallelOverlap = 0.0;
    const TrainingReport serial = evaluate(c);
    ASSERT_EQ(serial.collectives.size(), 1U);
    const double bytes = 2.0 * static_cast<double>(serial.params);
    EXPECT_DOUBLE_EQ(serial.collectives[0].bytes, bytes);
    const double ring = 14.0 * c.link.latencyUs * 1e-6 + 14.0 / 8.0 * bytes / (c.link.gbPerSecPerDirection * 1e9);
    EXPECT_NEAR(serial.dataParallelSeconds, ring, 1e-12);
    EXPECT_NEAR(serial.time.communication, ring, 1e-12);
    c.dataParallelOverlap = 1.0;
    const TrainingReport hidden = evaluate(c);
    EXPECT_LT(hidden.time.communication, serial.time.communication);
    EXPECT_NEAR(hidden.time.communication,
                std::max(0.0, ring - 2.0 / 3.0 * (hidden.time.compute() + hidden.time.recompute)), 1e-9);
    // Across 8 nodes of one GPU, the same all-reduce runs over InfiniBand and takes about 9x as long.
    c.gpusPerNode = 1;
    c.nodes = 8;
    EXPECT_GT(evaluate(c).dataParallelSeconds / serial.dataParallelSeconds, 8.0);
}

// ZeRO-3 on one GPU is allowed: it shards nothing and says so.
TEST(TrainingParallel, ZeroThreeOnOneGpuShardsNothing)
{
    TrainingConfig c = trainingConfig(test::model("llama-2-7b"), "h100-sxm");
    const TrainingReport plain = evaluate(c);
    c.zeroStage = 3;
    const TrainingReport zero3 = evaluate(c);
    EXPECT_DOUBLE_EQ(zero3.memory.total(), plain.memory.total());
    ASSERT_FALSE(zero3.notes.isEmpty());
    EXPECT_TRUE(zero3.notes.join(u' ').contains(QStringLiteral("shards nothing")));
}

// The source text's order: mixed precision, accumulation, checkpointing, sharding within the box, across boxes.
TEST(TrainingFix, TheCheapestMoveComesFirst)
{
    // Only activations overflow (the attention scores materialised): mixed precision alone is enough, and it is all
    // the fix says.
    TrainingConfig small = trainingConfig(modelFromParamCount(1e9).value(), "h100-sxm");
    small.attention = AttentionKernel::Materialised;
    small.precision = PrecisionPolicy::Fp32;
    small.sequence = 2048;
    small.microBatch = 6;
    small.globalBatch = 6;
    const std::optional<TrainingFix> mixed = cheapestFix(small);
    ASSERT_TRUE(mixed && mixed->found);
    EXPECT_EQ(mixed->moves, QStringList{QStringLiteral("bf16 mixed precision")});
    EXPECT_TRUE(mixed->memory.fits());

    // Llama 2 7B in fp32 at micro-batch 8: the cheap moves first, all of them, and then the box's GPUs.
    TrainingConfig big = trainingConfig(test::model("llama-2-7b"), "h100-sxm");
    big.precision = PrecisionPolicy::Fp32;
    big.microBatch = 8;
    big.globalBatch = 64;
    const std::optional<TrainingFix> fix = cheapestFix(big);
    ASSERT_TRUE(fix && fix->found);
    ASSERT_GE(fix->moves.size(), 4);
    EXPECT_EQ(fix->moves[0], QStringLiteral("bf16 mixed precision"));
    EXPECT_EQ(fix->moves[1], QStringLiteral("micro-batch 1 x 64 accumulation steps"));
    EXPECT_EQ(fix->moves[2], QStringLiteral("full activation checkpointing"));  // flash attention: no selective
    EXPECT_EQ(fix->moves[3], QStringLiteral("8 GPUs in one box"));
    EXPECT_EQ(fix->config.nodes, 1);
    EXPECT_EQ(fix->config.gpusPerNode, 8);
    EXPECT_EQ(fix->config.globalBatch, 64);
    EXPECT_TRUE(fix->memory.fits());
    EXPECT_TRUE(fix->text().startsWith(QStringLiteral("bf16 mixed precision, then micro-batch 1")));

    // 70B: 16 bytes a parameter over one box of 8 A100 80GB is 140 GB each; only more boxes fit.
    TrainingConfig huge = trainingConfig(test::model("llama-2-70b"), "a100-80gb-sxm");
    huge.globalBatch = 64;
    const std::optional<TrainingFix> boxes = cheapestFix(huge);
    ASSERT_TRUE(boxes && boxes->found);
    EXPECT_GT(boxes->config.nodes, 1);
    EXPECT_TRUE(boxes->moves.constLast().contains(QStringLiteral("boxes")));
    EXPECT_TRUE(boxes->memory.fits());

    // What already fits needs no fix.
    small.precision = PrecisionPolicy::Bf16Mixed;
    EXPECT_FALSE(cheapestFix(small));
}

TEST(TrainingInputs, EveryBadInputIsRefusedNamingItsField)
{
    const TrainingConfig good = trainingConfig(test::model("llama-2-7b"), "h100-sxm");
    ASSERT_EQ(refusal(good), "");
    auto refused = [&](auto change, const char* field) {
        TrainingConfig c = good;
        change(c);
        const std::string message = refusal(c);
        EXPECT_NE(message.find(field), std::string::npos) << field << ": \"" << message << '"';
    };
    refused([](TrainingConfig& c) { c.microBatch = 0; }, "micro-batch");
    refused(
        [](TrainingConfig& c) {
            c.gpusPerNode = 8;
            c.microBatch = 2;
            c.globalBatch = 12;
        },
        "global batch 12 is not a multiple of micro-batch 2 x 8");
    refused(
        [](TrainingConfig& c) {
            c.gpusPerNode = 6;
            c.tensorParallel = 3;
        },
        "tp 3 does not divide the 32 attention heads");
    refused(
        [](TrainingConfig& c) {
            c.gpusPerNode = 8;
            c.nodes = 5;
            c.pipelineParallel = 40;
        },
        "pp 40 is more than the 32 layers");
    refused([](TrainingConfig& c) { c.tensorParallel = 2; }, "tp 2 needs at least as many GPUs");
    refused([](TrainingConfig& c) { c.sequence = 0; }, "sequence");
    refused([](TrainingConfig& c) { c.sequence = kMaxTrainingSequence + 1; }, "sequence");
    refused([](TrainingConfig& c) { c.globalBatch = 0; }, "global batch");
    refused([](TrainingConfig& c) { c.nodes = 0; }, "gpus");
    refused(
        [](TrainingConfig& c) {
            c.gpusPerNode = 8;
            c.nodes = 12501;
        },
        "gpus");
    refused([](TrainingConfig& c) { c.zeroStage = 4; }, "zero");
    refused([](TrainingConfig& c) { c.dataParallelOverlap = std::nan(""); }, "overlap");
    refused([](TrainingConfig& c) { c.model.heads = 0; }, "heads");
}

// No NaN, infinity or overflow anywhere between 1e6 and 1e13 parameters, 1 and 1e7 tokens, 1 and 100,000 GPUs.
TEST(TrainingInputs, AbsurdSizesStayFinite)
{
    for (const double params : {1e6, 1e9, 1e13})
        for (const std::int64_t sequence : {std::int64_t{1}, std::int64_t{4096}, kMaxTrainingSequence})
            for (const auto& [perNode, nodes] : {std::pair{1, 1}, std::pair{8, 1}, std::pair{8, 12500}}) {
                TrainingConfig c = trainingConfig(modelFromParamCount(params).value(), "h100-sxm");
                c.sequence = sequence;
                c.gpusPerNode = perNode;
                c.nodes = nodes;
                c.globalBatch = static_cast<std::int64_t>(perNode) * nodes;
                c.zeroStage = 3;
                const TrainingReport r = evaluate(c);
                for (const double value :
                     {r.memory.total(), r.memory.activations, r.memory.ncclBuffers, r.memory.device(), r.stepFlops(),
                      r.time.total(), r.time.communication, r.tokensPerSecond, r.mfu, r.bubbleFraction})
                    EXPECT_TRUE(std::isfinite(value) && value >= 0.0)
                        << params << " params, " << sequence << " tokens, " << perNode * nodes << " GPUs";
                EXPECT_GT(r.time.total(), 0.0);
                EXPECT_LE(r.mfu, 1.0);
                const std::optional<TrainingFix> fix = cheapestFix(c);
                if (fix) {
                    EXPECT_TRUE(std::isfinite(fix->memory.total()));
                }
            }
}
