#pragma once
// A Hugging Face `config.json` read as a model shape: dense and grouped-query attention (Llama,
// Mistral, Qwen2/3, Gemma), mixture of experts (Mixtral, Qwen2-MoE, Qwen3-MoE, DeepSeek) and multi-head latent
// attention (DeepSeek V2/V3, Kimi K2). The weights' and KV cache's formats come from quantization_config or
// torch_dtype where the file states them. What the shape cannot hold (per-layer attention kinds, unknown
// architectures, MLP biases) is refused in one line naming the file and the field, never approximated silently.
// The field names and their meaning are transformers' (r13's notes, /work/helpers/r13/formats.md section 7).

#include "core/model/hf/hf_model_config.h"
#include "core/model/llm/inference_request.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace ridgeline {

// `label` names the file in messages ("Llama-3.1-8B/config.json").
Result<HfModelConfig> parseHfConfig(const QByteArray& json, const QString& label);
// A config.json, or a model folder holding one.
Result<HfModelConfig> loadHfConfig(const QString& path);

// The request's formats a person chose themselves: they win over what the file states.
struct KeptFormats {
    bool weights = false;
    bool kv = false;
    bool attentionWeights = false;
};

// Puts the config's shape (as the custom model) and the formats it states (those not kept) into the request. The
// error, with the request unchanged, when the file states a weight format Ridgeline cannot model and the weights
// are not kept: "FILE: ...; give --weights" for the command line, a choice of format in the window.
std::optional<QString> applyHfConfig(const HfModelConfig& config, InferenceRequest& request, KeptFormats kept = {});

// The model_types read, for messages and --help: "llama, mistral, ...".
QString hfArchitectureNames();

}  // namespace ridgeline
