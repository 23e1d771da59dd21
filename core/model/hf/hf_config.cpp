#include "core/model/hf/hf_config.h"

#include "core/json/strict_reader.h"
#include "core/model/hf/hf_config_fields.h"
#include "core/model/hf/hf_config_formats.h"
#include "core/read_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

using hf::Fields;

enum class Family { Llama, Mistral, Mixtral, Qwen2, Qwen2Moe, Qwen3, Qwen3Moe, DeepseekV2, DeepseekV3, Gemma };

struct KnownArchitecture {
    QLatin1StringView modelType;
    QLatin1StringView className;  // the `architectures` entry transformers writes
    Family family;
};

// Kimi K2 is DeepSeek V3's architecture under its own model_type (its config names DeepseekV3ForCausalLM).
constexpr std::array kKnown = {
    KnownArchitecture{"llama"_L1, "LlamaForCausalLM"_L1, Family::Llama},
    KnownArchitecture{"mistral"_L1, "MistralForCausalLM"_L1, Family::Mistral},
    KnownArchitecture{"mixtral"_L1, "MixtralForCausalLM"_L1, Family::Mixtral},
    KnownArchitecture{"qwen2"_L1, "Qwen2ForCausalLM"_L1, Family::Qwen2},
    KnownArchitecture{"qwen2_moe"_L1, "Qwen2MoeForCausalLM"_L1, Family::Qwen2Moe},
    KnownArchitecture{"qwen3"_L1, "Qwen3ForCausalLM"_L1, Family::Qwen3},
    KnownArchitecture{"qwen3_moe"_L1, "Qwen3MoeForCausalLM"_L1, Family::Qwen3Moe},
    KnownArchitecture{"deepseek_v2"_L1, "DeepseekV2ForCausalLM"_L1, Family::DeepseekV2},
    KnownArchitecture{"deepseek_v3"_L1, "DeepseekV3ForCausalLM"_L1, Family::DeepseekV3},
    KnownArchitecture{"gemma"_L1, "GemmaForCausalLM"_L1, Family::Gemma},
};

bool isQwen(Family f)
{
    return f == Family::Qwen2 || f == Family::Qwen2Moe || f == Family::Qwen3 || f == Family::Qwen3Moe;
}
bool isDeepseek(Family f)
{
    return f == Family::DeepseekV2 || f == Family::DeepseekV3;
}

constexpr std::int64_t kMaxLayers = 100'000, kMaxWidth = 10'000'000, kMaxVocab = 100'000'000;

const KnownArchitecture* architectureOf(Fields& f, QStringList& notes)
{
    const QString modelType = f.word("model_type"_L1);
    for (const KnownArchitecture& known : kKnown)
        if (modelType == known.modelType)
            return &known;
    if (const auto classes = f.list("architectures"_L1, 64)) {
        for (const QJsonValue& name : *classes)
            for (const KnownArchitecture& known : kKnown)
                if (name.toString() == known.className) {
                    notes << u"model_type \""_s + modelType + u"\" read as "_s + known.className +
                                 u", the architecture its config names"_s;
                    return &known;
                }
    }
    return nullptr;
}

// Which layers attend to a window: one kind for every layer, or a refusal (the shape has one window).
void readAttentionWindow(Fields& f, Family family, ModelSpec& m, QStringList& notes)
{
    if (const auto kinds = f.list("layer_types"_L1, kMaxLayers)) {
        int sliding = 0, full = 0;
        for (const QJsonValue& kind : *kinds) {
            if (kind.toString() == "sliding_attention"_L1)
                ++sliding;
            else if (kind.toString() == "full_attention"_L1)
                ++full;
            else
                return f.refuse(f.field("layer_types"_L1) + u" names "_s + describeJson(kind) +
                                u" layers; Ridgeline models full and sliding-window attention only"_s);
        }
        if (sliding > 0 && full > 0)
            return f.refuse(f.field("layer_types"_L1) + u" mixes "_s + QString::number(sliding) +
                            u" sliding-window layers with "_s + QString::number(full) +
                            u" full-attention layers; Ridgeline models one attention kind for every layer"_s);
        if (sliding > 0)
            m.slidingWindow = f.whole("sliding_window"_L1, 1, kMaxVocab, 0, true);
        return;
    }
    if (family == Family::Mistral || family == Family::Mixtral) {
        m.slidingWindow = f.whole("sliding_window"_L1, 1, kMaxVocab, 0);
    } else if (isQwen(family) && f.flag("use_sliding_window"_L1, false)) {
        // transformers' Qwen attention slides from layer max_window_layers on.
        const int from = f.whole("max_window_layers"_L1, 0, kMaxLayers, 28);
        if (from >= m.layers) {
            notes << f.field("use_sliding_window"_L1) + u" is true, but max_window_layers "_s + QString::number(from) +
                         u" leaves every layer at full attention"_s;
        } else if (from > 0) {
            f.refuse(f.field("max_window_layers"_L1) + u" "_s + QString::number(from) + u" of "_s +
                     QString::number(m.layers) +
                     u" layers: the first attend to everything, the rest to a window; Ridgeline models one "
                     "attention kind for every layer"_s);
        } else {
            m.slidingWindow = f.whole("sliding_window"_L1, 1, kMaxVocab, 0, true);
        }
    }
}

