// THE roof rule (core/session/session_roof.h), on sessions shaped like real ones: the engine's (one ceiling per
// level, whichever mix was faster), a hand-written one with read and triad at DRAM, and imports.

#include "core/session/session_roof.h"

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

ComputeCeiling compute(const char* name, const char* precision, double gflops)
{
    ComputeCeiling c;
    c.name = QString::fromLatin1(name);
    c.precision = QString::fromLatin1(precision);
    c.gflops = gflops;
    return c;
}

BandwidthCeiling bandwidth(const char* level, const char* mix, double gbps)
{
    BandwidthCeiling b;
    b.level = QString::fromLatin1(level);
    b.mix = QString::fromLatin1(mix);
    b.gbps = gbps;
    return b;
}

// The bundled Zen 4 measurement: DRAM's plateau came out fastest in the triad mix, so its only DRAM ceiling is
// a triad one.
Session zen4()
{
    Session s;
    s.computeCeilings = {compute("fp32 avx512 x2 threads", "fp32", 232.0),
                         compute("fp64 avx512 x2 threads", "fp64", 116.0),
                         compute("fp32 scalar x1 thread", "fp32", 14.6)};
    s.bandwidthCeilings = {bandwidth("L1", "triad", 519.2), bandwidth("L2", "read", 231.6),
                           bandwidth("L3", "read", 194.9), bandwidth("DRAM", "triad", 37.0)};
    return s;
}

}  // namespace

TEST(SessionRoof, TheBestComputeCeilingOfAnyPrecisionOverDram)
{
    const Session s = zen4();
    const std::optional<SessionRoof> roof = primaryRoof(s);
    ASSERT_TRUE(roof.has_value());
    EXPECT_EQ(roof->compute->name, QStringLiteral("fp32 avx512 x2 threads"));
    EXPECT_EQ(roof->memory->level, QStringLiteral("DRAM"));
    EXPECT_DOUBLE_EQ(roof->roof().peakGflops, 232.0);
    EXPECT_DOUBLE_EQ(roof->roof().bandwidthGbps, 37.0);
}

TEST(SessionRoof, AtOneLevelTheReadCeilingWinsOverAFasterTriad)
{
    Session s = zen4();
    s.bandwidthCeilings.push_back(bandwidth("DRAM", "read", 33.0));
    EXPECT_EQ(memoryCeiling(s)->mix, QStringLiteral("read"));
    EXPECT_DOUBLE_EQ(memoryCeiling(s)->gbps, 33.0);
    // Without a read ceiling, the best of the level's other mixes.
    s.bandwidthCeilings.push_back(bandwidth("L1", "ERT", 600.0));
    EXPECT_DOUBLE_EQ(memoryCeiling(s, u"L1")->gbps, 600.0);
}

TEST(SessionRoof, ASessionWithoutDramFallsBackToItsSlowestLevel)
{
    Session s;
    s.computeCeilings = {compute("fp64", "fp64", 4000.0)};
    s.bandwidthCeilings = {bandwidth("L1", "ERT", 9000.0), bandwidth("L2", "ERT", 3000.0)};
    const std::optional<SessionRoof> roof = primaryRoof(s);
    ASSERT_TRUE(roof.has_value());
    EXPECT_EQ(roof->memory->level, QStringLiteral("L2"));
    EXPECT_EQ(memoryCeiling(s), nullptr);  // asked for DRAM itself, there is none
}

TEST(SessionRoof, ZeroCeilingsNeverMakeARoof)
{
    Session s;
    s.computeCeilings = {compute("fp32", "fp32", 0.0)};
    s.bandwidthCeilings = {bandwidth("DRAM", "read", 0.0)};
    EXPECT_EQ(bestComputeCeiling(s), nullptr);
    EXPECT_EQ(memoryCeiling(s), nullptr);
    EXPECT_FALSE(primaryRoof(s).has_value());
    s.computeCeilings.push_back(compute("fp64", "fp64", 50.0));
    EXPECT_FALSE(primaryRoof(s).has_value());  // still no bandwidth
}

