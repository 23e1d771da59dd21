// The batching tab's frontier as plain data: the curve `ridgeline model --frontier` prints for the tab's model and
// GPU, the tab's batch as the current point, and where the chart writes its words (inside the plot, apart).

#include "ui/plots/batching/frontier_chart_data.h"

#include "core/model/serving/frontier.h"
#include "ui/plots/batching/batching_scenario.h"

#include <QFontMetricsF>

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

InferenceConfig configOf(const QString& model, const QString& gpu, std::int64_t batch)
{
    InferenceRequest in;
    in.modelId = model;
    in.gpuId = gpu;
    in.batch = batch;
    in.context = 8192;
    const BatchingScenario scenario = computeBatchingScenario(in);
    EXPECT_FALSE(scenario.error.has_value());
    return scenario.config;
}

QRectF boxOf(const AnnotationText& text)
{
    const QFontMetricsF metrics(text.font);
    return QRectF(text.origin, QSizeF(metrics.horizontalAdvance(text.text), metrics.height()));
}

}  // namespace

TEST(FrontierChartData, TheCurveIsTheCommandLinesAndTheTabsBatchIsOnIt)
{
    const InferenceConfig config = configOf(QStringLiteral("llama-2-7b"), QStringLiteral("h100-sxm"), 16);
    const FrontierChartData d = frontierChartData(config);
    ASSERT_TRUE(d.valid) << d.reason.toStdString();
    // No lengths stated: the requests fill the context window, at most 1,024 of it output.
    const std::int64_t output = std::min<std::int64_t>(config.context / 2, kFrontierOutput);
    EXPECT_EQ(d.output, output);
    EXPECT_EQ(d.prompt, config.context - output);
    const std::vector<FrontierPoint> expected =
        servingFrontier(LlmModel::create(config).value(), d.prompt, d.output).value();
    ASSERT_EQ(d.points.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(d.batches[i], expected[i].batch);
        EXPECT_DOUBLE_EQ(d.points[i].x(), expected[i].tokensPerSecondPerUser);
        EXPECT_DOUBLE_EQ(d.points[i].y(), expected[i].tokensPerSecondPerGpu);
    }
    // Along the curve: more per GPU, less per user as the batch grows.
    for (std::size_t i = 1; i < d.points.size(); ++i) {
        EXPECT_GT(d.points[i].y(), d.points[i - 1].y());
        EXPECT_LT(d.points[i].x(), d.points[i - 1].x());
    }
    EXPECT_EQ(d.currentBatch, 16);
    EXPECT_EQ(d.requestedBatch, 16);
    const auto at = std::find(d.batches.begin(), d.batches.end(), 16);
    ASSERT_NE(at, d.batches.end());
    const QPointF on = d.points[static_cast<std::size_t>(at - d.batches.begin())];
    EXPECT_NEAR(d.current.x(), on.x(), 1e-9 * on.x());
    EXPECT_NEAR(d.current.y(), on.y(), 1e-9 * on.y());
}

// A batch beyond what fits runs the most that fits, the rest waiting: the current point is the curve's last.
TEST(FrontierChartData, ABatchBeyondTheMemoryRunsTheLargestThatFits)
{
    const FrontierChartData d =
        frontierChartData(configOf(QStringLiteral("llama-2-7b"), QStringLiteral("h100-sxm"), 4096));
    ASSERT_TRUE(d.valid) << d.reason.toStdString();
    EXPECT_EQ(d.requestedBatch, 4096);
    EXPECT_EQ(d.currentBatch, d.batches.back());
    EXPECT_LT(d.currentBatch, 4096);
    EXPECT_TRUE(std::isfinite(d.current.x()) && std::isfinite(d.current.y()));
    EXPECT_NEAR(d.current.y(), d.points.back().y(), 1e-9 * d.current.y());
}

TEST(FrontierChartData, WeightsThatDoNotFitGiveAReasonAndNoPoints)
{
    InferenceRequest in;
    in.modelId = QStringLiteral("llama-3-70b");
    in.gpuId = QStringLiteral("rtx-4090");
    const FrontierChartData d = frontierChartData(computeBatchingScenario(in).config);
    EXPECT_FALSE(d.valid);
    EXPECT_TRUE(d.points.empty());
    EXPECT_FALSE(d.reason.isEmpty());
}

TEST(FrontierLabels, TheRingSitsOnTheCurrentPointAndEveryWordInsideThePlotApart)
{
    const FrontierChartData d =
        frontierChartData(configOf(QStringLiteral("llama-2-7b"), QStringLiteral("h100-sxm"), 16));
    ASSERT_TRUE(d.valid);
    const PlotMapping mapping{QRectF(80, 40, 560, 300), PlotRange{20, 400, 80, 12000}};
    const OverlayLayers layers = layoutFrontierLabels(d, mapping, ChartTheme::make(ThemeKind::Light));
    ASSERT_EQ(layers.moving.rings.size(), 1u);
    EXPECT_EQ(layers.moving.rings.front().center, mapping.toPixel(d.current));
    ASSERT_EQ(layers.moving.texts.size(), 1u);
    EXPECT_TRUE(layers.moving.texts.front().text.startsWith(QStringLiteral("B = 16: ")));
    std::vector<QRectF> boxes;
    for (const OverlayContent* content : {&layers.fixed, &layers.moving})
        for (const AnnotationText& text : content->texts) {
            const QRectF box = boxOf(text);
            EXPECT_TRUE(mapping.plot.contains(box)) << text.text.toStdString();
            for (const QRectF& other : boxes)
                EXPECT_FALSE(other.intersects(box)) << text.text.toStdString();
            boxes.push_back(box);
        }
    EXPECT_EQ(boxes.size(), 3u);  // batch 1, the largest batch, the current point's numbers
}
