// likwid-perfctr and likwid-mpirun output (CSV and ASCII tables): one kernel per region, threads combined from
// their own rates and runtimes.
#include "tests/core/import/import_test_support.h"

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::findKernel;
using ridgeline::test::importFixture;
using ridgeline::test::nearlyEqual;

TEST(ImportLikwid, MemDpFixtureGivesOneKernelPerRegionSummingTheThreads)
{
    const auto result = importBytes(importFixture(QStringLiteral("likwid_mem_dp.csv")),
                                    QStringLiteral("likwid_mem_dp.csv"), ImportFormat::Likwid);
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 2u);
    EXPECT_TRUE(result.value().skipped.empty());

    // triad: 800 MFLOP/s for 0.5 s and 780 MFLOP/s for 0.52 s, the slower thread's 0.52 s, 9.88 GB of memory traffic.
    const KernelResult* triad = findKernel(result.value(), QStringLiteral("triad"), QStringLiteral("MEM_DP"));
    ASSERT_NE(triad, nullptr);
    EXPECT_TRUE(nearlyEqual(triad->seconds, 0.52));
    EXPECT_TRUE(nearlyEqual(triad->flops, 800e6 * 0.5 + 780e6 * 0.52));
    EXPECT_TRUE(nearlyEqual(triad->bytes, 9.88e9));
    EXPECT_TRUE(nearlyEqual(triad->intensity, (800e6 * 0.5 + 780e6 * 0.52) / 9.88e9));
    EXPECT_TRUE(nearlyEqual(triad->gflops, (800e6 * 0.5 + 780e6 * 0.52) / 0.52 / 1e9));
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
    // A file that yields no kernel is refused (it used to import as an empty session).
    const QByteArray csv =
        "TABLE,Region gemm,Group 1 Metric,FLOPS_DP,3\n"
        "Metric,HWThread 0\n"
        "Runtime (RDTSC) [s],2\n"
        "DP [MFLOP/s],5000\n"
        "Vectorization ratio,100\n";
    const auto result = importBytes(csv, QStringLiteral("flops.csv"));
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.startsWith(
        QStringLiteral("flops.csv (likwid-perfctr output): nothing to import: all 1 kernel was skipped (1 x no group "
                       "measures memory traffic (measured: FLOPS_DP); measure MEM_DP, MEM, L3 or L2 as well)")))
        << result.error().message.toStdString();
}

TEST(ImportLikwid, BandwidthTimesRuntimeStandsInForAMissingVolume)
{
    const QByteArray csv =
        "TABLE,Group 1 Metric,MEM_DP,3\n"
        "Metric,HWThread 0,HWThread 1\n"
        "Runtime (RDTSC) [s],1,2\n"
        "DP [MFLOP/s],100,300\n"
        "Memory bandwidth [MBytes/s],500,0\n";
    const auto result = importBytes(csv, QStringLiteral("run.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].seconds, 2.0);
    // Each thread's rate times its own runtime: 100 MFLOP/s for 1 s and 300 MFLOP/s for 2 s; 500 MB/s for 1 s.
    EXPECT_DOUBLE_EQ(result.value().kernels[0].flops, 100e6 * 1.0 + 300e6 * 2.0);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].bytes, 500e6 * 1.0);
}

