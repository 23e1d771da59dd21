#pragma once
// The model's curves through a stored calibration's points ("a user who measured five batch sizes should
// see the model's curve bend through their points"). The points are grouped into series, one per quantity,
// statistic and setup with the batch set aside (five benchmark_latency.py files at five batch sizes are one series);
// along each series the model is evaluated at a range of batch sizes with the terms before the fit and after it.
// `ridgeline calibrate` prints these curves as tables; the batching tab draws them (before dashed, after solid) with
// the measured points on top (ui/plots/batching/batching_calibration.h, over a wider range of batches). Everything here
// reads only the stored Calibration, so a session loaded from disk redraws exactly what was fitted.

#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_terms.h"
#include "core/result.h"
#include "core/session/calibration_record.h"

#include <QString>
#include <QStringList>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline {

struct CalibrationSeries {
    QStringList files;  // the benchmark files of its points, in order
    MeasuredQuantity quantity = MeasuredQuantity::TokenLatency;
    QString statistic;                  // "median TPOT", "mean latency"
    CalibrationPoint setup;             // the series' first point: model, GPU, TP, formats, prompt, output
    std::vector<std::size_t> points;    // indices into Calibration::points, by ascending batch
    std::vector<std::int64_t> batches;  // the points' distinct batches, ascending
};

// The calibration's points in series, in the order their first points appear. A point whose quantity this build
// does not know is in no series (the session loader refuses such files, so this does not happen after a load).
std::vector<CalibrationSeries> calibrationSeries(const Calibration& calibration);

// The terms a stored calibration started from (every stored term's `start` over EngineTerms::measured()), the
// "before" of its curves. fittedTerms (calibration_record_builder.h) gives the "after".
Result<EngineTerms> startTerms(const Calibration& calibration);

// The batches a curve is drawn at: every measured batch and the powers of two from half the smallest to twice the
// largest (at least 1, at most the model's batch limit), ascending, each once.
std::vector<std::int64_t> curveBatches(const CalibrationSeries& series);

struct CurveSample {
    std::int64_t batch = 1;
    std::optional<double> measured;  // the series' point at this batch (the mean when several runs share it)
    std::optional<double> before;    // the model's figure with the start terms
    std::optional<double> after;     // with the fitted terms; empty (both) where the model refuses the setup
    bool fitsInMemory = true;        // weights and the KV cache of `batch` sequences fit the GPUs' memory
    QString refused;                 // why before/after are empty
};

// The series' curve at `batches`: before and after from the same setup, only the batch changed. At a measured
// batch, after equals the point's stored prediction. An error names what stops the whole series (an unknown
// term, model or GPU); a batch the model refuses is a sample with `refused` set.
Result<std::vector<CurveSample>> seriesCurve(const Calibration& calibration, const CalibrationSeries& series,
                                             const std::vector<std::int64_t>& batches);

}  // namespace ridgeline
