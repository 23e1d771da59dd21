// The one rule for physical quantities on the way in: its bounds keep every quotient the program forms finite, and
// everything outside them (a denormal, infinity, NaN, a negative) is refused with the bounds in the caller's unit.
#include "core/physical_limits.h"
#include "core/model/roofline.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace ridgeline;

TEST(PhysicalLimits, EveryRidgeAndTimeWithinTheBoundsIsAFiniteNumber)
{
    const PhysicalBounds compute = physicalBounds(PhysicalQuantity::ComputeGflops);
    const PhysicalBounds bandwidth = physicalBounds(PhysicalQuantity::BandwidthGbps);
    const PhysicalBounds seconds = physicalBounds(PhysicalQuantity::DurationSeconds);
    for (double peak : {compute.min, compute.max})
        for (double gbps : {bandwidth.min, bandwidth.max}) {
            const double ridge = ridgeIntensity(Roof{peak, gbps});
            EXPECT_TRUE(std::isfinite(ridge) && ridge > 0.0) << peak << " / " << gbps;
            // The chart's widest default range around it, and its log, stay finite too.
            EXPECT_TRUE(std::isfinite(std::log10(ridge / 2.5)) && std::isfinite(ridge * 5.0 * 1e3));
        }
    for (double s : {seconds.min, seconds.max}) {
        EXPECT_TRUE(std::isfinite(1.0 / s));
        EXPECT_TRUE(std::isfinite(seconds.max / s));  // a relative error of two times
    }
}

TEST(PhysicalLimits, DenormalsInfinitiesAndNegativesAreRefused)
{
    const double denormal = std::numeric_limits<double>::denorm_min();
    for (PhysicalQuantity quantity :
         {PhysicalQuantity::ComputeGflops, PhysicalQuantity::BandwidthGbps, PhysicalQuantity::IntensityFlopPerByte,
          PhysicalQuantity::DurationSeconds, PhysicalQuantity::PerSecond})
        for (double bad : {denormal, 1e-305, 0.0, -1.0, std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN(), 1e300}) {
            EXPECT_FALSE(isPhysical(quantity, bad)) << bad;
            EXPECT_TRUE(physicalProblem(quantity, bad).has_value()) << bad;
        }
    EXPECT_TRUE(isPhysical(PhysicalQuantity::BandwidthGbps, 40.3));
    EXPECT_TRUE(isPhysical(PhysicalQuantity::ComputeGflops, 989'400.0));  // an H100's bf16 peak
    EXPECT_FALSE(physicalProblem(PhysicalQuantity::DurationSeconds, 1.8e-6).has_value());
}

TEST(PhysicalLimits, TheMessageGivesTheBoundsInTheCallersUnitAndTheValueAsRead)
{
    EXPECT_EQ(physicalProblem(PhysicalQuantity::BandwidthGbps, 1e-305).value(),
              QStringLiteral("must be between 1e-06 and 1e+09 GB/s, got 1e-305"));
    EXPECT_EQ(physicalProblem(PhysicalQuantity::BandwidthGbps, 5e-324, 1000.0, u"TB/s").value(),
              QStringLiteral("must be between 1e-09 and 1e+06 TB/s, got 5e-324"));
    EXPECT_EQ(physicalProblem(PhysicalQuantity::DurationSeconds, -1433.2, 1e-3, u"ms").value(),
              QStringLiteral("must be between 1e-09 and 1e+10 ms, got -1433.2"));
}
