// The throughput chart's overlay as pure geometry: what the labels and marker lines of one slide's state are.

#include "ui/plots/batching/batching_labels.h"
#include "ui/plots/batching/cpu_batching_labels.h"
#include "ui/plots/layout/label_layout.h"

#include <QFontMetricsF>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

QRectF boxOf(const AnnotationText& text)
{
    const QFontMetricsF metrics(text.font);
    return QRectF(text.origin, QSizeF(metrics.horizontalAdvance(text.text), metrics.height()));
}

}  // namespace

// The "Batch size fills the machine" slide: 64 tokens of context, compute-bound from B = 151, B = 256 marked and
// more than 2,158 sequences not fitting. The knee's dashed line and the current batch's dotted line ran through
// "64 tokens of context" and "B > 2,158 does not fit in memory", and the context label sat across the memory
// limit's edge. Now no marker line crosses a text, and the labels stay on one side of that edge.
TEST(ThroughputLabels, MarkerLinesPassBehindTheTextsAndTheLabelsKeepOffTheMemoryEdge)
{
    ThroughputData data;
    data.context = 64;
    data.batch = 256;
    data.tokensPerSecond = 16440;
    data.stepSeconds = 0.01557;
    data.kneeBatch = 151;
    data.maxFittingBatch = 2158;
    data.maxShownBatch = 4096;
    PlotMapping tokens{QRectF(80, 40, 560, 560), PlotRange{0.7, 6000, 10, 1e5}};
    PlotMapping step{tokens.plot, PlotRange{0.7, 6000, 1, 1000}};
    const OverlayLayers layers = layoutThroughputLabels(data, tokens, step, {}, ChartTheme::make(ThemeKind::Dark));

    std::vector<QLineF> markerLines;
    for (const OverlayContent* content : {&layers.fixed, &layers.moving})
        for (const AnnotationLine& line : content->lines)
            if (line.line.dx() == 0.0)  // the vertical marker lines (not the leaders)
                markerLines.push_back(line.line);
    ASSERT_GE(markerLines.size(), 2u);
    const double edge = tokens.toPixel(QPointF(2158, 10)).x();
    int named = 0;
    for (const AnnotationText& text : layers.fixed.texts) {
        const QRectF box = boxOf(text).adjusted(1, 1, -1, -1);
        for (const QLineF& line : markerLines)
            EXPECT_FALSE(segmentIntersectsRect(line, box)) << text.text.toStdString();
        EXPECT_FALSE(box.left() < edge && box.right() > edge) << text.text.toStdString() << " across the edge";
        named += text.text == QLatin1String("64 tokens of context") ||
                 text.text == QLatin1String("B > 2,158 does not fit in memory");
    }
    EXPECT_EQ(named, 2);
}

TEST(UiLabelLayout, AVerticalLineBreaksAroundTheBoxesItMeets)
{
    const std::vector<QRectF> boxes{QRectF(90, 100, 40, 20), QRectF(95, 110, 20, 30), QRectF(200, 0, 10, 10)};
    const std::vector<QLineF> pieces = verticalLineAround(100, 0, 300, boxes, 2.0);
    ASSERT_EQ(pieces.size(), 2u);
    EXPECT_EQ(pieces[0], QLineF(100, 0, 100, 98));
    EXPECT_EQ(pieces[1], QLineF(100, 142, 100, 300));
    EXPECT_EQ(verticalLineAround(100, 0, 300, {}).size(), 1u);
    EXPECT_TRUE(verticalLineAround(100, 0, 300, {QRectF(80, -10, 40, 400)}).empty());
}

// Text a curve runs through gets a box of the background; text clear of every curve does not.
TEST(BatchingLabels, OnlyTextACurveCrossesIsBoxed)
{
    const ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    std::vector<AnnotationText> texts{
        {QStringLiteral("crossed"), QPointF(100, 100), 0.0, theme.text, theme.kernelLabelFont, theme.background},
        {QStringLiteral("clear"), QPointF(100, 300), 0.0, theme.text, theme.kernelLabelFont, theme.background}};
    boxTextsCrossedBy(texts, {QLineF(90, 80, 160, 130)});
    EXPECT_TRUE(texts[0].boxed);
    EXPECT_FALSE(texts[1].boxed);
}

