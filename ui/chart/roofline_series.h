#pragma once
// Plain plot data (ui/plots/roofline/roofline_plot.h) as Qt Charts series, styled and filled but not yet in a chart:
// the roofline chart adds them, attaches its axes and wires their signals.

#include "ui/plots/roofline/roofline_plot.h"

#include <initializer_list>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QChart;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

// `yUnit`: GFLOP/s per unit of the performance axis; the points' y are divided by it.
QLineSeries* makeLineSeries(const std::vector<QPointF>& points, const QPen& pen, const QString& name,
                            double yUnit = 1.0);
// A shaded region: the area between the roof's vertices and the region's floor.
QAreaSeries* makeRegionSeries(const PlotRegion& region, double yUnit = 1.0);
// Style first, then points: every style setter on a scatter series already in a chart walks all its marker
// items (ScatterChartItem::setBrush), which made 10,000 kernels take seconds.
QScatterSeries* makeKernelSeries(const KernelGroup& group, double yUnit = 1.0);

// The chart's frame, axes and legend in the theme's colours and fonts.
void styleRooflineChart(QChart* chart, std::initializer_list<QLogValueAxis*> axes, const ChartTheme& theme);

}  // namespace ridgeline::ui
