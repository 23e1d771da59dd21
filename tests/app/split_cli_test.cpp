// `ridgeline model --split P:D` and `--split-sweep`, run as the real executable: the JSON keys, the best split
// marked once and moving with the prompt, the table, and refusals that name the option with exit status 2.
#include "tests/app/cli_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <gtest/gtest.h>

using ridgeline::test::cliArgs;
using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

namespace {

// "nan", "inf" or "infinity" as a word of its own (not InfiniBand or infinity-fabric, links' names).
QRegularExpression notFinite()
{
    return QRegularExpression(QStringLiteral("(?<![\\w-])(nan|inf|infinity)(?![\\w-])"),
                              QRegularExpression::CaseInsensitiveOption);
}

QJsonObject jsonOf(const char* line)
{
    const CliRun run = runRidgeline(cliArgs(line));
    EXPECT_EQ(run.exitCode, 0) << line << ": " << run.err.toStdString();
    EXPECT_FALSE(run.out.contains(notFinite())) << line;
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

// The refusal of `line`: exit status 2, nothing on stdout, `words` in the message.
void expectRefused(const char* line, const char* words)
{
    const CliRun run = runRidgeline(cliArgs(line));
    EXPECT_EQ(run.exitCode, 2) << line;
    EXPECT_TRUE(run.out.isEmpty()) << line;
    EXPECT_TRUE(run.err.contains(QLatin1String(words))) << line << ": " << run.err.toStdString();
    EXPECT_FALSE(run.err.contains(notFinite())) << line;
}

int bestPrefillGpus(const QJsonObject& o)
{
    int best = 0, marked = 0;
    for (const QJsonValue& v : o.value(QStringLiteral("split_sweep")).toArray())
        if (v.toObject().value(QStringLiteral("best")).toBool()) {
            best = v.toObject().value(QStringLiteral("prefill_gpus")).toInt();
            ++marked;
        }
    EXPECT_EQ(marked, 1);
    EXPECT_EQ(o.value(QStringLiteral("split")).toObject().value(QStringLiteral("prefill_gpus")).toInt(), best);
    return best;
}

}  // namespace

TEST(SplitCli, OneSplitHasItsKeysAndTheColocatedComparison)
{
    const QJsonObject o =
        jsonOf("model --model llama-3-8b --gpu h100-sxm --split 2:6 --prompt 2048 --output 512 --batch 64 --json");
    const QJsonObject s = o.value(QStringLiteral("split")).toObject();
    for (const char* key : {"prefill_gpus", "decode_gpus", "kv_transfer_s", "ttft_s", "itl_s", "tokens_per_s_per_gpu",
                            "prefill_utilisation", "decode_utilisation", "max_requests_per_s", "bottleneck"})
        EXPECT_TRUE(s.contains(QLatin1String(key))) << key;
    EXPECT_EQ(s.value(QStringLiteral("prefill_gpus")).toInt(), 2);
    EXPECT_EQ(s.value(QStringLiteral("decode_gpus")).toInt(), 6);
    EXPECT_EQ(o.value(QStringLiteral("total_gpus")).toInt(), 8);
    EXPECT_EQ(o.value(QStringLiteral("concurrency")).toInteger(), 64);
    EXPECT_FALSE(o.contains(QStringLiteral("split_sweep")));
    // 8 GPUs fit in one HGX node: the KV cache crosses NVLink 4 by default, 128 KiB a token over 450 GB/s.
    EXPECT_EQ(o.value(QStringLiteral("kv_link")).toObject().value(QStringLiteral("id")).toString(),
              QStringLiteral("nvlink4"));
    EXPECT_NEAR(s.value(QStringLiteral("kv_transfer_s")).toDouble(), 1e-6 + 2048.0 * 131072.0 / 450e9, 1e-12);
    for (const char* key : {"prefill_utilisation", "decode_utilisation"}) {
        const double u = s.value(QLatin1String(key)).toDouble();
        EXPECT_GE(u, 0.0);
        EXPECT_LE(u, 1.0);
    }
    const QJsonObject colocated = o.value(QStringLiteral("colocated")).toObject();
    EXPECT_EQ(colocated.value(QStringLiteral("gpus")).toInt(), 8);
    EXPECT_GT(colocated.value(QStringLiteral("tokens_per_s_per_gpu")).toDouble(), 0.0);
    // Over InfiniBand the same prompt's KV cache takes 9 times as long.
    const QJsonObject ib = jsonOf(
        "model --model llama-3-8b --gpu h100-sxm --split 2:6 --prompt 2048 --output 512 --batch 64 "
        "--kv-link infiniband-ndr --json");
    EXPECT_NEAR(ib.value(QStringLiteral("split")).toObject().value(QStringLiteral("kv_transfer_s")).toDouble(),
                5e-6 + 2048.0 * 131072.0 / 50e9, 1e-12);
}

TEST(SplitCli, TheSweepMarksOneBestSplitAndItMovesWithThePrompt)
{
    const QJsonObject longPrompts =
        jsonOf("model --model llama-3-8b --gpu h100-sxm --split-sweep --prompt 7168 --output 128 --batch 512 --json");
    const QJsonObject shortPrompts =
        jsonOf("model --model llama-3-8b --gpu h100-sxm --split-sweep --prompt 128 --output 1024 --batch 512 --json");
    ASSERT_EQ(longPrompts.value(QStringLiteral("split_sweep")).toArray().size(), 7);
    EXPECT_GT(bestPrefillGpus(longPrompts), 4);
    EXPECT_LT(bestPrefillGpus(shortPrompts), 4);
    // Four GPUs over engines of two: one split, 2:2.
    const QJsonObject tp2 =
        jsonOf("model --model llama-3-8b --gpu h100-sxm --tp 2 --split-sweep --split-gpus 4 --arrival-rate 1 --json");
    ASSERT_EQ(tp2.value(QStringLiteral("split_sweep")).toArray().size(), 1);
    EXPECT_TRUE(tp2.value(QStringLiteral("arrival_rate")).isDouble());
    EXPECT_TRUE(tp2.value(QStringLiteral("concurrency")).isNull());
}

TEST(SplitCli, TheTableShowsEverySplitAndTheColocatedLine)
{
    const CliRun run = runRidgeline(cliArgs("model --model llama-3-8b --gpu h100-sxm --split-sweep --batch 32"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    for (const char* text : {"1:7", "4:4", "7:1", "best", "colocated on the same 8 GPUs", "NVLink 4"})
        EXPECT_TRUE(run.out.contains(QLatin1String(text))) << text << "\n" << run.out.toStdString();
    EXPECT_EQ(run.out.count(QStringLiteral("  best")), 1);
    EXPECT_FALSE(run.out.contains(notFinite()));
    const CliRun help = runRidgeline(cliArgs("model --help"));
    for (const char* option : {"--split <P:D>", "--split-sweep", "--split-gpus <N>", "--kv-link <L>", "--kv-overlap"})
        EXPECT_TRUE(help.out.contains(QLatin1String(option))) << option;
}

TEST(SplitCli, BadInputIsRefusedNamingTheOption)
{
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split 0:8", "--split 0:8: the prefill pool needs");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split 4:0", "the decode pool needs");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split 2:6 --split-gpus 4", "--split-gpus");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split two:six", "--split must be");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --tp 2 --split 3:4", "whole number of engines");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split 1:1 --arrival-rate 0", "--arrival-rate");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split 1:1 --arrival-rate 1e6", "--arrival-rate");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split 1:1 --kv-link warp-drive", "--kv-link");
    // 16 V100s are two NVLink nodes, and the catalog names no network between them: the link must be given.
    expectRefused("model --model llama-3-8b --gpu v100-sxm2-32gb --split-sweep --split-gpus 16", "--kv-link");
    const CliRun noLink =
        runRidgeline(QStringList{QStringLiteral("model"), QStringLiteral("--model"), QStringLiteral("llama-3-8b"),
                                 QStringLiteral("--gpu"), QStringLiteral("h100-sxm"), QStringLiteral("--split"),
                                 QStringLiteral("1:1"), QStringLiteral("--kv-link"), QString()});
    EXPECT_EQ(noLink.exitCode, 2);
    EXPECT_TRUE(noLink.err.contains(QLatin1String("--kv-link needs a link id"))) << noLink.err.toStdString();
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split 1:1 --split-sweep", "give one");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --kv-link nvlink4", "--kv-link goes with");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split 1:1 --context 4096", "--context");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --tp 2 --split-sweep --split-gpus 3", "--split-gpus");
}