TEST(SessionRoof, APrecisionPicksItsOwnBestAndAKernelFallsBackToAny)
{
    const Session s = zen4();
    EXPECT_DOUBLE_EQ(bestComputeCeiling(s, u"fp64")->gflops, 116.0);
    EXPECT_EQ(bestComputeCeiling(s, u"bf16"), nullptr);
    // A bf16 kernel (an import) on this CPU: the best ceiling of any precision, at its level.
    const std::optional<SessionRoof> roof = roofFor(s, u"bf16", u"L2");
    ASSERT_TRUE(roof.has_value());
    EXPECT_DOUBLE_EQ(roof->roof().peakGflops, 232.0);
    EXPECT_DOUBLE_EQ(roof->roof().bandwidthGbps, 231.6);
    // A level that was not measured: the slowest one, the safe roof.
    EXPECT_EQ(roofFor(s, u"fp32", u"L4")->memory->level, QStringLiteral("DRAM"));
}

TEST(SessionRoof, SlowestAndFastestIgnoreEmptyCeilings)
{
    Session s = zen4();
    s.bandwidthCeilings.push_back(bandwidth("L4", "read", 0.0));
    EXPECT_DOUBLE_EQ(slowestBandwidthCeiling(s)->gbps, 37.0);
    EXPECT_DOUBLE_EQ(fastestBandwidthCeiling(s)->gbps, 519.2);
}

TEST(SessionRoof, Int8OperationsNeverMakeTheFloatingPointRoof)
{
    // A CPU with AMX: the int8 tiles do more operations than any FLOP roof, but they are not FLOPs.
    Session s = zen4();
    s.computeCeilings.push_back(compute("bf16 amx x2", "bf16", 6600.0));
    s.computeCeilings.push_back(compute("int8 amx x2", "int8", 13800.0));
    ASSERT_NE(bestComputeCeiling(s), nullptr);
    EXPECT_EQ(bestComputeCeiling(s)->name, QStringLiteral("bf16 amx x2"));
    EXPECT_DOUBLE_EQ(primaryRoof(s)->roof().peakGflops, 6600.0);
    EXPECT_DOUBLE_EQ(bestComputeCeiling(s, u"int8")->gflops, 13800.0);
    EXPECT_DOUBLE_EQ(roofFor(s, u"int8", u"DRAM")->roof().peakGflops, 13800.0);
    EXPECT_DOUBLE_EQ(roofFor(s, u"fp32", u"DRAM")->roof().peakGflops, 232.0);

    // Only int8 ceilings (an import of an inference accelerator's): that is the roof there is.
    Session onlyInt8;
    onlyInt8.computeCeilings = {compute("int8 amx x2", "int8", 13800.0)};
    ASSERT_NE(bestComputeCeiling(onlyInt8), nullptr);
    EXPECT_DOUBLE_EQ(bestComputeCeiling(onlyInt8)->gflops, 13800.0);
}

// GPU kernels ----------------------------------------------------------------------------------------

namespace {

// An Nsight Compute kernel that ran on a catalog GPU, at DRAM with an L2 point.
KernelResult gpuKernel(const char* precision, const char* gpu, const char* level = "DRAM")
{
    KernelResult k;
    k.name = QStringLiteral("k");
    k.kind = QStringLiteral("imported");
    k.precision = QString::fromLatin1(precision);
    k.level = QString::fromLatin1(level);
    k.device.kind = QStringLiteral("gpu");
    k.device.gpu = QString::fromLatin1(gpu);
    return k;
}

}  // namespace

