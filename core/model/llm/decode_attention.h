#pragma once
// How decode attention meets grouped KV heads (GQA). Grouped kernels (FlashAttention, FlashInfer, TensorRT-LLM's
// XQA, vLLM's ROCm kernels) read each KV head once for all the query heads that share it. Per-query-head kernels
// (TensorRT-LLM's masked MHA through 0.9, wherever XQA did not apply) run a thread block per query head: each
// reads its KV head again, the cache serving the repeats; the kernel waits on the larger of the KV stream from
// memory and those reads (EngineTerms::headReadSeconds per GiB). The same for MHA, MQA being one group.

#include <QString>
#include <QStringView>

#include <optional>

namespace ridgeline {

enum class DecodeAttention { Grouped, PerQueryHead };

QString decodeAttentionName(DecodeAttention kernel);  // "grouped", "per-head"
std::optional<DecodeAttention> parseDecodeAttention(QStringView name);

}  // namespace ridgeline
