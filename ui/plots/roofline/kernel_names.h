#pragma once
// The kernels' text on a roofline with its legend beside the plot (RooflineView::strip), designed for density: each
// sweep (a decode batch sweep, a series of gemm sizes) named once at its end with its precision ("decode fp32"), its
// steps ("B=4", "512") in small type right beside their dots and never with a leader; the names of the points that
// matter (the selected one, the extremes, the largest) or of all when they are few or when asked for; the percentages
// of before/after arrows. No text lies on a dot or on a line it does not name, and no leader crosses a dot: what finds
// no such place is left out and counted, for the note beside the plot.

#include "ui/plots/layout/label_layout.h"
#include "ui/plots/roofline/roofline_decorations.h"

#include <QLineF>
#include <QString>

#include <vector>

namespace ridgeline::ui {

// A line the text must keep off unless it names it: a roof's segment ("roof:2"), a sweep's path ("path:0:decode").
struct NamedSegment {
    QLineF line;
    QString id;
};

// What placeKernelNames adds to the chart's overlay.
struct KernelText {
    std::vector<AnnotationText> texts;
    std::vector<AnnotationLine> leaders;
    std::vector<QRectF> rects;  // the texts' boxes
};

// Places the text around `layout`'s obstacles (every dot and the roofs' labels among them); returns how many kernel
// names were left out.
int placeKernelNames(const RooflineView& view, const ChartTheme& theme, const RooflineDecorations& marks,
                     const std::vector<QRectF>& markerBoxes, const std::vector<NamedSegment>& lines,
                     LabelLayoutInput& layout, KernelText& out);

}  // namespace ridgeline::ui
