// The talk's serving slides name each batch beside its point: clear of the curve, the dots and the other names,
// inside the plot, as the trade slide's steep rise at the left edge needs (its names once sat on the curve).
#include "ui/plots/batching/serving_scene_data.h"
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

void expectClear(const ServingSceneChartData& data, const PlotMapping& mapping)
{
    const OverlayContent content = layoutServingSceneLabels(data, mapping, ChartTheme::make(ThemeKind::Dark));
    ASSERT_EQ(content.texts.size(), data.points.size());
    std::vector<QPointF> pixels;
    for (const QPointF& point : data.points)
        pixels.push_back(mapping.toPixel(point));
    std::vector<QRectF> boxes;
    for (const AnnotationText& text : content.texts) {
        const QRectF box = boxOf(text);
        SCOPED_TRACE(text.text.toStdString());
        EXPECT_TRUE(mapping.plot.contains(box));
        for (std::size_t i = 1; i < pixels.size(); ++i)
            EXPECT_FALSE(segmentIntersectsRect(QLineF(pixels[i - 1], pixels[i]), box));
        for (const QPointF& dot : pixels)
            EXPECT_FALSE(box.contains(dot));
        for (const QRectF& other : boxes)
            EXPECT_FALSE(other.intersects(box));
        boxes.push_back(box);
    }
}

TEST(ServingSceneLabels, NamesOfASteepRiseAtTheLeftEdgeStayOffTheCurve)
{
    // The trade slide's shape: time to first token 30-60 ms, then 26 s, against 155-2,425 tokens/s.
    ServingSceneChartData data;
    data.valid = true;
    data.rising = true;
    data.points = {{0.0299, 155}, {0.0313, 540}, {0.0368, 1421}, {0.0591, 2400}, {25.8, 2425}};
    for (const char* label :
         {"B = 1: 155 tok/s, 29.87 ms", "B = 4: 540 tok/s, 31.25 ms", "B = 16: 1,421 tok/s, 36.82 ms",
          "B = 64: 2,400 tok/s, 59.09 ms", "B = 128: 2,425 tok/s, 25.82 s"})
        data.labels << QString::fromLatin1(label);
    PlotMapping mapping;
    mapping.plot = QRectF(180, 170, 1630, 700);
    mapping.range = PlotRange{0.01, 80, 80, 6000};
    expectClear(data, mapping);
}

TEST(ServingSceneLabels, NamesOfAFallingCostCurveStayOffIt)
{
    ServingSceneChartData data;
    data.valid = true;
    data.rising = false;
    const double cost[] = {4.48, 2.35, 1.29, 0.755, 0.489, 0.356, 0.289};
    double batch = 1;
    for (double c : cost) {
        data.points.emplace_back(batch, c);
        data.labels << QStringLiteral("B = %1: $%2").arg(batch).arg(c);
        batch *= 2;
    }
    PlotMapping mapping;
    mapping.xBase = 2.0;
    mapping.plot = QRectF(150, 170, 1660, 700);
    mapping.range = PlotRange{0.5, 128, 0.2, 12};
    expectClear(data, mapping);
}

}  // namespace
