// GPU rooflines from the catalog, in the chart's units (GFLOP/s, GB/s), dense peaks only.

#include "core/model/catalog/gpu_roofs.h"

#include <gtest/gtest.h>

using namespace ridgeline;

TEST(GpuRoofs, H100Bf16IsDenseAndInChartUnits)
{
    const Result<NamedRoof> roof = catalogGpuRoof(QStringLiteral("h100-sxm"), NumberFormat::Bf16);
    ASSERT_TRUE(roof.ok()) << roof.error().message.toStdString();
    EXPECT_NEAR(roof.value().roof.peakGflops, 989e3, 10e3);  // dense, not the 1979 with-sparsity figure
    EXPECT_NEAR(roof.value().roof.bandwidthGbps, 3350.0, 10.0);
}

TEST(GpuRoofs, A100HasNoFp8PeakAndSaysSo)
{
    const Result<NamedRoof> roof = catalogGpuRoof(QStringLiteral("a100-80gb-sxm"), NumberFormat::Fp8);
    ASSERT_FALSE(roof.ok());
    EXPECT_TRUE(roof.error().message.contains(QStringLiteral("fp8")));
}

TEST(GpuRoofs, TheSourceTextsGpuBalancesNear150FlopPerByte)
{
    // "A GPU with roughly 300 TFLOP/s and 2 TB/s balances at about 150 FLOP/byte."
    const NamedRoof roof{QStringLiteral("essay GPU"), Roof{300e3, 2000.0}};
    EXPECT_DOUBLE_EQ(ridgeIntensity(roof.roof), 150.0);
}
