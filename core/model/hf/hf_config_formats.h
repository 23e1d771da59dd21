#pragma once
// The weights' and KV cache's formats a config.json states (quantization_config, torch_dtype), for parseHfConfig.

#include "core/json/strict_reader.h"
#include "core/model/hf/hf_model_config.h"

namespace ridgeline::hf {

// quantization_config (fp8, compressed-tensors, awq/gptq, modelopt, mxfp4), else the checkpoint's dtype. A
// multimodal wrapper may keep either at its top level (`top`) or beside the language model (`shape`).
void readFormats(ObjectReader& top, ObjectReader& shape, HfModelConfig& out);

}  // namespace ridgeline::hf
