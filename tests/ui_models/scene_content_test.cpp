// What a talk scene puts on its chart and the batching explorer's words, without a widget
// (ui/plots/roofline/scene_content.h, ui/plots/batching/batching_texts.h).

#include "ui/plots/roofline/scene_content.h"
#include "core/scene/deck.h"
#include "tests/ui_models/test_session.h"
#include "ui/plots/batching/batching_texts.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

const Scene* sceneWithId(const Deck& deck, const char* id)
{
    for (const Scene& s : deck.scenes)
        if (s.id == QLatin1String(id))
            return &s;
    return nullptr;
}

}  // namespace

TEST(SceneContent, TheIntensityTableIsASessionWhoseKernelsCarryTheirIntensity)
{
    const Result<Deck> deck = defaultDeck();
    ASSERT_TRUE(deck.ok());
    const Scene* scene = sceneWithId(deck.value(), "intensity-table");
    ASSERT_NE(scene, nullptr);
    const Result<IntensityTable> table = intensityTableFor(*scene);
    ASSERT_TRUE(table.ok()) << table.error().message.toStdString();
    const Session s = intensityTableSession(table.value());
    ASSERT_EQ(s.kernels.size(), 3u);
    EXPECT_EQ(s.kernels[0].name, QStringLiteral("add: 0.17"));
    EXPECT_EQ(s.kernels[2].name, QStringLiteral("matmul n = 4096: 1,365"));
    EXPECT_DOUBLE_EQ(s.computeCeilings.front().gflops, 300e3);
    // The add is bound by the 2 TB/s: 1/6 FLOP/byte x 2000 GB/s.
    EXPECT_NEAR(s.kernels[0].gflops, 2000.0 / 6.0, 1e-9);
    // The scene's zoom: intensities given, performance left to the chart.
    const PlotRange range = sceneRange(*scene);
    EXPECT_DOUBLE_EQ(range.xMin, 0.05);
    EXPECT_DOUBLE_EQ(range.xMax, 5000.0);
    EXPECT_FALSE(isLogRange(range.yMin, range.yMax));
}

TEST(SceneContent, TheFirstSceneShowsMatmulsAndAddsAndAHighlightPicksByName)
{
    const Session s = fixtures::zen4Session();
    for (const KernelResult& k : twoKindsKernels(s))
        EXPECT_TRUE(k.kind == QLatin1String("sgemm") || k.kind == QLatin1String("add")) << k.kind.toStdString();
    Scene scene;
    scene.highlight = {QStringLiteral("add 4096"), QStringLiteral("sgemm 512"), QStringLiteral("no such kernel")};
    const std::vector<KernelResult> picked = highlightedKernels(scene, s);
    ASSERT_EQ(picked.size(), 2u);
    EXPECT_EQ(picked[0].name, QStringLiteral("add 4096"));
}

TEST(BatchingTexts, TheHeadlineAndTakeawayCarryTheModelsNumbersAndAnErrorHasNoTakeaway)
{
    InferenceRequest request;
    request.batch = 16;
    const BatchingTexts texts = batchingTexts(computeBatchingScenario(request), request);
    EXPECT_FALSE(texts.error);
    EXPECT_TRUE(texts.headline.contains(QStringLiteral("tokens/s"))) << texts.headline.toStdString();
    EXPECT_TRUE(texts.detail.contains(QStringLiteral("batch 16 \u00d7 8,192 tokens"))) << texts.detail.toStdString();
    ASSERT_FALSE(texts.takeaway.isEmpty());
    EXPECT_TRUE(texts.takeaway.join(u' ').contains(QStringLiteral("4.00 GiB of KV cache")))
        << texts.takeaway.join(u' ').toStdString();
    request.gpuId = QStringLiteral("h900");
    const BatchingTexts refused = batchingTexts(computeBatchingScenario(request), request);
    EXPECT_TRUE(refused.error);
    EXPECT_TRUE(refused.takeaway.isEmpty());
    EXPECT_TRUE(refused.detail.contains(QStringLiteral("h900"))) << refused.detail.toStdString();
}
