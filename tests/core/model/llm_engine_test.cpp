// What engines spend beyond the roofline, the step-time breakdown, FP4 and per-module formats, expert
// parallelism, speculative decoding, multi-node tensor parallelism and serving under load.
#include "core/model/llm/llm_model.h"
#include "core/model/units.h"
#include "tests/core/model/llm_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace ridgeline;

namespace {

Error errorOf(const InferenceConfig& c)
{
    Result<InferenceReport> r = evaluateInference(c);
    EXPECT_FALSE(r.ok());
    return r.ok() ? Error{} : r.error();
}

InferenceConfig parallel(const char* model, const char* gpu, int tp, std::int64_t batch, std::int64_t context)
{
    InferenceConfig c = test::config(test::model(model), test::gpu(gpu), batch, context);
    c.tensorParallel = tp;
    c.link = findLink(QStringLiteral("nvlink4")).value();
    return c;
}

}  // namespace

TEST(LlmEngine, BreakdownSumsToTheStepAndChargesEachKernelToWhatBoundsIt)
{
    // Batch 1: every kernel waits on memory; the ideal roofline spends nothing else.
    InferenceConfig c = test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), 1, 4096);
    c.efficiency = EngineTerms::ideal();
    const StepCost one = test::evaluate(c).step;
    EXPECT_DOUBLE_EQ(one.breakdown.total(), one.seconds);
    EXPECT_EQ(one.breakdown.compute, 0.0);
    EXPECT_EQ(one.breakdown.overhead, 0.0);
    EXPECT_NEAR(one.breakdown.weights, one.weightBytes / 3.35e12, 1e-12);
    EXPECT_NEAR(one.breakdown.kv, one.kvBytes / 3.35e12, 1e-12);
    // Batch 512 at a short context: the GEMMs are compute-bound, attention still reads its cache.
    c.batch = 512;
    c.context = 256;
    const StepCost many = test::evaluate(c).step;
    EXPECT_EQ(many.bound, Bound::Compute);
    EXPECT_GT(many.breakdown.compute, 0.0);
    EXPECT_GT(many.breakdown.kv, 0.0);
    EXPECT_DOUBLE_EQ(many.breakdown.total(), many.seconds);
    EXPECT_GE(many.seconds, std::max(many.computeSeconds, many.memorySeconds) * (1.0 - 1e-12));
}

TEST(LlmEngine, FixedTimesAddPerLayerPerStepAndPerCollective)
{
    InferenceConfig c = parallel("llama-3-70b", "h100-sxm", 8, 1, 2048);
    c.efficiency = EngineTerms::ideal();
    const StepCost bare = test::evaluate(c).step;
    EngineTerms terms = EngineTerms::ideal();
    terms.layerSeconds = 40e-6;
    terms.stepSeconds = 300e-6;
    terms.collectiveSeconds = 8e-6;
    c.efficiency = terms;
    const StepCost spent = test::evaluate(c).step;
    EXPECT_NEAR(spent.breakdown.overhead, 80 * 40e-6 + 300e-6 + 2 * 80 * 8e-6, 1e-12);
    EXPECT_NEAR(spent.seconds - bare.seconds, spent.breakdown.overhead, 1e-12);
    // The overhead is why quantised weights speed decode up by less than their bits: at batch 1 the step halves
    // its weight time but not its fixed time.
    InferenceConfig bf16 = test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), 1, 1024);
    bf16.efficiency = EngineTerms::measured();
    InferenceConfig fp8 = bf16;
    fp8.weights = NumberFormat::Fp8;
    const double speedup = test::evaluate(bf16).step.seconds / test::evaluate(fp8).step.seconds;
    EXPECT_GT(speedup, 1.2);
    EXPECT_LT(speedup, 1.9);
}

