#pragma once
// The batching explorer's words, without widgets: the headline (tokens/s, step time, bound), the detail line
// (model, GPU, precisions, batch, context, efficiency) and the takeaway box (the source text's argument with this
// configuration's numbers), or what to say when the model refused the inputs.

#include "ui/plots/batching/batching_scenario.h"

#include <QString>
#include <QStringList>

namespace ridgeline::ui {

struct BatchingTexts {
    bool error = false;  // the model refused the inputs: the headline says so, there is no takeaway
    QString headline;
    QString detail;
    QString scheduler;     // whose scheduler the frontier runs (schedulerSummary), added to the detail beside it
    QStringList takeaway;  // one bullet each
    QStringList warnings;  // said out loud above the charts (batching_warnings.h)
};

BatchingTexts batchingTexts(const BatchingScenario& scenario, const InferenceRequest& request);

}  // namespace ridgeline::ui