// A short plot (the CPU's batching chart beside a 1600 px window) names the machine by the part of its title before
// the colon rather than "AMD EPYC (Zen 4), 2 vCPUs: bun...".
TEST(BatchingLabels, AShortPlotNamesTheMachineWithoutItsTitlesTail)
{
    CpuBatchingData data;
    data.valid = true;
    data.machineName = QStringLiteral("AMD EPYC (Zen 4), 2 vCPUs: bundled measurement of this repository");
    data.peakGflops = 232;
    data.bandwidthGbps = 37;
    data.measured = {{1, 250}, {16, 2500}, {256, 5000}};
    data.predicted = {{1, 500}, {16, 7000}, {256, 7000}};
    const ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    const QFontMetricsF metrics(theme.kernelLabelFont);
    const double width = 2.0 * metrics.horizontalAdvance(QStringLiteral("AMD EPYC (Zen 4), 2 vCPUs")) + 40.0;
    const PlotMapping mapping{QRectF(60, 20, width, 90), PlotRange{0.7, 400, 100, 30000}};
    const OverlayContent content = layoutCpuBatchingLabels(data, mapping, theme);
    QStringList texts;
    for (const AnnotationText& t : content.texts)
        texts << t.text;
    EXPECT_TRUE(texts.contains(QStringLiteral("AMD EPYC (Zen 4), 2 vCPUs"))) << texts.join(u'|').toStdString();
    for (const QString& t : texts)
        EXPECT_FALSE(t.contains(QChar(0x2026))) << t.toStdString();
}

// An H100's bf16 roof (989 TFLOP/s) in plots from a laptop's height to a slide's: the TFLOP/s axis grows a decade at
// a time until the roofs' numbers have their line above the flat roof, inside the plot, and a tall plot keeps the
// decade the data asked for.
TEST(DecodeRooflineLabels, TheRoofsNumbersSitAboveTheRoofInAShortPlot)
{
    DecodeRooflineData data;
    data.gpuName = QStringLiteral("NVIDIA H100 SXM5 80GB");
    data.precision = QStringLiteral("bf16");
    data.effective = Roof{672.8e3, 2981.5};
    data.datasheet = Roof{989.4e3, 3350.0};
    data.current = BatchSample{16, 975.0, 16.4e-3, 3.42, 8.53, true};
    data.trajectory = {BatchSample{1, 70.0, 14.3e-3, 1.0, 2.9, true}, data.current,
                       BatchSample{256, 9000.0, 28.0e-3, 50.0, 140.0, true}};
    const ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    const double dataTop = 1e4, bottom = 0.1, roof = 989.4;
    EXPECT_EQ(decodeAxisTop(dataTop, bottom, roof, 400.0, theme), dataTop);
    for (const double height : {60.0, 90.0, 120.0, 167.0, 240.0, 400.0}) {
        const double top = decodeAxisTop(dataTop, bottom, roof, height, theme);
        EXPECT_GE(top, dataTop);
        EXPECT_LE(top, dataTop * 1e3);
        const PlotMapping mapping{QRectF(60, 20, 420, height), PlotRange{0.1, 1e4, bottom, top}};
        const OverlayLayers layers = layoutDecodeRooflineLabels(data, mapping, {}, theme);
        const double roofY = mapping.toPixel(QPointF(1e3, roof)).y();
        int roofNumbers = 0;
        for (const AnnotationText& text : layers.fixed.texts) {
            if (!text.text.contains(QLatin1String("TFLOP/s")))
                continue;
            ++roofNumbers;
            const QRectF box = boxOf(text);
            EXPECT_LE(box.bottom(), roofY + 0.5) << height << " px: " << text.text.toStdString();
            EXPECT_GE(box.top(), mapping.plot.top() - 0.5) << height << " px: " << text.text.toStdString();
        }
        EXPECT_GT(roofNumbers, 0) << height << " px";
    }
}
