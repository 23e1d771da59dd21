// rocprof-compute (omniperf) roofline.csv: the ceilings its roofline benchmark measured on each device.
// Columns in messages count characters, as in every importer.
#include "core/import/import_session.h"
#include "core/session/format/session_json.h"
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::importFixture;

namespace {

const BandwidthCeiling* bandwidth(const ImportResult& result, const QString& level)
{
    for (const BandwidthCeiling& ceiling : result.bandwidthCeilings)
        if (ceiling.level == level)
            return &ceiling;
    return nullptr;
}

const ComputeCeiling* compute(const ImportResult& result, const QString& name)
{
    for (const ComputeCeiling& ceiling : result.computeCeilings)
        if (ceiling.name == name)
            return &ceiling;
    return nullptr;
}

Result<ImportResult> importText(const QByteArray& text)
{
    return importBytes(text, QStringLiteral("roofline.csv"), ImportFormat::RocprofRoofline);
}

}  // namespace

TEST(ImportRocprof, FirstDeviceGivesEveryCeilingWithItsSpread)
{
    const auto result =
        importBytes(importFixture(QStringLiteral("rocprof_roofline.csv")), QStringLiteral("roofline.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const ImportResult& roofline = result.value();
    EXPECT_EQ(roofline.format, ImportFormat::RocprofRoofline);
    EXPECT_TRUE(roofline.kernels.empty());
    EXPECT_TRUE(roofline.skipped.empty());
    EXPECT_EQ(roofline.machineName.toStdString(), "rocprof-compute: roofline.csv, device 0");
    ASSERT_EQ(roofline.bandwidthCeilings.size(), 4u);
    const BandwidthCeiling* hbm = bandwidth(roofline, QStringLiteral("DRAM"));
    ASSERT_NE(hbm, nullptr);
    EXPECT_DOUBLE_EQ(hbm->gbps, 1400.0);
    // "hbmBwHigh" is spelled so by rocprof-compute: still found.
    EXPECT_DOUBLE_EQ(hbm->spread.min, 1399.0);
    EXPECT_DOUBLE_EQ(hbm->spread.median, 1400.0);
    EXPECT_DOUBLE_EQ(hbm->spread.max, 1401.0);
    EXPECT_EQ(hbm->mix, QStringLiteral("rocprof-compute"));
    ASSERT_NE(bandwidth(roofline, QStringLiteral("LDS")), nullptr);
    EXPECT_DOUBLE_EQ(bandwidth(roofline, QStringLiteral("LDS"))->gbps, 18000.0);
    EXPECT_DOUBLE_EQ(bandwidth(roofline, QStringLiteral("L1"))->gbps, 9200.0);
    EXPECT_DOUBLE_EQ(bandwidth(roofline, QStringLiteral("L2"))->gbps, 5000.0);

    ASSERT_EQ(roofline.computeCeilings.size(), 7u);
    const ComputeCeiling* fp64 = compute(roofline, QStringLiteral("fp64 VALU"));
    ASSERT_NE(fp64, nullptr);
    EXPECT_EQ(fp64->precision, QStringLiteral("fp64"));
    EXPECT_EQ(fp64->isa, QStringLiteral("VALU"));
    EXPECT_DOUBLE_EQ(fp64->gflops, 20500.0);
    const ComputeCeiling* bf16 = compute(roofline, QStringLiteral("bf16 MFMA"));
    ASSERT_NE(bf16, nullptr);
    EXPECT_EQ(bf16->precision, QStringLiteral("bf16"));
    EXPECT_DOUBLE_EQ(bf16->gflops, 170000.0);
    // MFMAI8Ops' low column is spelled "MFMAFI8OpsLow" by rocprof-compute.
    const ComputeCeiling* int8 = compute(roofline, QStringLiteral("int8 MFMA"));
    ASSERT_NE(int8, nullptr);
    EXPECT_DOUBLE_EQ(int8->spread.min, 165900.0);
    EXPECT_DOUBLE_EQ(int8->spread.max, 166100.0);

    // Device 1 is not used, but said, with how far its ceilings are from device 0's (HBM: 1386 vs 1400 = 1 %).
    ASSERT_EQ(roofline.notes.size(), 1u);
    EXPECT_EQ(roofline.notes[0].toStdString(),
              "2 devices measured; device 0's ceilings are used, the others differ from them by at most 1.0 %");
}

TEST(ImportRocprof, NewerColumnsAreReadAndUnmeasuredOnesSkippedWithTheirReason)
{
    const auto result =
        importBytes(importFixture(QStringLiteral("rocprof_roofline_2025.csv")), QStringLiteral("roofline.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const ImportResult& roofline = result.value();
    EXPECT_TRUE(roofline.notes.empty());
    ASSERT_NE(compute(roofline, QStringLiteral("fp16 VALU")), nullptr);
    EXPECT_DOUBLE_EQ(compute(roofline, QStringLiteral("fp16 VALU"))->gflops, 160000.0);
    ASSERT_NE(compute(roofline, QStringLiteral("fp4 MFMA")), nullptr);
    EXPECT_DOUBLE_EQ(compute(roofline, QStringLiteral("fp4 MFMA"))->gflops, 9000000.0);
    ASSERT_NE(compute(roofline, QStringLiteral("int32 VALU")), nullptr);
    // FP8Flops is 0 (not measured by VALU) and I8Ops is empty: skipped, each named.
    ASSERT_EQ(roofline.skipped.size(), 2u);
    EXPECT_EQ(roofline.skipped[0].what.toStdString(), "device 0 FP8Flops");
    EXPECT_EQ(roofline.skipped[0].reason.toStdString(), "not measured (empty, 0 or nan)");
    EXPECT_EQ(roofline.skipped[1].what.toStdString(), "device 0 I8Ops");
    EXPECT_EQ(roofline.computeCeilings.size(), 16u - 2u);
    EXPECT_EQ(roofline.bandwidthCeilings.size(), 4u);
}

TEST(ImportRocprof, CeilingsMakeANewMachineThatSavesAndLoadsBack)
{
    const auto imported =
        importBytes(importFixture(QStringLiteral("rocprof_roofline.csv")), QStringLiteral("roofline.csv"));
    ASSERT_TRUE(imported.ok());
    const auto session = sessionWithImports(std::nullopt, {imported.value()});
    ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
    EXPECT_EQ(session.value().machine.cpuModel.toStdString(), "rocprof-compute: roofline.csv, device 0");
    const auto loaded = sessionFromJson(sessionToJson(session.value()), QStringLiteral("mem"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().computeCeilings.size(), 7u);
    EXPECT_EQ(loaded.value().bandwidthCeilings.size(), 4u);
    EXPECT_EQ(sessionToJson(loaded.value()), sessionToJson(session.value()));
}

TEST(ImportRocprof, UnorderedSpreadKeepsTheValueWithoutASpread)
{
    const auto result = importText("device,HBMBw,HBMBwLow,HBMBwHigh,FP32Flops\n0,1000,1100,900,5000\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().bandwidthCeilings.size(), 1u);
    EXPECT_DOUBLE_EQ(result.value().bandwidthCeilings[0].gbps, 1000.0);
    EXPECT_DOUBLE_EQ(result.value().bandwidthCeilings[0].spread.max, 0.0);
    ASSERT_EQ(result.value().notes.size(), 1u);
    EXPECT_TRUE(result.value().notes[0].contains(QStringLiteral("not around their value")));
}

TEST(ImportRocprof, NanIsNotMeasuredAndUnknownColumnsAreNamed)
{
    const auto result = importText("device,HBMBw,FP32Flops,FP64Flops,Wavefronts\n0,1000,5000,nan,64\n");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().skipped.size(), 1u);
    EXPECT_EQ(result.value().skipped[0].what.toStdString(), "device 0 FP64Flops");
    ASSERT_EQ(result.value().notes.size(), 1u);
    EXPECT_EQ(result.value().notes[0].toStdString(), "columns not read: Wavefronts");
}

TEST(ImportRocprof, BrokenFilesAreRefusedWithLineAndColumn)
{
    const std::pair<const char*, const char*> cases[] = {
        {"device,HBMBw,FP32Flops\n0,1000\n",
         "roofline.csv (rocprof-compute roofline.csv): line 2, column 7: 2 fields where the header has 3 (a truncated "
         "line?)"},
        {"device,HBMBw,FP32Flops\n0,1000,50,00\n",
         "roofline.csv (rocprof-compute roofline.csv): line 2, column 11: 4 fields where the header has 3 (a decimal "
         "comma?)"},
        {"device,HBMBw,FP32Flops\n0,fast,5000\n",
         "roofline.csv (rocprof-compute roofline.csv): line 2, column 3: HBMBw: not a number: \"fast\""},
        {"device,HBMBw,FP32Flops\nGPU0,1000,5000\n",
         "roofline.csv (rocprof-compute roofline.csv): line 2, column 1: the device id \"GPU0\" is not a number"},
        {"device,HBMBw,FP32Flops\n",
         "roofline.csv (rocprof-compute roofline.csv): line 2, column 1: no device row under the header (the "
         "benchmark did not run?)"},
        {"device,Wavefronts\n0,64\n",
         "roofline.csv (rocprof-compute roofline.csv): line 1, column 1: no ceiling columns (HBMBw, L2Bw, FP32Flops, "
         "MFMAF16Flops, ...) in the header"},
        {"device,HBMBw,FP32Flops\n0,1000,5000\n1,1000,x\n",
         "roofline.csv (rocprof-compute roofline.csv): line 3, column 8: FP32Flops: not a number: \"x\""},
        {"device,HBMBw,FP32Flops\n0,1000,5e12\n",
         "roofline.csv (rocprof-compute roofline.csv): line 2, column 8: FP32Flops is 5e+12; a ceiling is at most "
         "1e+09 GB/s or GFLOP/s"},
    };
    for (const auto& [text, message] : cases) {
        const auto result = importText(text);
        ASSERT_FALSE(result.ok()) << text;
        EXPECT_TRUE(result.error().message.startsWith(QString::fromLatin1(message)))
            << text << "\n  " << result.error().message.toStdString();
    }
}

TEST(ImportRocprof, AllCeilingsUnmeasuredYieldsNothingAndIsRefused)
{
    const auto result = importText("device,HBMBw,FP32Flops\n0,0,nan\n");
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("nothing to import")))
        << result.error().message.toStdString();
}
