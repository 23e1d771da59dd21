// The training step in bf16 mixed precision on this CPU's bf16 units through oneDNN: the products against a
// reference made from the same rounded operands, the step's gradients against the fp32 step's, its activation bytes
// and its place on the roofline. Skipped, saying why, where the CPU has no bf16 unit.
#include "core/measure/lowp/training_bf16.h"
#include "core/measure/lowp/low_precision_numbers.h"
#include "core/measure/lowp/lowp_units.h"
#include "core/measure/lowp/onednn_matmul.h"
#include "core/measure/workloads/training_experiment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

namespace ridgeline {
namespace {

bool skipWithoutBf16()
{
    const UnitAvailability bf16 = unitAvailability(LowpUnit::Avx512Bf16, hostMachine());
    return !bf16.available();
}

std::vector<std::uint16_t> bf16Pattern(std::size_t count, std::size_t seed)
{
    std::vector<float> values(count);
    fillTrainingPattern(values.data(), count, seed, 2.0f);
    std::vector<std::uint16_t> bits(count);
    for (std::size_t i = 0; i < count; ++i)
        bits[i] = bf16FromFloat(values[i]);
    return bits;
}

// op(A) op(B) element (i, j) in double from the bf16 operands as stored.
double reference(const Bf16GemmShape& s, const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& b,
                 int i, int j)
{
    double sum = 0.0;
    for (int p = 0; p < s.k; ++p) {
        const std::uint16_t x =
            s.transA ? a[static_cast<std::size_t>(p) * s.m + i] : a[static_cast<std::size_t>(i) * s.k + p];
        const std::uint16_t y =
            s.transB ? b[static_cast<std::size_t>(j) * s.k + p] : b[static_cast<std::size_t>(p) * s.n + j];
        sum += static_cast<double>(floatFromBf16(x)) * floatFromBf16(y);
    }
    return sum;
}

TEST(Bf16Gemm, TransposedOperandsAndAccumulationAgreeWithTheReference)
{
    if (skipWithoutBf16())
        GTEST_SKIP() << unitAvailability(LowpUnit::Avx512Bf16, hostMachine()).reason.toStdString();
    // On three threads the 25 rows split into panels of 8, 8 and 9, each read through A's strides where it lies.
    for (const int threads : {1, 3})
        for (const bool transA : {false, true})
            for (const bool transB : {false, true}) {
                const Bf16GemmShape shape{transA, transB, 25, 40, 56, false, true};
                const auto gemm = OneDnnBf16Gemm::create(shape, threads);
                ASSERT_TRUE(gemm.ok()) << gemm.error().message.toStdString();
                const auto a = bf16Pattern(static_cast<std::size_t>(shape.m) * shape.k, 1);
                const auto b = bf16Pattern(static_cast<std::size_t>(shape.k) * shape.n, 2);
                std::vector<float> c(static_cast<std::size_t>(shape.m) * shape.n, 1.0f);
                gemm.value()->run(a.data(), b.data(), c.data());
                for (int i = 0; i < shape.m; ++i)
                    for (int j = 0; j < shape.n; ++j)
                        ASSERT_NEAR(c[static_cast<std::size_t>(i) * shape.n + j], 1.0 + reference(shape, a, b, i, j),
                                    1e-3)
                            << threads << transA << transB << " " << i << " " << j;
                EXPECT_FALSE(gemm.value()->implementation().isEmpty());
            }
    // A bf16 result is the fp32 sum rounded once.
    const Bf16GemmShape rounded{false, true, 16, 32, 48, true, false};
    const auto gemm = OneDnnBf16Gemm::create(rounded, 2);
    ASSERT_TRUE(gemm.ok());
    const auto a = bf16Pattern(16 * 48, 3);
    const auto b = bf16Pattern(32 * 48, 4);
    std::vector<std::uint16_t> c(16 * 32);
    gemm.value()->run(a.data(), b.data(), c.data());
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
            const double want = reference(rounded, a, b, i, j);
            EXPECT_NEAR(floatFromBf16(c[static_cast<std::size_t>(i) * 32 + j]), want, 1e-2 * std::fabs(want) + 1e-3);
        }
    // Bad shapes are refused, naming why.
    EXPECT_FALSE(OneDnnBf16Gemm::create({false, false, 0, 4, 4, false, false}, 1).ok());
    EXPECT_FALSE(OneDnnBf16Gemm::create({false, false, 4, 4, 4, true, true}, 1).ok());
}

TEST(TrainingBf16, GradientsFollowTheFp32StepAtHalfTheActivationBytes)
{
    if (skipWithoutBf16())
        GTEST_SKIP() << unitAvailability(LowpUnit::Avx512Bf16, hostMachine()).reason.toStdString();
    const MlpShape shape{64, 32, 128, 2};
    MlpStack stack(shape);
    const TrainingBatch batch(shape);
    ActivationLedger fp32Ledger, bf16Ledger;
    StepCount fp32, bf16;
    stack.zeroGradients();
    const double fp32Loss = stack.accumulate(batch.input.data(), batch.target.data(), shape.tokens, shape.tokens,
                                             StepMode::Plain, fp32Ledger, fp32);
    const auto reference = copyGradients(stack.gradients());
    stack.zeroGradients();
    auto step = Bf16MlpStep::create(stack, 1);
    ASSERT_TRUE(step.ok()) << step.error().message.toStdString();
    const double bf16Loss = step.value()->accumulate(batch.input.data(), batch.target.data(), bf16Ledger, bf16);
    // bf16 keeps 8 significant bits: the loss and every gradient within a few per cent of fp32's, not exactly.
    EXPECT_NEAR(bf16Loss, fp32Loss, 0.02 * fp32Loss);
    const double difference = gradientDifference(reference, stack.gradients());
    EXPECT_LT(difference, 0.05);
    EXPECT_GT(difference, 1e-6) << "bf16 rounding leaves a trace";
    // The same FLOPs; every stored activation in two bytes, plus the input's bf16 copy, which fp32 reads in place.
    EXPECT_DOUBLE_EQ(bf16.flops, fp32.flops);
    EXPECT_DOUBLE_EQ(bf16.forwardFlops, fp32.forwardFlops);
    const double inputCopy = 2.0 * shape.tokens * shape.model;
    EXPECT_DOUBLE_EQ(bf16Ledger.peakBytes(), 0.5 * fp32Ledger.peakBytes() + inputCopy);
    EXPECT_DOUBLE_EQ(bf16Ledger.liveBytes(), 0.0);
    EXPECT_TRUE(step.value()->products().startsWith(QStringLiteral("oneDNN ")));
}

TEST(TrainingBf16, MeasuredStepLandsAsABf16TrainingKernel)
{
    if (skipWithoutBf16())
        GTEST_SKIP() << unitAvailability(LowpUnit::Avx512Bf16, hostMachine()).reason.toStdString();
    MeasureControl control(true, {});
    const Result<Bf16TrainingMeasurement> m = measureTrainingBf16(MlpShape{64, 32, 128, 2}, 1, control);
    ASSERT_TRUE(m.ok()) << m.error().message.toStdString();
    EXPECT_EQ(m.value().kernel.kind, QStringLiteral("training-step"));
    EXPECT_EQ(m.value().kernel.precision, QStringLiteral("bf16"));
    EXPECT_GT(m.value().kernel.gflops, 0.0);
    EXPECT_GT(m.value().kernel.intensity, 0.0);
    EXPECT_GT(m.value().fp32Seconds, 0.0);
    EXPECT_LT(m.value().peakBytes, 0.6 * m.value().fp32PeakBytes);
    EXPECT_LT(m.value().gradientDifference, 0.05);
    std::printf("bf16 products: %s\n", m.value().products.toLocal8Bit().constData());
}

}  // namespace
}  // namespace ridgeline
