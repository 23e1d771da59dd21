// `ridgeline model --model-config FILE`, run as the real executable on the config.json fixtures of
// tests/data/hf_configs: the same answer as the catalog's entry, the formats the file states, one-line refusals.
#include "tests/app/cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using ridgeline::test::cliArgs;
using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;
using namespace Qt::Literals::StringLiterals;

namespace {

QString fixture(const char* folder)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/hf_configs/") + QLatin1String(folder);
}

QJsonObject json(const CliRun& run)
{
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

}  // namespace

TEST(ModelConfigCli, AConfigGivesTheSameAnswerAsTheCatalogEntryOfTheSameModel)
{
    const QStringList workload =
        cliArgs("--gpu h200 --tp 8 --batch 32 --context 4096 --prompt 1024 --output 256 --json");
    const CliRun fromFile =
        runRidgeline(QStringList{u"model"_s, u"--model-config"_s, fixture("DeepSeek-V3")} + workload);
    ASSERT_EQ(fromFile.exitCode, 0) << fromFile.err.toStdString();
    // The catalog's DeepSeek-V3 with the fp8 weights the checkpoint's quantization_config states.
    const CliRun fromCatalog = runRidgeline(cliArgs("model --model deepseek-v3 --weights fp8") + workload);
    ASSERT_EQ(fromCatalog.exitCode, 0) << fromCatalog.err.toStdString();
    const QJsonObject a = json(fromFile), b = json(fromCatalog);
    for (const char* key : {"params", "weights_bytes", "kv_bytes_per_token", "max_batch", "step_time_s", "tokens_per_s",
                            "ttft_s", "e2e_latency_s"}) {
        ASSERT_TRUE(b.contains(QLatin1String(key))) << key;
        EXPECT_EQ(a.value(QLatin1String(key)), b.value(QLatin1String(key))) << key;
    }
    const QJsonObject config = a.value(QStringLiteral("model_config")).toObject();
    EXPECT_EQ(config.value(QStringLiteral("architecture")).toString(), QStringLiteral("deepseek_v3"));
    EXPECT_EQ(config.value(QStringLiteral("formats")).toObject().value(QStringLiteral("weights")).toString(),
              QStringLiteral("weights fp8 (quantization_config: fp8, e4m3, 128 x 128 blocks)"));
}

TEST(ModelConfigCli, TheTableSaysWhatWasReadAndOptionsWinOverTheFile)
{
    const CliRun run = runRidgeline(
        QStringList{u"model"_s, u"--model-config"_s, fixture("Llama-3.1-8B-Instruct-FP8") + u"/config.json"_s} +
        cliArgs("--gpu l40s --weights bf16"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const QStringList lines = run.out.split(u'\n');
    ASSERT_GE(lines.size(), 4);
    EXPECT_EQ(lines[0], QStringLiteral("Model config: %1/config.json, read as llama")
                            .arg(QDir::cleanPath(fixture("Llama-3.1-8B-Instruct-FP8"))));
    EXPECT_EQ(lines[1], QStringLiteral("  weights bf16 (--weights; the file says fp8)"));
    EXPECT_EQ(lines[2], QStringLiteral("  KV cache fp8 (quantization_config.kv_cache_scheme)"));
    EXPECT_TRUE(run.out.contains(QStringLiteral("bf16 weights, fp8 KV cache"))) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("Llama-3.1-8B-Instruct-FP8 on NVIDIA L40S"))) << run.out.toStdString();
}

TEST(ModelConfigCli, WhatItCannotReadGetsOneLineNamingTheFileAndTheField)
{
    const CliRun oss =
        runRidgeline(QStringList{u"model"_s, u"--model-config"_s, fixture("gpt-oss-20b")} + cliArgs("--gpu h100-sxm"));
    EXPECT_EQ(oss.exitCode, 2);
    EXPECT_TRUE(oss.out.isEmpty());
    EXPECT_TRUE(oss.err.startsWith(QStringLiteral("ridgeline model: %1/config.json: model_type \"gpt_oss\" is not an "
                                                  "architecture Ridgeline reads as a shape; it reads llama, ")
                                       .arg(QDir::cleanPath(fixture("gpt-oss-20b")))))
        << oss.err.toStdString();

    const CliRun both = runRidgeline(QStringList{u"model"_s, u"--model-config"_s, fixture("Llama-3.1-8B")} +
                                     cliArgs("--model llama-3-8b --gpu h100-sxm"));
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_TRUE(
        both.err.startsWith(QStringLiteral("ridgeline model: --model-config gives the model; --model cannot go "
                                           "with it")))
        << both.err.toStdString();

    // A quantization Ridgeline does not model: refused unless --weights says what to count instead.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QFile source(fixture("Llama-3.1-8B") + u"/config.json"_s);
    ASSERT_TRUE(source.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(source.readAll()).object();
    root.insert(u"quantization_config"_s,
                QJsonObject{{u"quant_method"_s, u"bitsandbytes"_s}, {u"load_in_4bit"_s, true}});
    QFile target(dir.filePath(u"config.json"_s));
    ASSERT_TRUE(target.open(QIODevice::WriteOnly));
    target.write(QJsonDocument(root).toJson());
    target.close();
    const CliRun nf4 =
        runRidgeline(QStringList{u"model"_s, u"--model-config"_s, dir.path()} + cliArgs("--gpu h100-sxm"));
    EXPECT_EQ(nf4.exitCode, 2);
    EXPECT_TRUE(nf4.err.startsWith(QStringLiteral("ridgeline model: %1/config.json: quantization_config.quant_method "
                                                  "\"bitsandbytes\" is not a weight format Ridgeline models")
                                       .arg(dir.path())))
        << nf4.err.toStdString();
    EXPECT_TRUE(nf4.err.contains(QStringLiteral("; give --weights\n")));
    const CliRun int4 = runRidgeline(QStringList{u"model"_s, u"--model-config"_s, dir.path()} +
                                     cliArgs("--gpu h100-sxm --weights int4 --json"));
    EXPECT_EQ(int4.exitCode, 0) << int4.err.toStdString();

    const CliRun missing = runRidgeline(cliArgs("model --model-config /nonexistent/config.json --gpu h100-sxm"));
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_TRUE(missing.err.startsWith(QStringLiteral("ridgeline model: /nonexistent/config.json: no such file\n")))
        << missing.err.toStdString();
}
