// `ridgeline model` for run as the real executable: every validation row is a run of it, the step-time
// breakdown and the engine terms in --json, the new options and their refusals.
#include "core/model/llm/calibration.h"
#include "tests/app/cli_runner.h"
#include "tests/core/model/llm_validation_support.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace ridgeline;
using ridgeline::test::cliArgs;
using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

namespace {

QJsonObject jsonOf(const CliRun& run)
{
    EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

}  // namespace

TEST(LlmCli, EveryValidationRowIsARidgelineModelRun)
{
    // The command line with a row's options prints, under the row's quantity, what the library predicts for it
    // with the measured terms: each published case of the validation set is expressible on the command line.
    const std::vector<test::ValidationRow> rows = test::loadValidationRows();
    ASSERT_GE(rows.size(), 80u);
    for (const test::ValidationRow& row : rows) {
        const CliRun run = runRidgeline(row.cliArguments);
        ASSERT_EQ(run.exitCode, 0) << row.id.toStdString() << ": " << run.err.toStdString();
        const QJsonObject o = QJsonDocument::fromJson(run.out.toUtf8()).object();
        ASSERT_TRUE(o.value(row.quantity).isDouble())
            << row.id.toStdString() << " has no " << row.quantity.toStdString();
        InferenceRequest request = row.request;
        request.terms = EngineTerms::measured();
        const InferenceConfig config = resolveInference(request).value();
        const double predicted =
            predictQuantity(LlmModel::create(config).value(), parseQuantityName(row.quantity).value()).value();
        EXPECT_NEAR(o.value(row.quantity).toDouble() / predicted, 1.0, 1e-12) << row.id.toStdString();
    }
}

TEST(LlmCli, JsonShowsWhereTheStepGoesAndWithWhichTerms)
{
    const QJsonObject o = jsonOf(runRidgeline(
        cliArgs("model --model llama-3.1-70b --gpu h100-sxm --weights fp8 --kv fp8 --tp 8 --batch 32 --context 4096 "
                "--prompt 2048 --output 512 --json")));
    const QJsonObject b = o.value(QStringLiteral("breakdown")).toObject();
    double sum = 0.0;
    for (const char* key : {"weights_s", "kv_s", "compute_s", "communication_s", "overhead_s"}) {
        ASSERT_TRUE(b.value(QLatin1String(key)).isDouble()) << key;
        sum += b.value(QLatin1String(key)).toDouble();
    }
    EXPECT_NEAR(sum / o.value(QStringLiteral("step_time_s")).toDouble(), 1.0, 1e-12);
    EXPECT_GT(b.value(QStringLiteral("overhead_s")).toDouble(), 0.0);  // the measured terms spend fixed times
    EXPECT_GT(b.value(QStringLiteral("communication_s")).toDouble(), 0.0);
    for (const char* key : {"prefill_breakdown", "serving_breakdown"})
        EXPECT_TRUE(o.value(QLatin1String(key)).isObject()) << key;
    for (const char* key : {"tpot_s", "decode_tokens_per_s", "serving_tpot_s", "serving_tokens_per_s", "ttft_s",
                            "e2e_latency_s", "token_latency_s", "sustained_bandwidth_tbs"})
        EXPECT_GT(o.value(QLatin1String(key)).toDouble(), 0.0) << key;
    EXPECT_GT(o.value(QStringLiteral("serving_tpot_s")).toDouble(), o.value(QStringLiteral("tpot_s")).toDouble());
    const QJsonObject terms = o.value(QStringLiteral("terms")).toObject();
    EXPECT_EQ(terms.size(), static_cast<qsizetype>(allTerms().size()));
    EXPECT_DOUBLE_EQ(terms.value(QStringLiteral("layer_seconds")).toDouble(), EngineTerms::measured().layerSeconds);
    EXPECT_EQ(o.value(QStringLiteral("bandwidth_basis")).toString(), QStringLiteral("sustained"));
    EXPECT_EQ(o.value(QStringLiteral("head_weights_precision")).toString(), QStringLiteral("bf16"));
    // --plain is the model before --term moves one term of the defaults.
    const QJsonObject plain = jsonOf(runRidgeline(
        cliArgs("model --model llama-3.1-70b --gpu h100-sxm --tp 8 --batch 1 --context 1024 --plain --json")));
    EXPECT_EQ(plain.value(QStringLiteral("breakdown")).toObject().value(QStringLiteral("overhead_s")).toDouble(), 0.0);
    EXPECT_EQ(plain.value(QStringLiteral("bandwidth_basis")).toString(), QStringLiteral("datasheet"));
    EXPECT_DOUBLE_EQ(plain.value(QStringLiteral("bandwidth_efficiency")).toDouble(), kDefaultBandwidthEfficiency);
    const QJsonObject slower =
        jsonOf(runRidgeline(cliArgs("model --model llama-3.1-70b --gpu h100-sxm --tp 8 --batch 1 --context 1024 --term "
                                    "layer_seconds=1e-4 --json")));
    EXPECT_DOUBLE_EQ(slower.value(QStringLiteral("terms")).toObject().value(QStringLiteral("layer_seconds")).toDouble(),
                     1e-4);
}

TEST(LlmCli, MoeShapesExpertsOverGpusSpeculationAndNodes)
{
    const QJsonObject moe = jsonOf(runRidgeline(
        cliArgs("model --model custom --layers 24 --hidden 2048 --heads 16 --kv-heads 4 --ffn 1024 --experts 64 "
                "--active-experts 6 --shared-experts 2 --gpu h200 --tp 4 --ep 4 --batch 8 --context 2048 --json")));
    EXPECT_EQ(moe.value(QStringLiteral("expert_parallel")).toInt(), 4);
    EXPECT_GT(moe.value(QStringLiteral("params")).toInteger(), moe.value(QStringLiteral("active_params")).toInteger());
    EXPECT_GT(moe.value(QStringLiteral("experts_touched_per_layer")).toDouble(), 6.0);
    const QJsonObject spec = jsonOf(
        runRidgeline(cliArgs("model --model deepseek-v3 --gpu b200 --weights fp4 --attention-weights fp8 --tp 8 --ep 8 "
                             "--spec-tokens 3 --spec-acceptance 2.4 --batch 1 --context 4096 --json")));
    EXPECT_DOUBLE_EQ(spec.value(QStringLiteral("tokens_per_step")).toDouble(), 2.4);
    EXPECT_EQ(spec.value(QStringLiteral("compute_precision")).toString(), QStringLiteral("fp4"));
    EXPECT_EQ(spec.value(QStringLiteral("attention_weights_precision")).toString(), QStringLiteral("fp8"));
    const QJsonObject nodes = jsonOf(runRidgeline(
        cliArgs("model --model llama-3.1-405b --gpu h100-sxm --weights fp8 --tp 16 --batch 8 --context 1024 --json")));
    EXPECT_EQ(nodes.value(QStringLiteral("nodes")).toInt(), 2);
    EXPECT_EQ(nodes.value(QStringLiteral("network")).toString(), QStringLiteral("infiniband-ndr"));
    const CliRun table = runRidgeline(cliArgs(
        "model --model llama-3.1-405b --gpu h100-sxm --weights fp8 --tp 16 --batch 8 --context 1024 --prompt 512 "
        "--output 64"));
    ASSERT_EQ(table.exitCode, 0) << table.err.toStdString();
    for (const char* text : {"where it goes", "2 nodes of 8 GPUs", "Serving 8 requests", "engine: "})
        EXPECT_TRUE(table.out.contains(QLatin1String(text))) << text;
    // The decode attention kernel: named in --json and in the table, and slower per query head for grouped KV.
    const std::string falcon =
        "model --model falcon-180b --gpu h200 --weights fp8 --kv fp8 --tp 4 --batch 64 --context 4096";
    const QJsonObject grouped = jsonOf(runRidgeline(cliArgs((falcon + " --json").c_str())));
    const QJsonObject perHead = jsonOf(runRidgeline(cliArgs((falcon + " --decode-attention per-head --json").c_str())));
    EXPECT_EQ(grouped.value(QStringLiteral("decode_attention")).toString(), QStringLiteral("grouped"));
    EXPECT_EQ(perHead.value(QStringLiteral("decode_attention")).toString(), QStringLiteral("per-head"));
    EXPECT_GT(perHead.value(QStringLiteral("step_time_s")).toDouble(),
              1.3 * grouped.value(QStringLiteral("step_time_s")).toDouble());
    const CliRun perHeadTable = runRidgeline(cliArgs((falcon + " --decode-attention per-head").c_str()));
    EXPECT_TRUE(perHeadTable.out.contains(QLatin1String("decode attention per query head")))
        << perHeadTable.out.toStdString();
}

TEST(LlmCli, Issue13InputsThatCannotBeAreRefusedByName)
{
    struct Case {
        const char* line;
        const char* mentions;
    };
    for (const Case& c :
         {Case{"model --model llama-3-8b --gpu h100-sxm --weights fp5", "fp5"},
          Case{"model --model llama-3-8b --gpu h100-sxm --attention-weights tf32", "storage"},
          Case{"model --model custom --layers 4 --hidden 512 --heads 8 --experts 4 --active-experts 6 --gpu h100-sxm",
               "active-experts"},
          Case{"model --model custom --layers 4 --hidden 512 --heads 8 --active-experts 2 --gpu h100-sxm", "--experts"},
          Case{"model --model mixtral-8x7b --gpu h100-sxm --tp 4 --ep 3", "expert-parallel"},
          Case{"model --model mixtral-8x7b --gpu h100-sxm --tp 16 --ep 16", "8 experts"},
          Case{"model --model llama-3-8b --gpu h100-sxm --tp 8 --ep 8", "mixture-of-experts"},
          Case{"model --model llama-3-8b --gpu h100-sxm --spec-tokens 3 --spec-acceptance 4.5", "acceptance"},
          Case{"model --model llama-3-8b --gpu h100-sxm --spec-tokens 3", "--spec-acceptance"},
          Case{"model --model llama-3-8b --gpu h100-sxm --spec-tokens 1000 --spec-acceptance 2", "--spec-tokens"},
          Case{"model --model llama-3-8b --gpu h100-sxm --decode-attention xqa", "--decode-attention"},
          Case{"model --model llama-3-8b --gpu h100-sxm --term head_read_seconds=-1", "head_read_seconds"},
          Case{"model --model llama-3-8b --gpu h100-sxm --term flux=1", "layer_seconds"},
          Case{"model --model llama-3-8b --gpu h100-sxm --term layer_seconds=inf", "layer_seconds"},
          Case{"model --model llama-3-8b --gpu h100-sxm --term compute.fp8=1.5", "compute.fp8"},
          Case{"model --model llama-3-8b --gpu h100-sxm --plain --ideal", "--plain"},
          Case{"model --model llama-3.1-405b --gpu h100-sxm --tp 16 --network smoke-signals", "smoke-signals"},
          Case{"model --model llama-3.1-405b --gpu h100-sxm --tp 16 --gpus-per-node 3", "per node"},
          Case{"model --model llama-3.1-405b --gpu h100-sxm --tp 8 --gpus-per-node 0", "--gpus-per-node"}}) {
        const CliRun run = runRidgeline(cliArgs(c.line));
        EXPECT_EQ(run.exitCode, 2) << c.line;
        EXPECT_TRUE(run.out.isEmpty()) << c.line;
        EXPECT_TRUE(run.err.contains(QLatin1String(c.mentions))) << c.line << " -> " << run.err.toStdString();
        EXPECT_FALSE(run.err.contains(QLatin1String("nan")) || run.err.contains(QLatin1String("inf "))) << c.line;
    }
}
