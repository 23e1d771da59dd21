#pragma once
// Cuts a chart's lines and shaded regions to its axes' ranges, geometrically. On screen Qt Charts clips them to the
// plot area with the painter, but QSvgGenerator (Qt 6.4) writes no clip paths: in an SVG the roofs would run across
// the tick labels and out of the plot. The chart is changed in place; call it only on a chart made for one export.

class QChart;

namespace ridgeline::ui {

// Line series become the parts of their polylines inside the axes' ranges (a part beyond the first is a new
// series with the same pen and no legend entry); area series are cut at the x range and their bounds clamped to the
// y range. Log axes are cut in log space, where their lines are straight. Scatter series are left as they are.
void clipSeriesToAxes(QChart* chart);

}  // namespace ridgeline::ui