void readAttention(Fields& f, Family family, ModelSpec& m, QStringList& notes)
{
    if (isDeepseek(family)) {
        m.kvLoraRank = f.whole("kv_lora_rank"_L1, 1, kMaxWidth, 0, true);
        m.qLoraRank = f.whole("q_lora_rank"_L1, 0, kMaxWidth, 0);  // null: a plain q projection (V2-Lite)
        m.qkNopeHeadDim = f.whole("qk_nope_head_dim"_L1, 1, kMaxWidth, 0, true);
        m.qkRopeHeadDim = f.whole("qk_rope_head_dim"_L1, 1, kMaxWidth, 0, true);
        m.vHeadDim = f.whole("v_head_dim"_L1, 1, kMaxWidth, 0, true);
        // Not used with latent attention (the cache holds kv_lora_rank + qk_rope_head_dim values); kept for display.
        m.kvHeads = f.whole("num_key_value_heads"_L1, 1, kMaxWidth, m.heads);
        m.headDim = m.vHeadDim;
        if (f.flag("attention_bias"_L1, false))
            f.refuse(f.field("attention_bias"_L1) + u" is true: biases in latent attention are not modelled"_s);
        return;
    }
    m.kvHeads = f.whole("num_key_value_heads"_L1, 1, kMaxWidth, m.heads);
    if (f.has("head_dim"_L1))
        m.headDim = f.whole("head_dim"_L1, 1, kMaxWidth, 0);
    else if (m.heads > 0 && m.hidden % m.heads == 0)
        m.headDim = m.hidden / m.heads;
    else if (m.heads > 0)
        f.refuse(u"there is no "_s + f.field("head_dim"_L1) + u" and "_s + f.field("hidden_size"_L1) + u" "_s +
                 QString::number(m.hidden) + u" is not a multiple of num_attention_heads "_s +
                 QString::number(m.heads));
    if (!f.failed() && m.kvHeads > 0 && (m.kvHeads > m.heads || m.heads % m.kvHeads != 0))
        f.refuse(f.field("num_attention_heads"_L1) + u" "_s + QString::number(m.heads) +
                 u" cannot be shared evenly by num_key_value_heads "_s + QString::number(m.kvHeads));
    if (family == Family::Qwen2 || family == Family::Qwen2Moe) {
        m.qkvBias = true;  // the architecture has q, k and v biases; no field says so
    } else {
        m.qkvBias = f.flag("attention_bias"_L1, false);
        if (m.qkvBias)
            notes << f.field("attention_bias"_L1) +
                         u": the q, k and v biases are counted, the output projection's "
                         "(hidden_size values a layer) is not"_s;
    }
    if (f.flag("mlp_bias"_L1, false))
        f.refuse(f.field("mlp_bias"_L1) + u" is true: biases in a gated MLP are not modelled"_s);
    if (family == Family::Qwen3 || family == Family::Qwen3Moe)
        notes << u"the per-head q and k norms (2 x head_dim values a layer) are not counted, as in the catalog"_s;
    readAttentionWindow(f, family, m, notes);
}

// Layers whose FFN is dense in a MoE model, counted the way transformers decides it layer by layer.
int countDenseLayers(Fields& f, Family family, int layers)
{
    int dense = 0;
    if (isDeepseek(family)) {
        const int firstMoe = f.whole("first_k_dense_replace"_L1, 0, layers, 0);
        const int every = f.whole("moe_layer_freq"_L1, 1, kMaxLayers, 1);
        for (int i = 0; i < layers; ++i)
            dense += !(i >= firstMoe && i % every == 0);
        return dense;
    }
    if (family == Family::Mixtral)
        return 0;
    const int step = f.whole("decoder_sparse_step"_L1, 1, kMaxLayers, 1);
    QSet<int> mlpOnly;
    if (const auto listed = f.list("mlp_only_layers"_L1, kMaxLayers)) {
        for (const QJsonValue& layer : *listed) {
            const double index = layer.toDouble(-1);
            if (!layer.isDouble() || index < 0 || index >= layers || std::trunc(index) != index) {
                f.refuse(f.field("mlp_only_layers"_L1) + u" must list layer numbers from 0 to "_s +
                         QString::number(layers - 1) + u", got "_s + describeJson(layer));
                return 0;
            }
            mlpOnly.insert(static_cast<int>(index));
        }
    }
    for (int i = 0; i < layers; ++i)
        dense += mlpOnly.contains(i) || (i + 1) % step != 0;
    return dense;
}

