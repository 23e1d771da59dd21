// `ridgeline model --frontier`, the serving latency of one configuration and its cost and energy per token, run as
// the real executable: JSON keys, monotone frontiers, refusals that name the option.
#include "tests/app/cli_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <gtest/gtest.h>

#include <string>

using ridgeline::test::cliArgs;
using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

namespace {

QJsonObject jsonOf(const char* line)
{
    const CliRun run = runRidgeline(cliArgs(line));
    EXPECT_EQ(run.exitCode, 0) << line << ": " << run.err.toStdString();
    EXPECT_FALSE(run.out.contains(QLatin1String("nan"), Qt::CaseInsensitive)) << line;
    EXPECT_FALSE(run.out.contains(QLatin1String("inf"), Qt::CaseInsensitive)) << line;
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

}  // namespace

TEST(ServingCli, FrontierJsonHasEveryPointsKeysAndIsMonotone)
{
    const QJsonObject o =
        jsonOf("model --model llama-2-7b --gpu h100-sxm --frontier --gpu-hour-price 2.5 --gpu-power-w 500 --json");
    EXPECT_EQ(o.value(QStringLiteral("prompt")).toInteger(), 1024);
    EXPECT_EQ(o.value(QStringLiteral("output")).toInteger(), 1024);
    EXPECT_EQ(o.value(QStringLiteral("power_source")).toString(), QStringLiteral("given"));
    EXPECT_EQ(o.value(QStringLiteral("price_source")).toString(), QStringLiteral("given"));
    EXPECT_TRUE(o.value(QStringLiteral("price_example_of")).isNull());
    const QJsonArray points = o.value(QStringLiteral("frontier")).toArray();
    ASSERT_GE(points.size(), 5);
    double perGpu = 0, perUser = 1e300, cost = 1e300;
    for (const QJsonValue& value : points) {
        const QJsonObject p = value.toObject();
        for (const char* key : {"batch", "tokens_per_s_per_gpu", "tokens_per_s_per_user", "ttft_s", "itl_s",
                                "cost_per_million_output_tokens", "cost_per_million_input_tokens",
                                "joules_per_output_token", "meets_targets"})
            EXPECT_TRUE(p.contains(QLatin1String(key))) << key;
        const double gpu = p.value(QStringLiteral("tokens_per_s_per_gpu")).toDouble();
        const double user = p.value(QStringLiteral("tokens_per_s_per_user")).toDouble();
        const double out = p.value(QStringLiteral("cost_per_million_output_tokens")).toDouble();
        EXPECT_GT(gpu, perGpu);
        EXPECT_LT(user, perUser);
        EXPECT_LT(out, cost);
        EXPECT_DOUBLE_EQ(user, 1.0 / p.value(QStringLiteral("itl_s")).toDouble());
        EXPECT_NEAR(out, 2.5 / 3600.0 / gpu * 1e6, 1e-9 * out);
        EXPECT_NEAR(p.value(QStringLiteral("joules_per_output_token")).toDouble(), 500.0 / gpu, 1e-12);
        perGpu = gpu;
        perUser = user;
        cost = out;
    }
    // Without --gpu-hour-price a bundled card is costed at its catalog's example price, and says so; the power is
    // the catalog's board power.
    const QJsonObject example = jsonOf("model --model llama-2-7b --gpu h100-sxm --frontier --json");
    EXPECT_DOUBLE_EQ(example.value(QStringLiteral("gpu_hour_price")).toDouble(), 3.99);
    EXPECT_EQ(example.value(QStringLiteral("price_source")).toString(), QStringLiteral("example"));
    EXPECT_EQ(example.value(QStringLiteral("price_example_of")).toString(), QStringLiteral("Lambda 2026-09-20"));
    const QJsonObject atExample = example.value(QStringLiteral("frontier")).toArray().first().toObject();
    const QJsonObject atGiven = points.first().toObject();
    EXPECT_NEAR(atExample.value(QStringLiteral("cost_per_million_output_tokens")).toDouble(),
                atGiven.value(QStringLiteral("cost_per_million_output_tokens")).toDouble() * 3.99 / 2.5, 1e-9);
    EXPECT_DOUBLE_EQ(example.value(QStringLiteral("gpu_power_w")).toDouble(), 700.0);
    EXPECT_EQ(example.value(QStringLiteral("power_source")).toString(), QStringLiteral("catalog"));
    // A card no provider's page was cited for has no price and no cost; its keys are there, null.
    const QJsonObject unpriced = jsonOf("model --model llama-2-7b --gpu rtx-4090 --frontier --json");
    const QJsonObject first = unpriced.value(QStringLiteral("frontier")).toArray().first().toObject();
    EXPECT_FALSE(first.contains(QStringLiteral("cost_per_million_output_tokens")));
    EXPECT_TRUE(first.contains(QStringLiteral("joules_per_output_token")));
    for (const char* key : {"gpu_hour_price", "price_source", "price_example_of"}) {
        EXPECT_TRUE(unpriced.contains(QLatin1String(key))) << key;
        EXPECT_TRUE(unpriced.value(QLatin1String(key)).isNull()) << key;
    }
}

TEST(ServingCli, TargetsMarkThePointsAndRefuseWhatBatchOneCannotReach)
{
    const QJsonObject o = jsonOf("model --model llama-3-8b --gpu h100-sxm --frontier --prompt 512 --output 256 --json");
    const QJsonArray points = o.value(QStringLiteral("frontier")).toArray();
    const double first = points.first().toObject().value(QStringLiteral("itl_s")).toDouble();
    const double last = points.last().toObject().value(QStringLiteral("itl_s")).toDouble();
    ASSERT_LT(first, last);
    const double target = 0.5 * (first + last);
    const QString line = QStringLiteral(
                             "model --model llama-3-8b --gpu h100-sxm --frontier --prompt 512 --output 256 --json "
                             "--itl-target %1")
                             .arg(target, 0, 'g', 17);
    const CliRun run = runRidgeline(line.split(u' '));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    for (const QJsonValue& value :
         QJsonDocument::fromJson(run.out.toUtf8()).object().value(QStringLiteral("frontier")).toArray()) {
        const QJsonObject p = value.toObject();
        EXPECT_EQ(p.value(QStringLiteral("meets_targets")).toBool(),
                  p.value(QStringLiteral("itl_s")).toDouble() <= target);
    }
    // Below batch 1's inter-token latency no batch meets the target: refused, with the minimum.
    const CliRun below = runRidgeline(
        cliArgs("model --model llama-3-8b --gpu h100-sxm --frontier --prompt 512 --output 256 --itl-target 0.0001"));
    EXPECT_EQ(below.exitCode, 2);
    EXPECT_TRUE(below.err.contains(QLatin1String("--itl-target"))) << below.err.toStdString();
    EXPECT_TRUE(below.err.contains(QLatin1String("physical minimum"))) << below.err.toStdString();
    EXPECT_TRUE(below.err.contains(
        QStringLiteral("%1 ms").arg(o.value(QStringLiteral("min_itl_s")).toDouble() * 1e3, 0, 'f', 2)))
        << below.err.toStdString();
}

TEST(ServingCli, OneConfigurationGainsServingLatencyCostAndEnergy)
{
    const QJsonObject o = jsonOf(
        "model --model llama-2-7b --gpu h100-sxm --batch 16 --context 2048 --prompt 1024 --output 1024 "
        "--gpu-hour-price 2 --json");
    for (const char* key : {"cost_per_million_input_tokens", "cost_per_million_output_tokens",
                            "joules_per_output_token", "serving_ttft_s", "serving_itl_s", "serving_e2e_latency_s"})
        EXPECT_GT(o.value(QLatin1String(key)).toDouble(), 0.0) << key;
    const double perGpu = o.value(QStringLiteral("serving_tokens_per_s")).toDouble();
    EXPECT_NEAR(o.value(QStringLiteral("cost_per_million_output_tokens")).toDouble(), 2.0 / 3600.0 / perGpu * 1e6,
                1e-9);
    EXPECT_NEAR(o.value(QStringLiteral("joules_per_output_token")).toDouble(), 700.0 / perGpu, 1e-12);
    EXPECT_DOUBLE_EQ(o.value(QStringLiteral("serving_itl_s")).toDouble(),
                     o.value(QStringLiteral("serving_tpot_s")).toDouble());

    // Past the scheduler's slots the other requests queue, and the time to first token grows with them.
    const QJsonObject queued = jsonOf(
        "model --model llama-2-7b --gpu h100-sxm --batch 32 --context 2048 --prompt 1024 --output 1024 "
        "--max-running 16 --json");
    EXPECT_EQ(queued.value(QStringLiteral("serving_running")).toInteger(), 16);
    EXPECT_GT(queued.value(QStringLiteral("serving_ttft_s")).toDouble(),
              100 * o.value(QStringLiteral("serving_ttft_s")).toDouble());

    // Random arrivals below capacity: the GPU idles between them, so the tokens that arrive pay its whole hour.
    const QJsonObject open = jsonOf(
        "model --model llama-2-7b --gpu h100-sxm --context 1280 --prompt 1024 --output 256 --arrival-rate 3 "
        "--gpu-hour-price 2 --json");
    EXPECT_DOUBLE_EQ(open.value(QStringLiteral("serving_arrival_rate")).toDouble(), 3.0);
    EXPECT_NEAR(open.value(QStringLiteral("cost_per_million_output_tokens")).toDouble(),
                2.0 / 3600.0 / (3.0 * 256) * 1e6, 1e-9);
    EXPECT_GT(open.value(QStringLiteral("serving_running")).toInteger(), 1);

    // No price: the keys are there, null; a custom GPU has no board power.
    const QJsonObject plain =
        jsonOf("model --params 7e9 --gpu custom --peak-tflops 300 --bandwidth-tbs 2 --memory-gib 80 --batch 4 --json");
    for (const char* key : {"cost_per_million_input_tokens", "cost_per_million_output_tokens",
                            "joules_per_output_token", "gpu_power_w"}) {
        EXPECT_TRUE(plain.contains(QLatin1String(key))) << key;
        EXPECT_TRUE(plain.value(QLatin1String(key)).isNull()) << key;
    }
}

TEST(ServingCli, TheTableSaysWhereThePowerComesFrom)
{
    const CliRun run = runRidgeline(
        cliArgs("model --model llama-2-7b --gpu h100-sxm --frontier --gpu-hour-price 2.5 --ttft-target 1"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QLatin1String("board power 700 W, catalog"))) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QLatin1String("tok/s/GPU")));
    EXPECT_TRUE(run.out.contains(QLatin1String("$2.50 per GPU-hour")));
    EXPECT_FALSE(run.out.contains(QLatin1String("nan"), Qt::CaseInsensitive));
}

