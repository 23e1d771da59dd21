#pragma once
// What the batching explorer must say out loud rather than draw quietly: weights that do not fit
// even alone (and what would: more GPUs or a smaller format), a context beyond what the model was trained on,
// more GPUs than one interconnect domain joins, and a largest batch the model stops counting at.

#include "ui/plots/batching/batching_scenario.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace ridgeline::ui {

// When the weights alone overflow each GPU: what they need, and the smallest changes that make one sequence
// fit — the fewest GPUs of the panel's counts (1, 2, 4 ... 64) and the widest smaller weight format.
struct FitAdvice {
    double weightsGibPerGpu = 0;  // at the current GPU count
    double capacityGibPerGpu = 0;
    std::optional<int> gpus;              // fewest GPUs where one sequence fits at this context
    std::optional<NumberFormat> weights;  // widest smaller format where one sequence fits on the current GPUs
    QString text() const;                 // "needs 128.5 GiB per GPU (80 GiB each): 2 GPUs or int8 would fit"
};

std::optional<FitAdvice> adviseFit(const BatchingScenario& scenario, const InferenceRequest& request);

// One sentence each, most important first; empty when there is nothing to warn about.
QStringList batchingWarnings(const BatchingScenario& scenario, const InferenceRequest& request);

}  // namespace ridgeline::ui