TEST(SplitCli, TargetsMarkTheSplitsAndRefuseWhatOneRequestAloneCannotReach)
{
    const QJsonObject o = jsonOf(
        "model --model llama-3-8b --gpu h100-sxm --split-sweep --prompt 4096 --output 256 --arrival-rate 20 "
        "--itl-target 0.012 --json");
    EXPECT_DOUBLE_EQ(o.value(QStringLiteral("itl_target_s")).toDouble(), 0.012);
    int meeting = 0;
    for (const QJsonValue& v : o.value(QStringLiteral("split_sweep")).toArray()) {
        const QJsonObject s = v.toObject();
        const bool meets = s.value(QStringLiteral("meets_targets")).toBool();
        meeting += meets ? 1 : 0;
        if (meets) {
            EXPECT_LE(s.value(QStringLiteral("itl_s")).toDouble(), 0.012);
        }
        if (s.value(QStringLiteral("best")).toBool()) {
            EXPECT_TRUE(meets);
        }
    }
    EXPECT_GT(meeting, 0);
    // Each pass's place on the roofline: the prefill right of the ridge, the decode left of it.
    const QJsonObject best = o.value(QStringLiteral("split")).toObject();
    const double ridge = o.value(QStringLiteral("ridge_flop_per_byte")).toDouble();
    EXPECT_EQ(best.value(QStringLiteral("prefill_bound")).toString(), QStringLiteral("compute"));
    EXPECT_GT(best.value(QStringLiteral("prefill_intensity_flop_per_byte")).toDouble(), ridge);
    EXPECT_EQ(best.value(QStringLiteral("decode_bound")).toString(), QStringLiteral("memory"));
    EXPECT_LT(best.value(QStringLiteral("decode_intensity_flop_per_byte")).toDouble(), ridge);
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split 2:6 --ttft-target 0.001", "physical minimum");
    expectRefused("model --model llama-3-8b --gpu h100-sxm --split-sweep --itl-target 0.0001", "--itl-target");
}