TEST(LlmEngine, Fp4AndInt4CarryTheirScalesAndMultiplyWhereTheGpuCan)
{
    EXPECT_DOUBLE_EQ(storageBitsPerElement(NumberFormat::Fp4), 4.5);     // NVFP4: e4m3 scale per 16
    EXPECT_DOUBLE_EQ(storageBitsPerElement(NumberFormat::Mxfp4), 4.25);  // MXFP4: e8m0 scale per 32
    EXPECT_DOUBLE_EQ(storageBitsPerElement(NumberFormat::Int4), 4.25);   // 16-bit scale and zero per 128
    EXPECT_EQ(parseNumberFormat(u"nvfp4"), NumberFormat::Fp4);
    EXPECT_EQ(parseNumberFormat(u"MXFP4"), NumberFormat::Mxfp4);

    InferenceConfig c = test::config(test::model("llama-3-70b"), test::gpu("b200"), 1, 1024);
    c.weights = NumberFormat::Fp4;
    const InferenceReport b200 = test::evaluate(c);
    EXPECT_EQ(b200.computePrecision, NumberFormat::Fp4);
    EXPECT_EQ(b200.headPrecision, NumberFormat::Bf16);
    const ParamCounts p = countParams(c.model).value();
    const std::int64_t tables = p.embedding + p.lmHead + p.norms;
    auto bytes = [&](double bitsPer32) {
        return static_cast<double>(p.total - tables) * bitsPer32 / 256.0 + 2.0 * static_cast<double>(tables);
    };
    EXPECT_NEAR(static_cast<double>(b200.weightsBytes), bytes(144), 1.0);
    c.weights = NumberFormat::Mxfp4;
    EXPECT_NEAR(static_cast<double>(test::evaluate(c).weightsBytes), bytes(136), 1.0);
    EXPECT_EQ(test::evaluate(c).computePrecision, NumberFormat::Fp4);  // mxfp4 multiplies on the fp4 units
    // A Hopper card has no fp4 tensor cores: the weights are dequantised and multiplied in bf16, and it says so.
    c.gpu = test::gpu("h100-sxm");
    c.weights = NumberFormat::Fp4;
    const InferenceReport h100 = test::evaluate(c);
    EXPECT_EQ(h100.computePrecision, NumberFormat::Bf16);
    EXPECT_TRUE(h100.notes.join(QLatin1Char(' ')).contains(QStringLiteral("fp4 weights are multiplied in bf16")));
    // The head format can be set, and the 16-bit rule only applies below 16 bits.
    c.headWeights = NumberFormat::Fp4;
    EXPECT_NEAR(static_cast<double>(test::evaluate(c).weightsBytes), static_cast<double>(p.total) * 144 / 256.0, 1.0);
    c.headWeights.reset();
    c.weights = NumberFormat::Fp32;
    EXPECT_EQ(test::evaluate(c).headPrecision, NumberFormat::Fp32);
}

TEST(LlmEngine, AttentionWeightsCanBeStoredApartFromTheExperts)
{
    // DeepSeek-V3 with fp4 experts and fp8 attention (as NVIDIA's FP4 checkpoints of R1 are made).
    InferenceConfig c = test::config(test::model("deepseek-v3"), test::gpu("b200"), 1, 4096);
    c.weights = NumberFormat::Fp4;
    const ParamCounts p = countParams(c.model).value();
    const std::int64_t allFp4 = test::evaluate(c).weightsBytes;
    c.attentionWeights = NumberFormat::Fp8;
    const InferenceReport mixed = test::evaluate(c);
    EXPECT_NEAR(static_cast<double>(mixed.weightsBytes - allFp4),
                static_cast<double>(p.attention) * (256 - 144) / 256.0, 1.0);
    EXPECT_EQ(mixed.attentionPrecision, NumberFormat::Fp8);
    EXPECT_EQ(mixed.computePrecision, NumberFormat::Fp4);
    c.attentionWeights = NumberFormat::Tf32;
    EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("tf32")));
}

