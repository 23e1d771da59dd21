// The analytical model beyond the source text: GQA, MLA, sliding window, MoE, prefill, end-to-end
// latency, memory limits and tensor parallelism inside and across boxes.
#include "core/model/llm/llm_model.h"
#include "core/model/catalog/links.h"
#include "tests/core/model/llm_test_support.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;

TEST(LlmModel, GroupedQueryAttentionLlama3_8BIs128KiBPerToken)
{
    const InferenceReport r = test::evaluate(test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), 1, 8192));
    EXPECT_EQ(r.kvBytesPerToken, 128 * 1024);    // 2 x 32 layers x 8 KV heads x 128 x 2 bytes
    EXPECT_EQ(r.kvBytesPerSequence, 1LL << 30);  // a quarter of Llama 2 7B's 4 GiB
}

TEST(LlmModel, LatentAttentionDeepSeekV3Is70272BytesPerTokenInBf16)
{
    const InferenceReport r = test::evaluate(test::config(test::model("deepseek-v3"), test::gpu("h200"), 1, 1024));
    EXPECT_EQ(r.kvBytesPerToken, 70'272);  // (512 latent + 64 rope) x 61 layers x 2 bytes
    EXPECT_EQ(r.kvBytesPerToken, (512 + 64) * 61 * 2);
    // The same 128 heads as plain MHA would need 57x more.
    EXPECT_GT(2LL * 61 * 128 * 128 * 2 / r.kvBytesPerToken, 50);
}

TEST(LlmModel, KvCacheComesFromHeadsNotFromHiddenSize)
{
    ModelSpec m = test::model("llama-2-7b");
    m.hidden = 3072;  // a model whose head dim x heads != hidden (as in Gemma)
    m.ffn = 8192;
    const InferenceReport r = test::evaluate(test::config(m, test::gpu("h100-sxm"), 1, 16));
    EXPECT_EQ(r.kvBytesPerToken, 2 * 32 * 32 * 128 * 2);  // 2 L K h bytes, hidden size plays no part
    InferenceConfig fp8 = test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), 1, 16);
    fp8.kv = NumberFormat::Fp8;
    EXPECT_EQ(test::evaluate(fp8).kvBytesPerToken, 64 * 1024);
    fp8.kv = NumberFormat::Int4;  // 4 bits plus a 16-bit scale and zero per 128 values: 4.25 bits
    EXPECT_EQ(test::evaluate(fp8).kvBytesPerToken, 32 * 1024 + 2 * 1024);
}

TEST(LlmModel, SlidingWindowCapsMistralsKvCacheAt4096Tokens)
{
    const ModelSpec mistral = test::model("mistral-7b");
    const InferenceReport shortContext = test::evaluate(test::config(mistral, test::gpu("a100-80gb-sxm"), 1, 2048));
    const InferenceReport window = test::evaluate(test::config(mistral, test::gpu("a100-80gb-sxm"), 1, 4096));
    const InferenceReport longContext = test::evaluate(test::config(mistral, test::gpu("a100-80gb-sxm"), 1, 32768));
    EXPECT_EQ(shortContext.kvTokensPerSequence, 2048);
    EXPECT_EQ(longContext.kvTokensPerSequence, 4096);
    EXPECT_EQ(longContext.kvBytesPerSequence, 4096LL * 128 * 1024);  // 512 MiB, not 4 GiB
    EXPECT_DOUBLE_EQ(longContext.step.seconds, window.step.seconds);
    EXPECT_EQ(longContext.maxBatch, window.maxBatch);
    // Llama 3 8B has the same KV shape and no window: its cache keeps growing.
    EXPECT_EQ(test::evaluate(test::config(test::model("llama-3-8b"), test::gpu("a100-80gb-sxm"), 1, 32768))
                  .kvBytesPerSequence,
              8 * longContext.kvBytesPerSequence);
}

