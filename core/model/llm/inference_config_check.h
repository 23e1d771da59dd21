#pragma once
// What LlmModel::create refuses before it computes anything: lengths and degrees out of range, a parallel layout
// that does not divide the model or lacks a link, speculative decoding out of its bounds, a compute mode given as a
// storage format, bad engine terms and a GPU without bandwidth, memory or a 16-bit peak. Each message names the
// value and what it should be.

#include "core/model/llm/inference_config.h"

#include <optional>

namespace ridgeline {

// Nothing when the model can evaluate the configuration; else the first problem found.
std::optional<Error> checkInferenceConfig(const InferenceConfig& config);

// The 16-bit format the GPU multiplies in when a format is not its own: bf16, or fp16 on cards without bf16.
NumberFormat sixteenBitPrecision(const GpuSpec& gpu);

}  // namespace ridgeline
