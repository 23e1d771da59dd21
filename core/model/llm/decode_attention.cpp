#include "core/model/llm/decode_attention.h"

namespace ridgeline {

QString decodeAttentionName(DecodeAttention kernel)
{
    return kernel == DecodeAttention::PerQueryHead ? QStringLiteral("per-head") : QStringLiteral("grouped");
}

std::optional<DecodeAttention> parseDecodeAttention(QStringView name)
{
    for (DecodeAttention kernel : {DecodeAttention::Grouped, DecodeAttention::PerQueryHead})
        if (name.compare(decodeAttentionName(kernel), Qt::CaseInsensitive) == 0)
            return kernel;
    return std::nullopt;
}

}  // namespace ridgeline
