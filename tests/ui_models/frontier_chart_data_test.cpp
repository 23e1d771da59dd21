// The batching tab's frontier as plain data: the curve `ridgeline model --frontier` prints for the tab's model and
// GPU, the tab's batch as the current point, and where the chart writes its words (inside the plot, apart).

#include "ui/plots/batching/frontier_chart_data.h"

#include "core/model/serving/frontier.h"
#include "core/model/units.h"
#include "ui/plots/batching/batching_scenario.h"

#include <QFontMetricsF>
#include <QStringList>

#include <gtest/gtest.h>

#include <algorithm>
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

// The generic engine's scheduler: vLLM's defaults, as before engines brought their own.
SchedulerChoice vllmDefaults()
{
    return engineScheduler(QString());
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
    const FrontierChartData d = frontierChartData(config, vllmDefaults());
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
        frontierChartData(configOf(QStringLiteral("llama-2-7b"), QStringLiteral("h100-sxm"), 4096), vllmDefaults());
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
    const FrontierChartData d = frontierChartData(computeBatchingScenario(in).config, vllmDefaults());
    EXPECT_FALSE(d.valid);
    EXPECT_TRUE(d.points.empty());
    EXPECT_FALSE(d.reason.isEmpty());
}

TEST(FrontierLabels, TheRingSitsOnTheCurrentPointAndEveryWordInsideThePlotApart)
{
    const FrontierChartData d =
        frontierChartData(configOf(QStringLiteral("llama-2-7b"), QStringLiteral("h100-sxm"), 16), vllmDefaults());
    ASSERT_TRUE(d.valid);
    const PlotMapping mapping{QRectF(80, 40, 560, 300), PlotRange{20, 400, 80, 12000}};
    const OverlayLayers layers = layoutFrontierLabels(d, mapping, ChartTheme::make(ThemeKind::Light));
    ASSERT_EQ(layers.moving.rings.size(), 1u);
    EXPECT_EQ(layers.moving.rings.front().center, mapping.toPixel(d.current));
    // The H100's example price costs the current point: its numbers, then its cost per million output tokens.
    ASSERT_EQ(layers.moving.texts.size(), 2u);
    EXPECT_TRUE(layers.moving.texts.front().text.startsWith(QStringLiteral("B = 16: ")));
    EXPECT_TRUE(layers.moving.texts.back().text.endsWith(QStringLiteral(" per million output tokens")));
    std::vector<QRectF> boxes;
    for (const OverlayContent* content : {&layers.fixed, &layers.moving})
        for (const AnnotationText& text : content->texts) {
            const QRectF box = boxOf(text);
            EXPECT_TRUE(mapping.plot.contains(box)) << text.text.toStdString();
            for (const QRectF& other : boxes)
                EXPECT_FALSE(other.intersects(box)) << text.text.toStdString();
            boxes.push_back(box);
        }
    // Batch 1, the largest batch named as the cheapest, the current point's two lines; the price is said under the
    // axes (frontierPriceNote).
    EXPECT_EQ(boxes.size(), 4u);
}

