#pragma once
// A Hugging Face `config.json` read as a model shape (issue 18): dense and grouped-query attention (Llama,
// Mistral, Qwen2/3, Gemma), mixture of experts (Mixtral, Qwen2-MoE, Qwen3-MoE, DeepSeek) and multi-head latent
// attention (DeepSeek V2/V3, Kimi K2). The weights' and KV cache's formats come from quantization_config or
// torch_dtype where the file states them. What the shape cannot hold (per-layer attention kinds, unknown
// architectures, MLP biases) is refused in one line naming the file and the field, never approximated silently.
// The field names and their meaning are transformers' (r13's notes, /work/helpers/r13/formats.md section 7).

#include "core/model/catalog.h"
#include "core/model/inference_request.h"
#include "core/model/number_format.h"
#include "core/result.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <optional>

namespace ridgeline {

// A config.json is a few kilobytes; anything this large is another file.
inline constexpr qint64 kMaxHfConfigBytes = 4 << 20;

struct HfModelConfig {
    QString file;          // the file read, as messages name it
    ModelSpec shape;       // id and name from the model's folder (or _name_or_path); source names the file
    QString architecture;  // the model_type read, e.g. "deepseek_v3" ("kimi_k2" reads as deepseek_v3)
    // The weights' format the file states (quantization_config, else torch_dtype / dtype); empty when it says
    // nothing. When it states one Ridgeline cannot model, weightsProblem says which and why.
    std::optional<NumberFormat> weights;
    QString weightsBasis;  // "quantization_config: fp8 (e4m3, 128 x 128 blocks)"
    QString weightsProblem;
    std::optional<NumberFormat> attentionWeights;  // when the quantizer left the attention projections alone
    QString attentionBasis;
    std::optional<NumberFormat> kv;  // a quantized KV cache (kv_cache_scheme), else the 16-bit dtype
    QString kvBasis;
    QStringList notes;  // what is read in a way worth knowing, and what the counts leave out
};

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
