// `ridgeline model --engine NAME[@VERSION]` and `ridgeline catalog engines`, run as the real executable.
#include "tests/app/cli_runner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline::test;

namespace {

QJsonObject jsonOf(const CliRun& run)
{
    EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

const char* const kEngines[] = {"generic", "vllm",      "sglang",   "tensorrt-llm", "llama.cpp",
                                "mlc-llm", "exllamav2", "lmdeploy", "tgi"};

}  // namespace

TEST(EngineCli, CatalogEnginesListsAllNineWithTheirTermsAndSources)
{
    const CliRun text = runRidgeline(cliArgs("catalog engines"));
    ASSERT_EQ(text.exitCode, 0) << text.err.toStdString();
    for (const char* id : kEngines)
        EXPECT_TRUE(text.out.contains(QLatin1String(id))) << id;
    EXPECT_TRUE(text.out.contains(u"weight_bandwidth.fp16 = "));
    EXPECT_TRUE(text.out.contains(u"PR #6017"));

    const CliRun json = runRidgeline(cliArgs("catalog engines --json"));
    ASSERT_EQ(json.exitCode, 0) << json.err.toStdString();
    const QJsonArray engines = QJsonDocument::fromJson(json.out.toUtf8()).array();
    ASSERT_EQ(engines.size(), 9);
    for (const QJsonValue& v : engines) {
        const QJsonObject e = v.toObject();
        EXPECT_FALSE(e[u"coverage"].toString().isEmpty()) << e[u"id"].toString().toStdString();
        for (const QJsonValue& t : e[u"overrides"].toArray()) {
            EXPECT_FALSE(t.toObject()[u"source"].toString().isEmpty());
            EXPECT_GT(t.toObject()[u"value"].toDouble(), 0.0);
        }
    }
    // generic lists every term of the measured defaults with where it comes from.
    const QJsonArray generic = engines.at(0).toObject()[u"terms"].toArray();
    EXPECT_GT(generic.size(), 20);
    for (const QJsonValue& t : generic)
        EXPECT_FALSE(t.toObject()[u"source"].toString().isEmpty());
}

// Each engine's scheduler, the one its serving figures run, is listed with where each term comes from: TensorRT-LLM's
// own limits with their source, vLLM's defaults for the others.
TEST(EngineCli, CatalogEnginesListsEachEnginesSchedulerWithItsSource)
{
    const CliRun text = runRidgeline(cliArgs("catalog engines"));
    ASSERT_EQ(text.exitCode, 0) << text.err.toStdString();
    EXPECT_TRUE(
        text.out.contains(QLatin1String("  TensorRT-LLM: chunked prefill beside the decodes, at most 2,048 "
                                        "requests, 8,192 tokens a step")))
        << text.out.toStdString();
    EXPECT_TRUE(text.out.contains(QLatin1String("BuildConfig: max_batch_size 2048, max_num_tokens 8192")));
    EXPECT_TRUE(
        text.out.contains(QLatin1String("  every other engine: chunked prefill beside the decodes, at most 128 "
                                        "requests, 2,048 tokens a step (vLLM's scheduler defaults): "
                                        "vllm/config/scheduler.py")))
        << text.out.toStdString();
    const CliRun json = runRidgeline(cliArgs("catalog engines --json"));
    ASSERT_EQ(json.exitCode, 0) << json.err.toStdString();
    for (const QJsonValue& value : QJsonDocument::fromJson(json.out.toUtf8()).array()) {
        const QJsonObject engine = value.toObject();
        const QJsonObject scheduler = engine.value(u"scheduler").toObject();
        const bool trt = engine.value(u"id").toString() == QLatin1String("tensorrt-llm");
        EXPECT_EQ(scheduler.value(u"max_running").toInteger(), trt ? 2048 : 128);
        EXPECT_EQ(scheduler.value(u"token_budget").toInteger(), trt ? 8192 : 2048);
        EXPECT_EQ(scheduler.value(u"scheduler_source").toObject().value(u"max_running").toString(),
                  trt ? QStringLiteral("engine") : QStringLiteral("vllm-default"));
        EXPECT_EQ(scheduler.value(u"engine_citation").isNull(), !trt);
    }
}

TEST(EngineCli, ModelEngineSetsTheTermsAndNamesTheEngine)
{
    const QJsonObject plain =
        jsonOf(runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --weights fp16 --json")));
    EXPECT_EQ(plain[u"engine"].toObject()[u"name"].toString(), QStringLiteral("generic"));
    EXPECT_TRUE(plain[u"engine"].toObject()[u"version"].isNull());
    EXPECT_TRUE(plain[u"engine"].toObject()[u"fallback_note"].isNull());

    const QJsonObject llama = jsonOf(
        runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --weights fp16 --engine llama.cpp --json")));
    const QJsonObject e = llama[u"engine"].toObject();
    EXPECT_EQ(e[u"name"].toString(), QStringLiteral("llama.cpp"));
    EXPECT_EQ(e[u"memory_family"].toString(), QStringLiteral("HBM"));
    EXPECT_FALSE(e[u"overrides"].toArray().isEmpty());
    EXPECT_LT(llama[u"tokens_per_s"].toDouble(), 0.85 * plain[u"tokens_per_s"].toDouble());
    EXPECT_DOUBLE_EQ(llama[u"terms"].toObject()[u"weight_bandwidth.fp16"].toDouble(),
                     e[u"overrides"].toArray().at(0).toObject()[u"value"].toDouble());

    // vLLM is the measured defaults with its own time per sequence: at batch 1 a few microseconds a step more.
    const QJsonObject vllm =
        jsonOf(runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --weights fp16 --engine vllm --json")));
    const QJsonObject vllmTerms = vllm[u"terms"].toObject(), plainTerms = plain[u"terms"].toObject();
    ASSERT_FALSE(plainTerms.isEmpty());
    for (const QString& name : plainTerms.keys()) {
        if (name != QLatin1String("sequence_seconds")) {
            EXPECT_EQ(vllmTerms[name], plainTerms[name]) << name.toStdString();
        }
    }
    EXPECT_GT(vllmTerms[u"sequence_seconds"].toDouble(), plainTerms[u"sequence_seconds"].toDouble());
    EXPECT_LT(vllm[u"tokens_per_s"].toDouble(), plain[u"tokens_per_s"].toDouble());
    EXPECT_GT(vllm[u"tokens_per_s"].toDouble(), 0.99 * plain[u"tokens_per_s"].toDouble());

    const CliRun text =
        runRidgeline(cliArgs("model --model llama-2-7b --gpu rtx-4090 --engine exllamav2 --weights int4"));
    ASSERT_EQ(text.exitCode, 0) << text.err.toStdString();
    EXPECT_TRUE(text.out.startsWith(u"Engine: ExLlamaV2 on GDDR memory: weight_bandwidth.int4"))
        << text.out.toStdString();
    const CliRun byDefault = runRidgeline(cliArgs("model --model llama-2-7b --gpu rtx-4090"));
    EXPECT_FALSE(byDefault.out.contains(u"Engine:"));  // the default table is as it was
}

TEST(EngineCli, AnUnknownEngineIsRefusedAndAnUncoveredVersionFallsBack)
{
    const CliRun unknown = runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --engine deepspeed"));
    EXPECT_EQ(unknown.exitCode, 2);
    EXPECT_TRUE(unknown.out.isEmpty());
    for (const char* id : kEngines)
        EXPECT_TRUE(unknown.err.contains(QLatin1String(id))) << unknown.err.toStdString();
    EXPECT_TRUE(unknown.err.contains(u"--engine"));

    const CliRun badVersion = runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --engine vllm@new"));
    EXPECT_EQ(badVersion.exitCode, 2);
    EXPECT_TRUE(badVersion.err.contains(u"version")) << badVersion.err.toStdString();

    const CliRun both = runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --engine vllm --ideal"));
    EXPECT_EQ(both.exitCode, 2);

    const CliRun old = runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --engine vllm@0.3 --json"));
    ASSERT_EQ(old.exitCode, 0) << old.err.toStdString();
    EXPECT_TRUE(old.err.contains(u"falls back to vLLM 0.6")) << old.err.toStdString();
    const QJsonObject e = QJsonDocument::fromJson(old.out.toUtf8()).object()[u"engine"].toObject();
    EXPECT_EQ(e[u"version"].toString(), QStringLiteral("0.3"));
    EXPECT_TRUE(e[u"fallback_note"].toString().contains(u"falls back to vLLM 0.6"));

    const CliRun covered = runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --engine vllm@0.8.5 --json"));
    ASSERT_EQ(covered.exitCode, 0);
    EXPECT_TRUE(covered.err.isEmpty()) << covered.err.toStdString();
}

TEST(EngineCli, AllReduceKernelsAreAnInputAndAnEnginesOwn)
{
    // Four L40S over PCIe 4: NCCL's ring by default, the custom one-shot and two-shot kernels when asked for.
    const char* setup = "model --model llama-2-70b --gpu l40s --weights fp8 --kv fp8 --tp 4 --json";
    const QJsonObject nccl = jsonOf(runRidgeline(cliArgs(setup)));
    EXPECT_EQ(nccl[u"all_reduce"].toString(), QStringLiteral("nccl"));
    const QJsonObject custom =
        jsonOf(runRidgeline(cliArgs(QByteArray(setup).replace("--json", "--all-reduce custom --json").constData())));
    EXPECT_EQ(custom[u"all_reduce"].toString(), QStringLiteral("custom"));
    EXPECT_LT(custom[u"breakdown"].toObject()[u"communication_s"].toDouble(),
              0.5 * nccl[u"breakdown"].toObject()[u"communication_s"].toDouble());
    // vLLM runs its kernels over PCIe between two GPUs only; TensorRT-LLM over NVLink only.
    const QJsonObject vllm2 =
        jsonOf(runRidgeline(cliArgs("model --model llama-2-70b --gpu l40s --tp 2 --engine vllm --json")));
    EXPECT_EQ(vllm2[u"all_reduce"].toString(), QStringLiteral("custom"));
    const QJsonObject vllm4 =
        jsonOf(runRidgeline(cliArgs("model --model llama-2-70b --gpu l40s --tp 4 --engine vllm --json")));
    EXPECT_EQ(vllm4[u"all_reduce"].toString(), QStringLiteral("nccl"));
    const QJsonObject trtllm =
        jsonOf(runRidgeline(cliArgs("model --model llama-2-70b --gpu h100-sxm --tp 8 --engine tensorrt-llm --json")));
    EXPECT_EQ(trtllm[u"all_reduce"].toString(), QStringLiteral("custom"));
    const CliRun text = runRidgeline(cliArgs("model --model llama-2-70b --gpu l40s --tp 4 --all-reduce custom"));
    EXPECT_TRUE(text.out.contains(u"custom all-reduce kernels")) << text.out.toStdString();
    const CliRun bad = runRidgeline(cliArgs("model --model llama-2-70b --gpu l40s --tp 4 --all-reduce tree"));
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.err.contains(u"--all-reduce must be nccl or custom")) << bad.err.toStdString();
}

TEST(EngineCli, AnEnginesCollectivesRunAtTheirSharesAndCrossAPcieServersSockets)
{
    // Named with --engine, an engine's all-reduces run at the shares of the link they reach (the batching tab's and
    // the validation's pricing); "generic" is the measured defaults, as without --engine, at the datasheet's rate.
    const auto communication = [](const char* arguments) {
        const QJsonObject json = jsonOf(runRidgeline(cliArgs(arguments)));
        return json[u"prefill_breakdown"].toObject()[u"communication_s"].toDouble();
    };
    const double vllm =
        communication("model --model llama-2-70b --gpu h100-sxm --tp 8 --prompt 2048 --engine vllm --json");
    const double generic =
        communication("model --model llama-2-70b --gpu h100-sxm --tp 8 --prompt 2048 --engine generic --json");
    const double none = communication("model --model llama-2-70b --gpu h100-sxm --tp 8 --prompt 2048 --json");
    EXPECT_GT(vllm, 1.3 * generic);
    EXPECT_DOUBLE_EQ(generic, none);
    // Eight L40S span two CPU sockets: said in the setup line and the JSON, and their all-reduces cost more per byte
    // than four on one socket.
    const CliRun eight =
        runRidgeline(cliArgs("model --model llama-2-70b --gpu l40s --tp 8 --prompt 2048 --engine tensorrt-llm@0.9.0"));
    EXPECT_TRUE(eight.out.contains(u"two CPU sockets of 4 GPUs (16 GB/s between them)")) << eight.out.toStdString();
    const CliRun four =
        runRidgeline(cliArgs("model --model llama-2-70b --gpu l40s --tp 4 --prompt 2048 --engine tensorrt-llm@0.9.0"));
    EXPECT_FALSE(four.out.contains(u"CPU sockets")) << four.out.toStdString();
    const QJsonObject eightJson = jsonOf(runRidgeline(
        cliArgs("model --model llama-2-70b --gpu l40s --tp 8 --prompt 2048 --engine tensorrt-llm@0.9.0 --json")));
    EXPECT_DOUBLE_EQ(eightJson[u"between_sockets_gb_s"].toDouble(), 16.0);
    const QJsonObject fourJson = jsonOf(runRidgeline(
        cliArgs("model --model llama-2-70b --gpu l40s --tp 4 --prompt 2048 --engine tensorrt-llm@0.9.0 --json")));
    EXPECT_TRUE(fourJson[u"between_sockets_gb_s"].isNull());
    const auto perByte = [](const QJsonObject& json, double gpus) {
        return json[u"prefill_breakdown"].toObject()[u"communication_s"].toDouble() / (2 * (gpus - 1) / gpus);
    };
    EXPECT_GT(perByte(eightJson, 8), 1.5 * perByte(fourJson, 4));
}

// A calibration becomes an engine of the user's own: `calibrate --save-engine` writes it to engines.json under
// XDG_CONFIG_HOME, `catalog engines` lists it (and --mine alone), `model --engine` models with exactly the fitted
// terms; a second save under its id, an id --engine could not take and a broken file each write nothing.
TEST(EngineCli, ACalibrationSavedAsAnEngineIsListedAndModelsWithItsFittedTerms)
{
    QTemporaryDir home;
    ASSERT_TRUE(home.isValid());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path());
    const QString engines = home.path() + QStringLiteral("/ridgeline/engines.json");
    const QStringList calibrate = {
        QStringLiteral("calibrate"), QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bench/vllm_bench_serve_2025_sweep.json"),
        QStringLiteral("--gpu"),     QStringLiteral("h100-sxm"),
        QStringLiteral("--tp"),      QStringLiteral("1"),
        QStringLiteral("--weights"), QStringLiteral("bf16"),
        QStringLiteral("--json"),    QStringLiteral("--save-engine")};
    const CliRun saved = runRidgeline(calibrate + QStringList{QStringLiteral("my-h100")}, environment);
    const QJsonObject fit = jsonOf(saved);
    EXPECT_TRUE(saved.err.contains(u"Saved the fit as the engine \"my-h100\" in " + engines))
        << saved.err.toStdString();
    ASSERT_TRUE(QFile::exists(engines));

    const QJsonObject modelled =
        jsonOf(runRidgeline(cliArgs("model --model llama-3.1-8b --gpu h100-sxm --engine my-h100 --json"), environment));
    const QJsonObject fitted = fit[u"terms"].toObject();
    const QJsonObject used = modelled[u"terms"].toObject();
    ASSERT_FALSE(fitted.isEmpty());  // the terms the fit moved; every other term is the measured defaults' in both
    for (auto it = fitted.begin(); it != fitted.end(); ++it)
        EXPECT_EQ(used[it.key()].toDouble(), it.value().toObject()[u"fitted"].toDouble()) << it.key().toStdString();
    EXPECT_EQ(modelled[u"engine"].toObject()[u"name"].toString(), QStringLiteral("my-h100"));

    const CliRun listed = runRidgeline(cliArgs("catalog engines"), environment);
    ASSERT_EQ(listed.exitCode, 0) << listed.err.toStdString();
    EXPECT_TRUE(listed.out.contains(u"my-h100 (yours)")) << listed.out.toStdString();
    const QJsonArray mine =
        QJsonDocument::fromJson(runRidgeline(cliArgs("catalog engines --mine --json"), environment).out.toUtf8())
            .array();
    ASSERT_EQ(mine.size(), 1);
    EXPECT_TRUE(mine[0].toObject()[u"yours"].toBool());

    QFile file(engines);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray before = file.readAll();
    file.close();
    const CliRun twice = runRidgeline(calibrate + QStringList{QStringLiteral("MY-H100")}, environment);
    EXPECT_EQ(twice.exitCode, 2);
    EXPECT_TRUE(twice.err.contains(u"already has an engine with the id \"MY-H100\"; nothing written"))
        << twice.err.toStdString();
    const CliRun spaced = runRidgeline(calibrate + QStringList{QStringLiteral("my h100")}, environment);
    EXPECT_EQ(spaced.exitCode, 2);
    EXPECT_TRUE(spaced.err.contains(u"engines[1].id \"my h100\" must be")) << spaced.err.toStdString();
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(file.readAll(), before);
    file.close();

    // A broken file: said in one line wherever the engines are chosen or listed; the built-in ones still work.
    ASSERT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(R"({"format": "ridgeline-engine-catalog", "schema_version": 1, "engines": [{"id": "my-h100"}]})");
    file.close();
    const CliRun broken =
        runRidgeline(cliArgs("model --model llama-3.1-8b --gpu h100-sxm --engine my-h100"), environment);
    EXPECT_EQ(broken.exitCode, 2);
    EXPECT_TRUE(broken.err.contains(u"your engines were not read: " + engines + u": ")) << broken.err.toStdString();
    EXPECT_EQ(runRidgeline(cliArgs("model --model llama-3.1-8b --gpu h100-sxm --engine vllm"), environment).exitCode,
              0);
    EXPECT_EQ(runRidgeline(cliArgs("catalog engines"), environment).exitCode, 1);
}

// The version says whether decode attention splits a sequence's KV over thread blocks: TensorRT-LLM before 0.13
// walks each context in one block per sequence and KV head, which at one sequence leaves an A100's SMs idle; the
// catalog lists the rule and its source.
TEST(EngineCli, AnEngineVersionWithoutSplitKvDecodesLongContextsSlowerAtSmallBatches)
{
    const QString base = QStringLiteral(
        "model --model llama-3-8b --gpu a100-80gb-sxm --weights fp16 --kv fp16 "
        "--context 8000 --json --engine ");
    auto rate = [&](const char* engine, int batch) {
        const QByteArray line =
            (base + QString::fromLatin1(engine) + QStringLiteral(" --batch %1").arg(batch)).toLatin1();
        return jsonOf(runRidgeline(cliArgs(line.constData())))[u"tokens_per_s"].toDouble();
    };
    EXPECT_LT(rate("tensorrt-llm@0.12", 1), 0.8 * rate("tensorrt-llm", 1));
    EXPECT_DOUBLE_EQ(rate("tensorrt-llm@0.13", 1), rate("tensorrt-llm", 1));
    EXPECT_DOUBLE_EQ(rate("tensorrt-llm@0.12", 32), rate("tensorrt-llm", 32));  // 256 blocks fill the 108 SMs

    const CliRun text = runRidgeline(cliArgs("catalog engines"));
    EXPECT_TRUE(text.out.contains(QLatin1String("  TensorRT-LLM: split from 0.13: TensorRT-LLM release notes")))
        << text.out.toStdString();
    for (const QJsonValue& v :
         QJsonDocument::fromJson(runRidgeline(cliArgs("catalog engines --json")).out.toUtf8()).array()) {
        const QJsonObject split = v.toObject()[u"decode_split_kv"].toObject();
        const bool trt = v.toObject()[u"id"].toString() == QLatin1String("tensorrt-llm");
        EXPECT_EQ(split[u"since_version"].toString(), trt ? QStringLiteral("0.13") : QString());
    }
}