// Targets and a price given in the tab: the points marked as the core marks them, the best named, each point's cost
// the core's rule, the targets and the price written apart from every other word.
TEST(FrontierChartData, TargetsMarkThePointsAndThePriceCostsEach)
{
    const InferenceConfig config = configOf(QStringLiteral("llama-2-7b"), QStringLiteral("h100-sxm"), 16);
    const FrontierChartData plain = frontierChartData(config, vllmDefaults());
    ASSERT_TRUE(plain.valid) << plain.reason.toStdString();
    ASSERT_GE(plain.points.size(), 5u);
    FrontierSettings settings;
    settings.targets.itlSeconds = (1.0 + 1e-9) / plain.points[3].x();  // batch 8's inter-token latency
    settings.targets.ttftSeconds = 10.0;
    settings.gpuHourPrice = 2.5;
    EXPECT_FALSE(checkFrontierSettings(config, vllmDefaults(), settings));
    const FrontierChartData d = frontierChartData(config, vllmDefaults(), settings);
    ASSERT_TRUE(d.valid);
    const LlmModel model = LlmModel::create(config).value();
    const std::vector<FrontierPoint> expected =
        servingFrontier(model, d.prompt, d.output, {}, settings.targets).value();
    ASSERT_EQ(d.meets.size(), expected.size());
    ASSERT_EQ(d.costPerMillionOutput.size(), expected.size());
    const GpuPower power = gpuPower({}, config.gpu);
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(d.meets[i], expected[i].meetsTargets()) << expected[i].batch;
        EXPECT_DOUBLE_EQ(d.costPerMillionOutput[i], *frontierPointCost(expected[i], 1, 2.5, power).perMillionOutput);
    }
    ASSERT_EQ(d.best, bestMeetingTargets(expected));
    EXPECT_EQ(d.batches[*d.best], 8);
    // The tab's batch, 16, is slower for each user than the target; its cost is its point's.
    EXPECT_FALSE(d.currentMeetsItl);
    EXPECT_TRUE(d.currentMeetsTtft);
    const auto at16 = std::find(d.batches.begin(), d.batches.end(), 16);
    ASSERT_NE(at16, d.batches.end());
    EXPECT_DOUBLE_EQ(*d.currentCostPerMillionOutput,
                     d.costPerMillionOutput[static_cast<std::size_t>(at16 - d.batches.begin())]);

    // The axes as the chart sets them: half the lowest to twice the highest per user, half to four times per GPU.
    const PlotMapping mapping{QRectF(80, 40, 760, 420), PlotRange{d.points.back().x() / 2, d.points.front().x() * 2,
                                                                  d.points.front().y() / 2, d.points.back().y() * 4}};
    const OverlayLayers layers = layoutFrontierLabels(d, mapping, ChartTheme::make(ThemeKind::Light));
    QStringList texts;
    std::vector<QRectF> boxes;
    for (const OverlayContent* content : {&layers.fixed, &layers.moving})
        for (const AnnotationText& text : content->texts) {
            const QRectF box = boxOf(text);
            EXPECT_TRUE(mapping.plot.contains(box)) << text.text.toStdString();
            for (std::size_t i = 0; i < boxes.size(); ++i)
                EXPECT_FALSE(boxes[i].intersects(box)) << text.text.toStdString() << " over " << texts[i].toStdString();
            texts << text.text;
            boxes.push_back(box);
        }
    const QString all = texts.join(u'|');
    EXPECT_TRUE(all.contains(QStringLiteral("B = 8, best within the targets: %1 / M out")
                                 .arg(formatDollars(d.costPerMillionOutput[*d.best]))))
        << all.toStdString();
    EXPECT_TRUE(all.contains(QStringLiteral("%1 per million output tokens, misses the ITL target")
                                 .arg(formatDollars(*d.currentCostPerMillionOutput))))
        << all.toStdString();
    // The price is said once, under the axes (frontierPriceNote), not in a corner of the plot.
    EXPECT_FALSE(all.contains(QStringLiteral("per GPU-hour"))) << all.toStdString();
    EXPECT_EQ(frontierPriceNote(d), QStringLiteral("Costs at %1 per GPU-hour").arg(formatDollars(2.5)));
    const auto meeting = std::count(d.meets.begin(), d.meets.end(), true);
    EXPECT_TRUE(all.contains(QStringLiteral("%1 of %2 batches meet both").arg(meeting).arg(d.meets.size())));
    // The ITL target's line stands where the axis reads 1 / target tokens/s per user.
    const auto itl = std::find_if(layers.fixed.lines.begin(), layers.fixed.lines.end(),
                                  [](const AnnotationLine& l) { return l.id == QLatin1String("itl"); });
    ASSERT_NE(itl, layers.fixed.lines.end());
    EXPECT_NEAR(itl->line.x1(), mapping.toPixel(QPointF(1.0 / *settings.targets.itlSeconds, 1.0)).x(), 1e-9);
}

