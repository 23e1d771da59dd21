#include "core/model/hf/hf_config.h"

#include "core/json/strict_reader.h"
#include "core/message_text.h"
#include "core/model/hf/hf_config_formats.h"
#include "core/read_file.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

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

const KnownArchitecture* architectureOf(ObjectReader& f, QStringList& notes)
{
    const QString modelType = f.text("model_type"_L1);
    for (const KnownArchitecture& known : kKnown)
        if (modelType == known.modelType)
            return &known;
    if (const auto classes = f.array("architectures"_L1, 64, Need::Optional)) {
        for (const JsonNode& name : classes->items())
            for (const KnownArchitecture& known : kKnown)
                if (name.string() == known.className) {
                    notes << u"model_type \""_s + modelType + u"\" read as "_s + known.className +
                                 u", the architecture its config names"_s;
                    return &known;
                }
    }
    return nullptr;
}

// Which layers attend to a window: one kind for every layer, or a refusal (the shape has one window).
void readAttentionWindow(ObjectReader& f, Family family, ModelSpec& m, QStringList& notes)
{
    if (const auto kinds = f.array("layer_types"_L1, kMaxLayers, Need::Optional)) {
        int sliding = 0, full = 0;
        for (const JsonNode& kind : kinds->items()) {
            if (kind.string() == "sliding_attention"_L1)
                ++sliding;
            else if (kind.string() == "full_attention"_L1)
                ++full;
            else
                return f.refuse(f.where("layer_types"_L1) + u" names "_s + describeJson(kind) +
                                u" layers; Ridgeline models full and sliding-window attention only"_s);
        }
        if (sliding > 0 && full > 0)
            return f.refuse(f.where("layer_types"_L1) + u" mixes "_s + QString::number(sliding) +
                            u" sliding-window layers with "_s + QString::number(full) +
                            u" full-attention layers; Ridgeline models one attention kind for every layer"_s);
        if (sliding > 0)
            m.slidingWindow = f.smallInteger("sliding_window"_L1, 1, kMaxVocab, 0, Need::Required);
        return;
    }
    if (family == Family::Mistral || family == Family::Mixtral) {
        m.slidingWindow = f.smallInteger("sliding_window"_L1, 1, kMaxVocab, 0);
    } else if (isQwen(family) && f.boolean("use_sliding_window"_L1, false)) {
        // transformers' Qwen attention slides from layer max_window_layers on.
        const int from = f.smallInteger("max_window_layers"_L1, 0, kMaxLayers, 28);
        if (from >= m.layers) {
            notes << f.where("use_sliding_window"_L1) + u" is true, but max_window_layers "_s + QString::number(from) +
                         u" leaves every layer at full attention"_s;
        } else if (from > 0) {
            f.refuse(f.where("max_window_layers"_L1) + u" "_s + QString::number(from) + u" of "_s +
                     QString::number(m.layers) +
                     u" layers: the first attend to everything, the rest to a window; Ridgeline models one "
                     "attention kind for every layer"_s);
        } else {
            m.slidingWindow = f.smallInteger("sliding_window"_L1, 1, kMaxVocab, 0, Need::Required);
        }
    }
}