void readFeedForward(Fields& f, Family family, ModelSpec& m, QStringList& notes)
{
    const bool moe =
        family == Family::Mixtral || family == Family::Qwen2Moe || family == Family::Qwen3Moe || isDeepseek(family);
    if (!moe) {
        m.ffn = f.whole("intermediate_size"_L1, 1, kMaxWidth, 0, true);
        return;
    }
    const QLatin1StringView expertsKey = family == Family::Mixtral ? "num_local_experts"_L1
                                         : isDeepseek(family)      ? "n_routed_experts"_L1
                                                                   : "num_experts"_L1;
    m.experts = f.whole(expertsKey, 1, 1'000'000, 0, true);
    m.activeExperts = f.whole("num_experts_per_tok"_L1, 1, std::max(1, m.experts), 0, true);
    m.moeFfn =
        f.whole(family == Family::Mixtral ? "intermediate_size"_L1 : "moe_intermediate_size"_L1, 1, kMaxWidth, 0, true);
    if (isDeepseek(family)) {
        m.sharedExperts = f.whole("n_shared_experts"_L1, 0, 1'000'000, 0, true);
        m.routerBias = family == Family::DeepseekV3;  // V3's gate adds e_score_correction_bias; V2's has none
        if (const int mtp = f.whole("num_nextn_predict_layers"_L1, 0, kMaxLayers, 0); mtp > 0)
            notes << QString::number(mtp) + u" multi-token-prediction layer(s) ("_s +
                         f.field("num_nextn_predict_layers"_L1) + u") are not counted, as in the catalog"_s;
    } else if (family == Family::Qwen2Moe) {
        if (const int shared = f.whole("shared_expert_intermediate_size"_L1, 0, kMaxWidth, 0); shared > 0) {
            m.sharedExperts = 1;
            m.sharedExpertFfn = shared;
            notes << u"the shared expert's gate (hidden_size values a layer) is not counted"_s;
        }
    }
    m.denseLayers = countDenseLayers(f, family, m.layers);
    if (m.denseLayers > 0 || f.has("intermediate_size"_L1))
        m.ffn = f.whole("intermediate_size"_L1, 1, kMaxWidth, 0, m.denseLayers > 0);
    if (m.denseLayers > 0)
        notes << QString::number(m.denseLayers) + u" of the "_s + QString::number(m.layers) +
                     u" layers have a dense FFN of intermediate_size "_s + QString::number(m.ffn);
}

QString nameFromLabel(const QString& label, const QJsonObject& root)
{
    const QFileInfo info(label);
    const QString folder = info.absoluteDir().dirName();
    if (info.fileName() == "config.json"_L1 && !folder.isEmpty() && folder != "/"_L1)
        return folder;
    const QString declared = root.value("_name_or_path"_L1).toString();
    if (!declared.isEmpty())
        return declared.section(u'/', -1);
    return info.completeBaseName();
}

QString idFromName(const QString& name)
{
    static const QRegularExpression unsafe(u"[^a-z0-9._-]+"_s);
    QString id = name.toLower().replace(unsafe, u"-"_s);
    id.remove(QRegularExpression(u"^-+|-+$"_s));
    return id.isEmpty() ? u"hf-model"_s : id.left(64);
}

}  // namespace

QString hfArchitectureNames()
{
    QStringList names;
    for (const KnownArchitecture& known : kKnown)
        names << QString(known.modelType);
    return names.join(u", "_s) + u" (and configs naming one of their architectures, e.g. kimi_k2)"_s;
}

