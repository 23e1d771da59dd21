// ERT roofline.json: ceilings of the machine ERT ran on.
#include "core/import/import_format.h"
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::importFixture;

TEST(ImportErt, FixtureGivesComputeAndBandwidthCeilings)
{
    const auto result = importBytes(importFixture(QStringLiteral("ert_roofline.json")), QStringLiteral("roofline.json"),
                                    ImportFormat::Ert);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const ImportResult& ert = result.value();
    EXPECT_TRUE(ert.kernels.empty());
    ASSERT_EQ(ert.computeCeilings.size(), 2u);
    EXPECT_EQ(ert.computeCeilings[0].name, QStringLiteral("FP64 GFLOPs"));
    EXPECT_EQ(ert.computeCeilings[0].precision, QStringLiteral("fp64"));
    EXPECT_DOUBLE_EQ(ert.computeCeilings[0].gflops, 9166.4);
    EXPECT_DOUBLE_EQ(ert.computeCeilings[0].theoreticalGflops, 9700.0);  // from "spec"
    EXPECT_EQ(ert.computeCeilings[1].precision, QStringLiteral("fp32"));
    EXPECT_DOUBLE_EQ(ert.computeCeilings[1].gflops, 18304.2);
    EXPECT_DOUBLE_EQ(ert.computeCeilings[1].theoreticalGflops, 0.0);
    ASSERT_EQ(ert.bandwidthCeilings.size(), 3u);
    EXPECT_EQ(ert.bandwidthCeilings[0].level, QStringLiteral("L1"));
    EXPECT_DOUBLE_EQ(ert.bandwidthCeilings[0].gbps, 14205.3);
    EXPECT_EQ(ert.bandwidthCeilings[1].level, QStringLiteral("L2"));
    EXPECT_DOUBLE_EQ(ert.bandwidthCeilings[1].gbps, 3836.9);
    EXPECT_EQ(ert.bandwidthCeilings[2].level, QStringLiteral("DRAM"));
    EXPECT_DOUBLE_EQ(ert.bandwidthCeilings[2].gbps, 1433.2);
    EXPECT_EQ(ert.machineName, QStringLiteral("ERT: roofline.json"));
    // The spec's DRAM bandwidth has no field to go to: reported, not dropped silently.
    ASSERT_EQ(ert.skipped.size(), 1u);
    EXPECT_EQ(ert.skipped[0].what, QStringLiteral("spec gbytes DRAM"));
}

TEST(ImportErt, ZeroCeilingIsSkippedWithItsReason)
{
    const QByteArray json = R"({"empirical": {"gflops": {"data": [["FP64 GFLOPs", 0], ["FP32 GFLOPs", 100]]},
                                              "gbytes": {"data": [["DRAM", 20]]}}})";
    const auto result = importBytes(json, QStringLiteral("r.json"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().computeCeilings.size(), 1u);
    ASSERT_EQ(result.value().skipped.size(), 1u);
    EXPECT_EQ(result.value().skipped[0].what, QStringLiteral("FP64 GFLOPs"));
}

TEST(ImportErt, EmptySpecIsFine)
{
    const QByteArray json =
        "\xEF\xBB\xBF"
        R"({"empirical": {"gflops": {"data": [["FP64 GFLOPs", 10]]},
                                              "gbytes": {"data": []}}, "spec": {}})";
    const auto result = importBytes(json, QStringLiteral("r.json"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    EXPECT_EQ(result.value().computeCeilings.size(), 1u);
    EXPECT_TRUE(result.value().bandwidthCeilings.empty());
}

TEST(ImportErt, DocumentDumpedAsOneJsonStringIsReadToo)
{
    // Some ERT scripts json.dumps() the text again; readers then json.loads() twice.
    const QByteArray json = R"("{\"empirical\": {\"gflops\": {\"data\": [[\"FP64 GFLOPs\", 42.5]]}, )"
                            R"(\"gbytes\": {\"data\": [[\"DRAM\", 12]]}}}")";
    ASSERT_EQ(detectFormat(json, QStringLiteral("r.json")).value(), ImportFormat::Ert);
    const auto result = importBytes(json, QStringLiteral("r.json"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().computeCeilings.size(), 1u);
    EXPECT_DOUBLE_EQ(result.value().computeCeilings[0].gflops, 42.5);
    EXPECT_DOUBLE_EQ(result.value().bandwidthCeilings[0].gbps, 12.0);
    const auto broken = importBytes(R"("{\"empirical\": {")", QStringLiteral("r.json"), ImportFormat::Ert);
    ASSERT_FALSE(broken.ok());
    EXPECT_TRUE(broken.error().message.contains(
        QStringLiteral("line 1, column 15 of the JSON text inside the file's string: an object that is "
                       "never closed (truncated file?)")))
        << broken.error().message.toStdString();
}