TEST(LlmEngine, ExpertParallelismMustDivideTheExpertsAndTheGpus)
{
    InferenceConfig c = parallel("mixtral-8x7b", "h100-sxm", 8, 1, 1024);
    c.expertParallel = 8;
    const InferenceReport ep = test::evaluate(c);
    c.expertParallel = 1;
    const InferenceReport tp = test::evaluate(c);
    EXPECT_EQ(ep.memory.weightsPerGpu, tp.memory.weightsPerGpu);
    // Two experts per token over eight GPUs: the busiest GPU reads more than the average one.
    EXPECT_GT(ep.step.weightBytes, tp.step.weightBytes);
    c.expertParallel = 3;
    EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("expert-parallel")));
    c = parallel("deepseek-v3", "h200", 8, 1, 1024);
    c.expertParallel = 16;  // more than the GPUs
    EXPECT_FALSE(evaluateInference(c).ok());
    c = parallel("mixtral-8x7b", "h100-sxm", 16, 1, 1024);
    c.expertParallel = 16;  // 8 experts cannot be spread over 16 GPUs
    EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("8 experts")));
    c = parallel("llama-3-70b", "h100-sxm", 8, 1, 1024);
    c.expertParallel = 8;
    EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("mixture-of-experts")));
    // And a MoE shape with fewer experts than it routes to is refused where the shape is checked.
    ModelSpec m = test::model("mixtral-8x7b");
    m.activeExperts = 9;
    EXPECT_TRUE(countParams(m).error().message.contains(QStringLiteral("active experts")));
}

TEST(LlmEngine, SpeculativeDecodingGainsTheAcceptedTokensAndPaysForTheDraftAndTheVerify)
{
    InferenceConfig c = test::config(test::model("llama-3-70b"), test::gpu("h200"), 1, 2048);
    c.efficiency = EngineTerms::measured();
    const InferenceReport plain = test::evaluate(c);
    c.speculative = SpeculativeDecoding{3, 2.4};
    const InferenceReport spec = test::evaluate(c);
    EXPECT_DOUBLE_EQ(spec.tokensPerStep, 2.4);
    EXPECT_DOUBLE_EQ(spec.tokensPerSecond, 2.4 / spec.step.seconds);
    EXPECT_DOUBLE_EQ(spec.step.tokens, plain.step.tokens * 4 + 3 * 1);  // verify 4 positions; 3 draft passes
    // Memory-bound at batch 1: the verify costs little more than a plain step, so most of 2.4x is gained.
    EXPECT_GT(spec.tokensPerSecond / plain.tokensPerSecond, 1.8);
    EXPECT_LT(spec.tokensPerSecond / plain.tokensPerSecond, 2.4);
    // Compute-bound at a large batch the verify costs about tokens + 1 plain steps: speculation loses.
    c.batch = 1024;
    c.context = 256;
    const double bigSpec = test::evaluate(c).tokensPerSecond;
    c.speculative = {};
    EXPECT_LT(bigSpec, test::evaluate(c).tokensPerSecond);
    // A static batch needs about output / acceptance steps.
    c.batch = 1;
    c.prompt = 1000;
    c.output = 1001;
    c.speculative = SpeculativeDecoding{3, 2.5};
    const LlmModel model = test::prepared(c);
    const double sum = model.decodeSecondsSum(1, 1001, 2000);
    double brute = 0.0;
    for (int i = 0; i < 400; ++i)  // 1000 tokens at 2.5 per step
        brute += model.decodeStep(1, 1001 + static_cast<std::int64_t>(std::floor(2.5 * i))).seconds;
    EXPECT_NEAR(sum / brute, 1.0, 1e-4);
}

TEST(LlmEngine, AcceptanceBeyondTheDraftPlusOneAndOtherAbsurdSpeculationIsRefused)
{
    InferenceConfig c = test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), 1, 1024);
    for (const auto& [tokens, acceptance] : std::vector<std::pair<int, double>>{
             {3, 4.5}, {3, 0.5}, {0, 2.0}, {-1, 1.0}, {100, 2.0}, {3, std::numeric_limits<double>::quiet_NaN()}}) {
        c.speculative = SpeculativeDecoding{tokens, acceptance};
        const Error e = errorOf(c);
        EXPECT_TRUE(e.message.contains(QStringLiteral("speculative"))) << tokens << " " << acceptance;
    }
    c.speculative = SpeculativeDecoding{3, 4.0};  // every draft accepted plus the bonus token: the best case
    EXPECT_TRUE(evaluateInference(c).ok());
}

