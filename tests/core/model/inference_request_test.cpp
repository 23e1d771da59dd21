// One resolver for "what the user asked" -> InferenceConfig (core/model/llm/inference_request.h): catalog and
// custom models and GPUs, the shared defaults, and the link tensor parallelism uses when none is named.

#include "core/model/llm/inference_request.h"

#include <gtest/gtest.h>

using namespace ridgeline;

TEST(InferenceRequest, DefaultsAreTheSourceTextsKvExample)
{
    const Result<InferenceConfig> config = resolveInference(InferenceRequest{});
    ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
    EXPECT_EQ(config.value().model.id, QStringLiteral("llama-2-7b"));
    EXPECT_EQ(config.value().gpu.id, QStringLiteral("h100-sxm"));
    EXPECT_EQ(config.value().context, 8192);
    EXPECT_EQ(config.value().batch, 1);
    EXPECT_EQ(config.value().tensorParallel, 1);
    EXPECT_EQ(config.value().efficiency.weightShare(NumberFormat::Bf16), kDefaultBandwidthEfficiency);
    // 512 KiB of KV per token, 4 GiB per sequence at 8,192 tokens.
    const Result<InferenceReport> report = evaluateInference(config.value());
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report.value().kvBytesPerSequence, 4LL * 1024 * 1024 * 1024);
}

TEST(InferenceRequest, CustomModelByParameterCountOrShapeAndCustomGpu)
{
    InferenceRequest request;
    request.modelId = kCustomId;
    request.customParams = 7e9;
    request.gpuId = kCustomId;
    request.customPeakTflops = 300.0;
    request.customBandwidthTbs = 2.0;
    request.efficiency = Efficiency::ideal();
    const Result<InferenceConfig> byCount = resolveInference(request);
    ASSERT_TRUE(byCount.ok()) << byCount.error().message.toStdString();
    EXPECT_NEAR(static_cast<double>(byCount.value().model.paramsOverride), 7e9, 1.0);
    EXPECT_DOUBLE_EQ(byCount.value().gpu.peakTflops(NumberFormat::Bf16), 300.0);
    EXPECT_DOUBLE_EQ(byCount.value().gpu.memoryGib, kDefaultCustomMemoryGib);
    EXPECT_TRUE(request.ideal());

    ModelSpec shape;
    shape.id = kCustomId;
    shape.name = QStringLiteral("tiny");
    shape.layers = 2;
    shape.hidden = 256;
    shape.heads = 4;
    shape.kvHeads = 4;
    shape.headDim = 64;
    shape.ffn = 512;
    shape.vocab = 1000;
    request.customShape = shape;
    const Result<InferenceConfig> byShape = resolveInference(request);
    ASSERT_TRUE(byShape.ok()) << byShape.error().message.toStdString();
    EXPECT_EQ(byShape.value().model.name, QStringLiteral("tiny"));
}

TEST(InferenceRequest, TensorParallelUsesTheCardsOwnLinkUnlessOneIsNamed)
{
    InferenceRequest request;
    request.gpus = 8;
    EXPECT_EQ(effectiveLinkId(request), QStringLiteral("nvlink4"));
    const Result<InferenceConfig> h100 = resolveInference(request);
    ASSERT_TRUE(h100.ok()) << h100.error().message.toStdString();
    EXPECT_EQ(h100.value().link.id, QStringLiteral("nvlink4"));
    // An L4 has no GPU-to-GPU link: its PCIe host link, never the previous card's NVLink.
    request.gpuId = QStringLiteral("l4");
    request.modelId = QStringLiteral("llama-3-8b");
    request.gpus = 2;
    const Result<InferenceConfig> l4 = resolveInference(request);
    ASSERT_TRUE(l4.ok()) << l4.error().message.toStdString();
    EXPECT_TRUE(l4.value().link.id.startsWith(QLatin1String("pcie"))) << l4.value().link.id.toStdString();
    request.linkId = QStringLiteral("ethernet-100g");
    EXPECT_EQ(resolveInference(request).value().link.id, QStringLiteral("ethernet-100g"));
}

TEST(InferenceRequest, ErrorsNameWhatIsWrong)
{
    InferenceRequest request;
    request.modelId = QStringLiteral("llama-9");
    ASSERT_FALSE(resolveInference(request).ok());
    EXPECT_TRUE(resolveInference(request).error().message.contains(QLatin1String("llama-9")));
    request = {};
    request.gpuId = QStringLiteral("h900");
    EXPECT_TRUE(resolveInference(request).error().message.contains(QLatin1String("h900")));
    request = {};
    request.gpuId = kCustomId;
    request.customPeakTflops = std::numeric_limits<double>::quiet_NaN();
    EXPECT_TRUE(resolveInference(request).error().message.contains(QLatin1String("peak")));
    request = {};
    request.linkId = QStringLiteral("smoke-signals");
    EXPECT_TRUE(resolveInference(request).error().message.contains(QLatin1String("smoke-signals")));
}

