// Disaggregated serving (disaggregation.h): the KV transfer, each pool's utilisation, the best prefill:decode split
// and how it moves with the prompt, against colocated serving on the same GPUs.
#include "core/model/serving/disaggregation.h"
#include "tests/core/model/llm_test_support.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;

namespace {

LlmModel llama8bOnH100(int tensorParallel = 1)
{
    InferenceConfig c = test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), 1, 2048);
    c.efficiency = EngineTerms::measured();
    c.tensorParallel = tensorParallel;
    if (tensorParallel > 1)
        c.link = findLink(u"nvlink4").value();
    return test::prepared(c);
}

SplitInputs split(int prefill, int decode, const char* link = "infiniband-ndr")
{
    SplitInputs in;
    in.prefillGpus = prefill;
    in.decodeGpus = decode;
    in.link = findLink(QString::fromLatin1(link)).value();
    return in;
}

SplitServing evaluated(const LlmModel& model, const RequestMix& mix, const SplitInputs& in)
{
    const Result<SplitServing> r = splitServing(model, mix, in);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message.toStdString());
    return r.ok() ? r.value() : SplitServing{};
}

SplitSweep swept(const LlmModel& model, const RequestMix& mix, int gpus)
{
    const Result<SplitSweep> r = splitSweep(model, mix, gpus, split(1, 1));
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message.toStdString());
    return r.ok() ? r.value() : SplitSweep{};
}

void expectFiniteAndInRange(const SplitServing& s)
{
    SCOPED_TRACE(testing::Message() << s.prefillGpus << ":" << s.decodeGpus);
    for (double v :
         {s.kvTransferSeconds, s.maxRequestsPerSecond, s.requestsPerSecond, s.prefillWaitSeconds, s.prefillSeconds,
          s.ttftSeconds, s.decodeWaitSeconds, s.itlSeconds, s.e2eSeconds, s.tokensPerSecondPerGpu}) {
        EXPECT_TRUE(std::isfinite(v));
        EXPECT_GE(v, 0.0);
    }
    for (double u : {s.prefillUtilisation, s.decodeUtilisation, s.linkUtilisation}) {
        EXPECT_GE(u, 0.0);
        EXPECT_LE(u, 1.0);
    }
}

}  // namespace

TEST(Disaggregation, KvTransferIsThePromptsKvBytesOverTheLinksBandwidth)
{
    const LlmModel model = llama8bOnH100();
    const RequestMix mix{4096, 256, 1, 0.5};
    const SplitServing s = evaluated(model, mix, split(1, 1));
    // Llama 3 8B: 32 layers x 8 KV heads x 128 x 2 (K and V) x 2 bytes = 128 KiB a token, 512 MiB for 4,096 tokens.
    EXPECT_DOUBLE_EQ(s.kvBytes, 4096.0 * 131072.0);
    EXPECT_DOUBLE_EQ(s.kvBytesPerGpu, s.kvBytes);
    // InfiniBand NDR: 50 GB/s a direction and 5 us a hop: 10.7 ms.
    EXPECT_DOUBLE_EQ(s.kvTransferSeconds, 5e-6 + s.kvBytes / 50e9);
    EXPECT_NEAR(s.kvTransferSeconds, 0.0107, 0.0001);
    // NVLink 4 moves it 9 times faster.
    const SplitServing nvlink = evaluated(model, mix, split(1, 1, "nvlink4"));
    EXPECT_DOUBLE_EQ(nvlink.kvTransferSeconds, 1e-6 + s.kvBytes / 450e9);
    // The time to first token is its parts; the transfer is on it unless overlapped with the prefill.
    EXPECT_DOUBLE_EQ(s.ttftSeconds, s.prefillWaitSeconds + s.prefillSeconds + s.exposedTransferSeconds);
    EXPECT_GE(s.exposedTransferSeconds, s.kvTransferSeconds);
    SplitInputs overlapped = split(1, 1);
    overlapped.overlapTransfer = true;
    const SplitServing o = evaluated(model, mix, overlapped);
    EXPECT_LT(o.exposedTransferSeconds, s.exposedTransferSeconds);
    EXPECT_LT(o.ttftSeconds, s.ttftSeconds);
    // Over tensor-parallel engines each GPU sends its share of the KV heads.
    const LlmModel tp2 = llama8bOnH100(2);
    const SplitServing shared = evaluated(tp2, mix, split(2, 2));
    EXPECT_DOUBLE_EQ(shared.kvBytesPerGpu, s.kvBytes / 2.0);
}