TEST(LlmEngine, TensorParallelismAcrossNodesUsesTheNetworkBetweenThem)
{
    InferenceConfig c = parallel("llama-3-70b", "h100-sxm", 16, 1024, 2048);
    c.gpusPerNode = 8;
    EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("network")));
    c.network = findLink(QStringLiteral("infiniband-ndr")).value();
    const InferenceReport twoNodes = test::evaluate(c);
    EXPECT_EQ(twoNodes.nodes, 2);
    const LinkSpec nvlink = c.link, ib = c.network;
    const double bytes = 1024.0 * 8192 * 2;
    EXPECT_NEAR(twoNodes.step.commSeconds,
                2.0 * 80 * (ringAllReduceSeconds(nvlink, 8, bytes) + ringAllReduceSeconds(ib, 2, bytes / 8)), 1e-15);
    c.gpusPerNode = 0;  // one big NVLink domain (an NVL72 rack): at this size the bytes decide
    EXPECT_LT(test::evaluate(c).step.commSeconds, twoNodes.step.commSeconds);
    c.gpusPerNode = 3;
    EXPECT_FALSE(evaluateInference(c).ok());
}

TEST(LlmEngine, ServingUnderLoadFoldsPrefillsIntoEachStep)
{
    InferenceConfig c = test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), 32, 1);
    c.efficiency = EngineTerms::measured();
    c.prompt = 4000;
    c.output = 100;
    const LlmModel model = test::prepared(c);
    const ServingEstimate s = model.serving(32, 4000, 100);
    EXPECT_NEAR(s.prefillTokensPerStep, 32.0 * 4000 / 99, 1e-9);
    EXPECT_DOUBLE_EQ(s.meanContext, 4050.0);
    const StepCost decodeOnly = model.decodeStep(32, 4050);
    EXPECT_GT(s.tpotSeconds, 2.0 * decodeOnly.seconds);  // long prompts, short answers: prefill dominates
    EXPECT_NEAR(s.outputTokensPerSecond / (32.0 / 99 * 100 / s.step.seconds), 1.0, 1e-12);
    // Short prompts barely change the step.
    const ServingEstimate chat = model.serving(32, 16, 2000);
    EXPECT_LT(chat.tpotSeconds / model.decodeStep(32, 16 + 1000).seconds, 1.05);
    const InferenceReport r = model.report().value();
    ASSERT_TRUE(r.serving.has_value());
    EXPECT_DOUBLE_EQ(r.serving->tpotSeconds, s.tpotSeconds);
}

TEST(LlmEngine, NoTermOrInputMakesNaNOrInfinity)
{
    InferenceConfig c = test::config(test::model("deepseek-v3"), test::gpu("b200"), kMaxBatch, 1);
    c.efficiency = EngineTerms::measured();
    c.prompt = 100000;
    c.output = 2;
    c.speculative = SpeculativeDecoding{kMaxSpeculativeTokens, kMaxSpeculativeTokens + 1.0};
    c.tensorParallel = 8;
    c.expertParallel = 8;
    c.link = findLink(QStringLiteral("nvlink5")).value();
    const InferenceReport r = test::evaluate(c);
    for (double v : {r.step.seconds, r.tokensPerSecond, *r.ttftSeconds, *r.e2eLatencySeconds, r.serving->tpotSeconds,
                     r.serving->outputTokensPerSecond, r.step.breakdown.total()})
        EXPECT_TRUE(std::isfinite(v) && v > 0) << v;
    for (double bad : {0.0, -1.0, 1.5, std::numeric_limits<double>::quiet_NaN()}) {
        EngineTerms t = EngineTerms::measured();
        setTermValue(t, EngineTerm{TermKind::KvBandwidth, NumberFormat::Fp8}, bad);
        c.efficiency = t;
        EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("kv_bandwidth.fp8"))) << bad;
    }
    EngineTerms t = EngineTerms::measured();
    t.layerSeconds = std::numeric_limits<double>::infinity();
    c.efficiency = t;
    EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("layer_seconds")));
    t.layerSeconds = -1e-6;
    c.efficiency = t;
    EXPECT_FALSE(evaluateInference(c).ok());
}

TEST(LlmEngine, TermNamesRoundTripAndEveryTermHasASource)
{
    for (const EngineTerm& term : allTerms()) {
        EXPECT_EQ(parseTermName(termName(term)), term) << termName(term).toStdString();
        EXPECT_FALSE(termSource(term).isEmpty());
        EXPECT_GE(termValue(EngineTerms::measured(), term), 0.0);
    }
    EXPECT_FALSE(parseTermName(u"compute.tf33").has_value());
    EXPECT_FALSE(checkTerms(EngineTerms::measured()).has_value());
    EXPECT_TRUE(EngineTerms::ideal().isIdeal());
    EXPECT_FALSE(EngineTerms::measured().isIdeal());
}

