#pragma once
// What the vLLM and SGLang serving importers share: both write one object per run in the shape of vLLM's
// benchmark_serving.py of 2024 (SGLang's bench_serving began as a copy of it): a request rate that may be
// infinite, an optional cap on requests in flight, token totals and mean/median/p99 latencies in milliseconds.

#include "core/bench/formats/bench_result.h"
#include "core/json/strict_reader.h"

#include <QString>
#include <QStringView>

namespace ridgeline {

// Keys of per-request lists: checked by the JSON reader but not stored (they hold most of a detailed file).
QStringList servingPerRequestKeys();

// request_rate (a number, Infinity, or the strings "inf" / "trace") and max_concurrency (a count or null) into
// the point's load. Errors (a rate of 0, an unknown string) go into `fields`.
void readServingLoad(ObjectReader& fields, BenchPoint& point);

// mean_{name}_ms, median_{name}_ms and p99_{name}_ms, in seconds.
LatencyStat readLatencyMs(ObjectReader& fields, QStringView name);

// Mean prompt and output tokens per request from total_input_tokens / total_output_tokens over `completed`.
void readServingLengths(ObjectReader& fields, BenchPoint& point, std::int64_t completed);

// "concurrency 16", "concurrency 16 at 4 req/s", "4 req/s", "all at once", "trace replay".
QString loadLabel(const BenchPoint& point);

// A short decimal for labels and notes: 4, 0.25, 1.5e+03.
QString shortNumber(double value);

// What a serving run did not record of its setup, into point.unknown in this order: model, GPU, tensor parallel
// size, weight format, input length, output length.
void listUnknownServingSetup(BenchPoint& point);

// Keys in `fields` that were NaN, as a note ("mean_e2el_ms is NaN: no value"); empty when none.
QString nanNote(const ObjectReader& fields);

}  // namespace ridgeline
