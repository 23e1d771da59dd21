// likwid-perfctr CSV: one kernel per region and group, totals from the STAT tables.
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::findKernel;
using ridgeline::test::importFixture;
using ridgeline::test::nearlyEqual;

TEST(ImportLikwid, MemDpFixtureGivesOneKernelPerRegionFromTheStatTables)
{
    const auto result = importBytes(importFixture(QStringLiteral("likwid_mem_dp.csv")),
                                    QStringLiteral("likwid_mem_dp.csv"), ImportFormat::Likwid);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 2u);
    EXPECT_TRUE(result.value().skipped.empty());

    // triad: DP 800 + 780 MFLOP/s summed, the slower thread's 0.52 s, 9.88 GB of memory traffic.
    const KernelResult* triad = findKernel(result.value(), QStringLiteral("triad"), QStringLiteral("MEM_DP"));
    ASSERT_NE(triad, nullptr);
    EXPECT_TRUE(nearlyEqual(triad->seconds, 0.52));
    EXPECT_TRUE(nearlyEqual(triad->flops, 1580e6 * 0.52));
    EXPECT_TRUE(nearlyEqual(triad->bytes, 9.88e9));
    EXPECT_TRUE(nearlyEqual(triad->intensity, 1580e6 * 0.52 / 9.88e9));
    EXPECT_TRUE(nearlyEqual(triad->gflops, 1.58));
    EXPECT_EQ(triad->precision, QStringLiteral("fp64"));
    EXPECT_EQ(triad->level, QStringLiteral("DRAM"));
    EXPECT_EQ(triad->source, QStringLiteral("likwid_mem_dp.csv (likwid)"));

    // dgemm: 20000 + 19800 MFLOP/s for 0.25 s = 9.95 GFLOP over 0.6 GB.
    const KernelResult* dgemm = findKernel(result.value(), QStringLiteral("dgemm"), QStringLiteral("MEM_DP"));
    ASSERT_NE(dgemm, nullptr);
    EXPECT_TRUE(nearlyEqual(dgemm->flops, 9.95e9));
    EXPECT_TRUE(nearlyEqual(dgemm->bytes, 0.6e9));
    EXPECT_TRUE(nearlyEqual(dgemm->intensity, 9.95e9 / 0.6e9));
    EXPECT_TRUE(result.value().notes.join(u'\n').contains(QStringLiteral("Xeon(R) Gold 6148")));
}

TEST(ImportLikwid, SingleThreadWithoutMarkersIsNamedAfterTheFile)
{
    const auto result = importBytes(importFixture(QStringLiteral("likwid_mem_sp_single.csv")),
                                    QStringLiteral("likwid_mem_sp_single.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    const KernelResult& kernel = result.value().kernels[0];
    EXPECT_EQ(kernel.name, QStringLiteral("likwid_mem_sp_single"));
    EXPECT_EQ(kernel.group, QStringLiteral("MEM_SP"));
    EXPECT_EQ(kernel.precision, QStringLiteral("fp32"));
    EXPECT_TRUE(nearlyEqual(kernel.flops, 12000e6 * 0.5));  // 6 GFLOP
    EXPECT_TRUE(nearlyEqual(kernel.bytes, 2e9));
    EXPECT_TRUE(nearlyEqual(kernel.intensity, 3.0));
}

TEST(ImportLikwid, AFlopsGroupAloneYieldsNothingAndIsRefused)
{
    // Issue 12: a file that yields no kernel is refused (it used to import as an empty session).
    const QByteArray csv =
        "TABLE,Region gemm,Group 1 Metric,FLOPS_DP,4\n"
        "Metric,HWThread 0\n"
        "Runtime (RDTSC) [s],2\n"
        "DP [MFLOP/s],5000\n"
        "Vectorization ratio,100\n";
    const auto result = importBytes(csv, QStringLiteral("flops.csv"));
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.startsWith(
        QStringLiteral("flops.csv (likwid-perfctr CSV): nothing to import: all 1 kernel was skipped (1 x the group "
                       "measures no memory traffic")))
        << result.error().message.toStdString();
}

TEST(ImportLikwid, BandwidthTimesRuntimeStandsInForAMissingVolume)
{
    const QByteArray csv =
        "TABLE,Group 1 Metric,MEM_DP,4\n"
        "Metric,HWThread 0,HWThread 1\n"
        "Runtime (RDTSC) [s],1,2\n"
        "DP [MFLOP/s],100,300\n"
        "Memory bandwidth [MBytes/s],500,0\n";
    const auto result = importBytes(csv, QStringLiteral("run.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].seconds, 2.0);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].flops, 400e6 * 2.0);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].bytes, 500e6 * 2.0);
}
