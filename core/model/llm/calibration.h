#pragma once
// Fitting the engine terms (engine_terms.h) to measured points: least squares on the log error, so that a 10 % miss
// weighs the same at 5 tokens/s and at 5,000. This is the one home of the fit: the validation test
// (tests/core/model/llm_validation_test.cpp), `ridgeline model` and the importers of users' benchmark results
// all call fitEngineTerms().
//
// A point is a configuration the model can evaluate (InferenceConfig), which of its figures was measured and the
// value. The fit moves chosen terms (shares of datasheet peaks, fixed times) and returns them with each point's
// residual; the model itself (shapes, datasheets, the roofline) is never changed by it.

#include "core/model/llm/engine_terms.h"
#include "core/model/llm/llm_model.h"
#include "core/result.h"

#include <QString>
#include <QStringList>
#include <QStringView>

#include <cmath>
#include <optional>
#include <vector>

namespace ridgeline {

// What was measured, in seconds or tokens per second. Each is one figure of InferenceReport; the name is the key
// `ridgeline model --json` prints it under.
enum class MeasuredQuantity {
    TokenLatency,       // "token_latency_s": time per output token of one sequence at (batch, context)
    TokensPerSecond,    // "tokens_per_s": all sequences' tokens/s at (batch, context)
    Ttft,               // "ttft_s": prefill of batch x prompt tokens
    EndToEnd,           // "e2e_latency_s": static batch, prefill then output - 1 decode steps
    StaticThroughput,   // "throughput_tokens_per_s": batch x output / e2e latency
    StaticTpot,         // "tpot_s": static batch, decode time / (output - 1)
    StaticDecodeRate,   // "decode_tokens_per_s": static batch, batch / tpot (llama-bench tg)
    ServingTpot,        // "serving_tpot_s": continuous batching at batch requests in flight
    ServingThroughput,  // "serving_tokens_per_s": output tokens/s of all requests under that load
};

QString quantityName(MeasuredQuantity quantity);
std::optional<MeasuredQuantity> parseQuantityName(QStringView name);
bool isRate(MeasuredQuantity quantity);  // tokens/s (bigger is faster) rather than seconds

// The model's figure for a quantity; an error when the configuration lacks what it needs (no prompt for a TTFT,
// output < 2 for a TPOT). report() computes the same figures through the same functions.
Result<double> predictQuantity(const LlmModel& model, MeasuredQuantity quantity);
std::optional<double> reportedQuantity(const InferenceReport& report, MeasuredQuantity quantity);

struct MeasuredPoint {
    QString id;              // where it came from: a file and row, a benchmark run
    InferenceConfig config;  // the setup measured; its efficiency is replaced by the terms being evaluated
    MeasuredQuantity quantity = MeasuredQuantity::TokenLatency;
    double value = 0;   // > 0, in the quantity's unit
    double weight = 1;  // > 0: how much its log error counts
};

struct PointResidual {
    QString id;
    double measured = 0;
    double predicted = 0;
    double logError = 0;                                           // ln(predicted / measured)
    double relativeError() const { return std::expm1(logError); }  // predicted / measured - 1
    double absoluteError() const { return std::fabs(relativeError()); }
};

struct ErrorSummary {
    int points = 0;
    double medianAbs = 0;  // median |predicted / measured - 1|
    double meanAbs = 0;
    double worstAbs = 0;
    double rmsLog = 0;  // root mean square of ln(predicted / measured)
    QString worstId;
};
ErrorSummary summarize(const std::vector<PointResidual>& residuals);

struct FitOptions {
    std::vector<EngineTerm> free;  // terms the fit moves; empty: fittableTerms(points)
    // > 0 adds a residual priorWeight x ln(v / v0) per free term (times: ln((t + 1 us) / (t0 + 1 us))), v0 its start
    // value, so that a handful of points cannot drive a term they hardly see to a bound.
    double priorWeight = 0.0;
    int maxIterations = 500;
};

struct CalibrationFit {
    EngineTerms terms;  // the start terms with the free ones fitted
    std::vector<EngineTerm> free;
    std::vector<PointResidual> residuals;  // one per point, in the points' order
    ErrorSummary before;                   // with the start terms
    ErrorSummary after;
    int iterations = 0;
    bool converged = false;
    QStringList notes;  // terms that ended at a bound, terms no point moves
};

// The terms the points can tell apart: the weight formats, KV formats and tensor precisions they run, the fixed
// times per layer and per step, and the collective time when some point is tensor-parallel.
std::vector<EngineTerm> fittableTerms(const std::vector<MeasuredPoint>& points);

// Each point's residual under `terms`, nothing fitted (the held-out check). An error names the first point the
// model refuses or cannot predict.
Result<std::vector<PointResidual>> evaluatePoints(const std::vector<MeasuredPoint>& points, const EngineTerms& terms);

// Levenberg-Marquardt on the weighted log errors, with projected steps: shares stay in [0.001, 1] and times in
// [0, 0.1 s]. Errors: no points, a value that is not a positive finite number, a point the model refuses.
Result<CalibrationFit> fitEngineTerms(const std::vector<MeasuredPoint>& points, const EngineTerms& start,
                                      const FitOptions& options = {});

}  // namespace ridgeline
