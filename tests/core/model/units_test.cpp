// FLOP/s for people: the axis unit for a range, and one rate with its unit (core/model/units.h).

#include "core/model/units.h"

#include <gtest/gtest.h>

#include <limits>

using namespace ridgeline;

TEST(Units, AnAxisOfCpuRatesStaysInGflops)
{
    EXPECT_EQ(flopRateUnitFor(0.5, 500.0).name, QStringLiteral("GFLOP/s"));
    EXPECT_EQ(flopRateUnitFor(0.5, 9000.0).gflops, 1.0);
}

TEST(Units, GpuRoofsSwitchTheAxisToTflopsOrPflops)
{
    // A CPU's 0.5 GFLOP/s beside an H100's 989 TFLOP/s (axis top 2.2 PFLOP/s): TFLOP/s, bottom tick 0.001.
    const FlopRateUnit h100 = flopRateUnitFor(0.5, 2.2e6);
    EXPECT_EQ(h100.name, QStringLiteral("TFLOP/s"));
    EXPECT_EQ(h100.gflops, 1e3);
    // GPU kernels only, up to 20 PFLOP/s: PFLOP/s.
    EXPECT_EQ(flopRateUnitFor(2e3, 2e7).name, QStringLiteral("PFLOP/s"));
    // The same top with a CPU's 0.5 GFLOP/s at the bottom would need 5e-7 PFLOP/s ticks: TFLOP/s instead.
    EXPECT_EQ(flopRateUnitFor(0.5, 2e7).name, QStringLiteral("TFLOP/s"));
    EXPECT_EQ(flopRateUnitFor(0.5, std::numeric_limits<double>::infinity()).name, QStringLiteral("GFLOP/s"));
}

TEST(Units, ARateCarriesTheUnitThatKeepsItShort)
{
    EXPECT_EQ(formatFlopRate(232.3), QStringLiteral("232 GFLOP/s"));
    EXPECT_EQ(formatFlopRate(7.4), QStringLiteral("7.4 GFLOP/s"));
    EXPECT_EQ(formatFlopRate(989e3), QStringLiteral("989 TFLOP/s"));
    EXPECT_EQ(formatFlopRate(1979e3), QStringLiteral("1979 TFLOP/s"));
    EXPECT_EQ(formatFlopRate(2e7), QStringLiteral("20 PFLOP/s"));
    EXPECT_EQ(formatFlopRate(std::numeric_limits<double>::quiet_NaN()), QStringLiteral("\u2013"));
}

// int8 work is multiplies and adds of integers: its rates are operations per second, not FLOP/s.
TEST(Units, IntegerPrecisionsCountOperationsNotFlops)
{
    EXPECT_TRUE(countsOperations(u"int8"));
    EXPECT_TRUE(countsOperations(u"int8 avx512_vnni x2 threads"));
    EXPECT_TRUE(countsOperations(u"int4"));
    EXPECT_FALSE(countsOperations(u"bf16"));
    EXPECT_FALSE(countsOperations(u"fp32 avx512 x2 threads"));
    EXPECT_FALSE(countsOperations(u"int8x"));  // a word of its own, not a prefix
    EXPECT_FALSE(countsOperations(u""));
    EXPECT_EQ(formatFlopRate(2056.4, true), QStringLiteral("2056 GOP/s"));
    EXPECT_EQ(formatFlopRate(1979e3, true), QStringLiteral("1979 TOP/s"));
    EXPECT_EQ(formatFlopRate(2e7, true), QStringLiteral("20 POP/s"));
}