TEST(SessionRoof, AGpusCatalogFiguresBecomeCeilingsLikeAMeasuredSessions)
{
    const Session* a100 = catalogGpuCeilings(u"a100-40gb-sxm");
    ASSERT_NE(a100, nullptr);
    EXPECT_EQ(a100->machine.cpuModel, QStringLiteral("NVIDIA A100 40GB SXM4"));
    // fp64 9.7 (vector), fp32 19.5, tf32/bf16/fp16 tensor 156/312/312, int8 624 TOPS: in GFLOP/s.
    EXPECT_DOUBLE_EQ(bestComputeCeiling(*a100, u"fp64")->gflops, 9700.0);
    EXPECT_DOUBLE_EQ(bestComputeCeiling(*a100, u"fp32")->gflops, 19500.0);
    EXPECT_DOUBLE_EQ(bestComputeCeiling(*a100, u"tensor-tf32")->gflops, 156000.0);
    EXPECT_DOUBLE_EQ(bestComputeCeiling(*a100, u"int8")->gflops, 624000.0);
    EXPECT_EQ(bestComputeCeiling(*a100, u"tensor-bf16")->name, QStringLiteral("bf16 tensor"));
    // DRAM is the datasheet's 1,555 GB/s, L2 and L1 the published measurements.
    EXPECT_DOUBLE_EQ(memoryCeiling(*a100)->gbps, 1555.0);
    EXPECT_EQ(memoryCeiling(*a100)->mix, QStringLiteral("datasheet"));
    EXPECT_DOUBLE_EQ(memoryCeiling(*a100, u"L2")->gbps, 5400.0);
    EXPECT_DOUBLE_EQ(memoryCeiling(*a100, u"L1")->gbps, 19100.0);
    EXPECT_EQ(catalogGpuCeilings(u"no-such-gpu"), nullptr);
    // A card without published cache figures has DRAM only.
    const Session* b200 = catalogGpuCeilings(u"b200");
    ASSERT_NE(b200, nullptr);
    EXPECT_EQ(b200->bandwidthCeilings.size(), 1u);
}

TEST(SessionRoof, AGpuKernelIsHeldToItsGpusRoofNeverTheSessions)
{
    const Session cpu = zen4();
    const std::optional<SessionRoof> dgemm = kernelRoof(cpu, gpuKernel("fp64", "a100-40gb-sxm"), u"L1");
    ASSERT_TRUE(dgemm.has_value());
    EXPECT_DOUBLE_EQ(dgemm->roof().peakGflops, 9700.0);     // the A100's fp64, not the CPU's 116
    EXPECT_DOUBLE_EQ(dgemm->roof().bandwidthGbps, 1555.0);  // its own level (DRAM), not the level asked for a CPU
    const std::optional<SessionRoof> atL2 = kernelRoof(cpu, gpuKernel("fp32", "a100-40gb-sxm", "L2"), u"DRAM");
    ASSERT_TRUE(atL2.has_value());
    EXPECT_DOUBLE_EQ(atL2->roof().peakGflops, 19500.0);
    EXPECT_DOUBLE_EQ(atL2->roof().bandwidthGbps, 5400.0);
    // A precision the catalog has no peak for (fp16 on the vector units, mixed) is held to the best floating-point
    // one: an upper bound. int8 operations never stand in for FLOPs.
    const std::optional<SessionRoof> mixed = kernelRoof(cpu, gpuKernel("mixed", "a100-40gb-sxm"), u"DRAM");
    ASSERT_TRUE(mixed.has_value());
    EXPECT_DOUBLE_EQ(mixed->roof().peakGflops, 312000.0);
    // No L2 figure for this card: the slowest level, DRAM, holds.
    EXPECT_DOUBLE_EQ(kernelRoof(cpu, gpuKernel("fp32", "b200", "L2"), u"DRAM")->roof().bandwidthGbps, 7700.0);
    // A GPU the catalog does not know, or none at all: no roof, and certainly not the CPU's.
    EXPECT_FALSE(kernelRoof(cpu, gpuKernel("fp32", ""), u"DRAM").has_value());
    EXPECT_FALSE(kernelRoof(cpu, gpuKernel("fp32", "v100-sxm2"), u"DRAM").has_value());
    // A kernel of this machine keeps the session's roof.
    KernelResult own = gpuKernel("fp32", "a100-40gb-sxm");
    own.device = KernelDevice{};
    EXPECT_DOUBLE_EQ(kernelRoof(cpu, own, u"DRAM")->roof().peakGflops, 232.0);
}