// Class 4: `likwid-perfctr -m -O` to stdout (likwid 4.3): a text banner and the program's output before the CSV;
// three runs (FLOPS_DP, L3, MEM) of the same regions in one file merge into one kernel per region.
TEST(ImportLikwid, OToStdoutWithBannerAndThreeGroupsGivesOneKernelPerRegion)
{
    const auto result =
        importBytes(importFixture(QStringLiteral("likwid_o_stdout.txt")), QStringLiteral("likwid_o_stdout.txt"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().format, ImportFormat::Likwid);
    ASSERT_EQ(result.value().kernels.size(), 2u);
    const KernelResult& matvec = result.value().kernels[0];
    EXPECT_EQ(matvec.name, QStringLiteral("matvec"));
    EXPECT_EQ(matvec.group, QStringLiteral("FLOPS_DP+MEM+L3"));
    EXPECT_EQ(matvec.precision, QStringLiteral("fp64"));  // likwid 4's "DP MFLOP/s"
    EXPECT_TRUE(nearlyEqual(matvec.seconds, 0.5));        // the FLOPS_DP run's runtime
    EXPECT_TRUE(nearlyEqual(matvec.flops, 800e6 * 0.5));
    EXPECT_EQ(matvec.level, QStringLiteral("DRAM"));
    EXPECT_TRUE(nearlyEqual(matvec.bytes, 2e9));
    ASSERT_EQ(matvec.levels.size(), 1u);
    EXPECT_EQ(matvec.levels[0].level, QStringLiteral("L3"));
    EXPECT_TRUE(nearlyEqual(matvec.levels[0].bytes, 3.2e9));
    const KernelResult& matmat = result.value().kernels[1];
    EXPECT_TRUE(nearlyEqual(matmat.flops, 12500e6 * 2.0));
    EXPECT_TRUE(nearlyEqual(matmat.bytes, 1.6e9));
    ASSERT_EQ(result.value().skipped.size(), 1u);
    EXPECT_EQ(result.value().skipped[0].line, 7);
    EXPECT_TRUE(result.value().skipped[0].reason.startsWith(QStringLiteral("3 lines outside likwid's tables")));
    const QString notes = result.value().notes.join(u'\n');
    EXPECT_TRUE(notes.contains(QStringLiteral("measured on Intel(R) Core(TM) i5-7500 CPU @ 3.40GHz")));
    EXPECT_TRUE(notes.contains(QStringLiteral("2 regions measured by several groups"))) << notes.toStdString();
}

// Class 4: likwid's default ASCII tables (likwid 5, two threads, STAT tables), MEM_DP then FLOPS_DP of the same
// regions. "-" is likwid's missing value: solve's MEM_DP run has no DP rate, so its FLOPs come from FLOPS_DP.
TEST(ImportLikwid, AsciiTablesWithStatTotalsAndAMissingValueTakenFromAnotherGroup)
{
    const auto result = importBytes(importFixture(QStringLiteral("likwid_ascii_markers.txt")),
                                    QStringLiteral("likwid_ascii_markers.txt"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().format, ImportFormat::Likwid);
    ASSERT_EQ(result.value().kernels.size(), 2u);
    const KernelResult& setup = result.value().kernels[0];
    EXPECT_EQ(setup.name, QStringLiteral("<setup>"));
    EXPECT_EQ(setup.group, QStringLiteral("MEM_DP"));  // MEM_DP counts FLOPs and traffic in one run
    EXPECT_TRUE(nearlyEqual(setup.seconds, 2.0578));   // the slower thread
    EXPECT_TRUE(nearlyEqual(setup.flops, 706.5689e6 * 2.0576 + 683.3078e6 * 2.0578));
    EXPECT_TRUE(nearlyEqual(setup.bytes, (1.2986 + 0.6545) * 1e9));
    const KernelResult& solve = result.value().kernels[1];
    EXPECT_EQ(solve.group, QStringLiteral("FLOPS_DP+MEM_DP"));
    EXPECT_TRUE(nearlyEqual(solve.seconds, 266.1));
    EXPECT_TRUE(nearlyEqual(solve.flops, (1214.3741e6 + 1212.4726e6) * 266.1));
    EXPECT_TRUE(nearlyEqual(solve.bytes, (123.5938 + 115.6204) * 1e9));
    EXPECT_TRUE(result.value().notes.join(u'\n').contains(QStringLiteral("Xeon(R) Gold 6132")));
}

// Class 5: a nan skips only its region, and says so.
TEST(ImportLikwid, ANanValueSkipsOnlyItsRegion)
{
    const QByteArray csv =
        "TABLE,Region a,Group 1 Metric,MEM_DP,3\n"
        "Metric,HWThread 0\n"
        "Runtime (RDTSC) [s],1\n"
        "DP [MFLOP/s],nan\n"
        "Memory data volume [GBytes],1\n"
        "TABLE,Region b,Group 1 Metric,MEM_DP,3\n"
        "Metric,HWThread 0\n"
        "Runtime (RDTSC) [s],2\n"
        "DP [MFLOP/s],100\n"
        "Memory data volume [GBytes],1\n";
    const auto result = importBytes(csv, QStringLiteral("nan.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    EXPECT_EQ(result.value().kernels[0].name, QStringLiteral("b"));
    ASSERT_EQ(result.value().skipped.size(), 1u);
    EXPECT_EQ(result.value().skipped[0].what, QStringLiteral("a [MEM_DP]"));
    EXPECT_EQ(result.value().skipped[0].reason.toStdString(),
              std::string("a value is not a number: DP [MFLOP/s] is \"nan\" (line 4)"));
}

TEST(ImportLikwid, AnAsciiTableCutOffIsATruncatedFile)
{
    const QByteArray text =
        "Group 1: MEM_DP\n"
        "+---------------------+------------+\n"
        "|        Metric       | HWThread 0 |\n"
        "+---------------------+------------+\n"
        "| Runtime (RDTSC) [s] |     1      |\n";
    const auto result = importBytes(text, QStringLiteral("cut.txt"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(
        result.error().message.toStdString(),
        std::string("cut.txt (likwid-perfctr output): line 6, column 1: the table that starts on line 2 is cut off (no "
                    "closing +---+ line; a truncated file?)"));
}

namespace {

// One group per file, as a script that runs `likwid-perfctr -g GROUP -m -O ./prog > GROUP.log` writes them.
QByteArray oneGroupRun(const char* group, const char* region, const char* rows)
{
    return QByteArray(
               "--------------------------------------------------------------------------------\n"
               "CPU name:\tIntel(R) Core(TM) i5-7500 CPU @ 3.40GHz\n"
               "--------------------------------------------------------------------------------\n"
               "TABLE,Region ") +
           region + ",Group 1 Metric," + group + ",2\nMetric,Core 3,\n" + rows;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    QFile file(dir.filePath(name));
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    return file.fileName();
}

}  // namespace

// Class 4 across files: FLOPS_DP in one file, L3 in another, the same region: one kernel with FLOPs and bytes.
TEST(ImportLikwid, OneGroupPerFileOfOneProgramIsReadAsOneRun)
{
    QTemporaryDir dir;
    const QString flops = writeFile(dir, QStringLiteral("FLOPS_DP_128.log"),
                                    oneGroupRun("FLOPS_DP", "mv", "Runtime (RDTSC) [s],0.25,\nDP MFLOP/s,2000,\n"));
    const QString l3 = writeFile(dir, QStringLiteral("L3_128.log"),
                                 oneGroupRun("L3", "mv", "Runtime (RDTSC) [s],0.26,\nL3 data volume [GBytes],4,\n"));
    const auto results = importFiles({flops, l3});
    ASSERT_TRUE(results.ok()) << results.error().message.toStdString();
    ASSERT_EQ(results.value().size(), 1u);
    const ImportResult& result = results.value().front();
    EXPECT_EQ(result.fileName, QStringLiteral("FLOPS_DP_128.log + L3_128.log"));
    ASSERT_EQ(result.kernels.size(), 1u);
    EXPECT_EQ(result.kernels[0].group, QStringLiteral("FLOPS_DP+L3"));
    EXPECT_TRUE(nearlyEqual(result.kernels[0].flops, 2000e6 * 0.25));
    EXPECT_EQ(result.kernels[0].level, QStringLiteral("L3"));
    EXPECT_TRUE(nearlyEqual(result.kernels[0].bytes, 4e9));
    EXPECT_EQ(result.kernels[0].source, QStringLiteral("FLOPS_DP_128.log + L3_128.log (likwid)"));
    // Alone, each file gives nothing and is refused.
    EXPECT_FALSE(importFile(flops).ok());
}

TEST(ImportLikwid, FilesOfTheSameGroupAreNotMergedAndSaySo)
{
    QTemporaryDir dir;
    const QString a = writeFile(dir, QStringLiteral("FLOPS_DP_64.log"),
                                oneGroupRun("FLOPS_DP", "mv", "Runtime (RDTSC) [s],0.25,\nDP MFLOP/s,2000,\n"));
    const QString b = writeFile(dir, QStringLiteral("FLOPS_DP_128.log"),
                                oneGroupRun("FLOPS_DP", "mv", "Runtime (RDTSC) [s],1,\nDP MFLOP/s,2100,\n"));
    const auto results = importFiles({a, b});
    ASSERT_FALSE(results.ok());
    EXPECT_TRUE(results.error().message.endsWith(
        QStringLiteral("likwid files are read as one run only when each group of a region comes from one file")))
        << results.error().message.toStdString();
}

// likwid-perfctr -O on four threads that finish at different times: each thread's rate times its own runtime.
// The STAT Sum (8000 MFLOP/s) times the slowest thread's 1 s would claim 8 GFLOP, 8.1 % more than the 7.4 GFLOP
// the threads' RETIRED_SSE_AVX_FLOPS_DOUBLE_ALL counters add up to.
TEST(ImportLikwid, ThreadsThatFinishAtDifferentTimesAddTheirOwnFlops)
{
    const auto result =
        importBytes(importFixture(QStringLiteral("likwid_o_threads.txt")), QStringLiteral("likwid_o_threads.txt"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    const KernelResult& daxpy = result.value().kernels[0];
    EXPECT_EQ(daxpy.name, QStringLiteral("daxpy"));
    EXPECT_TRUE(nearlyEqual(daxpy.flops, 2.0e9 + 1.8e9 + 1.9e9 + 1.7e9)) << daxpy.flops;
    EXPECT_TRUE(nearlyEqual(daxpy.seconds, 1.0));
    EXPECT_TRUE(nearlyEqual(daxpy.bytes, 7.4e9));
    const QString notes = result.value().notes.join(u'\n');
    EXPECT_TRUE(
        notes.contains(QStringLiteral("4 threads combined: FLOPs and bytes summed over threads (each thread's "
                                      "rate x its own runtime), time the slowest thread's")))
        << notes.toStdString();
    EXPECT_TRUE(notes.contains(QStringLiteral("AMD EPYC 9B14"))) << notes.toStdString();
}

// likwid-mpirun's default tables: "Region: R" and "Group: N" (no group name), a column per host:rank:cpu, "nil"
// where a rank has no value, and the program's output in ANSI colours around them.
TEST(ImportLikwid, MpirunTablesCombineRanksAndTolerateNilAndColours)
{
    const QByteArray bytes = importFixture(QStringLiteral("likwid_mpirun_ascii.txt"));
    ASSERT_TRUE(bytes.contains('\x1b'));
    const auto result = importBytes(bytes, QStringLiteral("likwid_mpirun_ascii.txt"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().format, ImportFormat::Likwid);
    ASSERT_EQ(result.value().kernels.size(), 2u);
    const KernelResult& sweep = result.value().kernels[0];
    EXPECT_EQ(sweep.name, QStringLiteral("sweep"));
    EXPECT_EQ(sweep.group, QStringLiteral("group 1"));
    EXPECT_TRUE(nearlyEqual(sweep.flops, 1500e6 * 1.2 + 1500e6 * 1.1 + 1400e6 * 1.3 + 1400e6 * 1.25));
    EXPECT_TRUE(nearlyEqual(sweep.seconds, 1.3));
    EXPECT_TRUE(nearlyEqual(sweep.bytes, (9.6 + 9.75) * 1e9));
    const KernelResult& halo = result.value().kernels[1];
    EXPECT_EQ(halo.name, QStringLiteral("halo"));
    EXPECT_TRUE(nearlyEqual(halo.flops, 50e6 * 0.2 * 2));
    EXPECT_TRUE(nearlyEqual(halo.seconds, 0.2));
    EXPECT_TRUE(nearlyEqual(halo.bytes, 0.4e9));
    const QString notes = result.value().notes.join(u'\n');
    EXPECT_TRUE(notes.contains(QStringLiteral("likwid-mpirun tables")));
    EXPECT_TRUE(notes.contains(QStringLiteral("2 ranks, 4 threads in all combined")));
    EXPECT_TRUE(notes.contains(QStringLiteral("8 \"nil\" cells (a rank without a value for the region) add nothing")))
        << notes.toStdString();
    // The EXEC lines and the coloured program output are reported as lines outside the tables, without escapes.
    ASSERT_EQ(result.value().skipped.size(), 1u);
    EXPECT_EQ(result.value().skipped[0].reason,
              QStringLiteral("4 lines outside likwid's tables (the program's output?)"));
}

// likwid-mpirun -O: the perfctr CSV's TABLE lines with host:rank:cpu columns and no STRUCT block.
TEST(ImportLikwid, MpirunCsvCombinesRanks)
{
    const QByteArray csv =
        "TABLE,Region solve,Group 1 Metric,FLOPS_DP,3,,\n"
        "Metric,n1:0:0,n2:1:0,n2:1:1\n"
        "Runtime (RDTSC) [s],2,1.5,nil\n"
        "DP [MFLOP/s],1000,1200,nil\n"
        "Vectorization ratio,50,50,nil\n"
        "TABLE,Region solve,Group 2 Metric,MEM,3,,\n"
        "Metric,n1:0:0,n2:1:0,n2:1:1\n"
        "Runtime (RDTSC) [s],2.1,1.6,nil\n"
        "Memory bandwidth [MBytes/s],1000,500,nil\n"
        "Memory data volume [GBytes],2.1,0.8,nil\n";
    const auto result = importBytes(csv, QStringLiteral("mpirun.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    const KernelResult& solve = result.value().kernels[0];
    EXPECT_EQ(solve.group, QStringLiteral("FLOPS_DP+MEM"));
    EXPECT_TRUE(nearlyEqual(solve.flops, 1000e6 * 2 + 1200e6 * 1.5));
    EXPECT_TRUE(nearlyEqual(solve.seconds, 2.0));
    EXPECT_TRUE(nearlyEqual(solve.bytes, 2.9e9));
    EXPECT_TRUE(result.value().notes.join(u'\n').contains(QStringLiteral("likwid-mpirun CSV")));
}

// A nil runtime with a number beside it is still read as "this rank has nothing"; a "-" in a thread of a rate
// the importer reads still skips the region, as with likwid-perfctr.
TEST(ImportLikwid, AMissingValueInOneThreadStillSkipsTheRegion)
{
    const QByteArray csv =
        "TABLE,Region a,Group 1 Metric,MEM_DP,3\n"
        "Metric,HWThread 0,HWThread 1\n"
        "Runtime (RDTSC) [s],1,1\n"
        "DP [MFLOP/s],100,-\n"
        "Memory data volume [GBytes],1,0\n";
    const auto result = importBytes(csv, QStringLiteral("dash.csv"));
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.error().message.contains(QStringLiteral("DP [MFLOP/s] is \"-\" (line 4)")))
        << result.error().message.toStdString();
}