TEST(LlmModel, DecodeStepCountsWeightsOnceKvPerSequenceAndAttentionWithQueryHeads)
{
    InferenceConfig c = test::config(test::model("llama-3-8b"), test::sourceTextGpu(), 8, 1000);
    c.efficiency = Efficiency::ideal();
    const InferenceReport r = test::evaluate(c);
    const ParamCounts p = countParams(c.model).value();
    const double matmulFlops = 2.0 * static_cast<double>(p.total - p.embedding);  // LM head counted, lookup not
    const double attentionFlops = 4.0 * 32 * 128 * 1000 * 32;  // 4 x query heads x head dim x context x layers
    EXPECT_DOUBLE_EQ(r.step.flops, 8 * (matmulFlops + attentionFlops));
    EXPECT_DOUBLE_EQ(r.step.kvBytes, 8.0 * 1000 * 128 * 1024);
    EXPECT_DOUBLE_EQ(r.step.weightBytes, 2.0 * static_cast<double>(p.total - p.embedding) + 8 * 4096 * 2.0);
    EXPECT_DOUBLE_EQ(r.step.seconds, std::max(r.step.flops / 300e12, r.step.bytes / 2e12));
    EXPECT_DOUBLE_EQ(r.tokensPerSecond, 8.0 / r.step.seconds);
    EXPECT_DOUBLE_EQ(r.tokensPerSecondPerSequence, 1.0 / r.step.seconds);
}

TEST(LlmModel, AttentionAloneIsMemoryBoundExceptForAbsorbedLatentAttention)
{
    // FLOPs per KV byte of attention = query heads per KV head (bf16), whatever the batch or context.
    auto attention = [](const char* id, std::int64_t batch, std::int64_t context) {
        return test::evaluate(test::config(test::model(id), test::gpu("h100-sxm"), batch, context)).step;
    };
    for (std::int64_t batch : {1, 64})
        for (std::int64_t context : {128, 8192}) {
            EXPECT_DOUBLE_EQ(attention("llama-2-7b", batch, context).attentionIntensity(), 1.0);  // MHA
            EXPECT_DOUBLE_EQ(attention("llama-3-8b", batch, context).attentionIntensity(), 4.0);  // 32 / 8
            EXPECT_DOUBLE_EQ(attention("qwen2.5-7b", batch, context).attentionIntensity(), 7.0);  // 28 / 4
        }
    // MLA decode: 128 heads score against one 576-wide latent per token: (2 x 576 + 2 x 512) x 128 FLOPs
    // per 1,152 bytes, past the H100's ridge.
    const StepCost mla = test::evaluate(test::config(test::model("deepseek-v3"), test::gpu("h200"), 1, 4096)).step;
    EXPECT_DOUBLE_EQ(mla.attentionIntensity(), (2.0 * 576 + 2.0 * 512) * 128 / 1152.0);
    EXPECT_GT(mla.attentionIntensity(), 200.0);
}

TEST(LlmModel, EfficienciesScaleTheRoofSeparately)
{
    InferenceConfig c = test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 1, 512);
    c.efficiency = Efficiency::ideal();
    const InferenceReport ideal = test::evaluate(c);
    c.efficiency = Efficiency{0.5, 1.0};
    const InferenceReport halfBandwidth = test::evaluate(c);
    EXPECT_NEAR(halfBandwidth.step.seconds / ideal.step.seconds, 2.0, 1e-9);  // memory-bound: bandwidth decides
    c.efficiency = Efficiency{1.0, 0.5};
    EXPECT_DOUBLE_EQ(test::evaluate(c).step.seconds, ideal.step.seconds);  // compute efficiency does not matter here
    EXPECT_DOUBLE_EQ(halfBandwidth.ridgeFlopPerByte, 2.0 * ideal.ridgeFlopPerByte);
    const InferenceReport defaults =
        test::evaluate(test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 1, 512));
    EXPECT_DOUBLE_EQ(defaults.efficiency.bandwidth, kDefaultBandwidthEfficiency);
    EXPECT_DOUBLE_EQ(defaults.efficiency.compute, kDefaultComputeEfficiency);
}

