// "Explain this point": binding ceiling, share of attainable, headroom and the intensity the ridge needs.

#include "ui/models/point_explanation.h"
#include "tests/ui_models/test_session.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

TEST(UiPointExplanation, AnElementwiseAddIsBoundByDram)
{
    const Session session = fixtures::zen4Session();
    const KernelResult& add = session.kernels[5];  // add 4096: 200 MB, far beyond L3
    ASSERT_EQ(add.name, QStringLiteral("add 4096"));
    const PointExplanation e = explainKernel(session, add);
    ASSERT_TRUE(e.valid);
    EXPECT_EQ(e.memoryLevel, QStringLiteral("DRAM"));
    EXPECT_EQ(e.bound, Bound::Memory);
    EXPECT_NEAR(e.attainableGflops, 40.0 / 12.0, 1e-9);
    EXPECT_NEAR(e.percentOfAttainable, 100.0 * 3.3 / (40.0 / 12.0), 1e-6);
    EXPECT_NEAR(e.ridgeIntensity, 230.0 / 40.0, 1e-12);
    EXPECT_NEAR(e.intensityFactorToRidge, 5.75 * 12.0, 1e-9);
    EXPECT_TRUE(explanationHtml(e).contains(QStringLiteral("DRAM 40 GB/s")));
}

TEST(UiPointExplanation, ALargeSgemmIsComputeBound)
{
    const Session session = fixtures::zen4Session();
    const PointExplanation e = explainKernel(session, session.kernels[3]);
    ASSERT_TRUE(e.valid);
    EXPECT_EQ(e.bound, Bound::Compute);
    EXPECT_NEAR(e.attainableGflops, 230.0, 1e-9);
    EXPECT_NEAR(e.headroomGflops, 30.0, 1e-9);
    EXPECT_TRUE(e.bindingCeiling.contains(QStringLiteral("fp32 avx512 x2")));
}

TEST(UiPointExplanation, ASessionWithoutCeilingsExplainsThatItCannot)
{
    Session session = fixtures::zen4Session();
    session.computeCeilings.clear();
    const PointExplanation e = explainKernel(session, session.kernels[0]);
    EXPECT_FALSE(e.valid);
    EXPECT_FALSE(explanationHtml(e).isEmpty());
}

TEST(UiPointExplanation, APointAboveItsRoofIsFlaggedAsAMeasurementProblem)
{
    Session session = fixtures::zen4Session();
    session.kernels[3].gflops = 300.0;  // sgemm 4096 above the 230 GFLOP/s ceiling
    const PointExplanation e = explainKernel(session, session.kernels[3]);
    EXPECT_GT(e.percentOfAttainable, 100.0);
    EXPECT_EQ(e.headroomGflops, 0.0);
    EXPECT_TRUE(explanationHtml(e).contains(QStringLiteral("Measure again")));
}
