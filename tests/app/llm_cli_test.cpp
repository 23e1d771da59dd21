// `ridgeline model` and `ridgeline catalog`, run as the real executable: JSON keys, tables, exit codes.
#include "tests/app/cli_runner.h"

#include "core/model/catalog/catalog.h"
#include "core/model/catalog/catalog_json.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <gtest/gtest.h>

using ridgeline::test::CliRun;

using ridgeline::test::cliArgs;
using ridgeline::test::runRidgeline;

TEST(LlmCli, ModelJsonHasEveryKeyTheIssueAsksFor)
{
    const CliRun run = runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --batch 1 --context 8192 --json"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
    for (const char* key :
         {"weights_bytes", "kv_bytes_per_token", "kv_bytes_per_sequence", "kv_bytes_total", "memory_required_bytes",
          "gpu_memory_bytes", "fits", "max_batch", "flops_per_step", "bytes_per_step", "step_time_s", "tokens_per_s",
          "tokens_per_s_per_sequence", "arithmetic_intensity", "bound", "ridge_flop_per_byte", "knee_batch",
          "bandwidth_efficiency", "compute_efficiency"})
        EXPECT_TRUE(o.contains(QLatin1String(key))) << key;
    EXPECT_EQ(o.value(QStringLiteral("weights_bytes")).toInteger(), 13'476'831'232);
    EXPECT_EQ(o.value(QStringLiteral("kv_bytes_per_sequence")).toInteger(), 4LL << 30);
    EXPECT_EQ(o.value(QStringLiteral("max_batch")).toInteger(), 16);
    EXPECT_EQ(o.value(QStringLiteral("bound")).toString(), QStringLiteral("memory"));
    EXPECT_TRUE(o.value(QStringLiteral("knee_batch")).isNull());
    EXPECT_FALSE(o.contains(QStringLiteral("ttft_s")));
}

TEST(LlmCli, PromptAndOutputAddLatencyAndThroughput)
{
    const CliRun run = runRidgeline(cliArgs(
        "model --model llama-3-8b --gpu a100-80gb-sxm --batch 8 --context 1024 --prompt 512 --output 256 --json"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
    for (const char* key : {"ttft_s", "e2e_latency_s", "throughput_tokens_per_s"})
        EXPECT_GT(o.value(QLatin1String(key)).toDouble(), 0.0) << key;
    EXPECT_GT(o.value(QStringLiteral("e2e_latency_s")).toDouble(), o.value(QStringLiteral("ttft_s")).toDouble());
}

TEST(LlmCli, CustomGpuIdealAndParameterCount)
{
    const CliRun run =
        runRidgeline(cliArgs("model --params 7e9 --gpu custom --peak-tflops 300 --bandwidth-tbs 2 "
                             "--memory-gib 80 --batch 1 --context 1 --ideal --json"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
    EXPECT_DOUBLE_EQ(o.value(QStringLiteral("ridge_flop_per_byte")).toDouble(), 150.0);
    EXPECT_DOUBLE_EQ(o.value(QStringLiteral("bandwidth_efficiency")).toDouble(), 1.0);
    EXPECT_EQ(o.value(QStringLiteral("weights_bytes")).toInteger(), 14'000'000'000);
    const CliRun tp = runRidgeline(
        cliArgs("model --model llama-2-70b --gpu h100-sxm --tp 8 --link infiniband-ndr --batch 64 --context 4096"));
    ASSERT_EQ(tp.exitCode, 0) << tp.err.toStdString();
    EXPECT_TRUE(tp.out.contains(QLatin1String("all-reduce")));
}

TEST(LlmCli, CustomModelByShapesUsesItsKvHeads)
{
    const CliRun run =
        runRidgeline(cliArgs("model --model custom --layers 32 --hidden 4096 --heads 32 --kv-heads 8 --ffn "
                             "14336 --vocab 128256 --gpu l40s --json"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
    EXPECT_EQ(o.value(QStringLiteral("kv_bytes_per_token")).toInteger(), 128 * 1024);
    EXPECT_EQ(o.value(QStringLiteral("params")).toInteger(), 8'030'261'248);  // the shapes of Llama 3 8B
    const CliRun bad =
        runRidgeline(cliArgs("model --model custom --layers 32 --hidden 4096 --heads 32 --kv-heads 5 --gpu l40s"));
    EXPECT_EQ(bad.exitCode, 2);
    EXPECT_TRUE(bad.err.contains(QLatin1String("KV heads"))) << bad.err.toStdString();
}

TEST(LlmCli, ACustomModelWhoseHeadsDoNotSplitItsWidthOrWithNoLayersIsRefusedByName)
{
    const CliRun heads = runRidgeline(cliArgs("model --model custom --layers 32 --hidden 4096 --heads 3 --gpu l40s"));
    EXPECT_EQ(heads.exitCode, 2);
    EXPECT_TRUE(heads.err.contains(QStringLiteral("--hidden 4096 is not a multiple of --heads 3")))
        << heads.err.toStdString();
    // With the head width given, the shape is the user's to choose, as in a config.json with head_dim.
    const CliRun given =
        runRidgeline(cliArgs("model --model custom --layers 32 --hidden 4096 --heads 3 --head-dim 128 --gpu l40s"));
    EXPECT_EQ(given.exitCode, 0) << given.err.toStdString();

    const CliRun layers = runRidgeline(cliArgs("model --model custom --layers 0 --hidden 4096 --heads 32 --gpu l40s"));
    EXPECT_EQ(layers.exitCode, 2);
    EXPECT_TRUE(layers.err.contains(QStringLiteral("--layers must be between 1 and 1e8, got 0")))
        << layers.err.toStdString();
    const CliRun missing = runRidgeline(cliArgs("model --model custom --hidden 4096 --heads 32 --gpu l40s"));
    EXPECT_EQ(missing.exitCode, 2);
    EXPECT_TRUE(missing.err.contains(QStringLiteral("needs --layers"))) << missing.err.toStdString();
}

TEST(LlmCli, TableNamesTheFiguresInBothUnits)
{
    const CliRun run = runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --batch 16 --context 8192"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QLatin1String("13.48 GB = 12.55 GiB")));
    EXPECT_TRUE(run.out.contains(QLatin1String("512 KiB")));
    EXPECT_TRUE(run.out.contains(QLatin1String("64 GiB")));
}

TEST(LlmCli, BadArgumentsExitWithCodeTwoAndSayWhy)
{
    struct Case {
        const char* line;
        const char* mentions;
    };
    for (const Case& c :
         {Case{"model --model llama-2-7b --gpu h100-sxm --batch 0", "batch"},
          Case{"model --model llama-2-7b --gpu h100-sxm --batch 65537", "batch"},
          Case{"model --model llama-2-7b --gpu h100-sxm --batch nan", "batch"},
          Case{"model --model llama-2-7b --gpu h100-sxm --batch 1.5", "batch"},
          Case{"model --model llama-2-7b --gpu h100-sxm --context -3", "context"},
          Case{"model --model llama-2-7b --gpu h100-sxm --context 20000000", "context"},
          Case{"model --model llama-9 --gpu h100-sxm", "llama-9"},
          Case{"model --model llama-2-7b --gpu h900", "h900"},
          Case{"model --gpu h100-sxm", "--model"},
          Case{"model --model llama-2-7b", "--gpu"},
          Case{"model --model llama-2-7b --gpu custom --peak-tflops 300", "--memory-gib"},
          Case{"model --model llama-2-7b --gpu custom --peak-tflops nan --bandwidth-tbs 2 --memory-gib 80", "peak"},
          Case{"model --model llama-2-7b --gpu custom --peak-tflops 300 --bandwidth-tbs 0 --memory-gib 80",
               "bandwidth"},
          Case{"model --model llama-2-7b --gpu h100-sxm --weights tf32", "storage"},
          Case{"model --model llama-2-7b --gpu h100-sxm --weights fp12", "fp12"},
          Case{"model --model llama-2-7b --gpu h100-sxm --tp 3", "heads"},
          Case{"model --model llama-2-7b --gpu h100-sxm --tp 2 --link smoke-signals", "smoke-signals"},
          Case{"model --model llama-2-7b --gpu h100-sxm --output 5", "prompt"},
          Case{"model --model llama-2-7b --gpu h100-sxm --ideal --compute-efficiency 0.5", "ideal"},
          Case{"model --model llama-2-7b --gpu h100-sxm --bandwidth-efficiency 2", "efficienc"},
          Case{"model --params 1e20 --gpu h100-sxm", "1e13"},
          Case{"model --model llama-2-7b --gpu h100-sxm --frobnicate", "frobnicate"},
          Case{"catalog", "gpus"},
          Case{"catalog cpus", "gpus"}}) {
        const CliRun run = runRidgeline(cliArgs(c.line));
        EXPECT_EQ(run.exitCode, 2) << c.line;
        EXPECT_TRUE(run.out.isEmpty()) << c.line;
        EXPECT_TRUE(run.err.contains(QLatin1String(c.mentions))) << c.line << " -> " << run.err.toStdString();
    }
}

TEST(LlmCli, CatalogListsEveryGpuAndModel)
{
    const CliRun gpus = runRidgeline(cliArgs("catalog gpus --json"));
    ASSERT_EQ(gpus.exitCode, 0);
    // A GPU catalog file (A5): the catalog reader reads it back as the built-in catalog.
    const QJsonArray list = QJsonDocument::fromJson(gpus.out.toUtf8()).object().value(QStringLiteral("gpus")).toArray();
    EXPECT_EQ(list.size(), 44);
    const ridgeline::Result<std::vector<ridgeline::GpuSpec>> reread = ridgeline::parseGpuCatalog(gpus.out.toUtf8());
    ASSERT_TRUE(reread.ok()) << reread.error().message.toStdString();
    EXPECT_EQ(ridgeline::gpuCatalogToJson(reread.value()),
              ridgeline::gpuCatalogToJson(ridgeline::builtinGpus().value()));
    for (const QJsonValue& g : list)
        EXPECT_FALSE(g.toObject().value(QStringLiteral("source")).toString().isEmpty());
    const CliRun models = runRidgeline(cliArgs("catalog models --json"));
    ASSERT_EQ(models.exitCode, 0);
    const QJsonArray modelList = QJsonDocument::fromJson(models.out.toUtf8()).array();
    EXPECT_EQ(modelList.size(), 18);
    EXPECT_EQ(modelList.at(0).toObject().value(QStringLiteral("params")).toInteger(), 6'738'415'616);
    const CliRun table = runRidgeline(cliArgs("catalog models"));
    ASSERT_EQ(table.exitCode, 0);
    EXPECT_TRUE(table.out.contains(QLatin1String("6,738,415,616")));
    EXPECT_TRUE(table.out.contains(QLatin1String("MLA")));
}
