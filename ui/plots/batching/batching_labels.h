#pragma once
// Where the batching explorer's charts put their text, without widgets: the labels over tokens/s and step time,
// over the decode step's roofline (this CPU's curve: cpu_batching_labels.h), placed for one plot mapping so that no
// text covers another. Each chart draws two layers: what changes with the curves (fixed) and what moves with every
// batch step (moving), so a slider step repaints only the second.

#include "ui/plots/batching/batching_chart_data.h"
#include "ui/plots/layout/annotation.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/layout/log_scale.h"

#include <QLineF>
#include <QString>

#include <vector>

namespace ridgeline::ui {

struct OverlayContent {
    std::vector<AnnotationLine> lines;
    std::vector<AnnotationText> texts;
    std::vector<AnnotationRing> rings;
};

struct OverlayLayers {
    OverlayContent fixed;   // changes with the curves
    OverlayContent moving;  // changes with the current batch
};

// A chart's "no numbers" message in the middle of its plot, elided to its width; nothing for an empty message.
OverlayContent plotMessage(const QRectF& plot, const QString& message, const ChartTheme& theme);

// Tokens/s and step time against batch: the context (top right), the compute-bound knee, the memory limit, and
// the current batch's numbers beside its two markers. `tokens` and `step` map the two y axes; `curves` are the
// drawn curves' segments in pixels, which the current batch's labels avoid.
OverlayLayers layoutThroughputLabels(const ThroughputData& data, const PlotMapping& tokens, const PlotMapping& step,
                                     const std::vector<QLineF>& curves, const ChartTheme& theme);

// The decode step on a GPU's roofline: the roofs' numbers, the ridge, the attention point, the batch marks (close
// ones merged into "B=64–4,096") and the current step's label and ring, which always finds a place.
OverlayLayers layoutDecodeRooflineLabels(const DecodeRooflineData& data, const PlotMapping& mapping,
                                         const std::vector<QLineF>& curves, const ChartTheme& theme);

// The top of the decode roofline's TFLOP/s axis: `dataTop` (a decade or so above the roof), raised a decade at a
// time, up to three, until the roofs' numbers have their line between the flat roof at `roofTflops` and the top of
// a plot `plotHeight` pixels tall over `bottom`..top. A short plot (a 1600 x 1000 window) gives a decade too few
// pixels for them, and they would sit on the roof they number.
double decodeAxisTop(double dataTop, double bottom, double roofTflops, double plotHeight, const ChartTheme& theme);

// Every text a curve runs through gets a box of the background (`boxed`), so the curve passes under it instead of
// striking it through: the rule of every batching chart whose plot is too full to keep its texts off the curves.
void boxTextsCrossedBy(std::vector<AnnotationText>& texts, const std::vector<QLineF>& curves);

// The decode trajectory's marks: batches that are powers of four (1, 4, 16 ... 4,096).
bool isPowerOfFour(std::int64_t batch);
// The decode roofline's colours, shared by its series and its labels.
QColor decodeTrajectoryColor(const ChartTheme& theme);
QColor attentionColor(const ChartTheme& theme);

}  // namespace ridgeline::ui
