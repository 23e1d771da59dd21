#pragma once
// `ridgeline model --split P:D` and `--split-sweep`: each split's pools, KV transfer, latencies and utilisations,
// the best split and colocated serving on the same GPUs, as JSON and as a table.

#include "app/cli/split_options.h"
#include "core/model/serving/disaggregation.h"

#include <QJsonObject>
#include <QTextStream>

namespace ridgeline::cli {

struct SplitView {
    const InferenceConfig& config;
    const ServingOptions& serving;
    const SplitOptions& options;
    const LinkSpec& link;
    TargetMinimums minimums;  // the least --ttft-target and --itl-target can be
    Roof roof;                // the effective roof the passes are placed under
    SplitSweep sweep;         // --split: its one split, best when it keeps up
};

// "split" (the one split, or the best of the sweep; null when none keeps up), "split_sweep" (with --split-sweep:
// every split, "best" true on one) and "colocated", beside the mix, the link and the scheduling. A split's latency
// figures are null when it does not keep up with the arrival rate.
QJsonObject splitJson(const SplitView& view);
void printSplitTable(QTextStream& out, const SplitView& view);

}  // namespace ridgeline::cli