TEST(LlmEngine, PerSequenceAndPrefillTimesGoWhereTheyBelong)
{
    InferenceConfig c = test::config(test::model("llama-3-8b"), test::gpu("h100-sxm"), 64, 1024);
    c.prompt = 512;
    c.output = 128;
    EngineTerms terms = EngineTerms::ideal();
    const LlmModel bare = test::prepared([&] {
        InferenceConfig b = c;
        b.efficiency = terms;
        return b;
    }());
    terms.sequenceSeconds = 2e-6;
    terms.prefillSeconds = 3e-3;
    c.efficiency = terms;
    const LlmModel spent = test::prepared(c);
    // Each decoded sequence pays the per-sequence time in every layer; a prefill pays its own fixed time once.
    EXPECT_NEAR(spent.decodeStep(64, 1024).seconds - bare.decodeStep(64, 1024).seconds, 64 * 32 * 2e-6, 1e-12);
    EXPECT_NEAR(spent.prefill(64, 512).seconds - bare.prefill(64, 512).seconds, 3e-3, 1e-12);
    EXPECT_NEAR(spent.decodeStep(64, 1024).breakdown.overhead, 64 * 32 * 2e-6, 1e-12);
}

TEST(LlmEngine, OverlapSaysHowMuchOfTheSmallerTimeHidesUnderTheLarger)
{
    // Near the ridge (batch 256, short context) GEMMs stream and compute for similar times.
    InferenceConfig c = test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 256, 16);
    c.efficiency = EngineTerms::ideal();
    const StepCost roofline = test::evaluate(c).step;
    EngineTerms additive = EngineTerms::ideal();
    additive.overlap = 0.0;
    c.efficiency = additive;
    const StepCost added = test::evaluate(c).step;
    EXPECT_GT(added.seconds, 1.3 * roofline.seconds);
    EXPECT_LE(added.seconds, roofline.computeSeconds + roofline.memorySeconds + 1e-12);
    EXPECT_DOUBLE_EQ(added.breakdown.total(), added.seconds);
    // Far from the ridge it hardly matters: batch 1 is all weight stream.
    c.batch = 1;
    c.efficiency = EngineTerms::ideal();
    const double one = test::evaluate(c).step.seconds;
    c.efficiency = additive;
    EXPECT_LT(test::evaluate(c).step.seconds / one, 1.01);
}

TEST(LlmEngine, MeasuredTermsAreSharesOfWhatTheCardSustains)
{
    InferenceConfig c = test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 1, 16);
    EngineTerms full = EngineTerms::ideal();
    full.bandwidthBasis = BandwidthBasis::Sustained;
    c.efficiency = full;
    const StepCost sustained = test::evaluate(c).step;
    c.efficiency = EngineTerms::ideal();
    const StepCost datasheet = test::evaluate(c).step;
    // The H100's STREAM triad is 2.97 TB/s of its 3.35 (AI-benchmarking-guide, Azure ND H100 v5).
    EXPECT_NEAR(sustained.seconds / datasheet.seconds, 3.35 / 2.97, 1e-6);
    EXPECT_EQ(EngineTerms::measured().bandwidthBasis, BandwidthBasis::Sustained);
    EXPECT_EQ(EngineTerms(Efficiency{}).bandwidthBasis, BandwidthBasis::Datasheet);
    // A card without a published measurement sustains the typical share of its datasheet figure.
    EXPECT_DOUBLE_EQ(test::gpu("b200").sustainedBandwidthTbs(), 7.7 * kTypicalSustainedShare);
    EXPECT_DOUBLE_EQ(test::gpu("mi300x").sustainedBandwidthTbs(), 4.09);
}