void readAttention(ObjectReader& f, Family family, ModelSpec& m, QStringList& notes)
{
    if (isDeepseek(family)) {
        m.kvLoraRank = f.smallInteger("kv_lora_rank"_L1, 1, kMaxWidth, 0, Need::Required);
        m.qLoraRank = f.smallInteger("q_lora_rank"_L1, 0, kMaxWidth, 0);  // null: a plain q projection (V2-Lite)
        m.qkNopeHeadDim = f.smallInteger("qk_nope_head_dim"_L1, 1, kMaxWidth, 0, Need::Required);
        m.qkRopeHeadDim = f.smallInteger("qk_rope_head_dim"_L1, 1, kMaxWidth, 0, Need::Required);
        m.vHeadDim = f.smallInteger("v_head_dim"_L1, 1, kMaxWidth, 0, Need::Required);
        // Not used with latent attention (the cache holds kv_lora_rank + qk_rope_head_dim values); kept for display.
        m.kvHeads = f.smallInteger("num_key_value_heads"_L1, 1, kMaxWidth, m.heads);
        m.headDim = m.vHeadDim;
        if (f.boolean("attention_bias"_L1, false))
            f.refuse(f.where("attention_bias"_L1) + u" is true: biases in latent attention are not modelled"_s);
        return;
    }
    m.kvHeads = f.smallInteger("num_key_value_heads"_L1, 1, kMaxWidth, m.heads);
    if (f.has("head_dim"_L1))
        m.headDim = f.smallInteger("head_dim"_L1, 1, kMaxWidth, 0);
    else if (m.heads > 0 && m.hidden % m.heads == 0)
        m.headDim = m.hidden / m.heads;
    else if (m.heads > 0)
        f.refuse(u"there is no "_s + f.where("head_dim"_L1) + u" and "_s + f.where("hidden_size"_L1) + u" "_s +
                 QString::number(m.hidden) + u" is not a multiple of num_attention_heads "_s +
                 QString::number(m.heads));
    if (!f.failed() && m.kvHeads > 0 && (m.kvHeads > m.heads || m.heads % m.kvHeads != 0))
        f.refuse(f.where("num_attention_heads"_L1) + u" "_s + QString::number(m.heads) +
                 u" cannot be shared evenly by num_key_value_heads "_s + QString::number(m.kvHeads));
    if (family == Family::Qwen2 || family == Family::Qwen2Moe) {
        m.qkvBias = true;  // the architecture has q, k and v biases; no field says so
    } else {
        m.qkvBias = f.boolean("attention_bias"_L1, false);
        if (m.qkvBias)
            notes << f.where("attention_bias"_L1) +
                         u": the q, k and v biases are counted, the output projection's "
                         "(hidden_size values a layer) is not"_s;
    }
    if (f.boolean("mlp_bias"_L1, false))
        f.refuse(f.where("mlp_bias"_L1) + u" is true: biases in a gated MLP are not modelled"_s);
    if (family == Family::Qwen3 || family == Family::Qwen3Moe)
        notes << u"the per-head q and k norms (2 x head_dim values a layer) are not counted, as in the catalog"_s;
    readAttentionWindow(f, family, m, notes);
}