TEST(LlmModel, LongContextDecodeNeverCrossesTheRidgeBecauseKvReadsGrowWithBatch)
{
    const InferenceReport r = test::evaluate(test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 16, 8192));
    EXPECT_FALSE(r.kneeBatch.has_value());
    EXPECT_GT(r.step.kvBytes, r.step.weightBytes);  // 64 GiB of cache read against 13 GB of weights
    // At a short context GQA's 4x smaller cache lets batching reach the ridge; full MHA still cannot.
    const InferenceReport gqa = test::evaluate(test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), 16, 256));
    ASSERT_TRUE(gqa.kneeBatch.has_value());
    EXPECT_GT(*gqa.kneeBatch, gqa.maxBatch / 100);
    EXPECT_FALSE(
        test::evaluate(test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 16, 256)).kneeBatch.has_value());
}

TEST(LlmModel, MaxBatchIsTheLargestThatFitsAtThisContext)
{
    for (const char* gpuId : {"a100-40gb-sxm", "h100-sxm", "h200", "mi300x", "l4"}) {
        const LlmModel model = test::prepared(test::config(test::model("llama-3-8b"), test::gpu(gpuId), 1, 32768));
        const std::int64_t maxBatch = model.maxBatch(32768);
        ASSERT_GT(maxBatch, 0) << gpuId;
        EXPECT_TRUE(model.memory(maxBatch, 32768).value().fits) << gpuId;
        EXPECT_FALSE(model.memory(maxBatch + 1, 32768).value().fits) << gpuId;
    }
    const InferenceReport tooBig =
        test::evaluate(test::config(test::model("llama-2-70b"), test::gpu("h100-sxm"), 1, 4096));
    EXPECT_FALSE(tooBig.memory.fits);  // 138 GB of bf16 weights on an 80 GiB card
    EXPECT_EQ(tooBig.maxBatch, 0);
    InferenceConfig int4 = test::config(test::model("llama-2-70b"), test::gpu("h100-sxm"), 1, 4096);
    int4.weights = NumberFormat::Int4;
    const InferenceReport quantised = test::evaluate(int4);
    EXPECT_TRUE(quantised.memory.fits);
    // 4.25 bits per weight (scales and zeros per 128), the embedding and LM head (2 x 32000 x 8192) and the norms
    // (161 x 8192) kept in bf16.
    const std::int64_t tables = 2LL * 32000 * 8192 + 161LL * 8192;
    EXPECT_EQ(quantised.weightsBytes, (68'976'648'192 - tables) * 136 / 256 + 2 * tables);
    EXPECT_EQ(quantised.headPrecision, NumberFormat::Bf16);
    EXPECT_TRUE(quantised.notes.join(QString()).contains(QStringLiteral("int4")));  // multiplied in bf16
}

TEST(LlmModel, MixtureOfExpertsTouchesMoreExpertsAsTheBatchGrows)
{
    const LlmModel mixtral = test::prepared(test::config(test::model("mixtral-8x7b"), test::gpu("h100-sxm"), 1, 1024));
    EXPECT_DOUBLE_EQ(mixtral.expectedExpertsTouched(1), 2.0);
    EXPECT_DOUBLE_EQ(mixtral.expectedExpertsTouched(2), 8.0 * (1.0 - 0.75 * 0.75));
    EXPECT_NEAR(mixtral.expectedExpertsTouched(64), 8.0, 1e-6);
    const ParamCounts p = mixtral.params();
    const double bytesPerExpertLayer = 2.0 * static_cast<double>(p.perExpert) * 32;
    const StepCost one = mixtral.decodeStep(1, 1024), many = mixtral.decodeStep(64, 1024);
    // Batch 1 reads 2 of 8 experts: about the 12.9B active parameters, not the 46.7B.
    EXPECT_NEAR(many.weightBytes - one.weightBytes, 6.0 * bytesPerExpertLayer + 63 * 4096 * 2.0,
                1e-6 * many.weightBytes);
    EXPECT_NEAR(one.weightBytes / (2.0 * static_cast<double>(p.activePerToken)), 1.0, 0.02);
    // So the weights are not "read once whatever the batch" until every expert is in use.
    EXPECT_LT(mixtral.decodeStep(2, 1024).intensity / one.intensity, 1.5);

    const LlmModel deepseek = test::prepared(test::config(test::model("deepseek-v3"), test::gpu("h200"), 1, 1024));
    EXPECT_DOUBLE_EQ(deepseek.expectedExpertsTouched(1), 8.0);
    EXPECT_NEAR(deepseek.expectedExpertsTouched(32), 256.0 * (1.0 - std::pow(248.0 / 256.0, 32)), 1e-9);
    EXPECT_GT(deepseek.expectedExpertsTouched(256), 255.0);
    EXPECT_LT(deepseek.expectedExpertsTouched(16), 128.0);
}

TEST(LlmModel, PrefillIsComputeBoundAndSetsTimeToFirstToken)
{
    InferenceConfig c = test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 1, 2048);
    c.prompt = 2048;
    c.efficiency = Efficiency::ideal();
    const InferenceReport r = test::evaluate(c);
    ASSERT_TRUE(r.prefill.has_value() && r.ttftSeconds.has_value());
    EXPECT_FALSE(r.e2eLatencySeconds.has_value());
    EXPECT_EQ(r.prefill->bound, Bound::Compute);
    const ParamCounts p = countParams(c.model).value();
    const double causalPairs = 2048.0 * 2049.0 / 2.0;
    const double flops = 2048.0 * 2.0 * static_cast<double>(p.total - p.embedding) + 4.0 * 32 * 128 * 32 * causalPairs;
    EXPECT_DOUBLE_EQ(r.prefill->flops, flops);
    EXPECT_DOUBLE_EQ(*r.ttftSeconds, flops / 989.4e12);
}

TEST(LlmModel, EndToEndLatencyIsPrefillPlusEachDecodeStepOverAGrowingCache)
{
    // Brute force against the closed form, on a case that crosses from compute- to memory-bound as the
    // cache grows, and on Mistral whose window stops the growth.
    for (const char* id : {"llama-2-7b", "mistral-7b"}) {
        InferenceConfig c = test::config(test::model(id), test::sourceTextGpu(), 256, 4200);
        c.prompt = 3900;
        c.output = 300;
        c.efficiency = Efficiency::ideal();
        const LlmModel model = test::prepared(c);
        const InferenceReport r = model.report().value();
        double sum = 0.0;
        bool sawCompute = false, sawMemory = false;
        for (std::int64_t context = c.prompt + 1; context < c.prompt + c.output; ++context) {
            const StepCost step = model.decodeStep(c.batch, context);
            sum += step.seconds;
            (step.bound == Bound::Compute ? sawCompute : sawMemory) = true;
        }
        EXPECT_NEAR(*r.e2eLatencySeconds, *r.ttftSeconds + sum, 1e-9 * sum) << id;
        EXPECT_DOUBLE_EQ(*r.throughputTokensPerSecond, 256.0 * 300.0 / *r.e2eLatencySeconds) << id;
        EXPECT_TRUE(sawMemory) << id;
    }
    InferenceConfig crossing = test::config(test::model("llama-2-7b"), test::sourceTextGpu(), 256, 200);
    crossing.prompt = 1;
    crossing.output = 200;
    crossing.efficiency = Efficiency::ideal();
    const LlmModel model = test::prepared(crossing);
    EXPECT_EQ(model.decodeStep(256, 2).bound, Bound::Compute);
    EXPECT_EQ(model.decodeStep(256, 200).bound, Bound::Memory);
    double sum = 0.0;
    for (std::int64_t context = 2; context <= 200; ++context)
        sum += model.decodeStep(256, context).seconds;
    EXPECT_NEAR(model.decodeSecondsSum(256, 2, 200), sum, 1e-12 * sum);
}

TEST(LlmTensorParallel, InsideTheBoxItWorksAcrossBoxesItDoesNot)
{
    // Llama 2 70B, batch 64, 4k context, over 8 GPUs.
    auto run = [](int gpus, const char* link) {
        InferenceConfig c = test::config(test::model("llama-2-70b"), test::gpu("h100-sxm"), 64, 4096);
        c.tensorParallel = gpus;
        if (gpus > 1)
            c.link = findLink(QString::fromLatin1(link)).value();
        return test::evaluate(c);
    };
    const InferenceReport one = run(1, ""), nvlink = run(8, "nvlink4"), infiniband = run(8, "infiniband-ndr"),
                          ethernet = run(8, "ethernet-100g");
    EXPECT_FALSE(one.memory.fits);
    EXPECT_TRUE(nvlink.memory.fits);
    EXPECT_EQ(nvlink.memory.weightsPerGpu * 8, nvlink.weightsBytes);
    EXPECT_EQ(nvlink.memory.kvPerGpu * 8, nvlink.kvBytesTotal);  // 8 KV heads over 8 GPUs
    // Inside the box the all-reduces are a small share and 8 GPUs are nearly 8x faster.
    EXPECT_LT(nvlink.commFraction, 0.25);
    EXPECT_GT(nvlink.tokensPerSecond / one.tokensPerSecond, 5.5);
    // Across boxes the same strategy spends most of each step talking.
    EXPECT_GT(ethernet.commFraction, 0.75);
    EXPECT_GT(infiniband.commFraction, 0.5);
    EXPECT_LT(ethernet.tokensPerSecond / one.tokensPerSecond, 2.0);  // 8 GPUs for less than 2x
    // (Even with NCCL's tree across the eight nodes: 6 steps of the network's latency instead of the ring's 14.)
    EXPECT_GT(nvlink.tokensPerSecond, 1.5 * infiniband.tokensPerSecond);
    // Two all-reduces of batch x hidden bf16 activations per layer.
    const LinkSpec link = findLink(QStringLiteral("nvlink4")).value();
    EXPECT_DOUBLE_EQ(nvlink.step.commSeconds, 2.0 * 80 * ringAllReduceSeconds(link, 8, 64.0 * 8192 * 2));
}

TEST(LlmTensorParallel, RingAllReduceHasALatencyAndABandwidthTerm)
{
    const LinkSpec nvlink = findLink(QStringLiteral("nvlink4")).value();
    EXPECT_DOUBLE_EQ(ringAllReduceSeconds(nvlink, 1, 1e9), 0.0);
    EXPECT_DOUBLE_EQ(ringAllReduceSeconds(nvlink, 2, 0.0), 2.0 * nvlink.latencyUs * 1e-6);
    // A large message goes by NCCL's Simple protocol: the ring's bytes at its share of the link, 41 us more latency.
    EXPECT_NEAR(ringAllReduceSeconds(nvlink, 8, 450e9) - ringAllReduceSeconds(nvlink, 8, 0.0),
                14.0 / 8.0 / nvlink.shares.ncclSimple, 1e-4);
    EXPECT_FALSE(findLink(QStringLiteral("carrier-pigeon")).ok());
    EXPECT_TRUE(findLink(QStringLiteral("nvlink4")).value().insideBox);
    EXPECT_FALSE(findLink(QStringLiteral("infiniband-ndr")).value().insideBox);
}

TEST(LlmTensorParallel, LatentCacheIsReplicatedAndGqaCacheSplitsOnlyUpToItsKvHeads)
{
    InferenceConfig deepseek = test::config(test::model("deepseek-v3"), test::gpu("h200"), 8, 4096);
    deepseek.tensorParallel = 8;
    deepseek.link = findLink(QStringLiteral("nvlink4")).value();
    const InferenceReport r = test::evaluate(deepseek);
    EXPECT_EQ(r.memory.kvPerGpu, r.kvBytesTotal);
    InferenceConfig llama = test::config(test::model("llama-3-70b"), test::gpu("h100-sxm"), 8, 4096);
    llama.tensorParallel = 16;  // 16 GPUs, 8 KV heads: each head is held twice
    llama.link = findLink(QStringLiteral("nvlink4")).value();
    const InferenceReport g = test::evaluate(llama);
    EXPECT_EQ(g.memory.kvPerGpu * 8, g.kvBytesTotal);
}

TEST(LlmModel, ModelGivenByParameterCountIsRoughlyLlamaShaped)
{
    const ModelSpec m = modelFromParamCount(7e9).value();
    InferenceConfig c = test::config(m, test::gpu("h100-sxm"), 1, 4096);
    const InferenceReport r = test::evaluate(c);
    EXPECT_EQ(r.params, 7'000'000'000);
    EXPECT_EQ(r.weightsBytes, 14'000'000'000);
    EXPECT_EQ(m.headDim, 128);
    EXPECT_NEAR(static_cast<double>(r.kvBytesPerToken) / (512.0 * 1024.0), 1.0, 0.15);  // close to Llama 2 7B
}