TEST(Disaggregation, UtilisationsStayWithinZeroAndOneAndEveryFigureIsFinite)
{
    const LlmModel model = llama8bOnH100();
    for (const RequestMix& mix : {RequestMix{128, 1024, 512, 0}, RequestMix{7168, 128, 512, 0},
                                  RequestMix{1024, 1024, 1, 0}, RequestMix{1024, 1024, 1, 2.0}}) {
        const SplitSweep sweep = swept(model, mix, 8);
        ASSERT_EQ(sweep.splits.size(), 7u);
        for (const SplitServing& s : sweep.splits) {
            expectFiniteAndInRange(s);
            EXPECT_EQ(s.prefillGpus + s.decodeGpus, 8);
            EXPECT_LE(s.requestsPerSecond, s.maxRequestsPerSecond);
        }
        EXPECT_GE(sweep.colocated.utilisation, 0.0);
        EXPECT_LE(sweep.colocated.utilisation, 1.0);
    }
}

TEST(Disaggregation, TheBestSplitFlipsWithThePromptLength)
{
    const LlmModel model = llama8bOnH100();
    // Many requests in flight, so each split runs near what its pools serve.
    const SplitSweep longPrompts = swept(model, RequestMix{7168, 128, 512, 0}, 8);
    const SplitSweep shortPrompts = swept(model, RequestMix{128, 1024, 512, 0}, 8);
    ASSERT_TRUE(longPrompts.best && shortPrompts.best);
    const SplitServing& forLong = longPrompts.splits[*longPrompts.best];
    const SplitServing& forShort = shortPrompts.splits[*shortPrompts.best];
    // Long prompts: the prefill is the work, more prefill GPUs than decode; short ones the other way round.
    EXPECT_GT(forLong.prefillGpus, forLong.decodeGpus);
    EXPECT_LT(forShort.prefillGpus, forShort.decodeGpus);
    // The same under random arrivals both mixes' best splits keep up with.
    const SplitSweep longOpen = swept(model, RequestMix{7168, 128, 1, 0.5 * forLong.requestsPerSecond}, 8);
    const SplitSweep shortOpen = swept(model, RequestMix{128, 1024, 1, 0.5 * forShort.requestsPerSecond}, 8);
    ASSERT_TRUE(longOpen.best && shortOpen.best);
    EXPECT_GT(longOpen.splits[*longOpen.best].prefillGpus, shortOpen.splits[*shortOpen.best].prefillGpus);
    // What bounds a split too far from the best is the pool it starves.
    EXPECT_EQ(longPrompts.splits.front().bottleneck, QStringLiteral("prefill"));
    EXPECT_EQ(shortPrompts.splits.back().bottleneck, QStringLiteral("decode"));
}

TEST(Disaggregation, ColocatedComparisonOnTheSameGpus)
{
    const LlmModel model = llama8bOnH100();
    // At one arrival rate both keep up with, every GPU makes the same tokens: rate x output / GPUs.
    const RequestMix mix{1024, 1024, 1, 4.0};
    const SplitSweep sweep = swept(model, mix, 8);
    ASSERT_TRUE(sweep.colocated.keepsUp);
    EXPECT_NEAR(sweep.colocated.tokensPerSecondPerGpu, 4.0 * 1024 / 8, 1e-9);
    for (const SplitServing& s : sweep.splits) {
        if (s.keepsUp) {
            EXPECT_NEAR(s.tokensPerSecondPerGpu, 4.0 * 1024 / 8, 1e-9);
        }
    }
    // A 1:1 split on two GPUs with a decode-heavy mix: the prefill GPU sits nearly idle where the colocated GPUs,
    // prefilling and decoding alike, are busy.
    const RequestMix chat{512, 1024, 64, 0};
    const SplitServing oneToOne = evaluated(model, chat, split(1, 1));
    const Result<ColocatedServing> colocated = colocatedServing(model, chat, 2);
    ASSERT_TRUE(colocated.ok());
    EXPECT_LT(oneToOne.prefillUtilisation, 0.15);
    EXPECT_GT(oneToOne.decodeUtilisation, 0.5);
    EXPECT_GT(colocated.value().utilisation, 3 * oneToOne.prefillUtilisation);
    // The same arrivals on one decode engine and on one colocated engine: without prefill chunks in its steps the
    // decode engine's tokens come closer together (DistServe's interference), at the cost of a prefill GPU.
    const RequestMix longPrompts{4096, 256, 1, 2.0};
    const SplitServing decodeOnly = evaluated(model, longPrompts, split(1, 1));
    const Result<ColocatedServing> oneEngine = colocatedServing(model, longPrompts, 1);
    ASSERT_TRUE(oneEngine.ok() && oneEngine.value().keepsUp);
    EXPECT_LT(decodeOnly.itlSeconds, oneEngine.value().latency.itlSeconds);
}