Result<HfModelConfig> parseHfConfig(const QByteArray& json, const QString& label)
{
    Result<QJsonDocument> document = parseStrictJson(json);
    if (!document)
        return makeError(Error::Code::Parse, label + u": "_s + document.error().message);
    if (!document.value().isObject())
        return makeError(Error::Code::Schema, label + u": a config.json is one JSON object"_s);
    const QJsonObject root = document.value().object();

    HfModelConfig out;
    out.file = label;
    hf::ConfigProblem problem{label, std::nullopt};
    Fields top(root, QString(), problem);
    const KnownArchitecture* architecture = architectureOf(top, out.notes);
    Fields text(QJsonObject(), u"text_config."_s, problem);
    Fields* shape = &top;
    if (!architecture && !top.failed()) {
        // Multimodal wrappers (Mistral 3, Kimi K2.5 ...) keep the language model in text_config.
        if (const auto inner = top.child("text_config"_L1)) {
            text = top.nested(*inner, "text_config"_L1);
            architecture = architectureOf(text, out.notes);
            if (architecture) {
                shape = &text;
                out.notes
                    << u"the language model in text_config; the other towers (vision_config ...) are not counted"_s;
            }
        }
    }
    if (problem.message)
        return makeError(Error::Code::Schema, *problem.message);
    if (!architecture) {
        const QString modelType = shape->value("model_type"_L1).toString();
        if (modelType.isEmpty() && !root.contains("architectures"_L1))
            return makeError(Error::Code::Schema,
                             label + u": no model_type or architectures: not a Hugging Face model config.json"_s);
        return makeError(Error::Code::Unsupported, label + u": model_type \""_s + modelType +
                                                       u"\" is not an architecture Ridgeline reads as a "
                                                       "shape; it reads "_s +
                                                       hfArchitectureNames());
    }
    out.architecture = architecture->family == Family::DeepseekV3 ? u"deepseek_v3"_s : QString(architecture->modelType);

    Fields& f = *shape;
    ModelSpec& m = out.shape;
    m.name = nameFromLabel(label, root);
    m.id = idFromName(m.name);
    m.source = label + u" (Hugging Face config.json, "_s + architecture->className + u')';
    m.layers = f.whole("num_hidden_layers"_L1, 1, kMaxLayers, 0, true);
    m.hidden = f.whole("hidden_size"_L1, 1, kMaxWidth, 0, true);
    m.heads = f.whole("num_attention_heads"_L1, 1, kMaxWidth, 0, true);
    m.vocab = f.whole("vocab_size"_L1, 1, kMaxVocab, 0, true);
    m.maxContext = f.whole("max_position_embeddings"_L1, 0, 1'000'000'000, 0);
    m.tiedEmbeddings = f.flag("tie_word_embeddings"_L1, architecture->family == Family::Gemma);
    m.gatedFfn = true;  // every architecture read here has a gated (three-matrix) FFN, whatever hidden_act says
    m.norm = NormKind::Rms;
    if (!f.failed())
        readAttention(f, architecture->family, m, out.notes);
    if (!f.failed())
        readFeedForward(f, architecture->family, m, out.notes);
    if (!f.failed())
        hf::readFormats(top, f, out);
    if (problem.message)
        return makeError(Error::Code::Schema, *problem.message);
    if (Result<ParamCounts> counts = countParams(m); !counts)
        return makeError(counts.error().code, label + u": "_s + counts.error().message);
    return out;
}

Result<HfModelConfig> loadHfConfig(const QString& path)
{
    QFileInfo info(path);
    if (info.isDir())
        info = QFileInfo(QDir(path).filePath(u"config.json"_s));
    const QString label = QDir::cleanPath(info.filePath());
    if (!info.exists())
        return makeError(Error::Code::NotFound, label + u": no such file"_s);
    if (!info.isFile())
        return makeError(Error::Code::Io, label + u": not a file"_s);
    if (info.size() > kMaxHfConfigBytes)
        return makeError(Error::Code::Range, label + u": "_s + QString::number(info.size() >> 20) +
                                                 u" MiB is far more than a config.json holds (a few KB); is it "
                                                 "the weights?"_s);
    QFile file(info.filePath());
    if (!file.open(QIODevice::ReadOnly))
        return makeError(Error::Code::Io, label + u": "_s + file.errorString());
    return parseHfConfig(readAtMost(file, kMaxHfConfigBytes), label);
}

std::optional<QString> applyHfConfig(const HfModelConfig& config, InferenceRequest& request, KeptFormats kept)
{
    if (!kept.weights && !config.weightsProblem.isEmpty())
        return config.file + QStringLiteral(": ") + config.weightsProblem;
    request.modelId = kCustomId;
    request.customShape = config.shape;
    if (!kept.weights && config.weights)
        request.weights = *config.weights;
    if (!kept.kv && config.kv)
        request.kv = *config.kv;
    if (!kept.attentionWeights && config.attentionWeights)
        request.attentionWeights = config.attentionWeights;
    return std::nullopt;
}

}  // namespace ridgeline
