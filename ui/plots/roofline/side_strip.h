#pragma once
// The strip beside the roofline's plot: the chart's notes (machines mixed on it, names not shown and how to show them)
// over the roof legend (the lower roofs, drawn thin, and what the line styles mean), never over the data. Rows and
// notes wrap to the strip's width; legend rows that do not fit its height are counted in a last row.

#include "ui/plots/layout/annotation.h"
#include "ui/plots/roofline/roof_legend.h"

#include <QRectF>
#include <QStringList>

#include <vector>

namespace ridgeline::ui {

struct SideStrip {
    std::vector<AnnotationText> texts;
    std::vector<AnnotationLine> lines;    // the legend's strokes and frame
    QRectF legend;                        // the legend's box; empty without rows
    std::vector<std::size_t> roofsShown;  // the roofs the legend names
};

// A text as lines no wider than `width`, broken between words.
QStringList wrapText(const QString& text, const QFont& font, double width);

SideStrip layOutSideStrip(const QRectF& strip, const std::vector<RoofLegendRow>& rows, const QStringList& notes,
                          const ChartTheme& theme);

}  // namespace ridgeline::ui
