#pragma once
// The talk's serving slides, widget-free: one point per batch of the scene's sweep (core/scene/serving_scene.h),
// the same sweep its caption quotes, and where the slide writes each point's name.
// - The trade: output tokens/s per GPU against the time to first token; the curve rises to the right.
// - The cost: cost per million output tokens against the batch; the curve falls to the right.

#include "core/scene/serving_scene.h"
#include "ui/plots/batching/batching_labels.h"

#include <QPointF>
#include <QStringList>

#include <vector>

namespace ridgeline::ui {

struct ServingSceneChartData {
    bool valid = false;
    QString reason;
    QStringList titles;  // longest first, the chart takes the first that fits
    QString xTitle;
    QString yTitle;
    double xBase = 10.0;
    std::vector<QPointF> points;  // in the axes' units, the sweep's order
    QStringList labels;           // one per point
    bool rising = true;           // the curve climbs to the right: names go above and to the left of their points
};

ServingSceneChartData servingTradeChartData(const ServingSweep& sweep);
ServingSceneChartData servingCostChartData(const ServingSweep& sweep);

// Each point's name at the first corner beside it (the open side of the curve first) that is inside the plot and
// clear of the curve, the dots and the names already placed.
OverlayContent layoutServingSceneLabels(const ServingSceneChartData& data, const PlotMapping& mapping,
                                        const ChartTheme& theme);

}  // namespace ridgeline::ui
