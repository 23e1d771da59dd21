// Nsight Compute as users export it: the shapes of real exports (tests/data/README.md says which
// files they reproduce), each against FLOPs, bytes and times worked out by hand from the fixture's counters.
#include "tests/core/import/import_test_support.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::findKernel;
using ridgeline::test::importFixture;
using ridgeline::test::nearlyEqual;

namespace {

Result<ImportResult> importNcu(const char* fixture)
{
    return importBytes(importFixture(QString::fromLatin1(fixture)), QString::fromLatin1(fixture),
                       ImportFormat::NsightCompute);
}

QString notesOf(const ImportResult& result)
{
    return result.notes.join(u'\n');
}

// The level's bytes, or -1 when the kernel has no such level.
double bytesAt(const KernelResult& kernel, const QString& level)
{
    if (kernel.level == level)
        return kernel.bytes;
    for (const LevelPoint& point : kernel.levels)
        if (point.level == level)
            return point.bytes;
    return -1.0;
}

}  // namespace

// Class 1: with rule sections collected, metric rows have 13 of the header's 15 fields. Class 2: NERSC's metric
// set has no gpu__time_duration.sum; the time is sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second.
TEST(ImportNcuExports, RuleColumnsLeftOffMetricRowsAndTimeFromSmCycles)
{
    const auto result = importNcu("ncu_nersc_rules.csv");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 2u);
    const KernelResult* add = findKernel(result.value(), QStringLiteral("at::native::vectorized_elementwise_kernel"));
    ASSERT_NE(add, nullptr);
    EXPECT_TRUE(nearlyEqual(add->seconds, 14'080 / 1.1e9)) << add->seconds;
    EXPECT_TRUE(nearlyEqual(add->flops, 1'048'576));  // FADD
    EXPECT_EQ(add->precision, QStringLiteral("fp32"));
    EXPECT_TRUE(nearlyEqual(bytesAt(*add, QStringLiteral("DRAM")), 12'582'912));
    EXPECT_TRUE(nearlyEqual(bytesAt(*add, QStringLiteral("L2")), 12'601'344));
    EXPECT_TRUE(nearlyEqual(bytesAt(*add, QStringLiteral("L1")), 12'582'912));
    EXPECT_TRUE(notesOf(result.value())
                    .contains(QStringLiteral("time from sm__cycles_elapsed.avg / sm__cycles_elapsed.avg.per_second")));
    // The program's output before the header, and a copy kernel without FLOPs, are reported.
    ASSERT_EQ(result.value().skipped.size(), 2u);
    EXPECT_EQ(result.value().skipped[0].line, 3);
    EXPECT_TRUE(result.value().skipped[0].reason.startsWith(QStringLiteral("3 lines before the table")));
    EXPECT_EQ(result.value().skipped[1].what, QStringLiteral("at::native::{anonymous}::CatArrayBatchedCopy (ID 2)"));
}

// Class 3: an Ampere HMMA GEMM with 131,072 tensor-pipe instructions (HFMA2 among them) and no ops_path counters:
// FLOPs are Nsight Compute's 4 HFMA + 2 HADD + 2 FFMA, nothing for the pipe's instructions; the old importer
// gave 512 x 131,072 more (56 times the count).
TEST(ImportNcuExports, HalfPrecisionIsCountedAsNsightComputeCountsItAndTensorPipeIsNot)
{
    const auto result = importNcu("ncu_nersc_rules.csv");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    const KernelResult* gemm =
        findKernel(result.value(), QStringLiteral("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn"));
    ASSERT_NE(gemm, nullptr);
    EXPECT_TRUE(nearlyEqual(gemm->flops, 4.0 * 262'144 + 2.0 * 65'536 + 2.0 * 8'192)) << gemm->flops;
    EXPECT_EQ(gemm->precision, QStringLiteral("mixed"));
    EXPECT_FALSE(gemm->tensorFlopsCounted);
    EXPECT_TRUE(nearlyEqual(gemm->seconds, 90'112 / 1.41e9));  // 1.41 cycle/nsecond
    EXPECT_TRUE(nearlyEqual(gemm->bytes, 33.55e6));
    EXPECT_TRUE(notesOf(result.value()).contains(QStringLiteral("1 of 3 kernels ran tensor-pipe instructions")));
}

// ncu 2025: "Estimated Speedup Type","Estimated Speedup" make 20 columns and metric rows 16 fields; numbers are
// plain, frequencies in "hz", the NERSC list with the smsp__ prefix. One kernel has a nan counter.
TEST(ImportNcuExports, Ncu2025ColumnsSmspCyclesAndANanCounterSkipsOnlyItsKernel)
{
    const auto result = importNcu("ncu_2025_details.csv");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 2u);
    const KernelResult& dgemm = result.value().kernels[0];
    EXPECT_EQ(dgemm.name, QStringLiteral("dgemm_kernel"));
    EXPECT_TRUE(nearlyEqual(dgemm.flops, 2.0 * 4'194'304));
    EXPECT_EQ(dgemm.precision, QStringLiteral("fp64"));
    EXPECT_TRUE(nearlyEqual(dgemm.seconds, 20'000 / 1.98e9));
    EXPECT_TRUE(nearlyEqual(dgemm.bytes, 6'291'456));
    const KernelResult& norm = result.value().kernels[1];
    EXPECT_TRUE(nearlyEqual(norm.flops, 131'072 + 65'536 + 2.0 * 262'144));
    EXPECT_TRUE(nearlyEqual(norm.seconds, 2.5e-6));
    EXPECT_TRUE(nearlyEqual(bytesAt(norm, QStringLiteral("L2")), 4'194'304));
    ASSERT_EQ(result.value().skipped.size(), 1u);
    EXPECT_EQ(result.value().skipped[0].what, QStringLiteral("layer_norm_kernel (ID 1)"));
    EXPECT_EQ(result.value().skipped[0].reason.toStdString(),
              std::string("a counter is not a finite number: lts__t_bytes.sum is \"nan\" (line 22)"));
}

// `--set roofline --page raw`: only rates (per cycle, per second), Nsight Compute's derived__smsp__ x2/x4
// metrics, tensor operations by source type. derived__sm__ columns are peaks and must not be counted.
TEST(ImportNcuExports, RawRooflineSetGivesCountsFromRatesAndTensorOperations)
{
    const auto result = importNcu("ncu_raw_roofline_set.csv");
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 4u);
    const auto& kernels = result.value().kernels;
    // GEMM: 2,147,483,648 fp16 tensor operations (src_fp16; its op_hgmma split is the same work) + FFMA x2 rate
    // 20.48 per cycle x 100,000 smsp cycles; L2 and L1 from the derived byte rates x 61.44 us.
    EXPECT_TRUE(nearlyEqual(kernels[0].flops, 2'147'483'648.0 + 2'048'000)) << kernels[0].flops;
    EXPECT_EQ(kernels[0].precision, QStringLiteral("mixed"));
    EXPECT_TRUE(kernels[0].tensorFlopsCounted);
    EXPECT_TRUE(nearlyEqual(kernels[0].bytes, 6'291'456 + 2'097'152));
    EXPECT_TRUE(nearlyEqual(bytesAt(kernels[0], QStringLiteral("L2")), 2.048e11 * 61.44e-6));
    EXPECT_TRUE(nearlyEqual(bytesAt(kernels[0], QStringLiteral("L1")), 4.096e11 * 61.44e-6));
    EXPECT_TRUE(nearlyEqual(kernels[0].seconds, 61.44e-6));
    // FP8 dense + sparse (0); the int8 operations are not FLOPs; L2 is "no data".
    EXPECT_TRUE(nearlyEqual(kernels[1].flops, 1'073'741'824.0));
    EXPECT_EQ(kernels[1].precision, QStringLiteral("tensor-fp8"));
    EXPECT_EQ(bytesAt(kernels[1], QStringLiteral("L2")), -1.0);
    // FP64 from the DFMA x2 rate and the DADD rate; FP16 from HFMA x4 and HADD x2.
    EXPECT_TRUE(nearlyEqual(kernels[2].flops, 102.4 * 40'000 + 25.6 * 40'000));
    EXPECT_EQ(kernels[2].precision, QStringLiteral("fp64"));
    EXPECT_TRUE(nearlyEqual(kernels[3].flops, 204.8 * 20'000 + 10.24 * 20'000));
    EXPECT_EQ(kernels[3].precision, QStringLiteral("fp16"));
    EXPECT_TRUE(notesOf(result.value()).contains(QStringLiteral("integer tensor operations")));
}

// Class 5: names a newer ncu writes, or sections the importer does not read, never block the file.
TEST(ImportNcuExports, UnknownMetricsAndDerivedColumnsDoNotBlock)
{
    const QByteArray csv =
        "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"k\",\"Command line profiler metrics\",\"dram__bytes_op_read.sum\",\"byte\",\"7\"\n"
        "\"0\",\"k\",\"Command line profiler metrics\",\"dram__bytes_op_write.sum\",\"byte\",\"9\"\n"
        "\"0\",\"k\",\"Command line profiler metrics\",\"derived__memory_l1_wavefronts_shared_excessive\",\"\",\"x\"\n"
        "\"0\",\"k\",\"Command line profiler metrics\",\"sm__inst_executed_pipe_tensor_op_hmma.sum\",\"inst\",\"4\"\n"
        "\"0\",\"k\",\"Command line profiler "
        "metrics\",\"sm__ops_path_tensor_op_utcqmma_src_fp8_dst_fp32_sparsity_off.sum\","
        "\"\",\"5\"\n"
        "\"0\",\"k\",\"Command line profiler metrics\",\"dram__bytes.sum\",\"byte\",\"1,000\"\n"
        "\"0\",\"k\",\"Command line profiler metrics\",\"gpu__time_duration.sum\",\"us\",\"1\"\n"
        "\"0\",\"k\",\"Command line profiler metrics\",\"sm__sass_thread_inst_executed_op_fadd_pred_on.sum\",\"inst\","
        "\"500\"\n";
    const auto result = importBytes(csv, QStringLiteral("new.csv"));
    ASSERT_TRUE(result.ok()) << result.error().message.toStdString();
    ASSERT_EQ(result.value().kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].flops, 500.0);
    EXPECT_DOUBLE_EQ(result.value().kernels[0].bytes, 1000.0);
}

TEST(ImportNcuExports, ATrulyShortRowIsStillATruncatedLine)
{
    // The row stops before "Metric Value": not the rule columns ncu leaves off.
    const QByteArray csv =
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\"\n"
        "\"0\",\"k\",\"gpu__time_duration.sum\",\"ns\"\n";
    const auto result = importBytes(csv, QStringLiteral("cut.csv"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message.toStdString(),
              std::string("cut.csv (Nsight Compute CSV): line 2, column 36: 4 fields where the header on line 1 has 6 "
                          "(a truncated line?)"));
}

// Class 5: the message names what is missing and the ncu option that collects it.
TEST(ImportNcuExports, AFileWithoutFlopCountersSaysWhichAndHowToCollectThem)
{
    // The default sections of ncu 2025 (Speed Of Light, launch statistics): a duration, no FLOPs, no bytes.
    const QByteArray csv =
        "\"ID\",\"Kernel Name\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\","
        "\"Rule Type\",\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"\n"
        "\"0\",\"k\",\"GPU Speed Of Light Throughput\",\"DRAM Frequency\",\"hz\",\"3995313115.40\",\n"
        "\"0\",\"k\",\"GPU Speed Of Light Throughput\",\"Duration\",\"ns\",\"406240\",\n"
        "\"0\",\"k\",\"GPU Speed Of Light Throughput\",\"Memory Throughput\",\"%\",\"21.68\",\n"
        "\"0\",\"k\",\"SpeedOfLight\",\"\",\"\",\"\",\"SOLBottleneck\",\"OPT\",\"low compute throughput\",\"\",\"\"\n";
    const auto result = importBytes(csv, QStringLiteral("default.csv"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message.toStdString(),
              std::string("default.csv (Nsight Compute CSV): line 1, column 1: the file has no FLOP counters "
                          "(sm__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum, or their "
                          ".per_cycle_elapsed forms; tensor work: sm__ops_path_tensor_src_*), no memory traffic "
                          "(dram__bytes.sum or dram__bytes_read.sum + dram__bytes_write.sum, lts__t_bytes.sum, "
                          "l1tex__t_bytes.sum); collect them with `ncu --csv --page raw --set roofline`, or --metrics "
                          "with the names above (NERSC's roofline list)"));
}

TEST(ImportNcuExports, AnExportOfOnlyTheRooflineSectionIsToldToUseTheRawPage)
{
    // `ncu --section SpeedOfLight_RooflineChart --csv` (details page): the chart's counters are not listed.
    const QByteArray csv =
        "\"ID\",\"Kernel Name\",\"Kernel Time\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\","
        "\"Rule Name\",\"Rule Type\",\"Rule Description\"\n"
        "\"0\",\"conv\",\"2023-Mar-01 19:10:59\",\"SpeedOfLight_RooflineChart\",\"\",\"\",\"\",\"SOLFPRoofline\","
        "\"INF\",\"The ratio of peak float (fp32) to double (fp64) performance on this device is 2:1.\"\n";
    const auto result = importBytes(csv, QStringLiteral("roofline.csv"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message.toStdString(),
              std::string("roofline.csv (Nsight Compute CSV): line 1, column 1: only rule results (sections "
                          "SpeedOfLight_RooflineChart), no metric values: the details page does not list the roofline "
                          "charts' counters; export them with `ncu --csv --page raw --section "
                          "SpeedOfLight_RooflineChart` (or --set roofline)"));
}

TEST(ImportNcuExports, AFileOfOnlyLogLinesSaysWhatNcuReported)
{
    const QByteArray text =
        "==PROF== Connected to process 252579 (/usr/bin/python3.12)\n"
        "==PROF== Disconnected from process 252579\n"
        "==ERROR== The application returned an error code (1).\n";
    const auto result = importBytes(text, QStringLiteral("failed.ncu.csv"), ImportFormat::NsightCompute);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message.toStdString(),
              std::string("failed.ncu.csv (Nsight Compute CSV): line 1, column 1: no Nsight Compute table, only ncu's "
                          "log lines; ncu reported: ==ERROR== The application returned an error code (1)."));
}

// A file whose every kernel is skipped gives nothing: it is refused, with the reasons counted.
TEST(ImportNcuExports, AFileThatYieldsNothingIsRefusedWithItsReasons)
{
    const QByteArray csv =
        "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"copy\",\"gpu__time_duration.sum\",\"ns\",\"100\"\n"
        "\"0\",\"copy\",\"dram__bytes.sum\",\"byte\",\"100\"\n"
        "\"0\",\"copy\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\",\"0\"\n"
        "\"1\",\"copy\",\"gpu__time_duration.sum\",\"ns\",\"100\"\n"
        "\"1\",\"copy\",\"dram__bytes.sum\",\"byte\",\"100\"\n"
        "\"1\",\"copy\",\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"inst\",\"0\"\n";
    const auto result = importBytes(csv, QStringLiteral("copies.csv"));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().message.toStdString(),
              std::string("copies.csv (Nsight Compute CSV): nothing to import: all 2 kernels were skipped (2 x no "
                          "floating-point instructions executed (a copy, integer or tensor-only kernel?))"));
}

// Class 7: kernels keep the GPU they ran on. The raw page's device__attribute_display_name names it and the
// catalog's names find it; without that metric the kernels are still GPU kernels (never this CPU's), with no GPU.
TEST(ImportNcuExports, KernelsKeepTheGpuTheFileNames)
{
    const auto named = importNcu("ncu_raw_roofline_set.csv");
    ASSERT_TRUE(named.ok()) << named.error().message.toStdString();
    for (const KernelResult& kernel : named.value().kernels) {
        EXPECT_EQ(kernel.device.kind, QStringLiteral("gpu"));
        EXPECT_EQ(kernel.device.name, QStringLiteral("NVIDIA H100 80GB HBM3"));
        EXPECT_EQ(kernel.device.gpu, QStringLiteral("h100-sxm"));
        EXPECT_EQ(kernel.device.basis, QStringLiteral("the profiler's device name"));
    }
    EXPECT_TRUE(notesOf(named.value())
                    .contains(QStringLiteral(
                        "4 kernels ran on NVIDIA H100 80GB HBM3: drawn on the roofline of catalog GPU h100-sxm")))
        << notesOf(named.value()).toStdString();

    const auto unnamed = importNcu("ncu_details.csv");
    ASSERT_TRUE(unnamed.ok());
    for (const KernelResult& kernel : unnamed.value().kernels) {
        EXPECT_TRUE(kernel.device.isGpu());
        EXPECT_TRUE(kernel.device.name.isEmpty());
        EXPECT_TRUE(kernel.device.gpu.isEmpty());
    }
    EXPECT_TRUE(
        notesOf(unnamed.value())
            .contains(QStringLiteral(
                "3 kernels ran on a GPU the file does not name (Nsight Compute's device__attribute_display_name "
                "was not collected): without a catalog GPU they are drawn without a roof; `ridgeline import "
                "--device ID`")))
        << notesOf(unnamed.value()).toStdString();
}

// The details page: device__attribute_display_name as a metric row of its own; a card the catalog lacks keeps its
// name and gets no GPU; an older export's "Device" column that names the device (with its index) is read too.
TEST(ImportNcuExports, DetailsRowsAndDeviceColumnsNameTheGpu)
{
    // ncu writes the metric for every kernel: a row of its own under each kernel's first metric.
    QByteArray details;
    for (const QByteArray& line : importFixture(QStringLiteral("ncu_details.csv")).split('\n')) {
        details += line + '\n';
        const qsizetype metric = line.indexOf(",\"dram__bytes_read.sum\",");
        if (metric > 0)
            details += line.left(metric) + ",\"device__attribute_display_name\",\"\",\"NVIDIA A100-SXM4-40GB\"\n";
    }
    const auto a100 = importBytes(details, QStringLiteral("a100.csv"), ImportFormat::NsightCompute);
    ASSERT_TRUE(a100.ok()) << a100.error().message.toStdString();
    ASSERT_EQ(a100.value().kernels.size(), 3u);
    for (const KernelResult& kernel : a100.value().kernels) {
        EXPECT_EQ(kernel.device.gpu, QStringLiteral("a100-40gb-sxm")) << kernel.name.toStdString();
        EXPECT_EQ(kernel.device.name, QStringLiteral("NVIDIA A100-SXM4-40GB"));
    }

    QByteArray v100 = importFixture(QStringLiteral("ncu_raw.csv"));
    v100.replace("\"7\",\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",",
                 "\"7\",\"(256, 1, 1)\",\"(4096, 1, 1)\",\"Tesla "
                 "V100-SXM2-16GB (0)\",");
    const auto old = importBytes(v100, QStringLiteral("v100.csv"), ImportFormat::NsightCompute);
    ASSERT_TRUE(old.ok()) << old.error().message.toStdString();
    const KernelResult& first = old.value().kernels.front();
    EXPECT_EQ(first.device.name, QStringLiteral("Tesla V100-SXM2-16GB"));
    EXPECT_TRUE(first.device.gpu.isEmpty());  // not in the catalog: asked, never a neighbour's roof
    EXPECT_TRUE(
        notesOf(old.value())
            .contains(QStringLiteral("1 kernel ran on \"Tesla V100-SXM2-16GB\", which is not in the GPU catalog")))
        << notesOf(old.value()).toStdString();
}
