#pragma once
// The batching tab's frontier, widget-free: output tokens/s per GPU against tokens/s per user (1 / inter-token
// latency) over the batch, from the serving model (core/model/serving/frontier.h), with the tab's batch as the
// current point, the targets and price a person gave, and where the chart puts its words.

#include "core/model/llm/inference_config.h"
#include "core/model/serving/frontier.h"
#include "core/model/serving/scheduler_choice.h"
#include "core/model/serving/token_cost.h"
#include "ui/plots/batching/batching_labels.h"

#include <QPointF>
#include <QString>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace ridgeline::ui {

// What a person asks of the frontier beyond the tab's model: time-to-first-token and inter-token latency targets and
// a price per GPU-hour, each empty when not given (the price then is the GPU's catalog price, if it has one).
struct FrontierSettings {
    FrontierTargets targets;
    std::optional<double> gpuHourPrice;
    bool operator==(const FrontierSettings& o) const
    {
        return targets.ttftSeconds == o.targets.ttftSeconds && targets.itlSeconds == o.targets.itlSeconds &&
               gpuHourPrice == o.gpuHourPrice;
    }
};

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

    FrontierSettings settings;
    CostInputs price;         // the price the points are costed at and where it comes from (withCatalogPrice), or none
    TargetMinimums minimums;  // one request alone: the least each target can be
    std::vector<bool> meets;  // each point within both targets (all, without targets)
    std::optional<std::size_t> best;           // the most tokens/s per GPU within the targets
    std::vector<double> costPerMillionOutput;  // USD per point; empty without a price
    // USD per million output tokens at one output token/s per GPU: a point's cost is this over its tokens/s per GPU
    // (token_cost.h's rule), so the price turns the tokens/s-per-GPU axis into a cost axis; empty without a price.
    std::optional<double> costAtOneTokenPerSecond;
    std::optional<double> currentCostPerMillionOutput;
    bool currentMeetsTtft = true;
    bool currentMeetsItl = true;
    QString targetNote;  // the targets are below this model's minimum (the model changed after they were set)
    // The scheduler's largest batch: the curve stops there unless the memory is full first.
    std::int64_t maxRunning = 0;

    bool hasTargets() const { return settings.targets.ttftSeconds || settings.targets.itlSeconds; }
};

// The request lengths the frontier runs at for `config`: its prompt and output, or, without them, requests that fill
// the context window (requestLengthsInContext).
RequestLengths frontierLengths(const InferenceConfig& config);

// What is wrong with the settings for `config`, one line naming the field, or nothing: the core rules for targets
// (checkTargets: at least one request alone's time, the message says it) and for a price (checkCostInputs).
std::optional<QString> checkFrontierSettings(const InferenceConfig& config, const SchedulerChoice& scheduler,
                                             const FrontierSettings& settings);

// The frontier of `config` (its model, GPU, formats and tensor parallelism) at frontierLengths(config) under the
// engine's scheduler (engineScheduler: the one `ridgeline model --engine X --frontier` runs); the current point at
// `config.batch` requests in flight; points marked against the settings' targets and costed at its price, else at
// the GPU's catalog price.
FrontierChartData frontierChartData(const InferenceConfig& config, const SchedulerChoice& scheduler,
                                    const FrontierSettings& settings = {});

// The index of the point within `radius` pixels of `pixel` (the nearest), given each point's pixel, or nothing.
std::optional<std::size_t> frontierPointAt(const std::vector<QPointF>& pixels, QPointF pixel, double radius);

// The cost axis's range for a tokens/s-per-GPU range `low`..`high`: USD per million output tokens at `high` (the
// cheapest) and at `low`; empty without a price.
std::optional<std::pair<double, double>> costAxisRange(const FrontierChartData& data, double low, double high);

// The smallest and largest batch beside their points, the targets' note and the best point's name, fixed; the
// current point's ring and numbers, moving.
OverlayLayers layoutFrontierLabels(const FrontierChartData& data, const PlotMapping& mapping, const ChartTheme& theme);

// The price the points are costed at and whose it is, a sentence about the whole chart for the strip under its axes
// (a catalog price's source is too long for a corner of a narrow plot); empty without a price.
QString frontierPriceNote(const FrontierChartData& data);

}  // namespace ridgeline::ui
