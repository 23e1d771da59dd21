#pragma once
// Where the roofline chart's text goes, for one plot mapping: roof labels on their lines (compute ceilings that
// tie share one), bandwidth labels along their diagonals, iso-efficiency and ridge labels, then the kernels'
// labels, their level tags and the before/after percentages, placed so no text covers a dot, a roof's diagonal
// or other text (label_layout.h). The result is everything the chart's two overlay layers paint.

#include "ui/plots/layout/annotation.h"
#include "ui/plots/roofline/roof_labels.h"
#include "ui/plots/roofline/roofline_decorations.h"

#include <QRectF>

#include <vector>

namespace ridgeline::ui {

struct RooflineAnnotations {
    std::vector<AnnotationLine> under;  // the ridge's dotted line, error bars, level joins, the decode path
    std::vector<AnnotationLine> over;   // arrows and label leaders
    std::vector<AnnotationText> texts;  // every label drawn
    std::vector<AnnotationRing> rings;
    std::vector<QRectF> kernelLabelRects;     // the kernel (and percentage) labels' boxes
    std::vector<RoofLabel> roofLabels;        // where each roof in view is named: on the chart or in the legend
    QRectF roofLegend;                        // the roof legend's box; empty without one
    std::vector<AnnotationLine> legendLines;  // its background, frame and strokes (also at the end of `over`)
    // With a strip beside the plot (RooflineView::strip): the roof legend and the notes there, outside the plot.
    std::vector<AnnotationText> stripTexts;
    std::vector<AnnotationLine> stripLines;
    int drawnArrows = 0;
};

// Everything over and under the dots: decorateRoofline() plus the text placed around it. Empty when the plot
// area is too small to hold any.
RooflineAnnotations annotateRoofline(const RooflineView& view, const ChartTheme& theme);

}  // namespace ridgeline::ui
