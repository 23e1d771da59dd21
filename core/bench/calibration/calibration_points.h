#pragma once
// From imported benchmark points to points the fitter (core/model/llm/calibration.h) can use: each measured figure
// becomes a MeasuredPoint whose InferenceConfig is built through resolveInference (core/model/llm/inference_request.h),
// like every other front end's question. What the files do not record (GPU, tensor parallel size, the batch of a
// vLLM latency run, ...) comes from RunFacts, which the user gives (ridgeline calibrate's options, later a dialog);
// a fact the file records is never overridden.
//
// Which figure is measured, per kind of run:
// - serving under a concurrency cap (vLLM bench serve, SGLang, GuideLLM): the median TPOT (else ITL) as
//   serving_tpot_s and the output throughput as serving_tokens_per_s, with the cap as the requests in flight
//   (a run without a cap uses its measured mean in flight, when the file gives one);
// - a static batch (vLLM benchmark_latency, llama-bench pp+tg): its end-to-end latency as e2e_latency_s;
// - llama-bench tg: decode_tokens_per_s at batch 1 after n_depth tokens; pp: ttft_s, the prefill of one sequence.
// A run that fits none of these (speculative decoding, a prefill after a filled cache, too short an output) is
// listed with the reason, not dropped silently.

#include "core/bench/formats/bench_result.h"
#include "core/model/llm/calibration.h"
#include "core/model/number_format.h"
#include "core/result.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline {

// How strongly a fit to a user's own runs holds each free term to its measured default (FitOptions::priorWeight),
// so that a handful of points moves only the terms they see. `ridgeline calibrate` and the window both use it.
inline constexpr double kUserFitPriorWeight = 0.05;

struct RunFacts {
    QString modelId;  // catalog id; empty: matched from the file's model name when that is unambiguous
    QString gpuId;    // catalog id; empty: matched from the file's GPU name
    std::optional<int> tensorParallel;
    std::optional<NumberFormat> weights;
    std::optional<NumberFormat> kv;  // empty and not recorded: bf16, said in a note
    std::optional<std::int64_t> batch;
    std::optional<std::int64_t> inputTokens;
    std::optional<std::int64_t> outputTokens;
};

struct PointOrigin {
    QString file;
    int record = 0;
    QString label;  // the run's label ("concurrency 16")
    MeasuredQuantity quantity = MeasuredQuantity::TokenLatency;
    QString statistic;  // "median", "mean": which of the file's statistics the value is
};

struct CalibrationPoints {
    std::vector<MeasuredPoint> points;  // for fitEngineTerms, in file order
    std::vector<PointOrigin> origins;   // one per point
    std::vector<BenchSkip> unused;      // runs that gave no point, with the file in `what`
    QStringList notes;                  // matches and assumptions ("model ... taken as the catalog's llama-3.1-8b")
};

// Every point of every import, or the first thing missing, e.g. "latency.json: the file does not record the batch
// size, input length, output length; give --batch N, --input-len N, --output-len N". No point at all is an error.
Result<CalibrationPoints> calibrationPoints(const std::vector<BenchImport>& imports, const RunFacts& facts);
// The same with one RunFacts per import, in order (five benchmark_latency.py files run at five batch sizes);
// `facts` must have one entry per import.
Result<CalibrationPoints> calibrationPointsPerFile(const std::vector<BenchImport>& imports,
                                                   const std::vector<RunFacts>& facts);

// The file's name for a format ("Q4_K - Medium", "bfloat16", "fp8_e4m3") as a model number format, or nothing
// when it has none (Q5_K, "auto").
std::optional<NumberFormat> formatFromFileName(const QString& name);

// The catalog id whose id or name is the file's name once case, punctuation, an organisation prefix and
// "-Instruct" / "-chat" / "-hf" suffixes (models) or vendor words (GPUs) are set aside; empty when none or several.
QString matchCatalogModel(const QString& name);
QString matchCatalogGpu(const QString& name);

}  // namespace ridgeline
