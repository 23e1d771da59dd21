#pragma once
// The labels over this CPU's batching curve, without widgets: the roofline knee (each precision's, when decode was
// measured by weight precision), the machine, and how close the largest measured batch gets to its roof.

#include "ui/plots/batching/batching_chart_data.h"
#include "ui/plots/batching/batching_labels.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/layout/log_scale.h"

namespace ridgeline::ui {

OverlayContent layoutCpuBatchingLabels(const CpuBatchingData& data, const PlotMapping& mapping,
                                       const ChartTheme& theme);

}  // namespace ridgeline::ui