// A target below one request alone's time is refused by the core's rule, which names the minimum; so is a price of 0.
TEST(FrontierChartData, ImpossibleTargetsAndBadPricesAreRefusedWithTheMinimum)
{
    const InferenceConfig config = configOf(QStringLiteral("llama-2-7b"), QStringLiteral("h100-sxm"), 16);
    const RequestLengths lengths = frontierLengths(config);
    const TargetMinimums minimums =
        targetMinimums(LlmModel::create(config).value(), lengths.prompt, lengths.output).value();
    FrontierSettings settings;
    settings.targets.ttftSeconds = 0.5 * minimums.ttftSeconds;
    const std::optional<QString> ttft = checkFrontierSettings(config, vllmDefaults(), settings);
    ASSERT_TRUE(ttft);
    EXPECT_EQ(*ttft, *checkTargets(settings.targets, minimums));
    EXPECT_TRUE(ttft->contains(formatSeconds(minimums.ttftSeconds))) << ttft->toStdString();
    settings.targets.ttftSeconds.reset();
    settings.targets.itlSeconds = 0.9 * minimums.itlSeconds;
    const std::optional<QString> itl = checkFrontierSettings(config, vllmDefaults(), settings);
    ASSERT_TRUE(itl);
    EXPECT_TRUE(itl->contains(formatSeconds(minimums.itlSeconds))) << itl->toStdString();
    settings.targets.itlSeconds.reset();
    settings.gpuHourPrice = 0.0;
    ASSERT_TRUE(checkFrontierSettings(config, vllmDefaults(), settings));
    EXPECT_TRUE(checkFrontierSettings(config, vllmDefaults(), settings)->contains(QLatin1String("price")));

    // Set before the model changed, a target below the new minimum is said on the chart; nothing meets it.
    settings = FrontierSettings{};
    settings.targets.itlSeconds = 0.9 * minimums.itlSeconds;
    const FrontierChartData d = frontierChartData(config, vllmDefaults(), settings);
    ASSERT_TRUE(d.valid);
    EXPECT_DOUBLE_EQ(d.minimums.ttftSeconds, minimums.ttftSeconds);
    EXPECT_DOUBLE_EQ(d.minimums.itlSeconds, minimums.itlSeconds);
    EXPECT_EQ(d.targetNote, *itl);
    EXPECT_FALSE(d.best);
    for (const bool meets : d.meets)
        EXPECT_FALSE(meets);
}

TEST(FrontierChartData, AClickFindsTheNearestPointWithinItsRadius)
{
    const std::vector<QPointF> pixels{QPointF(10, 10), QPointF(30, 10), QPointF(100, 100)};
    EXPECT_EQ(frontierPointAt(pixels, QPointF(12, 11), 8.0), std::optional<std::size_t>(0));
    EXPECT_EQ(frontierPointAt(pixels, QPointF(24, 10), 8.0), std::optional<std::size_t>(1));
    EXPECT_FALSE(frontierPointAt(pixels, QPointF(60, 60), 8.0));
    EXPECT_FALSE(frontierPointAt({}, QPointF(10, 10), 8.0));
}

// Without a price typed in, the GPU's catalog price costs the points and the notes say whose it is; a card without
// one has no cost at all.
TEST(FrontierChartData, WithoutATypedPriceTheGpusCatalogPriceIsUsedAndSaid)
{
    const InferenceConfig h100 = configOf(QStringLiteral("llama-2-7b"), QStringLiteral("h100-sxm"), 16);
    const FrontierChartData d = frontierChartData(h100, vllmDefaults());
    ASSERT_TRUE(d.valid) << d.reason.toStdString();
    ASSERT_TRUE(d.price.gpuHourPrice);
    EXPECT_DOUBLE_EQ(*d.price.gpuHourPrice, 3.99);
    EXPECT_EQ(d.price.priceSource, PriceSource::Example);
    ASSERT_EQ(d.costPerMillionOutput.size(), d.points.size());
    FrontierSettings typed;
    typed.gpuHourPrice = 3.99;
    EXPECT_EQ(d.costPerMillionOutput, frontierChartData(h100, vllmDefaults(), typed).costPerMillionOutput);
    EXPECT_EQ(frontierPriceNote(d), QStringLiteral("Costs at $3.99 per GPU-hour, example price, Lambda 2026-09-20"));

    const FrontierChartData unpriced =
        frontierChartData(configOf(QStringLiteral("llama-2-7b"), QStringLiteral("rtx-4090"), 1), vllmDefaults());
    ASSERT_TRUE(unpriced.valid) << unpriced.reason.toStdString();
    EXPECT_FALSE(unpriced.price.gpuHourPrice);
    EXPECT_TRUE(unpriced.costPerMillionOutput.empty());
    EXPECT_FALSE(unpriced.currentCostPerMillionOutput);
    EXPECT_TRUE(frontierPriceNote(unpriced).isEmpty());
}

