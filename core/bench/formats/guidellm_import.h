#pragma once
// GuideLLM reports: guidellm benchmark ... --output-path benchmarks.json. One object with "benchmarks", a list of
// runs (a sweep holds a synchronous, a throughput and several constant-rate runs), each becoming one point.
//
// Layouts: v0.2-v0.3 put the run's settings in benchmarks[i].args (strategy) and .worker (backend_model); v0.4 on
// in benchmarks[i].config (strategy, backend.model), with the report's "args"; v0.5-v0.6 add
// "metadata": {"version": 1}, v0.7 "metadata": {"version": 2} and "config". Metrics are distribution summaries
// split by request status: metrics.<name>.successful.{mean, median, percentiles.p99}. Read: output tokens per
// second (total output tokens of the successful requests over the run's duration), time_to_first_token_ms,
// time_per_output_token_ms, inter_token_latency_ms, request_latency (s), request_concurrency, prompt and output
// token counts. A report from a newer schema (metadata.version > 2) is refused, not guessed at.

#include "core/bench/formats/bench_result.h"
#include "core/result.h"

#include <QByteArray>

namespace ridgeline {

Result<BenchImport> parseGuideLlm(const QByteArray& utf8);

}  // namespace ridgeline