// The decode pool admits what the engine's scheduler admits: 256 short requests in flight on 1:1 H100s decode 128 at
// a time under vLLM's scheduler and all 256 under TensorRT-LLM's, so its split serves more; --max-running wins.
TEST(SplitCli, TheDecodePoolRunsTheEnginesScheduler)
{
    const QString mix = QStringLiteral(
        "model --model llama-3-8b --gpu h100-sxm --split 1:1 --prompt 128 --output 128 "
        "--batch 256 --json --engine ");
    const QJsonObject vllm = jsonOf((mix + QStringLiteral("vllm")).toUtf8().constData());
    const QJsonObject trt = jsonOf((mix + QStringLiteral("tensorrt-llm")).toUtf8().constData());
    // Capped at vLLM's 128 and with vLLM's time per sequence (the one term its profile sets), TensorRT-LLM's decode
    // pool runs as vLLM's.
    const QJsonObject capped = jsonOf(
        (mix + QStringLiteral("tensorrt-llm --max-running 128 --term sequence_seconds=1.21e-06")).toUtf8().constData());
    EXPECT_EQ(vllm.value(u"scheduling").toObject().value(u"max_running").toInteger(), 128);
    EXPECT_EQ(trt.value(u"scheduling").toObject().value(u"max_running").toInteger(), 2048);
    EXPECT_EQ(capped.value(u"scheduling").toObject().value(u"scheduler_source").toObject().value(u"max_running"),
              QJsonValue(QStringLiteral("given")));
    const auto perGpu = [](const QJsonObject& o) {
        return o.value(u"split").toObject().value(u"tokens_per_s_per_gpu").toDouble();
    };
    EXPECT_GT(perGpu(trt), 1.2 * perGpu(vllm));
    EXPECT_NEAR(perGpu(capped), perGpu(vllm), 0.02 * perGpu(vllm));
}
