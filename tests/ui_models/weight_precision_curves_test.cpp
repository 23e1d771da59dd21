// The CPU batching chart's curves by weight precision (ui/plots/batching/weight_precision_curves.h), from the Xeon AMX
// session's decode with fp32, bf16 and int8 weights (tests/data/sessions/xeon-amx-2vcpu.json, a real full run).

#include "ui/plots/batching/weight_precision_curves.h"

#include "core/session/format/session_json.h"
#include "ui/plots/batching/batching_scenario.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

Session xeonSession()
{
    Result<Session> loaded = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/xeon-amx-2vcpu.json"));
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message.toStdString());
    return loaded.ok() ? loaded.value() : Session{};
}

double predictedAt(const WeightPrecisionCurve& curve, double batch)
{
    for (const QPointF& p : curve.predicted)
        if (p.x() == batch)
            return p.y();
    return 0.0;
}

}  // namespace

TEST(UiWeightPrecisionCurves, EachPrecisionIsMeasuredAndPredictedOnItsOwnRoof)
{
    const WeightPrecisionCurves c = weightPrecisionCurves(xeonSession());
    ASSERT_EQ(c.curves.size(), 3u);
    EXPECT_EQ(c.curves[0].precision, QStringLiteral("fp32"));
    EXPECT_EQ(c.curves[1].precision, QStringLiteral("bf16"));
    EXPECT_EQ(c.curves[2].precision, QStringLiteral("int8"));
    EXPECT_EQ(c.matrixDim, 8192);  // 2 d^2 = 134,217,728 operations per vector
    for (const WeightPrecisionCurve& curve : c.curves) {
        ASSERT_EQ(curve.measured.size(), 9u) << curve.precision.toStdString();  // B = 1 .. 256
        EXPECT_DOUBLE_EQ(curve.measured.front().x(), 1.0);
        EXPECT_DOUBLE_EQ(curve.measured.back().x(), 256.0);
        ASSERT_FALSE(curve.predicted.empty()) << curve.precision.toStdString();
        EXPECT_DOUBLE_EQ(curve.predicted.back().x(), 512.0);  // twice the largest measured batch
        ASSERT_TRUE(curve.kneeBatch.has_value()) << curve.precision.toStdString();
    }
    // The session's own tokens/s at batch 1: 6.91 (fp32), 10.87 (bf16), 25.00 (int8).
    EXPECT_NEAR(c.curves[0].measured.front().y(), 6.908, 0.001);
    EXPECT_NEAR(batchOneSpeedup(c.curves, QStringLiteral("bf16")), 10.870 / 6.908, 0.001);
    EXPECT_NEAR(batchOneSpeedup(c.curves, QStringLiteral("int8")), 25.001 / 6.908, 0.001);
    EXPECT_EQ(batchOneSpeedup(c.curves, QStringLiteral("fp16")), 0.0);  // not measured
    // Batch 1 is bound by the weights' bytes on one DRAM roof: half of them predict twice the tokens, a quarter four
    // times (the vector's own bytes make it a little less).
    const double fp32One = predictedAt(c.curves[0], 1.0);
    ASSERT_GT(fp32One, 0.0);
    EXPECT_NEAR(predictedAt(c.curves[1], 1.0) / fp32One, 2.0, 0.01);
    EXPECT_NEAR(predictedAt(c.curves[2], 1.0) / fp32One, 4.0, 0.02);
}

TEST(UiWeightPrecisionCurves, OnePrecisionAloneComparesNothingAndTheChartKeepsTheOpenBlasCurve)
{
    Session fp32Only = xeonSession();
    std::erase_if(fp32Only.kernels, [](const KernelResult& k) {
        return k.kind == QLatin1String("decode-bf16") || k.kind == QLatin1String("decode-int8");
    });
    EXPECT_TRUE(weightPrecisionCurves(fp32Only).curves.empty());
    const CpuBatchingData d = predictCpuBatching(fp32Only);
    EXPECT_TRUE(d.valid) << d.reason.toStdString();
    EXPECT_TRUE(d.byWeightPrecision.empty());
    EXPECT_EQ(d.measured.size(), 9u);  // OpenBLAS's decode

    // Without OpenBLAS's decode the curves by precision still make the chart.
    Session precisionsOnly = xeonSession();
    std::erase_if(precisionsOnly.kernels, [](const KernelResult& k) { return k.kind == QLatin1String("decode"); });
    const CpuBatchingData p = predictCpuBatching(precisionsOnly);
    EXPECT_TRUE(p.valid) << p.reason.toStdString();
    EXPECT_TRUE(p.measured.empty());
    EXPECT_EQ(p.byWeightPrecision.size(), 3u);
    EXPECT_EQ(p.precisionMatrixDim, 8192);
}
