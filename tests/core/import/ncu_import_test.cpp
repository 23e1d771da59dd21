// Nsight Compute CSV, both shapes, against FLOPs, bytes and times worked out by hand from the fixtures.
#include "core/import/import_format.h"
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::findKernel;
using ridgeline::test::importFixture;
using ridgeline::test::nearlyEqual;

namespace {

// The three kernels both fixtures describe (tests/data/README.md, "Import fixtures").
struct Expected {
    const char* name;
    double flops;
    double dramBytes;
    double l2Bytes;
    double l1Bytes;
    double seconds;
    const char* precision;
};

const Expected kSaxpy{"saxpy_kernel", 2.0 * 1'048'576, 12'580'000, 12'620'000, 12'580'000, 21.5e-6, "fp32"};
// 2 x 67,108,864 DFMA + 262,144 DADD
const Expected kDgemm{"dgemm_tile", 2.0 * 67'108'864 + 262'144, 25'170'000, 201'330'000, 1'610'000'000, 1.34e-3,
                      "fp64"};
// Nsight Compute's convention: 4 x 131,072 HFMA + 2 x 65,536 HADD + 2 x 16,384 FFMA. The 262,144
// sm__inst_executed_pipe_tensor.sum instructions are not FLOPs (the old 512 per instruction was wrong).
const Expected kCutlass{"cutlass::Kernel",
                        4.0 * 131'072 + 2.0 * 65'536 + 2.0 * 16'384,
                        50'331'650,
                        402'650'000,
                        805'310'000,
                        98'304e-9,
                        "mixed"};

void expectKernel(const ImportResult& result, const Expected& expected)
{
    const KernelResult* kernel = findKernel(result, QString::fromLatin1(expected.name));
    ASSERT_NE(kernel, nullptr) << expected.name;
    EXPECT_EQ(kernel->kind, QStringLiteral("imported"));
    EXPECT_TRUE(nearlyEqual(kernel->flops, expected.flops)) << expected.name << ' ' << kernel->flops;
    EXPECT_TRUE(nearlyEqual(kernel->bytes, expected.dramBytes)) << expected.name << ' ' << kernel->bytes;
    EXPECT_TRUE(nearlyEqual(kernel->seconds, expected.seconds)) << expected.name << ' ' << kernel->seconds;
    EXPECT_TRUE(nearlyEqual(kernel->intensity, expected.flops / expected.dramBytes)) << expected.name;
    EXPECT_TRUE(nearlyEqual(kernel->gflops, expected.flops / expected.seconds / 1e9)) << expected.name;
    EXPECT_TRUE(nearlyEqual(kernel->gbps, expected.dramBytes / expected.seconds / 1e9)) << expected.name;
    EXPECT_EQ(kernel->precision, QString::fromLatin1(expected.precision));
    EXPECT_EQ(kernel->level, QStringLiteral("DRAM"));
    ASSERT_EQ(kernel->levels.size(), 2u) << expected.name;
    EXPECT_EQ(kernel->levels[0].level, QStringLiteral("L2"));
    EXPECT_TRUE(nearlyEqual(kernel->levels[0].bytes, expected.l2Bytes));
    EXPECT_TRUE(nearlyEqual(kernel->levels[0].intensity, expected.flops / expected.l2Bytes));
    EXPECT_EQ(kernel->levels[1].level, QStringLiteral("L1"));
    EXPECT_TRUE(nearlyEqual(kernel->levels[1].bytes, expected.l1Bytes));
    EXPECT_TRUE(nearlyEqual(kernel->levels[1].gbps, expected.l1Bytes / expected.seconds / 1e9));
}

}  // namespace

TEST(ImportNcu, DetailsFixtureGivesTheThreeKernelsComputedByHand)
{
    const auto result = importBytes(importFixture(QStringLiteral("ncu_details.csv")), QStringLiteral("ncu_details.csv"),
                                    ImportFormat::NsightCompute);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 3u);
    expectKernel(result.value(), kSaxpy);
    expectKernel(result.value(), kDgemm);
    expectKernel(result.value(), kCutlass);
    EXPECT_EQ(result.value().kernels[0].source, QStringLiteral("ncu_details.csv (ncu)"));
}

