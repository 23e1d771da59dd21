// The batching explorer's computation without a widget (ui/plots/batching/batching_scenario.h): the batches its
// curves are drawn through and what the decode roofline shows.

#include "ui/plots/batching/batching_scenario.h"
#include "ui/plots/batching/batching_texts.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

InferenceRequest sourceTextInputs(const QString& gpu, std::int64_t batch)
{
    InferenceRequest in;
    in.modelId = QStringLiteral("llama-2-7b");
    in.gpuId = gpu;
    in.weights = NumberFormat::Bf16;
    in.kv = NumberFormat::Bf16;
    in.batch = batch;
    in.context = 8192;
    return in;
}

}  // namespace

TEST(UiBatchingScenario, SamplesIncludeTheKneeAndTheMemoryLimitExactly)
{
    const std::vector<std::int64_t> b = sampleBatches(4096, {0, 183, 6, 7, 5000});
    EXPECT_EQ(b.front(), 1);
    EXPECT_EQ(b.back(), 4096);
    for (const std::int64_t wanted : {1, 2, 4, 6, 7, 16, 64, 183, 256, 1024, 4096})
        EXPECT_NE(std::find(b.begin(), b.end(), wanted), b.end()) << wanted;
    EXPECT_TRUE(std::is_sorted(b.begin(), b.end()));
    EXPECT_EQ(std::adjacent_find(b.begin(), b.end()), b.end());
}

TEST(UiBatchingScenario, AttentionAloneIsMemoryBoundForMhaAtAnyBatch)
{
    for (const std::int64_t batch : {1, 64, 4096}) {
        InferenceRequest in = sourceTextInputs(QStringLiteral("h100-sxm"), batch);
        const BatchingScenario s = computeBatchingScenario(in);
        ASSERT_FALSE(s.error.has_value());
        EXPECT_TRUE(s.roofline.hasAttention);
        EXPECT_NEAR(s.roofline.attentionIntensity, 1.0, 1e-9);  // MHA in bf16: 1 FLOP per KV byte
        EXPECT_EQ(s.roofline.attentionBound, Bound::Memory);
    }
}

TEST(UiBatchingScenario, TheStepsOperatorsSlideWithTheBatchAndTheTextNamesTheOneThatBinds)
{
    // Llama 2 7B on an H100 at 8,192 tokens: the MLP's GEMM moves right with the batch (its FLOPs grow, its weight
    // bytes do not), attention stays at its KV intensity; the points' shares are of the step's time.
    auto mlpAndAttention = [](std::int64_t batch) {
        const BatchingScenario s = computeBatchingScenario(sourceTextInputs(QStringLiteral("h100-sxm"), batch));
        EXPECT_FALSE(s.error.has_value());
        OperatorPoint mlp, attention;
        double shares = 0;
        for (const OperatorPoint& op : s.roofline.operators) {
            shares += op.share;
            EXPECT_GT(op.tflops, 0.0) << op.name.toStdString();
            if (op.name == QLatin1String("MLP"))
                mlp = op;
            if (op.name == QLatin1String("attention over the KV cache"))
                attention = op;
        }
        EXPECT_LE(shares, 1.0 + 1e-9);
        EXPECT_GT(shares, 0.5);  // the kernels are most of the step; fixed engine times are the rest
        return std::pair{mlp, attention};
    };
    const auto [mlp1, attention1] = mlpAndAttention(1);
    const auto [mlp64, attention64] = mlpAndAttention(64);
    EXPECT_NEAR(mlp64.intensity / mlp1.intensity, 64.0, 1e-6);
    EXPECT_GT(mlp64.tflops, 10.0 * mlp1.tflops);
    EXPECT_NEAR(attention64.intensity, attention1.intensity, 1e-9);
    EXPECT_NEAR(attention1.intensity, 1.0, 1e-9);
    // At batch 64 and 8,192 tokens the KV cache is read far more than the weights: attention binds, and the takeaway
    // says so with its share.
    InferenceRequest in = sourceTextInputs(QStringLiteral("h100-sxm"), 64);
    const BatchingTexts texts = batchingTexts(computeBatchingScenario(in), in);
    const QString binds = texts.takeaway.filter(QStringLiteral("What binds the step")).value(0);
    EXPECT_TRUE(binds.startsWith(QStringLiteral("What binds the step: attention over the KV cache, ")))
        << binds.toStdString();
    EXPECT_TRUE(binds.endsWith(QStringLiteral("(it waits on memory)."))) << binds.toStdString();
}
