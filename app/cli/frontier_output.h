#pragma once
// `ridgeline model --frontier`: the frontier as JSON (a list "frontier" of points) and as a table.

#include "app/cli/serving_options.h"
#include "core/model/serving/frontier.h"

#include <QJsonObject>
#include <QTextStream>

#include <vector>

namespace ridgeline::cli {

struct FrontierView {
    const InferenceConfig& config;
    const ServingOptions& options;
    TargetMinimums minimums;
    GpuPower power;
    std::vector<FrontierPoint> points;
};

// Each point: batch, tokens_per_s_per_gpu, tokens_per_s_per_user, ttft_s, itl_s, e2e_latency_s, meets_targets, and
// cost_per_million_output_tokens / cost_per_million_input_tokens when a price is given, joules_per_output_token
// when the power is known.
QJsonObject frontierJson(const FrontierView& view);
void printFrontierTable(QTextStream& out, const FrontierView& view);

}  // namespace ridgeline::cli
