// Every LLM figure of the source text (docs/source-text.md), reproduced by the model, exactly.
#include "core/model/llm/llm_model.h"
#include "core/model/units.h"
#include "tests/core/model/llm_test_support.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;

namespace {

constexpr double kGiB = 1073741824.0;

InferenceReport sevenB(std::int64_t batch, std::int64_t context)
{
    InferenceConfig c = test::config(test::model("llama-2-7b"), test::sourceTextGpu(), batch, context);
    c.efficiency = Efficiency::ideal();
    return test::evaluate(c);
}

}  // namespace

// "14 GB for a 7B model in bf16" ... "12.6 GiB of weights"
TEST(LlmSourceText, SevenBWeightsInBf16Are13_48GBWhichIs12_55GiB)
{
    const InferenceReport r = sevenB(1, 1);
    EXPECT_EQ(r.params, 6'738'415'616);
    EXPECT_EQ(r.weightsBytes, 13'476'831'232);  // 2 bytes per parameter
    EXPECT_EQ(formatGB(static_cast<double>(r.weightsBytes)), QStringLiteral("13.48 GB"));
    EXPECT_EQ(formatGiB(static_cast<double>(r.weightsBytes)), QStringLiteral("12.55 GiB"));
    EXPECT_EQ(formatGiB(static_cast<double>(r.weightsBytes), 1), QStringLiteral("12.6 GiB"));
    EXPECT_NEAR(static_cast<double>(r.weightsBytes) / 1e9, 14.0, 0.6);  // "14 GB", the essay's round figure
    // GB and GiB differ by 7.4 %: the same bytes, two numbers.
    EXPECT_NEAR((static_cast<double>(r.weightsBytes) / 1e9) / (static_cast<double>(r.weightsBytes) / kGiB), kGiB / 1e9,
                1e-12);
}

// "about 4 GiB per sequence with full multi-head attention" at 8,192 tokens
TEST(LlmSourceText, KvCacheIs512KiBPerTokenAnd4GiBPerSequenceAt8192Tokens)
{
    const InferenceReport r = sevenB(1, 8192);
    EXPECT_EQ(r.kvBytesPerToken, 512 * 1024);  // 2 x 32 layers x 32 KV heads x 128 x 2 bytes
    EXPECT_EQ(r.kvBytesPerToken, 2 * 32 * 32 * 128 * 2);
    EXPECT_EQ(r.kvTokensPerSequence, 8192);
    EXPECT_EQ(r.kvBytesPerSequence, 4LL * 1024 * 1024 * 1024);
    EXPECT_EQ(formatBinaryBytes(static_cast<double>(r.kvBytesPerSequence)), QStringLiteral("4 GiB"));
}

// "Sixteen concurrent sequences at that context need 64 GiB of cache against 12.6 GiB of weights,
//  so the cache, not the model, is what fills the card."
TEST(LlmSourceText, SixteenSequencesNeed64GiBOfCacheAndTheCacheFillsTheCard)
{
    const InferenceReport r = sevenB(16, 8192);
    EXPECT_EQ(r.kvBytesTotal, 64LL * 1024 * 1024 * 1024);
    EXPECT_GT(r.kvBytesTotal, 5 * r.weightsBytes);
    // On an 80 GiB card: weights + 16 sequences = 76.55 GiB fits; the 17th sequence does not.
    EXPECT_TRUE(r.memory.fits);
    EXPECT_EQ(r.memory.requiredPerGpu, r.weightsBytes + 64LL * 1024 * 1024 * 1024);
    EXPECT_EQ(r.maxBatch, 16);
    EXPECT_FALSE(sevenB(17, 8192).memory.fits);
}

// "Two FLOPs per two bytes is an intensity of 1" ... "rises in direct proportion to the batch size"
TEST(LlmSourceText, IntensityIsOneFlopPerByteAtBatchOneAndProportionalToBatch)
{
    EXPECT_NEAR(sevenB(1, 1).weightsOnlyIntensity, 1.0, 1e-3);
    for (std::int64_t batch : {2, 4, 16, 32, 64, 256}) {
        const InferenceReport r = sevenB(batch, 1);
        EXPECT_NEAR(r.weightsOnlyIntensity / static_cast<double>(batch), 1.0, 1e-3) << batch;
        // The weights are read once per step regardless of the batch.
        EXPECT_NEAR(r.step.weightBytes / sevenB(1, 1).step.weightBytes, 1.0, 1e-3) << batch;
    }
    // The whole step, with a short KV cache, is the same story.
    EXPECT_NEAR(sevenB(1, 1).step.intensity, 1.0, 1e-3);
    EXPECT_NEAR(sevenB(32, 1).step.intensity, 32.0, 0.1);
}

// "A GPU with roughly 300 TFLOP/s and 2 TB/s balances at about 150 FLOP/byte." ... "two orders of
//  magnitude below the hardware's balance point, so the GPU's arithmetic units are idle more than 99
//  per cent of the time"
TEST(LlmSourceText, BalanceIs150FlopPerByteAndBatchOneLeavesTheUnitsIdle)
{
    const InferenceReport r = sevenB(1, 1);
    EXPECT_DOUBLE_EQ(r.ridgeFlopPerByte, 150.0);
    EXPECT_DOUBLE_EQ(r.datasheetRidgeFlopPerByte, 150.0);
    EXPECT_EQ(r.step.bound, Bound::Memory);
    EXPECT_LT(r.step.computeSeconds / r.step.seconds, 0.01);
    EXPECT_NEAR(r.step.seconds, 13.2147e9 / 2e12, 1e-5);  // generation speed = weights / bandwidth
}

// The batching table:
//   batch   weight reads   tokens produced   intensity    time per step   tokens/s
//      1      14 GB              1              1x            same           1x
//      4      14 GB              4              4x            same           4x
//     16      14 GB             16             16x            about same    ~16x
//     64      14 GB             64             64x            rising         <64x
//    256      14 GB            256            256x            compute-bound  flattens
// On the essay's 300 TFLOP/s, 2 TB/s GPU with ideal efficiencies and a short exchange (64 tokens of
// context each). With no KV cache at all the roofline stays flat until the ridge at 150; the "rising" at
// 64 is each sequence's own KV read, which the weights-only view leaves out.
TEST(LlmSourceText, BatchingTableStepTimeFlatThenRisingThenComputeBound)
{
    constexpr std::int64_t context = 64;
    const InferenceReport b1 = sevenB(1, context), b4 = sevenB(4, context), b16 = sevenB(16, context),
                          b64 = sevenB(64, context), b256 = sevenB(256, context), b1024 = sevenB(1024, context);
    for (const InferenceReport* r : {&b4, &b16, &b64, &b256})  // 14 GB of weight reads on every row
        EXPECT_NEAR(r->step.weightBytes / b1.step.weightBytes, 1.0, 1e-3);
    // time per step: same, same, about same, rising
    EXPECT_LT(b4.step.seconds / b1.step.seconds, 1.01);
    EXPECT_LT(b16.step.seconds / b1.step.seconds, 1.05);
    EXPECT_GT(b64.step.seconds / b1.step.seconds, 1.10);
    // tokens/s: 1x, 4x, ~16x, <64x, flattens
    EXPECT_NEAR(b4.tokensPerSecond / b1.tokensPerSecond, 4.0, 0.04);
    EXPECT_NEAR(b16.tokensPerSecond / b1.tokensPerSecond, 16.0, 0.8);
    EXPECT_LT(b64.tokensPerSecond / b1.tokensPerSecond, 60.0);
    EXPECT_GT(b64.tokensPerSecond / b1.tokensPerSecond, 32.0);
    EXPECT_NEAR(b1024.tokensPerSecond / b256.tokensPerSecond, 1.0, 0.01);
    // bound: memory up to 64, compute from 256
    for (const InferenceReport* r : {&b1, &b4, &b16, &b64})
        EXPECT_EQ(r->step.bound, Bound::Memory);
    EXPECT_EQ(b256.step.bound, Bound::Compute);
    EXPECT_EQ(b1024.step.bound, Bound::Compute);
    ASSERT_TRUE(b1.kneeBatch.has_value());
    EXPECT_GT(*b1.kneeBatch, 64);
    EXPECT_LE(*b1.kneeBatch, 256);
}

TEST(LlmSourceText, WeightsOnlyViewStaysFlatUntilTheRidgeAt150)
{
    const InferenceReport b1 = sevenB(1, 1), b64 = sevenB(64, 1), b256 = sevenB(256, 1);
    EXPECT_LT(b64.step.seconds / b1.step.seconds, 1.01);
    EXPECT_EQ(b256.step.bound, Bound::Compute);
    ASSERT_TRUE(b1.kneeBatch.has_value());
    EXPECT_GE(*b1.kneeBatch, 150);  // intensity ~ batch crosses the 150 FLOP/byte ridge
    EXPECT_LE(*b1.kneeBatch, 152);
}

// "Latency for an individual request goes up" and "throughput and time-to-first-token trade against each
// other directly": a bigger static batch raises throughput and each request's latency.
TEST(LlmSourceText, BatchingTradesLatencyForThroughput)
{
    auto run = [](std::int64_t batch) {
        InferenceConfig c = test::config(test::model("llama-2-7b"), test::sourceTextGpu(), batch, 1024);
        c.prompt = 512;
        c.output = 512;
        c.efficiency = Efficiency::ideal();
        return test::evaluate(c);
    };
    const InferenceReport one = run(1), many = run(32);
    EXPECT_GT(*many.throughputTokensPerSecond, 10.0 * *one.throughputTokensPerSecond);
    EXPECT_GT(*many.ttftSeconds, 5.0 * *one.ttftSeconds);
    EXPECT_GT(*many.e2eLatencySeconds, *one.e2eLatencySeconds);
}
