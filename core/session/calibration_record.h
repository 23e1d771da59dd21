#pragma once
// A fit of the LLM model's engine terms to the user's own benchmark results, as a session keeps it:
// plain values, names instead of enums, so that the file reads on its own and the window can redraw the
// measured points over curves drawn with the fitted terms. Written by `ridgeline calibrate --out` (schema 2).

#include <QDateTime>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace ridgeline {

// One engine term by its name ("layer_seconds", "weight_bandwidth.bf16"): a share of a datasheet peak in (0, 1]
// or a time in seconds.
struct CalibrationTerm {
    QString name;
    double start = 0.0;   // before the fit (for every term: its value when the fit began)
    double fitted = 0.0;  // after the fit (equal to start for a term the fit did not move)
};

// One measured figure of one benchmark run, with the setup it ran and the model's prediction before and after.
struct CalibrationPoint {
    QString id;         // "sweep.json:2 concurrency 4"
    QString file;       // the benchmark file's name
    int run = 0;        // 1-based run within the file
    QString label;      // "concurrency 4", "tg128 @ d4096"
    QString quantity;   // what was measured, by the model's name for it: "serving_tpot_s", "e2e_latency_s", ...
    QString statistic;  // which of the file's statistics: "median TPOT", "output tok/s"
    QString model;      // catalog ids and formats of the setup
    QString gpu;
    int tensorParallel = 1;
    QString weights;
    QString kv;
    std::int64_t batch = 1;   // requests in flight, or the static batch
    std::int64_t prompt = 0;  // mean prompt tokens per request
    std::int64_t output = 0;  // mean generated tokens per request
    double measured = 0.0;    // in the quantity's unit: seconds, or tokens per second
    double predictedBefore = 0.0;
    double predicted = 0.0;
};

// |predicted / measured - 1| over the points: median and worst; and the root mean square of ln(predicted/measured).
struct CalibrationError {
    double medianAbs = 0.0;
    double worstAbs = 0.0;
    double rmsLog = 0.0;
};

struct Calibration {
    QDateTime created;
    QString generator;      // "ridgeline 0.1.0 calibrate"
    QStringList sources;    // per file: "sweep.json: vLLM serving result (vllm bench serve, 2025 or later ...)"
    QStringList freeTerms;  // names of the terms the fit moved
    std::vector<CalibrationTerm> terms;  // every engine term, start and fitted: the curves are drawn with `fitted`
    int iterations = 0;
    bool converged = false;
    CalibrationError before;
    CalibrationError after;
    std::vector<CalibrationPoint> points;
    QStringList notes;  // matches, assumptions, runs not fitted and why
};

}  // namespace ridgeline
