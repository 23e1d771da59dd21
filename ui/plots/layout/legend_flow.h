#pragma once
// A chart's key as rows of entries that wrap to a width, each row centred: set below the axis title, a key of many
// kinds and precisions takes height there instead of a column of the plot's width.

#include <QRectF>

#include <vector>

namespace ridgeline::ui {

struct LegendFlow {
    std::vector<QRectF> entries;  // one box per entry, in order
    double height = 0.0;          // of all rows together; 0 without entries
};

// Entries `widths` wide and `rowHeight` tall, `gap` apart, in as few rows as fit `width` from `topLeft`; an entry
// wider than the row gets a row of its own, cut to its width.
LegendFlow flowLegend(const std::vector<double>& widths, double rowHeight, double gap, QPointF topLeft, double width);

// A key folded to one row: the entries that fit `width` beside a last entry `foldWidth` wide ("+9 more"), those
// marked `first` (the kinds of dots, whose colours the plot cannot be read without) before the others, each in
// order; the indices come back in order. Every index when all fit the row without the fold entry.
std::vector<std::size_t> oneRowOf(const std::vector<double>& widths, const std::vector<bool>& first, double gap,
                                  double width, double foldWidth);

}  // namespace ridgeline::ui