TEST(ServingCli, BadInputsAreRefusedNamingTheOption)
{
    const struct {
        const char* arguments;
        const char* says;
    } cases[] = {
        {"--gpu-hour-price -1", "--gpu-hour-price must be a number above 0"},
        {"--gpu-hour-price 0", "--gpu-hour-price must be a number above 0"},
        {"--gpu-power-w 0", "--gpu-power-w must be a number above 0"},
        {"--gpu-power-w nan", "--gpu-power-w must be a number above 0"},
        {"--gpu-hour-price inf", "--gpu-hour-price must be a number above 0"},
        {"--gpu-hour-price 3990",
         "--gpu-hour-price: the GPU-hour price must be a number of US dollars above 0 and at "
         "most $1"},
        {"--prompt 128 --output 128 --arrival-rate 0", "--arrival-rate must be a number above 0"},
        {"--prompt 128 --output 128 --arrival-rate 1e6", "at most"},
        {"--arrival-rate 1", "--arrival-rate needs --prompt"},
        {"--frontier --batch 8", "--batch cannot go with it"},
        {"--frontier --ttft-target 0.000001", "--ttft-target: the time-to-first-token target"},
        {"--frontier --itl-target -1", "--itl-target must be a number above 0"},
        {"--itl-target 0.1", "add --frontier"},
        {"--frontier --max-running 4096", "vLLM's default token budget (2048) must be above --max-running (4096)"},
        {"--frontier --max-running 0", "--max-running must be a whole number from 1"},
    };
    for (const auto& c : cases) {
        const CliRun run = runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm") + cliArgs(c.arguments));
        EXPECT_EQ(run.exitCode, 2) << c.arguments;
        EXPECT_TRUE(run.err.contains(QLatin1String(c.says))) << c.arguments << ": " << run.err.toStdString();
        EXPECT_TRUE(run.out.isEmpty()) << c.arguments;
    }
}

