#pragma once
// The calibrations a session keeps, as the batching tab draws them: per series of measured runs,
// the points over the model's curve along the batch with the terms before the fit (dashed) and after it (solid).
// The curves come from core/bench/calibration/calibration_curves (the same series and curves `ridgeline calibrate`
// prints), drawn over a wider batch range and more densely than the CLI's table.

#include "core/session/session.h"

#include <QPointF>
#include <QString>
#include <QStringList>

#include <vector>

namespace ridgeline::ui {

struct CalibrationCurveData {
    QString name;                 // for the chooser: "e2e latency, Llama 3.1 70B on MI300X ×8 (5 files)"
    std::size_t calibration = 0;  // which of the session's calibrations the series belongs to
    // What the series ran: model, GPU, tensor parallel size, formats, prompt and output (its first point), and its
    // largest batch. The tab shows this setup while the series is drawn.
    CalibrationPoint setup;
    std::int64_t largestBatch = 1;
    QStringList titles;   // the chart's title, longest first: "Your benchmark: end-to-end latency, Llama 3.1 70B on
                          // AMD Instinct MI300X ×8", "... latency, Llama 3.1 70B", "... latency", "Your benchmark"
    QString yTitle;       // "End-to-end latency (s)", "Decode tokens/s"
    QStringList setups;   // longest first: "fp8 weights, fp8 KV  ·  prompt 128, output 2,048",
                          // "fp8/fp8 KV  ·  prompt 128, output 2,048", "prompt 128, output 2,048"
    QStringList sources;  // what the dots are, longest first: "median latency of 5 files (batch_1.json to
                          // batch_128.json)", "median latency of 5 files", "5 files"
    bool rate = false;    // tokens/s (higher is faster) rather than seconds
    std::vector<QPointF> measured;  // (batch, value), ascending batch
    std::vector<QPointF> before;    // the model with the terms the fit started from
    std::vector<QPointF> after;     // with the fitted terms
    // Legend names, longest first: "before the fit: median 9.8 %, worst 18 % off", "before: median 9.8 %, worst
    // 18 %", "before the fit"; the same after it.
    QStringList beforeNames;
    QStringList afterNames;
    QStringList notPredicted;  // "batch 512: ..." where the model refuses a batch
};

struct CalibrationChartData {
    bool valid = false;  // false: no calibration in the session (reason says so) or none the model can redraw
    QString reason;
    std::vector<CalibrationCurveData> series;  // every calibration's series, in the session's order
};

// The session's calibrations as curves; a series whose setup this build cannot evaluate (a model or GPU it does not
// know) is left out and named in `reason` when nothing is left.
CalibrationChartData calibrationChartData(const Session& session);

// "End-to-end latency (s)" for "e2e_latency_s": a quantity's axis title.
QString quantityAxisTitle(const QString& quantity);

}  // namespace ridgeline::ui
