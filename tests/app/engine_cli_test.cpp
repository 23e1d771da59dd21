// `ridgeline model --engine NAME[@VERSION]` and `ridgeline catalog engines`, run as the real executable.
#include "tests/app/cli_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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
    EXPECT_EQ(runRidgeline(cliArgs("catalog engines --mine")).exitCode, 2);
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

    // vLLM is the measured defaults: the same figures as no --engine.
    const QJsonObject vllm =
        jsonOf(runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --weights fp16 --engine vllm --json")));
    EXPECT_DOUBLE_EQ(vllm[u"tokens_per_s"].toDouble(), plain[u"tokens_per_s"].toDouble());

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

TEST(EngineCli, AllReduceOneShotIsAnInputOfItsOwn)
{
    const QJsonObject ring =
        jsonOf(runRidgeline(cliArgs("model --model llama-2-70b --gpu a100-80gb-pcie --tp 4 --json")));
    EXPECT_EQ(ring[u"all_reduce"].toString(), QStringLiteral("ring"));
    const QJsonObject oneShot = jsonOf(
        runRidgeline(cliArgs("model --model llama-2-70b --gpu a100-80gb-pcie --tp 4 --all-reduce one-shot --json")));
    EXPECT_EQ(oneShot[u"all_reduce"].toString(), QStringLiteral("one-shot"));
    EXPECT_LT(oneShot[u"breakdown"].toObject()[u"communication_s"].toDouble(),
              0.5 * ring[u"breakdown"].toObject()[u"communication_s"].toDouble());
    const CliRun text =
        runRidgeline(cliArgs("model --model llama-2-70b --gpu a100-80gb-pcie --tp 4 --all-reduce one-shot"));
    EXPECT_TRUE(text.out.contains(u"one-shot all-reduce")) << text.out.toStdString();
    const CliRun bad = runRidgeline(cliArgs("model --model llama-2-70b --gpu a100-80gb-pcie --tp 4 --all-reduce tree"));
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.err.contains(u"--all-reduce")) << bad.err.toStdString();
}
