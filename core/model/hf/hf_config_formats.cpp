#include "core/model/hf/hf_config_formats.h"

#include <cmath>

namespace ridgeline::hf {

using namespace Qt::Literals::StringLiterals;

namespace {

std::optional<NumberFormat> formatOfBits(int bits, const QString& type)
{
    if (bits == 8)
        return type == "int"_L1 ? NumberFormat::Int8 : NumberFormat::Fp8;
    if (bits == 4)
        return type == "int"_L1 ? NumberFormat::Int4 : NumberFormat::Fp4;
    return std::nullopt;
}

// One side of an fp8 weight block for the note; a side that is not a whole number shows as 0.
QString blockSide(const JsonNode& side)
{
    const double value = side.number();
    const bool whole = side.isNumber() && std::trunc(value) == value && std::abs(value) <= 2147483647.0;
    return QString::number(whole ? static_cast<int>(value) : 0);
}

// compressed-tensors (llm-compressor): every config group's weights, which must agree; the KV scheme.
void readCompressedTensors(ObjectReader& q, HfModelConfig& out)
{
    std::optional<NumberFormat> weights;
    if (const auto groups = q.object("config_groups"_L1, Need::Optional)) {
        for (const JsonNode::Member& member : groups->members()) {
            const QString path = q.where(u"config_groups."_s + member.first);
            if (!member.second.isObject())
                return q.refuse(path + u" must be an object, got "_s + describeJson(member.second));
            ObjectReader group(member.second, path, q.problem(), q.mode());
            const auto spec = group.object("weights"_L1, Need::Optional);
            if (!spec)
                continue;
            ObjectReader w = group.nested(*spec, "weights"_L1);
            const int bits = w.smallInteger("num_bits"_L1, 1, 64, 0, Need::Required);
            const std::optional<NumberFormat> format = formatOfBits(bits, w.text("type"_L1));
            if (w.failed())
                return;
            if (!format) {
                out.weightsProblem = w.where("num_bits"_L1) + u" "_s + QString::number(bits) +
                                     u" is not a weight format Ridgeline models"_s;
                return;
            }
            if (weights && *weights != *format) {
                out.weightsProblem = q.where("config_groups"_L1) + u" store weights as both "_s +
                                     numberFormatName(*weights) + u" and "_s + numberFormatName(*format) +
                                     u"; Ridgeline models one format for the layers"_s;
                return;
            }
            weights = format;
        }
    }
    if (!weights) {
        out.weightsProblem = q.where("config_groups"_L1) + u" quantize no weights Ridgeline can see"_s;
        return;
    }
    out.weights = weights;
    out.weightsBasis = u"quantization_config: compressed-tensors, "_s + numberFormatName(*weights);
}

void readKvScheme(ObjectReader& q, HfModelConfig& out)
{
    if (const auto scheme = q.object("kv_cache_scheme"_L1, Need::Optional)) {
        ObjectReader kv = q.nested(*scheme, "kv_cache_scheme"_L1);
        const std::optional<NumberFormat> format =
            formatOfBits(kv.smallInteger("num_bits"_L1, 1, 64, 8), kv.text("type"_L1));
        if (format && *format == NumberFormat::Fp8) {
            out.kv = format;
            out.kvBasis = q.where("kv_cache_scheme"_L1);
        }
    } else if (q.text("kv_cache_quant_algo"_L1).compare("fp8"_L1, Qt::CaseInsensitive) == 0) {
        out.kv = NumberFormat::Fp8;
        out.kvBasis = q.where("kv_cache_quant_algo"_L1);
    }
}

void readQuantization(ObjectReader& q, HfModelConfig& out)
{
    const QString method = q.text("quant_method"_L1);
    auto known = [&](NumberFormat format, const QString& detail = {}) {
        out.weights = format;
        out.weightsBasis = u"quantization_config: "_s + method + (detail.isEmpty() ? QString() : u", "_s + detail);
    };
    if (method == "fp8"_L1 || method == "fbgemm_fp8"_L1) {
        QString detail = q.text("fmt"_L1);
        if (const JsonNode* block = q.array("weight_block_size"_L1, 2, Need::Optional); block && block->size() == 2)
            detail += (detail.isEmpty() ? u""_s : u", "_s) + blockSide(block->items()[0]) + u" x "_s +
                      blockSide(block->items()[1]) + u" blocks"_s;
        known(NumberFormat::Fp8, detail);
    } else if (method == "compressed-tensors"_L1) {
        readCompressedTensors(q, out);
    } else if (method == "awq"_L1 || method == "gptq"_L1) {
        const QLatin1StringView bitsKey = q.has("bits"_L1) || !q.has("w_bit"_L1) ? "bits"_L1 : "w_bit"_L1;
        const int bits = q.smallInteger(bitsKey, 1, 64, 0, Need::Required);
        if (bits == 4 || bits == 8)
            known(bits == 4 ? NumberFormat::Int4 : NumberFormat::Int8,
                  QString::number(bits) + u" bits, groups of "_s +
                      QString::number(q.smallInteger("group_size"_L1, -1, 1'000'000, 128)));
        else if (!q.failed())
            out.weightsProblem = q.where(bitsKey) + u" "_s + QString::number(bits) +
                                 u": only 4- and 8-bit integer weights are modelled"_s;
    } else if (method == "modelopt"_L1) {
        const QString algo = q.text("quant_algo"_L1).toUpper();
        if (algo == "FP8"_L1)
            known(NumberFormat::Fp8, algo);
        else if (algo == "NVFP4"_L1 || algo == "W4A16_NVFP4"_L1)
            known(NumberFormat::Fp4, algo);
        else
            out.weightsProblem = q.where("quant_algo"_L1) + u" \""_s + algo +
                                 u"\" is not a weight format Ridgeline models (it reads FP8 and NVFP4)"_s;
    } else if (method == "mxfp4"_L1) {
        known(NumberFormat::Mxfp4);
    } else if (!q.failed()) {
        out.weightsProblem = q.where("quant_method"_L1) + u" \""_s + method +
                             u"\" is not a weight format Ridgeline models (it reads fp8, fbgemm_fp8, "
                             "compressed-tensors, awq, gptq, modelopt and mxfp4)"_s;
    }
    readKvScheme(q, out);
}

// Quantizers leave some modules at the checkpoint's dtype (`ignore`, `modules_to_not_convert`): the LM head always
// stays 16-bit in Ridgeline's model (InferenceConfig::headFormat), the attention projections when listed.
bool keepsAttentionUnquantized(ObjectReader& q)
{
    for (const QLatin1StringView key : {"ignore"_L1, "modules_to_not_convert"_L1})
        if (const auto modules = q.array(key, 100'000, Need::Optional))
            for (const JsonNode& module : modules->items())
                if (module.string().contains("self_attn"_L1))
                    return true;
    return false;
}

}  // namespace

void readFormats(ObjectReader& top, ObjectReader& shape, HfModelConfig& out)
{
    ObjectReader& holder = top.has("quantization_config"_L1) ? top : shape;
    std::optional<NumberFormat> stored;
    const QLatin1StringView dtypeKey =
        top.has("torch_dtype"_L1) || shape.has("torch_dtype"_L1) ? "torch_dtype"_L1 : "dtype"_L1;
    ObjectReader& typed = top.has(dtypeKey) ? top : shape;
    const QString dtype = typed.text(dtypeKey);
    if (dtype == "bfloat16"_L1) {
        stored = NumberFormat::Bf16;
    } else if (dtype == "float16"_L1) {
        stored = NumberFormat::Fp16;
    } else if (dtype == "float32"_L1) {
        stored = NumberFormat::Fp16;
        out.notes << typed.where(dtypeKey) +
                         u" is float32: engines serve such checkpoints at 16 bits (vLLM's dtype "
                         "auto picks fp16), so fp16 is used"_s;
    }
    if (const auto quantization = holder.object("quantization_config"_L1, Need::Optional)) {
        ObjectReader q = holder.nested(*quantization, "quantization_config"_L1);
        readQuantization(q, out);
        if (out.weights && keepsAttentionUnquantized(q)) {
            out.attentionWeights = stored.value_or(NumberFormat::Bf16);
            out.attentionBasis = q.where("ignore"_L1) + u" keeps the attention projections at "_s +
                                 numberFormatName(*out.attentionWeights);
        }
    } else if (stored) {
        out.weights = stored;
        out.weightsBasis = typed.where(dtypeKey) + u": "_s + dtype;
    }
    if (!out.kv && stored) {
        out.kv = stored;
        out.kvBasis = typed.where(dtypeKey) + u": "_s + dtype;
    }
}

}  // namespace ridgeline::hf
