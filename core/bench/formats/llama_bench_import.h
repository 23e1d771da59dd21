#pragma once
// llama.cpp's llama-bench results: -o json (a list of objects), -o jsonl (one object per line) and -o csv (a header
// of field names, then one row per test, every value double-quoted). Fields are read by name, never by position:
// 2023 builds wrote cuda/opencl/metal flags and f16_kv, 2024 builds per-backend flags, type_k/type_v and a boolean
// flash_attn, 2025 builds "backends", n_depth and an integer flash_attn.
//
// A test is pp (n_prompt > 0, n_gen = 0: the prefill of one sequence of n_prompt tokens), tg (n_gen > 0, n_prompt
// = 0: n_gen decode steps of one sequence, batch 1) or pg (both). avg_ns is the mean time of a repetition, avg_ts
// the mean of (n_prompt + n_gen) / time over repetitions; n_depth tokens were already in the KV cache. The weight
// format is the ftype at the end of model_type ("llama 8B Q4_K - Medium"), the weight bytes model_size.

#include "core/bench/formats/bench_result.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>

namespace ridgeline {

Result<BenchImport> parseLlamaBenchJson(const QByteArray& utf8);
Result<BenchImport> parseLlamaBenchCsv(const QString& text);

}  // namespace ridgeline
