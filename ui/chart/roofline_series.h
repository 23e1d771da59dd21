#pragma once
// Plain plot data (ui/models/roofline_plot.h) as Qt Charts series, styled and filled but not yet in a chart:
// the roofline chart adds them, attaches its axes and wires their signals.

#include "ui/models/roofline_plot.h"

#include <initializer_list>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QChart;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

QLineSeries* makeLineSeries(const std::vector<QPointF>& points, const QPen& pen, const QString& name);
// A shaded region: the area between the roof's vertices and the region's floor.
QAreaSeries* makeRegionSeries(const PlotRegion& region);
// Style first, then points: every style setter on a scatter series already in a chart walks all its marker
// items (ScatterChartItem::setBrush), which made 10,000 kernels take seconds.
QScatterSeries* makeKernelSeries(const KernelGroup& group);

// The chart's frame, axes and legend in the theme's colours and fonts.
void styleRooflineChart(QChart* chart, std::initializer_list<QLogValueAxis*> axes, const ChartTheme& theme);

}  // namespace ridgeline::ui
