// The command line against absurd figures: refused by the one physical rule (core/physical_limits.h), naming
// the option or the field, never printed as "inf" or "nan" and never drawn.
#include "tests/app/cli_runner.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::cliArgs;
using ridgeline::test::CliRun;
using ridgeline::test::contentsOf;
using ridgeline::test::data;
using ridgeline::test::environmentWithoutDisplay;
using ridgeline::test::runRidgeline;

// A bandwidth of 5e-324 TB/s printed "ridge inf" and "nan %"; a roof of 1e-305 TB/s crashed the chart.
TEST(PhysicalRuleCli, AbsurdRoofFiguresAreRefusedByName)
{
    const CliRun model =
        runRidgeline(cliArgs("model --model llama-2-7b --gpu custom --peak-tflops 989 --bandwidth-tbs 5e-324 "
                             "--memory-gib 80"));
    EXPECT_EQ(model.exitCode, 2);
    EXPECT_TRUE(model.out.isEmpty()) << model.out.toStdString();
    EXPECT_TRUE(model.err.contains(QStringLiteral("--bandwidth-tbs must be between 1e-09 and 1e+06 TB/s, got 5e-324")))
        << model.err.toStdString();
    const CliRun json =
        runRidgeline(cliArgs("model --model llama-2-7b --gpu custom --peak-tflops 1e-300 "
                             "--bandwidth-tbs 3 --memory-gib 80 --json"));
    EXPECT_EQ(json.exitCode, 2);
    EXPECT_FALSE(json.out.contains(QStringLiteral("null")));
    EXPECT_TRUE(json.err.contains(QStringLiteral("--peak-tflops must be between"))) << json.err.toStdString();

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("chart.png"));
    const CliRun render =
        runRidgeline({QStringLiteral("render"), data("sessions/minimal.json"), QStringLiteral("--roof"),
                      QStringLiteral("X:19.5:1e-305"), QStringLiteral("--out"), out},
                     environmentWithoutDisplay());
    EXPECT_EQ(render.exitCode, 2);
    EXPECT_TRUE(render.err.contains(
        QStringLiteral("--roof 'X:19.5:1e-305': the bandwidth must be between 1e-09 and 1e+06 TB/s, got 1e-305")))
        << render.err.toStdString();
    EXPECT_FALSE(QFileInfo::exists(out));
}

// A latency of 5e-324 s printed "median inf %".
TEST(PhysicalRuleCli, CalibratingOnDenormalLatenciesIsRefusedNamingTheField)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QByteArray json = contentsOf(data("bench/vllm_latency_2025.json"));
    const qsizetype latencies = json.indexOf("\"latencies\"");
    ASSERT_GE(latencies, 0);
    const qsizetype first = json.indexOf('[', latencies) + 1;
    const qsizetype comma = json.indexOf(',', first);
    json.replace(first, comma - first, "5e-324");
    const QString file = dir.filePath(QStringLiteral("latency.json"));
    QFile out(file);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(json);
    out.close();

    const CliRun run = runRidgeline(
        {QStringLiteral("calibrate"), file, QStringLiteral("--model"), QStringLiteral("llama-3.1-8b"),
         QStringLiteral("--gpu"), QStringLiteral("h100-sxm"), QStringLiteral("--tp"), QStringLiteral("1"),
         QStringLiteral("--weights"), QStringLiteral("bf16"), QStringLiteral("--batch"), QStringLiteral("8"),
         QStringLiteral("--input-len"), QStringLiteral("32"), QStringLiteral("--output-len"), QStringLiteral("128"),
         QStringLiteral("--fit"), QStringLiteral("layer_seconds")});

    EXPECT_EQ(run.exitCode, 1) << run.out.toStdString();
    EXPECT_FALSE(run.out.contains(QStringLiteral("inf"))) << run.out.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("latencies[0]\" must be between 1e-12 and 1e+07 s, got 5e-324")))
        << run.err.toStdString();
}
