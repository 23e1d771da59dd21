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
    // A CPU with AMX (issue 16): the int8 tiles do more operations than any FLOP roof, but they are not FLOPs.
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
