#pragma once
// The roof legend, a small key inside the plot: what the line styles mean (lower compute roofs dashed and faint,
// triad bandwidth dashed, read solid), then every roof in view that found no place for its label on its line, each
// beside a stroke of that line. It goes in the corner of the plot it covers least of: dots, labels, roof lines.

#include "ui/plots/layout/annotation.h"
#include "ui/plots/roofline/roof_labels.h"

#include <QRectF>
#include <QSizeF>

#include <vector>

namespace ridgeline::ui {

struct RoofLegendRow {
    QPen pen;  // the stroke drawn before the text
    QString text;
    std::vector<std::size_t> roofs;  // the roofs it names; none for a row on line styles or the count of the rest
    bool keep = true;                // style rows and solid roofs; a dashed (lower) roof's row may give way
    bool lowerCompute = false;       // a compute roof under its precision's best: the first to give way in a strip
};

// The style rows the roofs in view call for, then one row per entry.
// `lowerComputeRow`: a row saying what a dashed compute roof is (not needed when each has a row of its own).
std::vector<RoofLegendRow> roofLegendRows(const RooflineView& view, const ChartTheme& theme,
                                          const std::vector<RoofLegendEntry>& entries, bool lowerComputeRow = true);
QSizeF roofLegendSize(const std::vector<RoofLegendRow>& rows, const ChartTheme& theme);

enum class Corner { TopLeft, TopRight, BottomRight, BottomLeft };

struct LegendSpot {
    Corner corner = Corner::TopLeft;
    QRectF rect;
};

// The box of `size` in the corner of `inner` that covers the fewest dots, then labels, then line crossings.
LegendSpot placeRoofLegend(QSizeF size, const QRectF& inner, const std::vector<QRectF>& markers,
                           const std::vector<QRectF>& taken, const std::vector<QLineF>& lines);
// The same corner, for a box of another size.
QRectF anchoredAt(const LegendSpot& spot, QSizeF size, const QRectF& inner);

// The rows as a legend that covers no dot in some corner of `inner`: when the whole legend would cover one (two
// machines' roofs in a small plot), the dashed roofs' rows go from the end and a last row counts them; a pointer
// on a line still names it. The style rows and solid roofs (each machine's top compute roof, its read bandwidths)
// always stay.
std::vector<RoofLegendRow> roofLegendClearOfDots(std::vector<RoofLegendRow> rows, const ChartTheme& theme,
                                                 const QRectF& inner, const std::vector<QRectF>& markers);

// The legend's background, frame and strokes (lines) and its texts, in `rect`.
void drawRoofLegend(const std::vector<RoofLegendRow>& rows, const QRectF& rect, const ChartTheme& theme,
                    std::vector<AnnotationLine>& lines, std::vector<AnnotationText>& texts);

}  // namespace ridgeline::ui
