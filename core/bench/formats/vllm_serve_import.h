#pragma once
// vLLM's serving benchmark results: `vllm bench serve --save-result` and benchmarks/benchmark_serving.py
// --save-result, one JSON object per run; with --append-result, one object per line (a sweep in one file).
//
// Read per run: model_id, backend, request_rate (a number or "inf"), max_concurrency, completed / failed,
// duration, total_input_tokens / total_output_tokens (means per request), output_throughput (output tokens only),
// and mean/median/p99 of ttft, tpot, itl, e2el in ms. The key spellings of every version are accepted: early 2024's
// "request_inthroughput", the "request_goodput:" with a stray colon. vLLM records no GPU, tensor parallel size or
// precision; they are read from --metadata keys when present (gpu, tp / tensor_parallel_size, dtype /
// quantization, kv_cache_dtype), else listed as unknown.

#include "core/bench/formats/bench_result.h"
#include "core/result.h"

#include <QByteArray>

namespace ridgeline {

Result<BenchImport> parseVllmServe(const QByteArray& utf8);

}  // namespace ridgeline
