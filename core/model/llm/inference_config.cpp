#include "core/model/llm/inference_config.h"

namespace ridgeline {

NumberFormat InferenceConfig::headFormat() const
{
    if (headWeights)
        return *headWeights;
    return storageBitsPerElement(weights) >= 16.0 ? weights : NumberFormat::Bf16;
}

}  // namespace ridgeline