TEST(Disaggregation, RefusesPoolsWithoutGpusOrWholeEnginesAndALinkWithoutBandwidth)
{
    const LlmModel model = llama8bOnH100();
    const RequestMix mix{1024, 256, 8, 0};
    const Result<SplitServing> empty = splitServing(model, mix, split(0, 4));
    ASSERT_FALSE(empty.ok());
    EXPECT_TRUE(empty.error().message.contains(QStringLiteral("prefill pool")));
    EXPECT_TRUE(splitServing(model, mix, split(4, 0)).error().message.contains(QStringLiteral("decode pool")));
    const Result<SplitServing> odd = splitServing(llama8bOnH100(2), mix, split(3, 4));
    ASSERT_FALSE(odd.ok());
    EXPECT_TRUE(odd.error().message.contains(QStringLiteral("whole number of engines")));
    SplitInputs noLink = split(1, 1);
    noLink.link = LinkSpec{};
    EXPECT_TRUE(splitServing(model, mix, noLink).error().message.contains(QStringLiteral("link")));
    EXPECT_FALSE(splitServing(model, RequestMix{1024, 256, 1, -1.0}, split(1, 1)).ok());
    EXPECT_FALSE(splitSweep(model, mix, 1, split(1, 1)).ok());
    // More than the split serves: not kept up, its capacity still said, nothing infinite.
    const SplitServing over = evaluated(model, RequestMix{1024, 256, 1, 1e6}, split(1, 1));
    EXPECT_FALSE(over.keepsUp);
    EXPECT_GT(over.maxRequestsPerSecond, 0.0);
    expectFiniteAndInRange(over);
}

TEST(Disaggregation, PrefillSitsNearTheComputeRoofAndDecodeOnTheBandwidthRoof)
{
    const LlmModel model = llama8bOnH100();
    const SplitServing s = evaluated(model, RequestMix{2048, 512, 64, 0}, split(2, 6));
    const Roof roof = model.effectiveRoof();
    const double ridge = roof.peakGflops / roof.bandwidthGbps;
    // A 2,048-token prompt reuses each weight 2,048 times: far right of the ridge. A decode step of tens of
    // requests reuses it a few tens of times, and each reads its own KV cache: left of it.
    EXPECT_EQ(s.prefillBound, Bound::Compute);
    EXPECT_GT(s.prefillIntensity, ridge);
    EXPECT_EQ(s.decodeBound, Bound::Memory);
    EXPECT_LT(s.decodeIntensity, ridge);
}

TEST(Disaggregation, TargetsChooseTheBestAmongTheSplitsThatMeetThem)
{
    const LlmModel model = llama8bOnH100();
    const RequestMix mix{4096, 256, 1, 20.0};
    const SplitSweep free = swept(model, mix, 8);
    ASSERT_TRUE(free.best);
    // A time-to-first-token target the fastest-prefilling splits meet and the best without targets does not.
    const SplitServing& unconstrained = free.splits[*free.best];
    const FrontierTargets targets{0.9 * unconstrained.ttftSeconds, std::nullopt};
    const Result<SplitSweep> r = splitSweep(model, mix, 8, split(1, 1), targets);
    ASSERT_TRUE(r.ok());
    const SplitSweep& held = r.value();
    ASSERT_TRUE(held.best);
    EXPECT_TRUE(held.splits[*held.best].meetsTargets);
    EXPECT_LE(held.splits[*held.best].ttftSeconds, *targets.ttftSeconds);
    EXPECT_GT(held.splits[*held.best].prefillGpus, unconstrained.prefillGpus);
    for (const SplitServing& s : held.splits)
        EXPECT_EQ(s.meetsTargets, s.keepsUp && s.ttftSeconds <= *targets.ttftSeconds);
    // The least a target can be: one prompt's prefill and transfer alone, one request decoding alone.
    const Result<TargetMinimums> least = splitTargetMinimums(model, mix, split(1, 1));
    ASSERT_TRUE(least.ok());
    EXPECT_DOUBLE_EQ(least.value().ttftSeconds, model.prefill(1, 4096).seconds + held.splits.front().kvTransferSeconds);
    EXPECT_DOUBLE_EQ(least.value().itlSeconds, model.decodeStep(1, 4096 + 128).seconds);
    for (const SplitServing& s : held.splits)
        if (s.keepsUp) {
            EXPECT_GE(s.ttftSeconds, least.value().ttftSeconds);
            EXPECT_GE(s.itlSeconds, least.value().itlSeconds);
        }
}