// With a price the tokens/s-per-GPU axis reads as cost: a point's height on the cost axis is its own cost per million
// output tokens, the cheapest at the top; without a price there is no cost axis.
TEST(FrontierChartData, ThePriceTurnsTheTokensPerGpuAxisIntoACostAxis)
{
    const InferenceConfig h100 = configOf(QStringLiteral("llama-2-7b"), QStringLiteral("h100-sxm"), 16);
    FrontierSettings typed;
    typed.gpuHourPrice = 2.5;
    const FrontierChartData d = frontierChartData(h100, vllmDefaults(), typed);
    ASSERT_TRUE(d.valid) << d.reason.toStdString();
    ASSERT_TRUE(d.costAtOneTokenPerSecond);
    EXPECT_DOUBLE_EQ(*d.costAtOneTokenPerSecond, 2.5 / 3600.0 * 1e6);  // $694.44 at one token a second
    const double low = d.points.front().y() / 2, high = d.points.back().y() * 4;
    const std::optional<std::pair<double, double>> range = costAxisRange(d, low, high);
    ASSERT_TRUE(range);
    EXPECT_DOUBLE_EQ(range->first, *d.costAtOneTokenPerSecond / high);  // the top: the most tokens, the least cost
    EXPECT_DOUBLE_EQ(range->second, *d.costAtOneTokenPerSecond / low);
    ASSERT_EQ(d.costPerMillionOutput.size(), d.points.size());
    for (std::size_t i = 0; i < d.points.size(); ++i) {
        // Where the point sits between the left axis's ends, read on the reversed cost axis.
        const double up = std::log(d.points[i].y() / low) / std::log(high / low);
        const double cost = range->second * std::pow(range->first / range->second, up);
        EXPECT_NEAR(cost / d.costPerMillionOutput[i], 1.0, 1e-9) << "batch " << d.batches[i];
    }
    EXPECT_FALSE(costAxisRange(d, high, low));  // no range upside down
    EXPECT_FALSE(costAxisRange(d, 0.0, high));

    const FrontierChartData unpriced =
        frontierChartData(configOf(QStringLiteral("llama-2-7b"), QStringLiteral("rtx-4090"), 1), vllmDefaults());
    EXPECT_FALSE(unpriced.costAtOneTokenPerSecond);
    EXPECT_FALSE(costAxisRange(unpriced, low, high));
}

// Where the curve stops and why: under vLLM's scheduler short requests on an RTX 4090 stop at its 128 running, named
// so; TensorRT-LLM's admits up to 2,048 and its curve stops where its 90 % of the free memory is full.
TEST(FrontierLabels, TheLastPointSaysWhetherTheSchedulerOrTheMemoryStopsTheCurve)
{
    InferenceRequest in;
    in.modelId = QStringLiteral("llama-3.1-8b");
    in.gpuId = QStringLiteral("rtx-4090");  // no example price: the last point is named for its batch
    in.context = 256;
    const InferenceConfig config = computeBatchingScenario(in).config;
    const PlotMapping mapping{QRectF(80, 40, 700, 400), PlotRange{5, 400, 20, 20000}};
    const auto names = [&](const SchedulerChoice& scheduler) {
        const FrontierChartData d = frontierChartData(config, scheduler);
        EXPECT_TRUE(d.valid) << d.reason.toStdString();
        QStringList texts;
        for (const AnnotationText& t : layoutFrontierLabels(d, mapping, ChartTheme::make(ThemeKind::Light)).fixed.texts)
            texts << t.text;
        return std::make_pair(d.batches.empty() ? std::int64_t{0} : d.batches.back(), texts);
    };
    const auto [vllmLast, vllm] = names(vllmDefaults());
    EXPECT_EQ(vllmLast, 128);
    EXPECT_TRUE(vllm.contains(QStringLiteral("B = 128, the most the scheduler runs"))) << vllm.join(u'|').toStdString();
    const auto [trtLast, trt] = names(engineScheduler(QStringLiteral("tensorrt-llm")));
    EXPECT_GT(trtLast, 128);
    EXPECT_LT(trtLast, 2048);
    EXPECT_TRUE(trt.contains(QStringLiteral("B = %1, the most that fits").arg(formatGrouped(trtLast))))
        << trt.join(u'|').toStdString();
}
