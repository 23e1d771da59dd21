// A Hugging Face config.json read as a model shape. The fixtures in tests/data/hf_configs are written
// the way transformers writes them, with each model's published values (tests/data/README.md): dense, GQA,
// sliding window, MoE with and without shared experts, MLA, quantized checkpoints and a multimodal wrapper.
#include "core/model/hf/hf_config.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/inference_request.h"
#include "core/model/llm/llm_model.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <functional>

using namespace ridgeline;
using namespace Qt::Literals::StringLiterals;

namespace {

QString fixture(const char* folder)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/hf_configs/") + QLatin1String(folder);
}

HfModelConfig load(const char* folder)
{
    const Result<HfModelConfig> config = loadHfConfig(fixture(folder));
    EXPECT_TRUE(config.ok()) << (config.ok() ? "" : config.error().message.toStdString());
    return config.ok() ? config.value() : HfModelConfig{};
}

ParamCounts counts(const ModelSpec& shape)
{
    const Result<ParamCounts> c = countParams(shape);
    EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message.toStdString());
    return c.ok() ? c.value() : ParamCounts{};
}

double billions(std::int64_t n)
{
    return static_cast<double>(n) / 1e9;
}

// The fixture's JSON with one change, read as "m/config.json".
Result<HfModelConfig> mutated(const char* folder, const std::function<void(QJsonObject&)>& change)
{
    QFile file(fixture(folder) + QStringLiteral("/config.json"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    change(root);
    return parseHfConfig(QJsonDocument(root).toJson(), QStringLiteral("m/config.json"));
}

std::string refusal(const Result<HfModelConfig>& result)
{
    return result.ok() ? std::string("(read without complaint)") : result.error().message.toStdString();
}

}  // namespace

TEST(HfConfig, ReadsTheSameShapesTheCatalogStatesFromTheSameConfigs)
{
    // Two routes to one shape: the catalog entry (written by hand from the model card) and the config.json reader.
    for (const auto& [folder, id] :
         {std::pair{"Llama-3.1-8B", "llama-3.1-8b"}, std::pair{"Mistral-7B-v0.1", "mistral-7b"},
          std::pair{"Mixtral-8x7B-v0.1", "mixtral-8x7b"}, std::pair{"Qwen2.5-7B", "qwen2.5-7b"},
          std::pair{"Qwen3-30B-A3B", "qwen3-30b-a3b"}, std::pair{"DeepSeek-V3", "deepseek-v3"}}) {
        SCOPED_TRACE(folder);
        const ModelSpec read = load(folder).shape;
        const Result<ModelSpec> catalog = findModel(QString::fromLatin1(id));
        ASSERT_TRUE(catalog.ok());
        const ModelSpec& c = catalog.value();
        EXPECT_EQ(read.layers, c.layers);
        EXPECT_EQ(read.hidden, c.hidden);
        EXPECT_EQ(read.heads, c.heads);
        EXPECT_EQ(read.vocab, c.vocab);
        EXPECT_EQ(read.tiedEmbeddings, c.tiedEmbeddings);
        EXPECT_EQ(read.gatedFfn, c.gatedFfn);
        EXPECT_EQ(read.qkvBias, c.qkvBias);
        EXPECT_EQ(read.slidingWindow, c.slidingWindow);
        EXPECT_EQ(read.maxContext, c.maxContext);
        EXPECT_EQ(read.experts, c.experts);
        EXPECT_EQ(read.activeExperts, c.activeExperts);
        EXPECT_EQ(read.sharedExperts, c.sharedExperts);
        EXPECT_EQ(read.moeFfn, c.moeFfn);
        EXPECT_EQ(read.denseLayers, c.denseLayers);
        EXPECT_EQ(read.routerBias, c.routerBias);
        EXPECT_EQ(read.isMla(), c.isMla());
        if (c.isMla()) {
            EXPECT_EQ(read.qLoraRank, c.qLoraRank);
            EXPECT_EQ(read.kvLoraRank, c.kvLoraRank);
            EXPECT_EQ(read.qkNopeHeadDim, c.qkNopeHeadDim);
            EXPECT_EQ(read.qkRopeHeadDim, c.qkRopeHeadDim);
            EXPECT_EQ(read.vHeadDim, c.vHeadDim);
        } else {
            EXPECT_EQ(read.kvHeads, c.kvHeads);
            EXPECT_EQ(read.headDim, c.headDim);
        }
        if (c.denseLayers > 0 || !c.isMoe()) {
            EXPECT_EQ(read.ffn, c.ffn);
        }
        EXPECT_EQ(counts(read).total, counts(c).total);
        EXPECT_EQ(counts(read).activePerToken, counts(c).activePerToken);
    }
}

TEST(HfConfig, CountsMatchWhatTheModelsPublish)
{
    // Qwen1.5-MoE-A2.7B model card: 14.3B parameters, 2.7B activated; one shared expert 4x an expert's width.
    const HfModelConfig qwenMoe = load("Qwen1.5-MoE-A2.7B");
    EXPECT_EQ(qwenMoe.shape.sharedExperts, 1);
    EXPECT_EQ(qwenMoe.shape.sharedExpertFfn, 5632);
    EXPECT_NEAR(billions(counts(qwenMoe.shape).total), 14.3, 0.05);
    EXPECT_NEAR(billions(counts(qwenMoe.shape).activePerToken), 2.7, 0.05);
    // DeepSeek-V2-Lite (DeepSeek-V2 repository README): 15.7B total, 2.4B activated; no q compression
    // (q_lora_rank null), one dense layer, two shared experts. DeepSeek counts activated parameters without the
    // input embedding table (a look-up, no multiply): V3's 37.6B less its 0.93B table is the 37B of its paper too.
    const HfModelConfig lite = load("DeepSeek-V2-Lite");
    EXPECT_EQ(lite.shape.qLoraRank, 0);
    EXPECT_EQ(lite.shape.denseLayers, 1);
    EXPECT_FALSE(lite.shape.routerBias);
    EXPECT_NEAR(billions(counts(lite.shape).total), 15.7, 0.1);
    EXPECT_NEAR(billions(counts(lite.shape).activePerToken - counts(lite.shape).embedding), 2.4, 0.1);
    // Gemma 7B (Gemma report, Table 2 and the model card): 8.54B with its tied 256k embedding; head_dim 256.
    const HfModelConfig gemma = load("gemma-7b");
    EXPECT_TRUE(gemma.shape.tiedEmbeddings);
    EXPECT_EQ(gemma.shape.headDim, 256);
    EXPECT_NEAR(billions(counts(gemma.shape).total), 8.54, 0.01);
    // Kimi K2 (Moonshot's model card: 1T total, 32B activated; its technical report: 1.04T). The shapes give 1.026T,
    // between the two, and 31.7B activated without the input table (DeepSeek's convention, above).
    const HfModelConfig kimi = load("Kimi-K2-Instruct");
    EXPECT_NEAR(billions(counts(kimi.shape).total), 1020.0, 20.0);
    EXPECT_NEAR(billions(counts(kimi.shape).activePerToken - counts(kimi.shape).embedding), 32.0, 0.5);
    // Mixtral 8x7B (paper): 46.7B total, 12.9B active.
    const HfModelConfig mixtral = load("Mixtral-8x7B-v0.1");
    EXPECT_NEAR(billions(counts(mixtral.shape).total), 46.7, 0.05);
    EXPECT_NEAR(billions(counts(mixtral.shape).activePerToken), 12.9, 0.05);
}

TEST(HfConfig, LatentAttentionCachesTheLatentVectorNotHeads)
{
    // DeepSeek-V3: (kv_lora_rank 512 + qk_rope_head_dim 64) x 61 layers x 2 bytes = 70,272 bytes per token in bf16,
    // against 2 x 128 heads x 128 x 61 x 2 = 7.8 MB had it been plain multi-head attention.
    InferenceConfig config;
    config.model = load("DeepSeek-V3").shape;
    config.gpu = findGpu(u"h200").value();
    config.weights = NumberFormat::Fp8;
    config.kv = NumberFormat::Bf16;
    const Result<LlmModel> model = LlmModel::create(config);
    ASSERT_TRUE(model.ok()) << model.error().message.toStdString();
    EXPECT_EQ(model.value().kvBytesPerToken(), 70'272);
}

TEST(HfConfig, FormatsComeFromQuantizationConfigOrTheCheckpointsDtype)
{
    const HfModelConfig llama = load("Llama-3.1-8B");
    EXPECT_EQ(llama.weights, NumberFormat::Bf16);
    EXPECT_EQ(llama.kv, NumberFormat::Bf16);
    EXPECT_EQ(llama.weightsBasis, QStringLiteral("torch_dtype: bfloat16"));

    const HfModelConfig deepseek = load("DeepSeek-V3");
    EXPECT_EQ(deepseek.weights, NumberFormat::Fp8);
    EXPECT_EQ(deepseek.weightsBasis, QStringLiteral("quantization_config: fp8, e4m3, 128 x 128 blocks"));
    EXPECT_EQ(deepseek.kv, NumberFormat::Bf16);  // the fp8 checkpoint's cache is in its compute dtype

    // llm-compressor's FP8 checkpoint: fp8 weights by channel and an fp8 KV cache (kv_cache_scheme).
    const HfModelConfig fp8 = load("Llama-3.1-8B-Instruct-FP8");
    EXPECT_EQ(fp8.weights, NumberFormat::Fp8);
    EXPECT_EQ(fp8.kv, NumberFormat::Fp8);
    EXPECT_EQ(fp8.kvBasis, QStringLiteral("quantization_config.kv_cache_scheme"));
    EXPECT_FALSE(fp8.attentionWeights);  // only lm_head is left alone

    // AWQ: 4-bit integer groups of 128 in a float16 checkpoint, so the cache is fp16.
    const HfModelConfig awq = load("Qwen2.5-7B-Instruct-AWQ");
    EXPECT_EQ(awq.weights, NumberFormat::Int4);
    EXPECT_EQ(awq.weightsBasis, QStringLiteral("quantization_config: awq, 4 bits, groups of 128"));
    EXPECT_EQ(awq.kv, NumberFormat::Fp16);

    // A method Ridgeline cannot model: the shape is read, the weights' format is named as unknown, not guessed.
    const Result<HfModelConfig> nf4 = mutated("Llama-3.1-8B", [](QJsonObject& o) {
        o[QStringLiteral("quantization_config")] = QJsonObject{{QStringLiteral("quant_method"), u"bitsandbytes"_s},
                                                               {QStringLiteral("load_in_4bit"), true},
                                                               {QStringLiteral("bnb_4bit_quant_type"), u"nf4"_s}};
    });
    ASSERT_TRUE(nf4.ok()) << refusal(nf4);
    EXPECT_FALSE(nf4.value().weights);
    EXPECT_EQ(nf4.value().weightsProblem.toStdString(),
              "quantization_config.quant_method \"bitsandbytes\" is not a weight format Ridgeline models (it reads "
              "fp8, fbgemm_fp8, compressed-tensors, awq, gptq, modelopt and mxfp4)");

    // NVIDIA ModelOpt NVFP4 with the attention left at 16 bits (ignore lists the self_attn modules).
    const Result<HfModelConfig> nvfp4 = mutated("Llama-3.1-8B", [](QJsonObject& o) {
        o[QStringLiteral("quantization_config")] =
            QJsonObject{{QStringLiteral("quant_method"), u"modelopt"_s},
                        {QStringLiteral("quant_algo"), u"NVFP4"_s},
                        {QStringLiteral("kv_cache_quant_algo"), u"FP8"_s},
                        {QStringLiteral("ignore"), QJsonArray{u"lm_head"_s, u"model.layers.*.self_attn*"_s}}};
    });
    ASSERT_TRUE(nvfp4.ok()) << refusal(nvfp4);
    EXPECT_EQ(nvfp4.value().weights, NumberFormat::Fp4);
    EXPECT_EQ(nvfp4.value().kv, NumberFormat::Fp8);
    EXPECT_EQ(nvfp4.value().attentionWeights, NumberFormat::Bf16);
}

TEST(HfConfig, NamesTheModelAfterItsFolderAndSaysWhatItReadAndLeftOut)
{
    const HfModelConfig kimi = load("Kimi-K2-Instruct");
    EXPECT_EQ(kimi.shape.name, QStringLiteral("Kimi-K2-Instruct"));
    EXPECT_EQ(kimi.shape.id, QStringLiteral("kimi-k2-instruct"));
    EXPECT_EQ(kimi.architecture, QStringLiteral("deepseek_v3"));
    EXPECT_TRUE(kimi.notes.contains(
        QStringLiteral("model_type \"kimi_k2\" read as DeepseekV3ForCausalLM, the architecture its config names")))
        << kimi.notes.join(u'|').toStdString();
    EXPECT_TRUE(kimi.shape.source.contains(QStringLiteral("Kimi-K2-Instruct/config.json")));

    const HfModelConfig deepseek = load("DeepSeek-V3");
    EXPECT_TRUE(deepseek.notes.contains(QStringLiteral(
        "1 multi-token-prediction layer(s) (num_nextn_predict_layers) are not counted, as in the catalog")));
    EXPECT_TRUE(
        deepseek.notes.contains(QStringLiteral("3 of the 61 layers have a dense FFN of intermediate_size 18432")));

    // Mistral Small 3.1 is a vision-language wrapper: the language model is read from text_config.
    const HfModelConfig small = load("Mistral-Small-3.1-24B-Instruct-2503");
    EXPECT_EQ(small.architecture, QStringLiteral("mistral"));
    EXPECT_EQ(small.shape.layers, 40);
    EXPECT_EQ(small.shape.headDim, 128);  // not 5120 / 32 = 160
    EXPECT_EQ(small.weights, NumberFormat::Bf16);
    EXPECT_NEAR(billions(counts(small.shape).total), 23.57, 0.01);  // the 24B of its name with the vision encoder
    EXPECT_TRUE(small.notes.contains(
        QStringLiteral("the language model in text_config; the other towers (vision_config ...) are not counted")));
}

TEST(HfConfig, ArchitecturesItCannotReadAreRefusedByName)
{
    // gpt-oss alternates sliding-window and full attention layer by layer, with attention sinks: refused by name.
    const Result<HfModelConfig> oss = loadHfConfig(fixture("gpt-oss-20b"));
    ASSERT_FALSE(oss.ok());
    EXPECT_EQ(oss.error().code, Error::Code::Unsupported);
    EXPECT_EQ(oss.error().message.toStdString(),
              QDir::cleanPath(fixture("gpt-oss-20b") + QStringLiteral("/config.json")).toStdString() +
                  ": model_type \"gpt_oss\" is not an architecture Ridgeline reads as a shape; it reads " +
                  hfArchitectureNames().toStdString());
    const Result<HfModelConfig> falcon = mutated("Llama-3.1-8B", [](QJsonObject& o) {
        o[QStringLiteral("model_type")] = u"falcon"_s;
        o[QStringLiteral("architectures")] = QJsonArray{u"FalconForCausalLM"_s};
    });
    EXPECT_NE(refusal(falcon).find("m/config.json: model_type \"falcon\" is not an architecture"), std::string::npos);
    // A wrapper whose language model is not one either.
    const Result<HfModelConfig> llama4 = mutated("Mistral-Small-3.1-24B-Instruct-2503", [](QJsonObject& o) {
        QJsonObject text = o[QStringLiteral("text_config")].toObject();
        text[QStringLiteral("model_type")] = u"llama4_text"_s;
        o[QStringLiteral("text_config")] = text;
        o[QStringLiteral("model_type")] = u"llama4"_s;
    });
    EXPECT_NE(refusal(llama4).find("model_type \"llama4\" is not an architecture"), std::string::npos);
    EXPECT_EQ(refusal(parseHfConfig("{\"hidden_size\": 4096}", QStringLiteral("x.json"))),
              "x.json: no model_type or architectures: not a Hugging Face model config.json");
    // The name quoted is the file's text: an escaped newline stays escaped, a long name is cut.
    EXPECT_EQ(refusal(parseHfConfig("{\"model_type\": \"qw\\n2_moe\"}", QStringLiteral("x.json"))),
              "x.json: model_type \"qw\\u000a2_moe\" is not an architecture Ridgeline reads as a shape; it reads " +
                  hfArchitectureNames().toStdString());
    EXPECT_EQ(
        refusal(parseHfConfig("{\"model_type\": \"" + QByteArray(1000, 'q') + "\"}", QStringLiteral("x.json"))).size(),
        refusal(parseHfConfig("{\"model_type\": \"" + QByteArray(40, 'q') + "\"}", QStringLiteral("x.json"))).size() +
            3);
}

TEST(HfConfig, BadFieldsGetOneLineNamingTheFileAndTheField)
{
    const std::pair<std::function<void(QJsonObject&)>, std::string> cases[] = {
        {[](QJsonObject& o) { o[QStringLiteral("hidden_size")] = u"4096"_s; },
         "m/config.json: hidden_size must be a whole number from 1 to 10000000, got the string \"4096\""},
        {[](QJsonObject& o) { o.remove(QStringLiteral("num_attention_heads")); },
         "m/config.json: missing required field num_attention_heads"},
        {[](QJsonObject& o) { o[QStringLiteral("num_key_value_heads")] = 5; },
         "m/config.json: num_attention_heads 32 cannot be shared evenly by num_key_value_heads 5"},
        {[](QJsonObject& o) { o[QStringLiteral("num_hidden_layers")] = 2.5; },
         "m/config.json: num_hidden_layers must be a whole number from 1 to 100000, got 2.5"},
        {[](QJsonObject& o) { o[QStringLiteral("tie_word_embeddings")] = u"no"_s; },
         "m/config.json: tie_word_embeddings must be true or false, got the string \"no\""},
        {[](QJsonObject& o) { o[QStringLiteral("mlp_bias")] = true; },
         "m/config.json: mlp_bias is true: biases in a gated MLP are not modelled"},
        {[](QJsonObject& o) {
             QJsonArray kinds;
             for (int i = 0; i < 32; ++i)
                 kinds.append(i % 4 == 3 ? u"full_attention"_s : u"sliding_attention"_s);
             o[QStringLiteral("layer_types")] = kinds;
         },
         "m/config.json: layer_types mixes 24 sliding-window layers with 8 full-attention layers; Ridgeline models one "
         "attention kind for every layer"},
        {[](QJsonObject& o) {
             o.remove(QStringLiteral("head_dim"));
             o[QStringLiteral("hidden_size")] = 4000;
             o[QStringLiteral("num_attention_heads")] = 48;
             o[QStringLiteral("num_key_value_heads")] = 8;
         },
         "m/config.json: there is no head_dim and hidden_size 4000 is not a multiple of num_attention_heads 48"},
    };
    for (const auto& [change, message] : cases)
        EXPECT_EQ(refusal(mutated("Llama-3.1-8B", change)), message);

    // MoE fields, on their own architectures.
    EXPECT_EQ(refusal(mutated("Qwen3-30B-A3B", [](QJsonObject& o) { o[QStringLiteral("num_experts_per_tok")] = 200; })),
              "m/config.json: num_experts_per_tok must be a whole number from 1 to 128, got 200");
    EXPECT_EQ(refusal(mutated("Qwen3-30B-A3B",
                              [](QJsonObject& o) {
                                  o[QStringLiteral("mlp_only_layers")] = QJsonArray{0, 48};
                              })),
              "m/config.json: mlp_only_layers must list layer numbers from 0 to 47, got 48");
    EXPECT_EQ(refusal(mutated("DeepSeek-V3", [](QJsonObject& o) { o.remove(QStringLiteral("intermediate_size")); })),
              "m/config.json: missing required field intermediate_size");
    EXPECT_EQ(refusal(mutated("DeepSeek-V3", [](QJsonObject& o) { o.remove(QStringLiteral("kv_lora_rank")); })),
              "m/config.json: missing required field kv_lora_rank");
    EXPECT_EQ(refusal(mutated("Mistral-Small-3.1-24B-Instruct-2503",
                              [](QJsonObject& o) {
                                  QJsonObject text = o[QStringLiteral("text_config")].toObject();
                                  text[QStringLiteral("vocab_size")] = -1;
                                  o[QStringLiteral("text_config")] = text;
                              })),
              "m/config.json: text_config.vocab_size must be a whole number from 1 to 100000000, got -1");
    // Qwen's window from layer max_window_layers on: all, none, or some (refused).
    auto qwenWindow = [](int from) {
        return mutated("Qwen2.5-7B", [from](QJsonObject& o) {
            o[QStringLiteral("use_sliding_window")] = true;
            o[QStringLiteral("max_window_layers")] = from;
        });
    };
    EXPECT_EQ(refusal(qwenWindow(21)),
              "m/config.json: max_window_layers 21 of 28 layers: the first attend to everything, the rest to a window; "
              "Ridgeline models one attention kind for every layer");
    ASSERT_TRUE(qwenWindow(0).ok());
    EXPECT_EQ(qwenWindow(0).value().shape.slidingWindow, 131072);
    ASSERT_TRUE(qwenWindow(28).ok());
    EXPECT_EQ(qwenWindow(28).value().shape.slidingWindow, 0);
    // mlp_only_layers make those layers dense (Qwen's rule); the count follows.
    const Result<HfModelConfig> twoDense = mutated("Qwen3-30B-A3B", [](QJsonObject& o) {
        o[QStringLiteral("mlp_only_layers")] = QJsonArray{0, 47};
    });
    ASSERT_TRUE(twoDense.ok()) << refusal(twoDense);
    EXPECT_EQ(twoDense.value().shape.denseLayers, 2);
}

TEST(HfConfig, FilesThatAreNotAConfigAreRefusedWithTheirName)
{
    EXPECT_EQ(refusal(parseHfConfig("[1, 2]", QStringLiteral("a.json"))), "a.json: a config.json is one JSON object");
    EXPECT_EQ(refusal(parseHfConfig("{\"rope_theta\": NaN}", QStringLiteral("a.json"))).rfind("a.json: ", 0), 0u);
    EXPECT_NE(refusal(parseHfConfig("{\"model_type\": \"llama\",", QStringLiteral("a.json")))
                  .find("a.json: line 1, column 1: an object that is never closed (truncated file?)"),
              std::string::npos);

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const Result<HfModelConfig> missing = loadHfConfig(dir.path());
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().message, dir.path() + QStringLiteral("/config.json: no such file"));
    QFile weights(dir.filePath(QStringLiteral("model.safetensors")));
    ASSERT_TRUE(weights.open(QIODevice::WriteOnly));
    ASSERT_TRUE(weights.resize(kMaxHfConfigBytes + 1));
    weights.close();
    const Result<HfModelConfig> huge = loadHfConfig(weights.fileName());
    ASSERT_FALSE(huge.ok());
    EXPECT_EQ(huge.error().message.toStdString(),
              weights.fileName().toStdString() +
                  ": the file is 4194305 bytes; a config.json holds a few KB (is it the weights?)");
}

TEST(HfConfig, EveryFieldOfEveryFixtureReplacedByAWrongValueIsReadOrRefusedNeverTrusted)
{
    // Hostile or corrupt configs: each key of each fixture (and of its text_config and quantization_config) set to
    // a value of another kind. Each result is either a shape countParams accepts or one line naming the file.
    const QJsonValue wrongs[] = {QJsonValue(u"x"_s),        QJsonValue(-1),
                                 QJsonValue(1e300),         QJsonValue(0.5),
                                 QJsonValue(QJsonArray{1}), QJsonValue(QJsonObject{}),
                                 QJsonValue(true),          QJsonValue(QJsonValue::Null),
                                 QJsonValue(2147483648.0)};
    int refused = 0, read = 0;
    for (const QString& folder : QDir(fixture("")).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        QFile file(fixture("") + folder + u"/config.json"_s);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        const QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
        auto check = [&](const QJsonObject& changed, const std::string& what) {
            const Result<HfModelConfig> result =
                parseHfConfig(QJsonDocument(changed).toJson(QJsonDocument::Compact), u"m/config.json"_s);
            if (result.ok()) {
                ++read;
                EXPECT_TRUE(countParams(result.value().shape).ok()) << what;
            } else {
                ++refused;
                EXPECT_TRUE(result.error().message.startsWith(u"m/config.json: "_s)) << what;
                EXPECT_FALSE(result.error().message.contains(u'\n')) << what;
            }
        };
        for (const QString& key : root.keys())
            for (const QJsonValue& wrong : wrongs) {
                QJsonObject changed = root;
                changed[key] = wrong;
                check(changed, folder.toStdString() + " " + key.toStdString());
                for (const char* inner : {"text_config", "quantization_config"}) {
                    if (!root.value(QLatin1String(inner)).isObject())
                        continue;
                    QJsonObject nested = root.value(QLatin1String(inner)).toObject();
                    if (!nested.contains(key))
                        continue;
                    nested[key] = wrong;
                    changed = root;
                    changed[QLatin1String(inner)] = nested;
                    check(changed, folder.toStdString() + " " + inner + "." + key.toStdString());
                }
            }
    }
    EXPECT_GT(refused, 500);  // the counts keep the check honest: both outcomes happen
    EXPECT_GT(read, 500);
}
