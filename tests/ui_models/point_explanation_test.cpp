// "Explain this point": binding ceiling, share of attainable, headroom and the intensity the ridge needs.

#include "ui/plots/roofline/point_explanation.h"
#include "tests/ui_models/test_session.h"

#include "core/session/format/session_json.h"

#include <gtest/gtest.h>

#include <algorithm>

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

// A kernel is explained against its own precision's roof. On the Xeon with AMX a bf16 matmul's compute
// ceiling is a bf16 one (AMX, 1,042 GFLOP/s on two threads), an fp32 sgemm's an fp32 one; neither falls back.
TEST(UiPointExplanation, AKernelIsExplainedAgainstItsOwnPrecisionsRoof)
{
    const Result<Session> xeon = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    int checked = 0;
    for (const KernelResult& kernel : xeon.value().kernels) {
        if (kernel.kind != QLatin1String("bf16-gemm") && kernel.kind != QLatin1String("sgemm"))
            continue;
        const PointExplanation e = explainKernel(xeon.value(), kernel);
        ASSERT_TRUE(e.valid) << kernel.name.toStdString();
        EXPECT_FALSE(e.precisionFallback);
        EXPECT_TRUE(e.computeCeiling.startsWith(kernel.precision + QLatin1Char(' ')))
            << kernel.name.toStdString() << ": " << e.computeCeiling.toStdString();
        if (e.bound == Bound::Compute) {
            EXPECT_TRUE(explanationHtml(e).contains(e.computeCeiling.toHtmlEscaped()));
        }
        ++checked;
    }
    EXPECT_GE(checked, 6);
    const auto bf16 = std::find_if(xeon.value().kernels.begin(), xeon.value().kernels.end(),
                                   [](const KernelResult& k) { return k.kind == QLatin1String("bf16-gemm"); });
    ASSERT_NE(bf16, xeon.value().kernels.end());
    EXPECT_NEAR(explainKernel(xeon.value(), *bf16).roof.peakGflops, 1042.0, 0.5);
}
