// bf16 and fp16 in software: the rounding the kernels' inputs get and the tests' references rely on.
#include "core/measure/lowp/low_precision_numbers.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;

TEST(Bf16, RoundsToNearestTiesToEven)
{
    EXPECT_EQ(bf16FromFloat(1.0f), 0x3F80);
    // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties go to the even significand, 1.
    EXPECT_EQ(floatFromBf16(bf16FromFloat(1.0f + 0x1p-8f)), 1.0f);
    // 1 + 3 x 2^-8 is halfway between 1 + 2^-7 (odd) and 1 + 2^-6 (even).
    EXPECT_EQ(floatFromBf16(bf16FromFloat(1.0f + 3 * 0x1p-8f)), 1.0f + 0x1p-6f);
    EXPECT_EQ(floatFromBf16(bf16FromFloat(1.01f)), 1.0078125f);
    EXPECT_EQ(floatFromBf16(bf16FromFloat(-2.5f)), -2.5f);
    EXPECT_TRUE(std::isnan(floatFromBf16(bf16FromFloat(NAN))));
    EXPECT_TRUE(std::isinf(floatFromBf16(bf16FromFloat(INFINITY))));
}

TEST(Fp16, EveryHalfSurvivesARoundTrip)
{
    for (unsigned bits = 0; bits <= 0xFFFF; ++bits) {
        const auto half = static_cast<std::uint16_t>(bits);
        const double value = doubleFromFp16(half);
        if (std::isnan(value))
            continue;
        ASSERT_EQ(fp16FromDouble(value), half) << "bits 0x" << std::hex << bits;
    }
}

TEST(Fp16, RoundsOnceToNearestTiesToEven)
{
    EXPECT_EQ(fp16FromDouble(1.0), 0x3C00);
    EXPECT_EQ(fp16FromDouble(65504.0), 0x7BFF);  // the largest finite half
    EXPECT_EQ(fp16FromDouble(65519.99), 0x7BFF);
    EXPECT_EQ(fp16FromDouble(65520.0), 0x7C00);  // halfway to 2^16: to even, which is infinity
    EXPECT_EQ(fp16FromDouble(-1e9), 0xFC00);
    EXPECT_EQ(fp16FromDouble(0x1p-24), 0x0001);      // the smallest subnormal
    EXPECT_EQ(fp16FromDouble(0x1p-25), 0x0000);      // halfway to it: to even, zero
    EXPECT_EQ(fp16FromDouble(3 * 0x1p-25), 0x0002);  // halfway between 1 and 2 quanta: to even, 2
    EXPECT_EQ(fp16FromDouble(1.0 + 0x1p-11), 0x3C00);
    EXPECT_EQ(fp16FromDouble(1.0 + 3 * 0x1p-11), 0x3C02);
    // One rounding from double, not two through float: just above halfway rounds up, though float would
    // first round it to exactly halfway and then to even (down).
    EXPECT_EQ(fp16FromDouble(1.0 + 0x1p-11 + 0x1p-40), 0x3C01);
    EXPECT_EQ(fp16FromDouble(1.0 / 3.0), 0x3555);
    EXPECT_EQ(fp16FromDouble(0.0), 0x0000);
    EXPECT_EQ(fp16FromDouble(-0.0), 0x8000);
    EXPECT_EQ(fp16FromDouble(NAN) & 0x7C00, 0x7C00);
}
