// Impossible and extreme inputs: clear errors, never overflow, never NaN.
#include "core/model/llm/llm_model.h"
#include "tests/core/model/llm_test_support.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace ridgeline;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

InferenceConfig base()
{
    return test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 1, 1024);
}

// The error for a config, or a failure if there is none.
Error errorOf(const InferenceConfig& c)
{
    Result<InferenceReport> r = evaluateInference(c);
    EXPECT_FALSE(r.ok());
    return r.ok() ? Error{} : r.error();
}

}  // namespace

TEST(LlmInputs, ZeroNegativeAndTooLargeBatchOrContextAreRefusedWithTheirName)
{
    for (std::int64_t batch :
         {std::int64_t{0}, std::int64_t{-1}, kMaxBatch + 1, std::numeric_limits<std::int64_t>::max()}) {
        InferenceConfig c = base();
        c.batch = batch;
        const Error e = errorOf(c);
        EXPECT_EQ(e.code, Error::Code::Range) << batch;
        EXPECT_TRUE(e.message.contains(QStringLiteral("batch"))) << e.message.toStdString();
    }
    for (std::int64_t context : {std::int64_t{0}, std::int64_t{-5}, kMaxContext + 1}) {
        InferenceConfig c = base();
        c.context = context;
        EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("context")));
    }
    InferenceConfig c = base();
    c.prompt = -1;
    EXPECT_FALSE(evaluateInference(c).ok());
    c = base();
    c.output = 10;  // an output needs a prompt
    EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("prompt")));
    c = base();
    c.prompt = kMaxContext;
    c.output = 1;
    EXPECT_FALSE(evaluateInference(c).ok());
}

TEST(LlmInputs, EfficienciesAndCustomGpusMustBeFinitePositiveNumbers)
{
    for (double bad : {0.0, -0.5, 1.5, kNaN, kInf}) {
        InferenceConfig c = base();
        c.efficiency = Efficiency{bad, kDefaultComputeEfficiency};
        EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("efficienc"))) << bad;
        c = base();
        c.efficiency = Efficiency{kDefaultBandwidthEfficiency, bad};
        EXPECT_FALSE(evaluateInference(c).ok()) << bad;
    }
    for (double bad : {0.0, -1.0, kNaN, kInf, 1e300}) {
        EXPECT_FALSE(customGpu(bad, 2, 80).ok()) << bad;
        EXPECT_FALSE(customGpu(300, bad, 80).ok()) << bad;
        EXPECT_FALSE(customGpu(300, 2, bad).ok()) << bad;
        EXPECT_FALSE(modelFromParamCount(bad).ok()) << bad;
    }
    EXPECT_FALSE(modelFromParamCount(2e13).ok());
    EXPECT_TRUE(customGpu(300, 2, 80).ok());
}

TEST(LlmInputs, ShapesThatCannotExistAreRefused)
{
    ModelSpec m = test::model("llama-2-7b");
    m.layers = 0;
    EXPECT_FALSE(countParams(m).ok());
    m = test::model("llama-3-8b");
    m.kvHeads = 5;  // 32 query heads cannot share 5 KV heads
    EXPECT_FALSE(countParams(m).ok());
    m = test::model("llama-3-8b");
    m.kvHeads = 64;
    EXPECT_FALSE(countParams(m).ok());
    m = test::model("mixtral-8x7b");
    m.activeExperts = 9;
    EXPECT_FALSE(countParams(m).ok());
    m = test::model("llama-2-7b");
    m.layers = 1'000'000;
    m.hidden = 1'000'000;  // ~1.2e19 parameters: refused before any int64 product is formed
    const Result<ParamCounts> huge = countParams(m);
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.error().code, Error::Code::Range);
    EXPECT_TRUE(huge.error().message.contains(QStringLiteral("1e13")));
}

TEST(LlmInputs, TensorParallelismNeedsALinkAndADivisorOfTheHeads)
{
    InferenceConfig c = base();
    c.tensorParallel = 8;
    EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("link")));
    c.link = findLink(QStringLiteral("nvlink4")).value();
    EXPECT_TRUE(evaluateInference(c).ok());
    c.tensorParallel = 3;
    EXPECT_TRUE(errorOf(c).message.contains(QStringLiteral("heads")));
    c.tensorParallel = 0;
    EXPECT_FALSE(evaluateInference(c).ok());
    c.tensorParallel = kMaxTensorParallel * 2;
    EXPECT_FALSE(evaluateInference(c).ok());
}

TEST(LlmInputs, Tf32IsNotAStorageFormat)
{
    InferenceConfig c = base();
    c.weights = NumberFormat::Tf32;
    EXPECT_FALSE(evaluateInference(c).ok());
    c = base();
    c.kv = NumberFormat::Tf32;
    EXPECT_FALSE(evaluateInference(c).ok());
    EXPECT_EQ(parseNumberFormat(u"BF16"), NumberFormat::Bf16);
    EXPECT_FALSE(parseNumberFormat(u"bf17").has_value());
}

TEST(LlmInputs, LargestSupportedInputsStayExactAndFinite)
{
    // GPT-3 with an fp32 cache, 65,536 sequences of 10 M tokens: 6.2e18 bytes, within int64.
    InferenceConfig c = test::config(test::model("gpt-3-175b"), test::gpu("b200"), kMaxBatch, kMaxContext);
    c.kv = NumberFormat::Fp32;
    c.prompt = kMaxContext / 2;
    c.output = kMaxContext / 2;
    const InferenceReport r = test::evaluate(c);
    EXPECT_EQ(r.kvBytesPerToken, 2LL * 96 * 96 * 128 * 4);
    EXPECT_EQ(r.kvBytesPerSequence, r.kvBytesPerToken * kMaxContext);
    EXPECT_EQ(r.kvBytesTotal / kMaxBatch, r.kvBytesPerSequence);
    EXPECT_EQ(r.kvBytesTotal % kMaxBatch, 0);
    EXPECT_FALSE(r.memory.fits);
    EXPECT_EQ(r.maxBatch, 0);
    for (double value : {r.step.flops, r.step.bytes, r.step.seconds, r.tokensPerSecond, *r.ttftSeconds,
                         *r.e2eLatencySeconds, *r.throughputTokensPerSecond})
        EXPECT_TRUE(std::isfinite(value) && value > 0) << value;
    // A 1e13-parameter model given by its count: fine at batch 1, and a clear error (not a wrap-around)
    // when its KV cache would pass 2^63 bytes.
    InferenceConfig big = test::config(modelFromParamCount(1e13).value(), test::gpu("b200"), 1, kMaxContext);
    EXPECT_TRUE(evaluateInference(big).ok());
    big.batch = kMaxBatch;
    const Error e = errorOf(big);
    EXPECT_EQ(e.code, Error::Code::Range);
    EXPECT_TRUE(e.message.contains(QStringLiteral("overflow")));
}
