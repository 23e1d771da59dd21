// The operators of a step (the decode-step atlas): the kernels, all-reduces and fixed times the model prices, whose
// seconds add up to the step's.

#include "llm_test_support.h"

#include "core/model/llm/step_operators.h"

#include <algorithm>
#include <cmath>

namespace ridgeline {
namespace {

const StepOperator* named(const StepOperators& operators, const QString& name)
{
    const auto found =
        std::find_if(operators.begin(), operators.end(), [&](const StepOperator& op) { return op.name == name; });
    return found == operators.end() ? nullptr : &*found;
}

void expectSumsToStep(const StepCost& step, const char* what)
{
    ASSERT_FALSE(step.operators.empty()) << what;
    double flops = 0;
    for (const StepOperator& op : step.operators) {
        EXPECT_TRUE(std::isfinite(op.seconds) && op.seconds > 0) << what << ": " << op.name.toStdString();
        flops += op.flops;
    }
    EXPECT_NEAR(operatorsSeconds(step.operators) / step.seconds, 1.0, 1e-9) << what;
    EXPECT_NEAR(flops / step.flops, 1.0, 1e-9) << what;
}

InferenceConfig measured(const char* model, const char* gpu, std::int64_t batch, std::int64_t context)
{
    InferenceConfig c = test::config(test::model(model), test::gpu(gpu), batch, context);
    c.efficiency = EngineTerms::measured();
    return c;
}

TEST(LlmStepOperators, SecondsAddUpToTheStepOnEveryKindOfConfiguration)
{
    InferenceConfig tp8 = measured("llama-2-70b", "h100-sxm", 64, 4096);
    tp8.tensorParallel = 8;
    tp8.link = findLink(QStringLiteral("nvlink4")).value();
    InferenceConfig mla = measured("deepseek-v3", "h200", 8, 4096);
    mla.tensorParallel = 8;
    mla.link = tp8.link;
    InferenceConfig speculative = measured("llama-3-8b", "h100-sxm", 4, 2048);
    speculative.speculative = SpeculativeDecoding{3, 2.4};
    InferenceConfig perHead = measured("llama-3-8b", "a100-80gb-sxm", 16, 8192);
    perHead.decodeAttention = DecodeAttention::PerQueryHead;
    InferenceConfig plain = test::config(test::model("llama-2-7b"), test::gpu("h100-sxm"), 1, 512);
    const std::vector<std::pair<const char*, InferenceConfig>> configs = {
        {"dense", measured("llama-2-7b", "h100-sxm", 1, 1024)},
        {"dense plain roofline", plain},
        {"GQA", measured("llama-3-8b", "h100-sxm", 256, 4096)},
        {"MoE", measured("mixtral-8x7b", "h100-sxm", 32, 2048)},
        {"MLA TP 8", mla},
        {"TP 8", tp8},
        {"speculative", speculative},
        {"per-query-head attention", perHead},
    };
    for (const auto& [what, c] : configs) {
        const LlmModel model = test::prepared(c);
        expectSumsToStep(model.decodeStep(c.batch, c.context), what);
        expectSumsToStep(model.prefill(c.batch, 1024), what);
        expectSumsToStep(model.mixedStep(static_cast<double>(c.batch), 1500.0, 300.0, 1000.0), what);
    }
}

TEST(LlmStepOperators, NamesTheOperatorsTheModelPrices)
{
    InferenceConfig c = measured("llama-2-70b", "h100-sxm", 8, 2048);
    c.tensorParallel = 8;
    c.link = findLink(QStringLiteral("nvlink4")).value();
    const StepOperators ops = test::prepared(c).decodeStep(8, 2048).operators;
    for (const char* name : {"attention projections (QKV and output)", "MLP", "attention over the KV cache",
                             "all-reduce", "LM head and embedding gather"})
        EXPECT_NE(named(ops, QString::fromLatin1(name)), nullptr) << name;
    EXPECT_EQ(named(ops, QStringLiteral("routed experts")), nullptr);
    EXPECT_EQ(named(ops, QStringLiteral("all-reduce"))->bound, OperatorBound::Link);

    const StepOperators moe =
        test::prepared(measured("mixtral-8x7b", "h100-sxm", 16, 2048)).decodeStep(16, 2048).operators;
    ASSERT_NE(named(moe, QStringLiteral("routed experts")), nullptr);
    EXPECT_GT(named(moe, QStringLiteral("routed experts"))->flops, 0);
    EXPECT_EQ(named(moe, QStringLiteral("all-reduce")), nullptr);  // one GPU

    InferenceConfig s = measured("llama-3-8b", "h100-sxm", 4, 2048);
    s.speculative = SpeculativeDecoding{3, 2.4};
    const StepOperators spec = test::prepared(s).decodeStep(4, 2048).operators;
    EXPECT_NE(named(spec, QStringLiteral("draft: attention over the KV cache")), nullptr);
}

TEST(LlmStepOperators, FalconAllReducesOnceALayerWhereLlamaDoesTwice)
{
    // Falcon's attention and MLP run side by side and the engines all-reduce their sum once (models.json); Llama's
    // run one after the other, each reduced. The bytes all-reduced and the collective launches follow.
    const auto step = [](const char* model) {
        InferenceConfig c = measured(model, "h100-sxm", 1, 2048);
        c.tensorParallel = 8;
        c.link = findLink(QStringLiteral("nvlink4")).value();
        return test::prepared(c).prefill(1, 2048);
    };
    const ModelSpec falcon = test::model("falcon-180b"), llama = test::model("llama-2-70b");
    ASSERT_EQ(falcon.allReducesPerLayer, 1);
    ASSERT_EQ(llama.allReducesPerLayer, 2);
    const StepCost falconStep = step("falcon-180b"), llamaStep = step("llama-2-70b");
    const double activationBytes = 2.0;
    EXPECT_DOUBLE_EQ(named(falconStep.operators, QStringLiteral("all-reduce"))->bytes,
                     1.0 * falcon.layers * 2048 * falcon.hidden * activationBytes);
    EXPECT_DOUBLE_EQ(named(llamaStep.operators, QStringLiteral("all-reduce"))->bytes,
                     2.0 * llama.layers * 2048 * llama.hidden * activationBytes);
    const double launch = EngineTerms::measured().collectiveSeconds;
    EXPECT_NEAR(named(falconStep.operators, QStringLiteral("collective launches"))->seconds, falcon.layers * launch,
                1e-12);
    EXPECT_NEAR(named(llamaStep.operators, QStringLiteral("collective launches"))->seconds, 2 * llama.layers * launch,
                1e-12);
}

TEST(LlmStepOperators, WeightGemmsSlideRightWithBatchAttentionStaysAtItsKvIntensity)
{
    const InferenceConfig c = measured("llama-3-8b", "h100-sxm", 1, 4096);
    const LlmModel model = test::prepared(c);
    const StepOperators one = model.decodeStep(1, 4096).operators, many = model.decodeStep(128, 4096).operators;
    const QString mlp = QStringLiteral("MLP"), attention = QStringLiteral("attention over the KV cache");
    EXPECT_NEAR(named(many, mlp)->intensity() / named(one, mlp)->intensity(), 128.0, 1e-6);
    const double kvIntensity = named(one, attention)->intensity();
    EXPECT_NEAR(named(many, attention)->intensity(), kvIntensity, 1e-9 * kvIntensity);
    EXPECT_NEAR(kvIntensity, 4.0, 0.05);  // GQA, 4 query heads per KV head in bf16
    EXPECT_EQ(named(many, attention)->bound, OperatorBound::Memory);
}

TEST(LlmStepOperators, BatchOneBindsOnAWeightStreamLargeBatchOnAComputeBoundGemm)
{
    const InferenceConfig c = measured("llama-2-7b", "h100-sxm", 1, 512);
    const LlmModel model = test::prepared(c);
    const StepCost one = model.decodeStep(1, 512);
    const StepOperator* binds = bindingOperator(one.operators);
    ASSERT_NE(binds, nullptr);
    EXPECT_EQ(binds->name, QStringLiteral("MLP"));
    EXPECT_EQ(binds->bound, OperatorBound::Memory);
    EXPECT_LT(binds->intensity(), binds->ridge);

    // Short prompts, GQA: the KV cache is small next to the GEMMs' FLOPs at batch 512.
    const StepCost many = test::prepared(measured("llama-3-8b", "h100-sxm", 1, 128)).decodeStep(512, 128);
    const StepOperator* large = bindingOperator(many.operators);
    ASSERT_NE(large, nullptr);
    EXPECT_EQ(large->name, QStringLiteral("MLP"));
    EXPECT_EQ(large->bound, OperatorBound::Compute);
    EXPECT_GT(large->intensity(), large->ridge);
}

}  // namespace
}  // namespace ridgeline