TEST(LlmEngine, GroupedExpertGemmsComputeAtTheirOwnShare)
{
    InferenceConfig c = test::config(test::model("mixtral-8x7b"), test::gpu("h100-sxm"), 1, 1);
    c.prompt = 4096;  // a compute-bound prefill
    EngineTerms terms = EngineTerms::ideal();
    c.efficiency = terms;
    const double full = test::evaluate(c).ttftSeconds.value();
    terms.expertShare = 0.5;
    c.efficiency = terms;
    const double half = test::evaluate(c).ttftSeconds.value();
    EXPECT_GT(half / full, 1.5);  // most of Mixtral's FLOPs are in its experts
    EXPECT_LT(half / full, 2.0);
    // A dense model does not notice.
    InferenceConfig dense = test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 1, 1);
    dense.prompt = 4096;
    dense.efficiency = terms;
    const double withShare = test::evaluate(dense).ttftSeconds.value();
    dense.efficiency = EngineTerms::ideal();
    EXPECT_DOUBLE_EQ(withShare, test::evaluate(dense).ttftSeconds.value());
}

TEST(LlmEngine, PerQueryHeadAttentionReadsEachKvHeadOncePerQueryHead)
{
    // Falcon 180B over 4 GPUs: 58 query heads and 2 KV heads on each, 29 per group; every kernel bound by memory.
    InferenceConfig c = parallel("falcon-180b", "h200", 4, 64, 3072);
    c.weights = c.kv = NumberFormat::Fp8;
    EngineTerms terms = EngineTerms::measured();
    terms.overlap = 1.0;  // the kernel takes the larger of its times and nothing more
    c.efficiency = terms;
    const StepCost grouped = test::evaluate(c).step;
    c.decodeAttention = DecodeAttention::PerQueryHead;
    const StepCost perHead = test::evaluate(c).step;
    EXPECT_EQ(perHead.kvBytes, grouped.kvBytes);  // memory still streams the cache once
    EXPECT_NEAR(perHead.breakdown.kv, 29.0 * perHead.kvBytes / kBytesPerGiB * terms.headReadSeconds, 1e-12);
    EXPECT_GT(perHead.breakdown.kv, 5.0 * grouped.breakdown.kv);
    EXPECT_NEAR(perHead.seconds - grouped.seconds, perHead.breakdown.kv - grouped.breakdown.kv, 1e-12);
    EXPECT_EQ(perHead.breakdown.weights, grouped.breakdown.weights);
    // The static batch's closed-form sum over the decode steps still agrees with the steps one by one.
    const LlmModel model = LlmModel::create(c).value();
    double oneByOne = 0.0;
    for (std::int64_t e = 100; e <= 160; ++e)
        oneByOne += model.decodeStep(64, e).seconds;
    EXPECT_NEAR(model.decodeSecondsSum(64, 100, 160), oneByOne, 1e-9 * oneByOne);

    // With one query head per KV head (MHA), or no cost for the repeats, the kernel is the grouped one.
    for (const char* mha : {"llama-2-7b", "gpt-j-6b"}) {
        InferenceConfig m = test::config(test::model(mha), test::gpu("h100-sxm"), 32, 4096);
        m.efficiency = EngineTerms::measured();
        const double before = test::evaluate(m).step.seconds;
        m.decodeAttention = DecodeAttention::PerQueryHead;
        EXPECT_EQ(test::evaluate(m).step.seconds, before) << mha;
    }
    terms.headReadSeconds = 0.0;
    c.efficiency = terms;
    EXPECT_EQ(test::evaluate(c).step.seconds, grouped.seconds);
    // A prefill runs the context kernel: per-head decode attention does not touch it.
    c.efficiency = EngineTerms::measured();
    c.prompt = 2048;
    const double perHeadTtft = *test::evaluate(c).ttftSeconds;
    c.decodeAttention = DecodeAttention::Grouped;
    EXPECT_EQ(*test::evaluate(c).ttftSeconds, perHeadTtft);
}

TEST(LlmEngine, DecodeAttentionNamesRoundTrip)
{
    for (DecodeAttention kernel : {DecodeAttention::Grouped, DecodeAttention::PerQueryHead})
        EXPECT_EQ(parseDecodeAttention(decodeAttentionName(kernel)), kernel);
    EXPECT_EQ(parseDecodeAttention(u"PER-HEAD"), DecodeAttention::PerQueryHead);
    EXPECT_FALSE(parseDecodeAttention(u"xqa").has_value());
    EXPECT_FALSE(parseDecodeAttention(u"").has_value());
}
