// The source text's intensity table and fusion count, exactly.
#include "core/model/intensity.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;

TEST(SourceTextIntensity, AddingTwoBf16TensorsIsOneSixthFlopPerByte)
{
    for (std::int64_t n : {512, 2048, 4096}) {
        const OpCount add = elementwiseAddCount(n, 2);
        EXPECT_DOUBLE_EQ(add.flops, static_cast<double>(n * n));
        EXPECT_DOUBLE_EQ(add.bytes, 6.0 * static_cast<double>(n * n));
        EXPECT_DOUBLE_EQ(add.intensity(), 1.0 / 6.0);
    }
    EXPECT_EQ(std::round(elementwiseAddCount(4096, 2).intensity() * 100) / 100, 0.17);
}

TEST(SourceTextIntensity, Bf16MatmulIsNOverThree)
{
    EXPECT_DOUBLE_EQ(matmulCount(512, 2).flops, 2.0 * 512 * 512 * 512);
    EXPECT_DOUBLE_EQ(matmulCount(512, 2).bytes, 6.0 * 512 * 512);
    EXPECT_DOUBLE_EQ(matmulCount(512, 2).intensity(), 512.0 / 3.0);
    EXPECT_EQ(std::lround(matmulCount(512, 2).intensity()), 171);
    EXPECT_EQ(std::lround(matmulCount(4096, 2).intensity()), 1365);
}

TEST(SourceTextIntensity, Fp32CpuTableIsNOverSixAndOneTwelfth)
{
    // The CPU table: matmul 1024 -> 171, 2048 -> 341, 4096 -> 683; add -> 0.08.
    EXPECT_EQ(std::lround(matmulCount(1024, 4).intensity()), 171);
    EXPECT_EQ(std::lround(matmulCount(2048, 4).intensity()), 341);
    EXPECT_EQ(std::lround(matmulCount(4096, 4).intensity()), 683);
    EXPECT_DOUBLE_EQ(elementwiseAddCount(2048, 4).intensity(), 1.0 / 12.0);
    EXPECT_EQ(std::round(elementwiseAddCount(8192, 4).intensity() * 100) / 100, 0.08);
}

TEST(SourceTextIntensity, DecodeIntensityGrowsWithBatch)
{
    const double one = matrixTimesBatchCount(4096, 4096, 1, 2).intensity();
    const double thirtyTwo = matrixTimesBatchCount(4096, 4096, 32, 2).intensity();
    EXPECT_NEAR(one, 1.0, 0.001);  // two FLOPs per two-byte weight
    EXPECT_NEAR(thirtyTwo / one, 32.0, 0.5);
}

TEST(SourceTextFusion, ThreeOpsAfterALinearLayerAreSixTransfersUnfusedAndOneFused)
{
    const FusionTraffic traffic = elementwiseChainTraffic(3);
    EXPECT_EQ(traffic.unfusedTransfers, 6);
    EXPECT_EQ(traffic.fusedTransfers, 1);
    EXPECT_DOUBLE_EQ(traffic.savedFraction(), 5.0 / 6.0);
}
