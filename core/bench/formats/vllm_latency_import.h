#pragma once
// vLLM's static-batch latency results: benchmarks/benchmark_latency.py --output-json and `vllm bench latency
// --output-json`. One object: avg_latency (s), latencies (s, one per iteration), and since 2024 percentiles
// {"10", "25", "50", "75", "90", "99"} (s) and std_latency. Each latency is the wall time of one batch: the prefill
// of --batch-size prompts of --input-len tokens, then --output-len decode steps (ignore_eos).
//
// The file records neither the batch size nor the lengths (nor model, GPU, precision): the point lists them as
// unknown and the caller must give them (ridgeline calibrate --batch, --input-len, --output-len).

#include "core/bench/formats/bench_result.h"
#include "core/result.h"

#include <QByteArray>

namespace ridgeline {

Result<BenchImport> parseVllmLatency(const QByteArray& utf8);

}  // namespace ridgeline
