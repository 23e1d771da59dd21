#pragma once
// The CPU batching chart's curves by weight precision: from a session's decode-fp32/-bf16/-int8 series
// (core/session/decode_series.h), the measured tokens/s and the prediction on each precision's own roof, as plain
// points the chart draws.

#include "core/session/session.h"
#include "ui/plots/batching/batching_chart_data.h"

#include <vector>

namespace ridgeline::ui {

struct WeightPrecisionCurves {
    std::vector<WeightPrecisionCurve> curves;  // fp32 first; only series with at least one measured batch
    int matrixDim = 0;                         // d of their d x d weights
};

// Empty unless the session measured decode with at least two weight precisions (one alone compares nothing).
WeightPrecisionCurves weightPrecisionCurves(const Session& session);

// Measured tokens/s at batch 1 with `precision` weights over fp32's; 0 when either lacks batch 1.
double batchOneSpeedup(const std::vector<WeightPrecisionCurve>& curves, const QString& precision);

}  // namespace ridgeline::ui