TEST(ImportNcu, TensorPipeInstructionsAreReportedButNotCountedAsFlops)
{
    const auto result = importBytes(importFixture(QStringLiteral("ncu_details.csv")), QStringLiteral("d.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    // No sm__ops_path_tensor_src_* counters: tensor FLOPs are not counted for any kernel, and the file says why.
    for (const KernelResult& kernel : result.value().kernels)
        EXPECT_FALSE(kernel.tensorFlopsCounted) << kernel.name.toStdString();
    const QString notes = result.value().notes.join(u'\n');
    EXPECT_TRUE(
        notes.contains(QStringLiteral("1 of 4 kernels ran tensor-pipe instructions "
                                      "(sm__inst_executed_pipe_tensor.sum) that are not counted as FLOPs")))
        << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("2 FLOPs per HADD or HMUL and 4 per HFMA"))) << notes.toStdString();
}

TEST(ImportNcu, DetailsKeepsFullAndShortNamesAndLaunchShape)
{
    const auto result = importBytes(importFixture(QStringLiteral("ncu_details.csv")), QStringLiteral("d.csv"));
    ASSERT_TRUE(result.ok());
    const KernelResult* dgemm = findKernel(result.value(), QStringLiteral("dgemm_tile"));
    ASSERT_NE(dgemm, nullptr);
    // The file has the mangled name _Z10dgemm_tilePKdS0_Pdi.
    EXPECT_EQ(dgemm->fullName, QStringLiteral("dgemm_tile(double const*, double const*, double*, int)"));
    const KernelResult* saxpy = findKernel(result.value(), QStringLiteral("saxpy_kernel"));
    EXPECT_EQ(saxpy->fullName, QStringLiteral("void saxpy_kernel<float>(int, float, const float *, float *)"));
    EXPECT_EQ(saxpy->size, QStringLiteral("grid (4096, 1, 1) block (256, 1, 1)"));
}

TEST(ImportNcu, DetailsReportsProgramOutputAndTheCopyKernelAsSkipped)
{
    const auto result = importBytes(importFixture(QStringLiteral("ncu_details.csv")), QStringLiteral("d.csv"));
    ASSERT_TRUE(result.ok());
    ASSERT_EQ(result.value().skipped.size(), 2u);
    EXPECT_EQ(result.value().skipped[0].line, 7);  // "kernels: 4 launches, ..." printed by the program
    EXPECT_EQ(result.value().skipped[1].line, 55);
    EXPECT_EQ(result.value().skipped[1].what, QStringLiteral("copy_kernel (ID 3)"));
    EXPECT_TRUE(result.value().skipped[1].reason.contains(QStringLiteral("no floating-point instructions")));
}

TEST(ImportNcu, RawFixtureWithUnitsRowGivesTheSameKernels)
{
    const auto result = importBytes(importFixture(QStringLiteral("ncu_raw.csv")), QStringLiteral("ncu_raw.csv"),
                                    ImportFormat::NsightCompute);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 3u);
    expectKernel(result.value(), kSaxpy);
    expectKernel(result.value(), kDgemm);
    expectKernel(result.value(), kCutlass);
    // The tensor-pipe column is an instruction count, not tensor work: nothing is counted from it.
    for (const KernelResult& kernel : result.value().kernels)
        EXPECT_FALSE(kernel.tensorFlopsCounted) << kernel.name.toStdString();
    ASSERT_EQ(result.value().skipped.size(), 1u);
    EXPECT_EQ(result.value().skipped[0].line, 8);
}

TEST(ImportNcu, KernelOrderFollowsTheFile)
{
    const auto result = importBytes(importFixture(QStringLiteral("ncu_raw.csv")), QStringLiteral("r.csv"));
    ASSERT_TRUE(result.ok());
    ASSERT_EQ(result.value().kernels.size(), 3u);
    EXPECT_EQ(result.value().kernels[0].name, QStringLiteral("saxpy_kernel"));
    EXPECT_EQ(result.value().kernels[1].name, QStringLiteral("dgemm_tile"));
    EXPECT_EQ(result.value().kernels[2].name, QStringLiteral("cutlass::Kernel"));
}

