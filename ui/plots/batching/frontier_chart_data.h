#pragma once
// The batching tab's frontier, widget-free: output tokens/s per GPU against tokens/s per user (1 / inter-token
// latency) over the batch, from the serving model (core/model/serving/frontier.h), with the tab's batch as the
// current point, and where the chart puts its words.

#include "core/model/llm/inference_config.h"
#include "ui/plots/batching/batching_labels.h"

#include <QPointF>
#include <QString>

#include <cstdint>
#include <vector>

namespace ridgeline::ui {

struct FrontierChartData {
    bool valid = false;
    QString reason;  // why there is no frontier (the request does not fit, ...)
    std::int64_t prompt = 0;
    std::int64_t output = 0;
    std::vector<QPointF> points;  // (tokens/s per user, output tokens/s per GPU), batch 1 first
    std::vector<std::int64_t> batches;
    QPointF current;                // the tab's batch as requests in flight
    std::int64_t currentBatch = 0;  // requests decoding together there (the largest that fits, beyond it)
    std::int64_t requestedBatch = 0;
};

// The frontier of `config` (its model, GPU, formats and tensor parallelism) for its prompt and output, or the
// frontier's 1,024 and 1,024 tokens when it has none; the current point at `config.batch` requests in flight.
FrontierChartData frontierChartData(const InferenceConfig& config);

// The smallest and largest batch beside their points, fixed; the current point's ring and numbers, moving.
OverlayLayers layoutFrontierLabels(const FrontierChartData& data, const PlotMapping& mapping, const ChartTheme& theme);

}  // namespace ridgeline::ui