TEST(InferenceRequest, MoreGpusThanANodeGoOverTheCardsNetwork)
{
    InferenceRequest request;
    request.modelId = QStringLiteral("llama-3.1-405b");
    request.gpuId = QStringLiteral("h100-sxm");
    request.gpus = 16;  // two HGX nodes of 8
    Result<InferenceConfig> config = resolveInference(request);
    ASSERT_TRUE(config.ok()) << config.error().message.toStdString();
    EXPECT_EQ(config.value().gpusPerNode, 8);
    EXPECT_EQ(config.value().network.id, QStringLiteral("infiniband-ndr"));
    EXPECT_EQ(evaluateInference(config.value()).value().nodes, 2);
    request.gpus = 8;  // one node: no network
    EXPECT_TRUE(resolveInference(request).value().network.id.isEmpty());
    request.gpus = 16;
    request.gpusPerNode = 0;  // one big domain, as in an NVL72 rack
    EXPECT_EQ(evaluateInference(resolveInference(request).value()).value().nodes, 1);
    request.gpusPerNode = -1;
    request.networkLinkId = QStringLiteral("smoke-signals");
    EXPECT_FALSE(resolveInference(request).ok());
    // A PCIe card names no network: its GPUs are taken as one box.
    request.gpuId = QStringLiteral("rtx-pro-6000");
    request.networkLinkId.clear();
    request.modelId = QStringLiteral("llama-3.3-70b");
    request.gpus = 8;
    EXPECT_EQ(resolveInference(request).value().gpusPerNode, 0);
}

TEST(InferenceRequest, TermsAndTheIssue13InputsReachTheConfig)
{
    InferenceRequest request;
    EXPECT_EQ(resolveInference(request).value().efficiency, EngineTerms(Efficiency{}));  // plain unless asked
    request.terms = EngineTerms::measured();
    request.modelId = QStringLiteral("deepseek-v3");
    request.gpuId = QStringLiteral("b200");
    request.weights = NumberFormat::Fp4;
    request.attentionWeights = NumberFormat::Fp8;
    request.gpus = 8;
    request.expertParallel = 8;
    request.speculative = SpeculativeDecoding{3, 2.4};
    const InferenceConfig c = resolveInference(request).value();
    EXPECT_EQ(c.efficiency, EngineTerms::measured());
    EXPECT_EQ(c.attentionWeights, NumberFormat::Fp8);
    EXPECT_EQ(c.expertParallel, 8);
    EXPECT_EQ(c.speculative.tokens, 3);
    EXPECT_TRUE(evaluateInference(c).ok());
}

// One home for "which engine terms": `ridgeline model` and the batching tab both take kDefaultEngineChoice, the
// terms fitted on published measurements; a default-constructed request (a talk scene) stays the plain roofline.
TEST(InferenceRequest, EngineChoicesSetTheTermsAndAreReadBack)
{
    EXPECT_EQ(kDefaultEngineChoice, EngineChoice::Measured);
    InferenceRequest request;
    EXPECT_EQ(engineChoiceOf(request), EngineChoice::Plain);
    EXPECT_FALSE(request.ideal());
    setEngineChoice(request, kDefaultEngineChoice);
    ASSERT_TRUE(request.terms.has_value());
    EXPECT_EQ(*request.terms, EngineTerms::measured());
    EXPECT_EQ(engineChoiceOf(request), EngineChoice::Measured);
    EXPECT_EQ(resolveInference(request).value().efficiency, EngineTerms::measured());
    setEngineChoice(request, EngineChoice::Ideal);
    EXPECT_TRUE(request.ideal());
    EXPECT_EQ(engineChoiceOf(request), EngineChoice::Ideal);
    setEngineChoice(request, EngineChoice::Plain, Efficiency{0.5, 0.4});
    EXPECT_EQ(engineChoiceOf(request), EngineChoice::Plain);
    EXPECT_DOUBLE_EQ(resolveInference(request).value().efficiency.weightShare(NumberFormat::Bf16), 0.5);
    EngineTerms own = EngineTerms::measured();
    own.layerSeconds = 10e-6;  // a calibration's fit: none of the three
    request.terms = own;
    EXPECT_FALSE(engineChoiceOf(request).has_value());
}
