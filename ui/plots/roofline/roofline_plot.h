#pragma once
// The roofline chart's plot data, without widgets (hotspot's TimeLineData, heaptrack's ChartModel): from the
// sessions, the extra roofs and the options, every roof, region and kernel dot the chart draws, in data
// coordinates and with its pen and colour. The chart (ui/chart/roofline_chart) only turns this into series;
// the label layout (roofline_labels.h) places the text over it. Tested without painting (tests/ui_models).

#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/roofline/kernel_presentation.h"
#include "ui/plots/roofline/roofline_plot_data.h"

namespace ridgeline::ui {

RooflinePlot buildRooflinePlot(const RooflineInput& input, const ChartTheme& theme);

// A kernel kind's marker: kinds drawn in one shape are told apart by colour alone (ChartTheme::kernelColor).
MarkerShape kernelMarkerShape(const QString& kind);

}  // namespace ridgeline::ui
