#pragma once
// What a Hugging Face config.json says of a model, as plain data: the shape and the formats it states. Read by
// parseHfConfig (hf_config.h) with the formats' part from hf_config_formats.h, which fills it without needing the
// reader's header.

#include "core/model/catalog/catalog.h"
#include "core/model/number_format.h"

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

}  // namespace ridgeline