// Layers whose FFN is dense in a MoE model, counted the way transformers decides it layer by layer.
int countDenseLayers(ObjectReader& f, Family family, int layers)
{
    int dense = 0;
    if (isDeepseek(family)) {
        const int firstMoe = f.smallInteger("first_k_dense_replace"_L1, 0, layers, 0);
        const int every = f.smallInteger("moe_layer_freq"_L1, 1, kMaxLayers, 1);
        for (int i = 0; i < layers; ++i)
            dense += !(i >= firstMoe && i % every == 0);
        return dense;
    }
    if (family == Family::Mixtral)
        return 0;
    const int step = f.smallInteger("decoder_sparse_step"_L1, 1, kMaxLayers, 1);
    QSet<int> mlpOnly;
    if (const auto listed = f.array("mlp_only_layers"_L1, kMaxLayers, Need::Optional)) {
        for (const JsonNode& layer : listed->items()) {
            const double index = layer.isNumber() ? layer.number() : -1;
            if (!layer.isNumber() || index < 0 || index >= layers || std::trunc(index) != index) {
                f.refuse(f.where("mlp_only_layers"_L1) + u" must list layer numbers from 0 to "_s +
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

void readFeedForward(ObjectReader& f, Family family, ModelSpec& m, QStringList& notes)
{
    const bool moe =
        family == Family::Mixtral || family == Family::Qwen2Moe || family == Family::Qwen3Moe || isDeepseek(family);
    if (!moe) {
        m.ffn = f.smallInteger("intermediate_size"_L1, 1, kMaxWidth, 0, Need::Required);
        return;
    }
    const QLatin1StringView expertsKey = family == Family::Mixtral ? "num_local_experts"_L1
                                         : isDeepseek(family)      ? "n_routed_experts"_L1
                                                                   : "num_experts"_L1;
    m.experts = f.smallInteger(expertsKey, 1, 1'000'000, 0, Need::Required);
    m.activeExperts = f.smallInteger("num_experts_per_tok"_L1, 1, std::max(1, m.experts), 0, Need::Required);
    m.moeFfn = f.smallInteger(family == Family::Mixtral ? "intermediate_size"_L1 : "moe_intermediate_size"_L1, 1,
                              kMaxWidth, 0, Need::Required);
    if (isDeepseek(family)) {
        m.sharedExperts = f.smallInteger("n_shared_experts"_L1, 0, 1'000'000, 0, Need::Required);
        m.routerBias = family == Family::DeepseekV3;  // V3's gate adds e_score_correction_bias; V2's has none
        if (const int mtp = f.smallInteger("num_nextn_predict_layers"_L1, 0, kMaxLayers, 0); mtp > 0)
            notes << QString::number(mtp) + u" multi-token-prediction layer(s) ("_s +
                         f.where("num_nextn_predict_layers"_L1) + u") are not counted, as in the catalog"_s;
    } else if (family == Family::Qwen2Moe) {
        if (const int shared = f.smallInteger("shared_expert_intermediate_size"_L1, 0, kMaxWidth, 0); shared > 0) {
            m.sharedExperts = 1;
            m.sharedExpertFfn = shared;
            notes << u"the shared expert's gate (hidden_size values a layer) is not counted"_s;
        }
    }
    m.denseLayers = countDenseLayers(f, family, m.layers);
    if (m.denseLayers > 0 || f.has("intermediate_size"_L1))
        m.ffn = f.smallInteger("intermediate_size"_L1, 1, kMaxWidth, 0,
                               m.denseLayers > 0 ? Need::Required : Need::Optional);
    if (m.denseLayers > 0)
        notes << QString::number(m.denseLayers) + u" of the "_s + QString::number(m.layers) +
                     u" layers have a dense FFN of intermediate_size "_s + QString::number(m.ffn);
}

QString nameFromLabel(const QString& label, const JsonNode& root)
{
    const QFileInfo info(label);
    const QString folder = info.absoluteDir().dirName();
    if (info.fileName() == "config.json"_L1 && !folder.isEmpty() && folder != "/"_L1)
        return folder;
    const JsonNode* named = root.find(u"_name_or_path");
    const QString declared = named ? named->string() : QString();
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
    const Result<JsonNode> document = parseStrictJson(json);
    if (!document)
        return makeError(Error::Code::Parse, label + u": "_s + document.error().message);
    if (!document.value().isObject())
        return makeError(Error::Code::Schema, label + u": a config.json is one JSON object"_s);
    const JsonNode& root = document.value();

    HfModelConfig out;
    out.file = label;
    Problem problem;
    ObjectReader top(root, QString(), problem, ReadMode::Lenient);
    const KnownArchitecture* architecture = architectureOf(top, out.notes);
    std::optional<ObjectReader> text;
    ObjectReader* shape = &top;
    if (!architecture && !top.failed()) {
        // Multimodal wrappers (Mistral 3, Kimi K2.5 ...) keep the language model in text_config.
        if (const auto inner = top.object("text_config"_L1, Need::Optional)) {
            text.emplace(top.nested(*inner, "text_config"_L1));
            architecture = architectureOf(*text, out.notes);
            if (architecture) {
                shape = &*text;
                out.notes
                    << u"the language model in text_config; the other towers (vision_config ...) are not counted"_s;
            }
        }
    }
    if (problem.found())
        return makeError(problem.error().code, label + u": "_s + problem.error().message);
    if (!architecture) {
        const QString modelType = shape->text("model_type"_L1);
        if (modelType.isEmpty() && !root.find(u"architectures"))
            return makeError(Error::Code::Schema,
                             label + u": no model_type or architectures: not a Hugging Face model config.json"_s);
        // The name is the file's own text: one line and short, whatever the file holds.
        return makeError(Error::Code::Unsupported, label + u": model_type \""_s + oneLine(shortKey(modelType)) +
                                                       u"\" is not an architecture Ridgeline reads as a "
                                                       "shape; it reads "_s +
                                                       hfArchitectureNames());
    }
    out.architecture = architecture->family == Family::DeepseekV3 ? u"deepseek_v3"_s : QString(architecture->modelType);

    ObjectReader& f = *shape;
    ModelSpec& m = out.shape;
    m.name = nameFromLabel(label, root);
    m.id = idFromName(m.name);
    m.source = label + u" (Hugging Face config.json, "_s + architecture->className + u')';
    m.layers = f.smallInteger("num_hidden_layers"_L1, 1, kMaxLayers, 0, Need::Required);
    m.hidden = f.smallInteger("hidden_size"_L1, 1, kMaxWidth, 0, Need::Required);
    m.heads = f.smallInteger("num_attention_heads"_L1, 1, kMaxWidth, 0, Need::Required);
    m.vocab = f.smallInteger("vocab_size"_L1, 1, kMaxVocab, 0, Need::Required);
    m.maxContext = f.smallInteger("max_position_embeddings"_L1, 0, 1'000'000'000, 0);
    m.tiedEmbeddings = f.boolean("tie_word_embeddings"_L1, architecture->family == Family::Gemma);
    m.gatedFfn = true;  // every architecture read here has a gated (three-matrix) FFN, whatever hidden_act says
    m.norm = NormKind::Rms;
    if (!f.failed())
        readAttention(f, architecture->family, m, out.notes);
    if (!f.failed())
        readFeedForward(f, architecture->family, m, out.notes);
    if (!f.failed())
        hf::readFormats(top, f, out);
    if (problem.found())
        return makeError(problem.error().code, label + u": "_s + problem.error().message);
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
    const Result<QByteArray> bytes = readFileUpTo(label, u"config.json"_s, kMaxHfConfigBytes,
                                                  u"a config.json holds a few KB (is it the weights?)"_s);
    if (!bytes)
        return bytes.error();
    return parseHfConfig(bytes.value(), label);
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
