#pragma once
// SGLang's serving benchmark: python -m sglang.bench_serving --output-file X.jsonl appends one JSON object per
// run, one per line, so a file holds a sweep. Python writes an infinite request rate as the bare token Infinity.
//
// Read per run: backend, request_rate (a number, Infinity or "trace"), max_concurrency (late 2024 on), completed,
// duration, total_input_tokens / total_output_tokens (means per request; random_range_ratio < 1 makes them differ
// from random_input_len / random_output_len), output_throughput, concurrency (mean requests in flight),
// mean/median/p99 of ttft, tpot, itl and e2e_latency in ms, accept_length; and from server_info (2025): model_path,
// tp_size, dtype, quantization, kv_cache_dtype. Mid-2024 records are short (no max_concurrency, median ITL only):
// every metric is optional.

#include "core/bench/formats/bench_result.h"
#include "core/result.h"

#include <QByteArray>

namespace ridgeline {

Result<BenchImport> parseSglang(const QByteArray& utf8);

}  // namespace ridgeline
