// `ridgeline train`, run as the real executable: the JSON every front end reads, the table, and the refusals, which
// exit as `ridgeline model`'s do (status 2, the option named, nothing on standard output).
#include "tests/app/cli_runner.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using ridgeline::test::cliArgs;
using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

namespace {

QJsonObject trainJson(const char* line)
{
    const CliRun run = runRidgeline(cliArgs(line));
    EXPECT_EQ(run.exitCode, 0) << line << ": " << run.err.toStdString();
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

constexpr double kGiB = 1073741824.0;

}  // namespace

// "Does a 7B model train on one 80 GiB card, and what does checkpointing buy me?"
TEST(TrainCli, SevenBillionOnOneCardAnswersTheSourceTextsQuestion)
{
    const QJsonObject adamw = trainJson("train --model llama-2-7b --gpu h100-sxm --json");
    for (const char* key : {"memory_per_gpu_bytes", "fits", "step_flops", "step_time_s", "tokens_per_s", "mfu",
                            "communication_s", "bubble_fraction", "cheapest_fix"})
        EXPECT_TRUE(adamw.contains(QLatin1String(key))) << key;
    const QJsonObject memory = adamw.value(QStringLiteral("memory_per_gpu_bytes")).toObject();
    for (const char* key : {"weights", "gradients", "optimizer", "activations", "total"})
        EXPECT_GT(memory.value(QLatin1String(key)).toDouble(), 0.0) << key;
    EXPECT_FALSE(adamw.value(QStringLiteral("fits")).toBool());
    EXPECT_NEAR(memory.value(QStringLiteral("optimizer")).toDouble() / kGiB, 75.3, 0.1);  // 12 bytes x 6.74e9
    // The reserved figure is the allocated one and the allocator's published reserve; fits is on the allocated one.
    EXPECT_NEAR(memory.value(QStringLiteral("allocator_reserve")).toDouble() / kGiB, 9.87, 1e-9);
    EXPECT_DOUBLE_EQ(memory.value(QStringLiteral("reserved")).toDouble(),
                     memory.value(QStringLiteral("total")).toDouble() +
                         memory.value(QStringLiteral("allocator_reserve")).toDouble());
    // On the card besides, outside PyTorch's figures: the CUDA context (one GPU: no NCCL communicator); nvidia-smi's
    // figure is the reserved one and those.
    EXPECT_NEAR(memory.value(QStringLiteral("cuda_context")).toDouble(), 400.0 * 1048576.0, 1.0);
    EXPECT_EQ(memory.value(QStringLiteral("nccl_buffers")).toDouble(), 0.0);
    EXPECT_DOUBLE_EQ(
        memory.value(QStringLiteral("device")).toDouble(),
        memory.value(QStringLiteral("reserved")).toDouble() + memory.value(QStringLiteral("cuda_context")).toDouble());
    EXPECT_TRUE(adamw.value(QStringLiteral("cheapest_fix")).toString().contains(QStringLiteral("8 GPUs in one box")));
    EXPECT_TRUE(
        adamw.value(QStringLiteral("cheapest_fix_options")).toString().contains(QStringLiteral("--gpus-per-node 8")));

    const QJsonObject fits =
        trainJson("train --model llama-2-7b --gpu h100-sxm --optimizer adam8bit --checkpointing full --json");
    EXPECT_TRUE(fits.value(QStringLiteral("fits")).toBool());
    EXPECT_TRUE(fits.value(QStringLiteral("cheapest_fix")).isNull());
    EXPECT_EQ(fits.value(QStringLiteral("bubble_fraction")).toDouble(), 0.0);
    EXPECT_EQ(fits.value(QStringLiteral("communication_s")).toDouble(), 0.0);
    const double mfu = fits.value(QStringLiteral("mfu")).toDouble();
    EXPECT_GT(mfu, 0.2);
    EXPECT_LT(mfu, 0.7);
    EXPECT_NEAR(
        fits.value(QStringLiteral("step_flops")).toDouble() / fits.value(QStringLiteral("model_flops")).toDouble(),
        4.0 / 3.0, 1e-9);
}

TEST(TrainCli, TheTableShowsMemoryStepAndFix)
{
    const CliRun run =
        runRidgeline(cliArgs("train --model llama-2-7b --gpu a100-80gb-sxm --precision fp32 --micro-batch 4 "
                             "--global-batch 32"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    for (const char* text : {"Memory per GPU", "optimizer state", "DOES NOT FIT", "pipeline bubble", "MFU",
                             "Cheapest fix", "bf16 mixed precision, then micro-batch 1 x 32 accumulation steps",
                             "try: --precision bf16-mixed --micro-batch 1"})
        EXPECT_TRUE(run.out.contains(QLatin1String(text))) << text << " in\n" << run.out.toStdString();
}

// Tensor parallel 8 inside one node over NVLink against one GPU per node over InfiniBand.
TEST(TrainCli, TensorParallelAcrossNodesCostsFarMoreThanInside)
{
    const QJsonObject inside =
        trainJson("train --model llama-2-70b --gpu h100-sxm --gpus-per-node 8 --tp 8 --checkpointing full --json");
    const QJsonObject across = trainJson(
        "train --model llama-2-70b --gpu h100-sxm --gpus-per-node 1 --nodes 8 --tp 8 --checkpointing full --json");
    EXPECT_GT(across.value(QStringLiteral("communication_s")).toDouble(),
              8.0 * inside.value(QStringLiteral("communication_s")).toDouble());
    EXPECT_LT(across.value(QStringLiteral("tokens_per_s")).toDouble(),
              0.5 * inside.value(QStringLiteral("tokens_per_s")).toDouble());
}

// Flash attention by default: at 16,384 tokens the materialised scores are most of the activations, and writing and
// reading them slows the step; torchtitan's op-level checkpointing sits between none and full.
TEST(TrainCli, AttentionKernelAndOpLevelCheckpointingAreOptions)
{
    const char* base = "train --model llama-3-8b --gpu h100-sxm --seq 16384 --optimizer adam8bit --json";
    const QJsonObject flash = trainJson(base);
    const auto layout = [](const QJsonObject& o, const char* key) {
        return o.value(QStringLiteral("layout")).toObject().value(QLatin1String(key)).toString();
    };
    EXPECT_EQ(layout(flash, "attention"), QStringLiteral("flash"));
    const QJsonObject materialised = trainJson((std::string(base) + " --attention materialised").c_str());
    EXPECT_EQ(layout(materialised, "attention"), QStringLiteral("materialised"));
    const auto activations = [](const QJsonObject& o) {
        return o.value(QStringLiteral("memory_per_gpu_bytes"))
            .toObject()
            .value(QStringLiteral("activations"))
            .toDouble();
    };
    EXPECT_GT(activations(materialised), 5.0 * activations(flash));
    EXPECT_GT(materialised.value(QStringLiteral("step_time_s")).toDouble(),
              flash.value(QStringLiteral("step_time_s")).toDouble());
    const QJsonObject op = trainJson((std::string(base) + " --checkpointing selective-op").c_str());
    const QJsonObject full = trainJson((std::string(base) + " --checkpointing full").c_str());
    EXPECT_EQ(layout(op, "checkpointing"), QStringLiteral("selective-op"));
    EXPECT_LT(activations(op), activations(flash));
    EXPECT_GT(activations(op), activations(full));
    const CliRun table = runRidgeline(cliArgs("train --model llama-3-8b --gpu h100-sxm --attention materialised"));
    EXPECT_TRUE(table.out.contains(QStringLiteral("checkpointing none, materialised attention")))
        << table.out.toStdString();
}

TEST(TrainCli, ZeroThreeOnOneGpuIsAllowedAndSaysItShardsNothing)
{
    const CliRun run = runRidgeline(cliArgs("train --model llama-2-7b --gpu h100-sxm --zero 3"));
    EXPECT_EQ(run.exitCode, 0);
    EXPECT_TRUE(run.out.contains(QStringLiteral("shards nothing"))) << run.out.toStdString();
}

TEST(TrainCli, BadInputIsRefusedNamingTheOption)
{
    struct Case {
        const char* line;
        const char* mentions;
    };
    for (const Case& c : {
             Case{"train --model llama-2-7b --gpu h100-sxm --micro-batch 0", "--micro-batch"},
             Case{"train --model llama-2-7b --gpu h100-sxm --gpus-per-node 8 --micro-batch 2 --global-batch 12",
                  "global batch 12"},
             Case{"train --model llama-2-7b --gpu h100-sxm --gpus-per-node 6 --tp 3", "tp 3 does not divide"},
             Case{"train --model llama-2-7b --gpu h100-sxm --gpus-per-node 8 --nodes 5 --pp 40", "pp 40"},
             Case{"train --model llama-2-7b --gpu h100-sxm --seq 0", "--seq"},
             Case{"train --model llama-2-7b --gpu h100-sxm --seq 1e8", "--seq"},
             Case{"train --model llama-2-7b --gpu h100-sxm --nodes 100001", "--nodes"},
             Case{"train --model llama-2-7b --gpu h100-sxm --gpus-per-node 8 --nodes 12501", "--gpus-per-node"},
             Case{"train --model llama-2-7b --gpu h100-sxm --zero 4", "--zero"},
             Case{"train --model llama-2-7b --gpu h100-sxm --precision fp8", "--precision"},
             Case{"train --model llama-2-7b --gpu h100-sxm --optimizer lion", "--optimizer"},
             Case{"train --model llama-2-7b --gpu h100-sxm --checkpointing some", "--checkpointing"},
             Case{"train --model llama-2-7b --gpu h100-sxm --attention eager", "--attention"},
             Case{"train --model llama-2-7b --gpu h100-sxm --global-batch nan", "--global-batch"},
             Case{"train --model llama-2-7b --gpu h100-sxm --link smoke-signals", "smoke-signals"},
             Case{"train --params 1e14 --gpu h100-sxm", "1e13"},
             Case{"train --model llama-2-7b", "--gpu"},
             Case{"train --gpu h100-sxm", "--model"},
             Case{"train --model llama-2-7b --gpu h100-sxm --frobnicate", "frobnicate"},
         }) {
        const CliRun run = runRidgeline(cliArgs(c.line));
        EXPECT_EQ(run.exitCode, 2) << c.line;
        EXPECT_TRUE(run.out.isEmpty()) << c.line;
        EXPECT_TRUE(run.err.startsWith(QStringLiteral("ridgeline train: "))) << run.err.toStdString();
        EXPECT_TRUE(run.err.contains(QLatin1String(c.mentions))) << c.line << " -> " << run.err.toStdString();
    }
}

TEST(TrainCli, AbsurdSizesPrintFiniteNumbers)
{
    for (const char* line : {"train --params 1e13 --gpu h100-sxm --seq 10000000 --gpus-per-node 8 --nodes 12500 --json",
                             "train --params 1e6 --gpu h100-sxm --seq 1 --json"}) {
        const QJsonObject o = trainJson(line);
        for (const char* key : {"step_flops", "step_time_s", "tokens_per_s", "mfu", "communication_s"}) {
            const QJsonValue value = o.value(QLatin1String(key));
            EXPECT_TRUE(value.isDouble() && std::isfinite(value.toDouble())) << line << ": " << key;
        }
        const QJsonObject memory = o.value(QStringLiteral("memory_per_gpu_bytes")).toObject();
        for (const QString& key : memory.keys())
            EXPECT_TRUE(memory.value(key).isDouble() && std::isfinite(memory.value(key).toDouble()))
                << line << ": memory " << key.toStdString();
    }
}

// The model from a Hugging Face config.json, as `ridgeline model --model-config` reads it.
TEST(TrainCli, AModelConfigFileGivesTheModel)
{
    const CliRun run = runRidgeline({QStringLiteral("train"), QStringLiteral("--model-config"),
                                     QStringLiteral(RIDGELINE_TEST_DATA_DIR "/hf_configs/Llama-3.1-8B"),
                                     QStringLiteral("--gpu"), QStringLiteral("h100-sxm"), QStringLiteral("--json")});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
    EXPECT_NEAR(o.value(QStringLiteral("params")).toDouble() / 1e9, 8.03, 0.01);  // Llama 3.1 8B: 8,030,261,248
    const CliRun both = runRidgeline(cliArgs("train --model llama-2-7b --params 7e9 --gpu h100-sxm"));
    EXPECT_EQ(both.exitCode, 2);
    EXPECT_TRUE(both.err.contains(QStringLiteral("--params"))) << both.err.toStdString();
}
