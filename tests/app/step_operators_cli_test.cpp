// `ridgeline model`'s operators of one decode step: the JSON list and the table with the binding operator.
#include "tests/app/cli_runner.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <gtest/gtest.h>

#include <cmath>

using ridgeline::test::cliArgs;
using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

namespace {

QJsonObject modelJson(const char* args)
{
    const CliRun run = runRidgeline(cliArgs(args));
    EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

// Every operator has the keys; the seconds add up to the step and the shares to 1.
void expectOperatorsAddUp(const QJsonObject& o, const QString& listKey, const QString& stepKey)
{
    const QJsonArray operators = o.value(listKey).toArray();
    ASSERT_FALSE(operators.isEmpty()) << listKey.toStdString();
    double seconds = 0, share = 0;
    for (const QJsonValue& value : operators) {
        const QJsonObject op = value.toObject();
        for (const char* key :
             {"name", "flops", "bytes", "seconds", "share", "intensity", "ridge_flop_per_byte", "bound"})
            EXPECT_TRUE(op.contains(QLatin1String(key))) << key;
        for (const char* key : {"flops", "bytes", "seconds", "share", "intensity", "ridge_flop_per_byte"})
            EXPECT_TRUE(op.value(QLatin1String(key)).isDouble()) << key;  // never null: no NaN or infinity
        seconds += op.value(QStringLiteral("seconds")).toDouble();
        share += op.value(QStringLiteral("share")).toDouble();
    }
    EXPECT_NEAR(share, 1.0, 1e-6) << listKey.toStdString();
    EXPECT_NEAR(seconds / o.value(stepKey).toDouble(), 1.0, 1e-9) << listKey.toStdString();
}

}  // namespace

TEST(StepOperatorsCli, JsonListsTheOperatorsWhoseSharesSumToOne)
{
    for (const char* args :
         {"model --model llama-2-7b --gpu h100-sxm --batch 1 --context 1024 --json",
          "model --model llama-2-7b --gpu h100-sxm --batch 256 --context 1024 --json",
          "model --model mixtral-8x7b --gpu h100-sxm --tp 2 --link nvlink4 --batch 16 --context 2048 --json",
          "model --model llama-3-8b --gpu h100-sxm --batch 8 --context 2048 --prompt 512 --output 64 --json"}) {
        const QJsonObject o = modelJson(args);
        expectOperatorsAddUp(o, QStringLiteral("operators"), QStringLiteral("step_time_s"));
        EXPECT_TRUE(o.value(QStringLiteral("binding_operator")).isString()) << args;
        if (o.contains(QStringLiteral("prompt"))) {
            expectOperatorsAddUp(o, QStringLiteral("prefill_operators"), QStringLiteral("ttft_s"));
            // Without speculation a serving step makes one token per request: its time is the TPOT.
            expectOperatorsAddUp(o, QStringLiteral("serving_operators"), QStringLiteral("serving_tpot_s"));
        }
    }
    const QJsonObject one = modelJson("model --model llama-2-7b --gpu h100-sxm --batch 1 --context 1024 --json");
    EXPECT_EQ(one.value(QStringLiteral("binding_operator")).toString(), QStringLiteral("MLP"));
    const QJsonObject moe =
        modelJson("model --model mixtral-8x7b --gpu h100-sxm --tp 2 --link nvlink4 --batch 16 --context 2048 --json");
    QStringList names;
    for (const QJsonValue& op : moe.value(QStringLiteral("operators")).toArray())
        names << op.toObject().value(QStringLiteral("name")).toString();
    EXPECT_TRUE(names.contains(QStringLiteral("routed experts"))) << names.join(QStringLiteral(", ")).toStdString();
    EXPECT_TRUE(names.contains(QStringLiteral("all-reduce"))) << names.join(QStringLiteral(", ")).toStdString();
}

TEST(StepOperatorsCli, TableNamesTheBindingOperator)
{
    const CliRun run = runRidgeline(cliArgs("model --model llama-2-7b --gpu h100-sxm --batch 1 --context 1024"));
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("Operators of one decode step"))) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("binds: MLP, 46 % of the step, memory-bound: 1.0 FLOP/byte below")))
        << run.out.toStdString();
}
