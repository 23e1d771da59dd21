// The batching explorer's computation without a widget (ui/plots/batching/batching_scenario.h): the batches its
// curves are drawn through and what the decode roofline shows.

#include "ui/plots/batching/batching_scenario.h"

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