// The serving figures run the engine's scheduler: TensorRT-LLM's builder admits up to 2,048 requests where vLLM's
// scheduler admits 128, so at 256 short requests in flight vLLM queues half of them and TensorRT-LLM runs them all,
// and its frontier goes on past 128. An option given wins over the engine's term, and the JSON says where each term
// came from.
TEST(ServingCli, TheEnginesSchedulerRunsTheServingFiguresUnlessAnOptionSetsATerm)
{
    const char* const mix =
        "model --model llama-3.1-8b --gpu h100-sxm --batch 256 --context 256 --prompt 128 "
        "--output 128 --json --engine ";
    const QJsonObject vllm = jsonOf((std::string(mix) + "vllm").c_str());
    const QJsonObject trt = jsonOf((std::string(mix) + "tensorrt-llm").c_str());
    EXPECT_EQ(vllm.value(u"serving_running").toInteger(), 128);
    EXPECT_EQ(trt.value(u"serving_running").toInteger(), 256);
    EXPECT_DOUBLE_EQ(vllm.value(u"serving_queued").toDouble(), 128.0);
    EXPECT_DOUBLE_EQ(trt.value(u"serving_queued").toDouble(), 0.0);
    EXPECT_GT(vllm.value(u"serving_ttft_s").toDouble(), 10 * trt.value(u"serving_ttft_s").toDouble());
    const QJsonObject trtScheduling = trt.value(u"scheduling").toObject();
    EXPECT_EQ(trtScheduling.value(u"engine").toString(), QStringLiteral("tensorrt-llm"));
    EXPECT_EQ(trtScheduling.value(u"max_running").toInteger(), 2048);
    EXPECT_EQ(trtScheduling.value(u"token_budget").toInteger(), 8192);
    EXPECT_DOUBLE_EQ(trtScheduling.value(u"kv_memory_share").toDouble(), 0.9);
    const QJsonObject trtSources = trtScheduling.value(u"scheduler_source").toObject();
    EXPECT_EQ(trtSources.value(u"max_running").toString(), QStringLiteral("engine"));
    EXPECT_EQ(trtSources.value(u"chunked_prefill").toString(), QStringLiteral("vllm-default"));
    EXPECT_TRUE(trtScheduling.value(u"engine_citation").toString().contains(QLatin1String("max_batch_size 2048")));
    const QJsonObject vllmScheduling = vllm.value(u"scheduling").toObject();
    EXPECT_EQ(vllmScheduling.value(u"max_running").toInteger(), 128);
    EXPECT_EQ(vllmScheduling.value(u"scheduler_source").toObject().value(u"max_running").toString(),
              QStringLiteral("vllm-default"));
    EXPECT_TRUE(vllmScheduling.value(u"engine_citation").isNull());

    // The frontier: vLLM's stops at 128 requests, TensorRT-LLM's goes on to what its 90 % of the memory holds.
    const char* const frontier =
        "model --model llama-3.1-8b --gpu h100-sxm --frontier --prompt 128 --output 128 --json --engine ";
    const QJsonArray vllmPoints = jsonOf((std::string(frontier) + "vllm").c_str()).value(u"frontier").toArray();
    const QJsonArray trtPoints = jsonOf((std::string(frontier) + "tensorrt-llm").c_str()).value(u"frontier").toArray();
    ASSERT_FALSE(vllmPoints.isEmpty());
    ASSERT_FALSE(trtPoints.isEmpty());
    EXPECT_EQ(vllmPoints.last().toObject().value(u"batch").toInteger(), 128);
    EXPECT_GT(trtPoints.last().toObject().value(u"batch").toInteger(), 1024);
    EXPECT_GT(trtPoints.last().toObject().value(u"tokens_per_s_per_gpu").toDouble(),
              1.5 * vllmPoints.last().toObject().value(u"tokens_per_s_per_gpu").toDouble());

    // --max-running given: 128 slots again, the rest of TensorRT-LLM's scheduler kept; with vLLM's time per sequence
    // (the one term its profile sets, engine_profile.cpp) the decode rates are vLLM's, the time to first token is not
    // (the token budget and the first-token lag), and a slot held that much longer completes fewer requests a second
    // (Little's law over the slots).
    const QJsonObject capped =
        jsonOf((std::string(frontier) + "tensorrt-llm --max-running 128 --term sequence_seconds=1.21e-06").c_str());
    const QJsonObject cappedSources = capped.value(u"scheduling").toObject().value(u"scheduler_source").toObject();
    EXPECT_EQ(cappedSources.value(u"max_running").toString(), QStringLiteral("given"));
    EXPECT_EQ(cappedSources.value(u"token_budget").toString(), QStringLiteral("engine"));
    const QJsonArray cappedPoints = capped.value(u"frontier").toArray();
    ASSERT_EQ(cappedPoints.size(), vllmPoints.size());
    for (qsizetype i = 0; i < cappedPoints.size(); ++i) {
        const QJsonObject a = cappedPoints[i].toObject(), b = vllmPoints[i].toObject();
        EXPECT_EQ(a.value(u"batch").toInteger(), b.value(u"batch").toInteger());
        EXPECT_DOUBLE_EQ(a.value(u"itl_s").toDouble(), b.value(u"itl_s").toDouble());
        if (a.value(u"batch").toInteger() > 1) {
            EXPECT_GT(a.value(u"ttft_s").toDouble(), b.value(u"ttft_s").toDouble()) << i;
            EXPECT_LT(a.value(u"tokens_per_s_per_gpu").toDouble(), b.value(u"tokens_per_s_per_gpu").toDouble()) << i;
        } else {
            EXPECT_DOUBLE_EQ(a.value(u"tokens_per_s_per_gpu").toDouble(), b.value(u"tokens_per_s_per_gpu").toDouble());
        }
    }
    const QJsonObject whole = jsonOf((std::string(frontier) + "tensorrt-llm --no-chunked-prefill").c_str());
    const QJsonObject wholeScheduling = whole.value(u"scheduling").toObject();
    EXPECT_FALSE(wholeScheduling.value(u"chunked_prefill").toBool(true));
    EXPECT_EQ(wholeScheduling.value(u"scheduler_source").toObject().value(u"chunked_prefill").toString(),
              QStringLiteral("given"));

    // The table names whose scheduler it is; a token budget the engine's largest batch does not fit under is
    // refused, naming both.
    const CliRun table = runRidgeline(cliArgs(
        "model --model llama-3.1-8b --gpu h100-sxm --frontier --prompt 128 --output 128 --engine tensorrt-llm"));
    ASSERT_EQ(table.exitCode, 0) << table.err.toStdString();
    EXPECT_TRUE(table.out.contains(QLatin1String("at most 2,048 requests, 8,192 tokens a step")))
        << table.out.toStdString();
    EXPECT_TRUE(
        table.out.contains(QLatin1String("largest batch, token budget, KV share, first-token lag "
                                         "TensorRT-LLM's; chunked prefill vLLM's default)")))
        << table.out.toStdString();
    const CliRun refused = runRidgeline(
        cliArgs("model --model llama-3.1-8b --gpu h100-sxm --frontier --engine tensorrt-llm --token-budget 2048"));
    EXPECT_EQ(refused.exitCode, 2);
    EXPECT_TRUE(
        refused.err.contains(QLatin1String("--token-budget (2048) must be above TensorRT-LLM's largest batch (2048)")))
        << refused.err.toStdString();
    EXPECT_TRUE(refused.out.isEmpty());
}