TEST(ImportNcu, ReadPlusWriteStandsInForDramBytes)
{
    // The details fixture has dram__bytes_read.sum and dram__bytes_write.sum only: 8.39 + 4.19 Mbyte for saxpy.
    const auto result = importBytes(importFixture(QStringLiteral("ncu_details.csv")), QStringLiteral("d.csv"));
    ASSERT_TRUE(result.ok());
    EXPECT_TRUE(nearlyEqual(findKernel(result.value(), QStringLiteral("saxpy_kernel"))->bytes, 8.39e6 + 4.19e6));
}

TEST(ImportNcu, DurationRowOfTheSpeedOfLightSectionGivesTheTime)
{
    const QByteArray csv =
        "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"k\",\"GPU Speed Of Light Throughput\",\"Duration\",\"usecond\",\"2.00\"\n"
        "\"0\",\"k\",\"Command line profiler metrics\",\"dram__bytes.sum\",\"byte\",\"1,000\"\n"
        "\"0\",\"k\",\"Command line profiler metrics\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\","
        "\"Kinst\",\"3\"\n";
    const auto result = importBytes(csv, QStringLiteral("sol.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].seconds, 2e-6);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].flops, 6000.0);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].bytes, 1000.0);
    EXPECT_TRUE(result.value().kernels[0].levels.empty());
}

TEST(ImportNcu, OverlongTemplateNamesAreCutToWhatASessionHolds)
{
    const QString longName =
        QStringLiteral("void cutlass::Kernel<") + QString(6000, u'x') + QStringLiteral(">(Params)");
    const QByteArray csv =
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"" +
        longName.toUtf8() +
        "\",\"gpu__time_duration.sum\",\"second\",\"0.000001\"\n"
        "\"0\",\"" +
        longName.toUtf8() +
        "\",\"dram__bytes.sum\",\"B\",\"10\"\n"
        "\"0\",\"" +
        longName.toUtf8() +
        "\",\"sm__sass_thread_inst_executed_op_dadd_pred_on.sum\","
        "\"inst\",\"20\"\n";
    const auto result = importBytes(csv, QStringLiteral("long.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    EXPECT_EQ(result.value().kernels[0].name, QStringLiteral("cutlass::Kernel"));
    EXPECT_EQ(result.value().kernels[0].fullName.size(), 4096);
    EXPECT_TRUE(result.value().kernels[0].fullName.endsWith(QStringLiteral(" ...")));
    EXPECT_DOUBLE_EQ(result.value().kernels[0].intensity, 2.0);
}

TEST(ImportNcu, WithoutAnIdColumnRowsGroupByNameAndRepeatedMetrics)
{
    // Two launches of k, then one of m; scripts that post-process ncu output sometimes drop "ID".
    const QByteArray csv =
        "\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"k\",\"gpu__time_duration.sum\",\"ns\",\"1,000\"\n"
        "\"k\",\"dram__bytes.sum\",\"byte\",\"100\"\n"
        "\"k\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\",\"50\"\n"
        "\"k\",\"gpu__time_duration.sum\",\"ns\",\"2,000\"\n"
        "\"k\",\"dram__bytes.sum\",\"byte\",\"100\"\n"
        "\"k\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\",\"50\"\n"
        "\"m\",\"gpu__time_duration.sum\",\"us\",\"1\"\n"
        "\"m\",\"dram__bytes.sum\",\"byte\",\"400\"\n"
        "\"m\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\",\"50\"\n";
    ASSERT_EQ(detectFormat(csv, QStringLiteral("noid.csv")).value(), ImportFormat::NsightCompute);
    const auto result = importBytes(csv, QStringLiteral("noid.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 3u);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].seconds, 1e-6);
    EXPECT_DOUBLE_EQ(result.value().kernels[1].seconds, 2e-6);
    EXPECT_DOUBLE_EQ(result.value().kernels[1].intensity, 1.0);
    EXPECT_EQ(result.value().kernels[2].name, QStringLiteral("m"));
    EXPECT_DOUBLE_EQ(result.value().kernels[2].intensity, 0.25);
}
