// The training step on real OpenBLAS: its gradients against finite differences, checkpointing's recompute and
// memory, and accumulation against the full batch.
#include "core/measure/workloads/training.h"
#include "core/measure/workloads/training_experiment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ridgeline {
namespace {

struct Data {
    std::vector<float> input;
    std::vector<float> target;
    explicit Data(const MlpShape& s)
        : input(static_cast<std::size_t>(s.tokens) * static_cast<std::size_t>(s.model)), target(input.size())
    {
        fillTrainingPattern(input.data(), input.size(), 7, 2.0f);
        fillTrainingPattern(target.data(), target.size(), 8, 2.0f);
    }
};

double lossOf(MlpStack& stack, const Data& data)
{
    ActivationLedger ledger;
    StepCount count;
    const int n = stack.shape().tokens;
    return stack.accumulate(data.input.data(), data.target.data(), n, n, StepMode::Plain, ledger, count);
}

struct Gradients {
    std::vector<std::vector<float>> weights;
    std::vector<float> input;
    StepCount count;
    double peakBytes = 0.0;
    double liveAfter = 0.0;
};

Gradients gradientsOf(MlpStack& stack, Data& data, StepMode mode)
{
    Gradients g;
    ActivationLedger ledger;
    const int n = stack.shape().tokens;
    g.input.resize(data.input.size());
    stack.zeroGradients();
    stack.accumulate(data.input.data(), data.target.data(), n, n, mode, ledger, g.count, g.input.data());
    for (const AlignedBuffer<float>& w : stack.gradients())
        g.weights.emplace_back(w.data(), w.data() + w.size());
    g.peakBytes = ledger.peakBytes();
    g.liveAfter = ledger.liveBytes();
    return g;
}

// Central differences of the loss in double steps of fp32 values: accurate to about 1e-3 of the largest gradient.
double centralDifference(MlpStack& stack, Data& data, float* value)
{
    const float h = 1e-2f;
    const float saved = *value;
    *value = saved + h;
    const double up = lossOf(stack, data);
    *value = saved - h;
    const double down = lossOf(stack, data);
    *value = saved;
    return (up - down) / (2.0 * static_cast<double>(h));
}

double largest(const std::vector<float>& v)
{
    double m = 0.0;
    for (float x : v)
        m = std::max(m, static_cast<double>(std::fabs(x)));
    return m;
}

TEST(TrainingStep, GradientsMatchFiniteDifferencesInEveryWeightAndTheInput)
{
    const MlpShape shape{8, 6, 10, 2};
    MlpStack stack(shape);
    Data data(shape);
    const Gradients g = gradientsOf(stack, data, StepMode::Plain);
    int checked = 0;
    for (std::size_t w = 0; w < stack.weights().size(); ++w) {
        const double scale = largest(g.weights[w]);
        ASSERT_GT(scale, 0.0) << w;
        for (std::size_t i = 0; i < stack.weights()[w].size(); i += 3, ++checked)
            EXPECT_NEAR(centralDifference(stack, data, &stack.weights()[w][i]), g.weights[w][i], 2e-3 * scale)
                << "weight " << w << " element " << i;
    }
    const double inputScale = largest(g.input);
    for (std::size_t i = 0; i < data.input.size(); i += 5, ++checked)
        EXPECT_NEAR(centralDifference(stack, data, &data.input[i]), g.input[i], 2e-3 * inputScale) << "input " << i;
    EXPECT_GT(checked, 50);
}

TEST(TrainingStep, GeluDerivativeMatchesTheFunctionAcrossTheClamp)
{
    for (float x = -6.0f; x <= 6.0f; x += 0.37f) {
        const double h = 1e-3;
        const double slope = (static_cast<double>(trainingGelu(static_cast<float>(x + h))) -
                              static_cast<double>(trainingGelu(static_cast<float>(x - h)))) /
                             (2.0 * h);
        EXPECT_NEAR(trainingGeluDerivative(x), slope, 2e-3) << x;
    }
}

TEST(TrainingStep, CheckpointingGivesTheSameGradientsAndRecomputesOneForwardOfTheHiddenLayers)
{
    const MlpShape shape{32, 16, 48, 3};
    MlpStack stack(shape);
    Data data(shape);
    const Gradients plain = gradientsOf(stack, data, StepMode::Plain);
    const Gradients checkpointed = gradientsOf(stack, data, StepMode::Checkpointed);
    for (std::size_t w = 0; w < plain.weights.size(); ++w)
        for (std::size_t i = 0; i < plain.weights[w].size(); ++i)
            ASSERT_FLOAT_EQ(plain.weights[w][i], checkpointed.weights[w][i]) << w << " " << i;
    const double n = shape.tokens, d = shape.model, h = shape.hidden;
    // One more X W1 product and GELU pass per block, nothing else.
    const double hiddenForward = shape.layers * (2.0 * n * d * h + 12.0 * n * h);
    EXPECT_DOUBLE_EQ(plain.count.recomputeFlops, 0.0);
    EXPECT_DOUBLE_EQ(checkpointed.count.recomputeFlops, hiddenForward);
    EXPECT_DOUBLE_EQ(checkpointed.count.flops - plain.count.flops, hiddenForward);
    // The claim of a third is a whole forward again: both products and GELU of every block, a third of the step's
    // products; this step recomputes that forward without each block's second product.
    const double forward = shape.layers * (4.0 * n * d * h + 12.0 * n * h);
    EXPECT_DOUBLE_EQ(plain.count.forwardFlops, forward);
    EXPECT_DOUBLE_EQ(checkpointed.count.forwardFlops, forward);
    EXPECT_NEAR(forward / plain.count.flops, 1.0 / 3.0, 0.02);
    EXPECT_DOUBLE_EQ(hiddenForward, forward - shape.layers * 2.0 * n * d * h);
    // Only the checkpointed step spends time recomputing, and it is timed.
    EXPECT_DOUBLE_EQ(plain.count.recomputeSeconds, 0.0);
    EXPECT_GT(checkpointed.count.recomputeSeconds, 0.0);
    // The update is not part of these counts; the whole step's is trainingStepFlops.
    StepCount update;
    stack.update(0.0f, update);
    EXPECT_DOUBLE_EQ(plain.count.flops + update.flops, trainingStepFlops(shape));
}

TEST(TrainingStep, CheckpointingPeakDropsByTheHiddenActivationsOfAllButOneBlock)
{
    const MlpShape shape{32, 16, 48, 3};
    MlpStack stack(shape);
    Data data(shape);
    const Gradients plain = gradientsOf(stack, data, StepMode::Plain);
    const Gradients checkpointed = gradientsOf(stack, data, StepMode::Checkpointed);
    const double hiddenBytes = 4.0 * shape.tokens * shape.hidden;  // one block's pre-activation, or its GELU
    const double outputBytes = 4.0 * shape.tokens * shape.model;
    // Plain: every block's pre-activation, hidden layer and output are live at the end of the forward pass.
    EXPECT_DOUBLE_EQ(plain.peakBytes, shape.layers * (2.0 * hiddenBytes + outputBytes));
    // Checkpointed: the block outputs, and one block's hidden pair while it is recomputed.
    EXPECT_DOUBLE_EQ(checkpointed.peakBytes, shape.layers * outputBytes + 2.0 * hiddenBytes);
    EXPECT_DOUBLE_EQ(plain.peakBytes - checkpointed.peakBytes, (shape.layers - 1) * 2.0 * hiddenBytes);
    EXPECT_DOUBLE_EQ(plain.liveAfter, 0.0);
    EXPECT_DOUBLE_EQ(checkpointed.liveAfter, 0.0);
}

TEST(TrainingStep, AccumulatedMicroBatchesGiveTheFullBatchGradientsAtAQuarterOfThePeak)
{
    const MlpShape shape{128, 64, 256, 2};
    MlpStack stack(shape);
    Data data(shape);
    const Gradients full = gradientsOf(stack, data, StepMode::Plain);
    double microPeak = 0.0;
    const double difference = accumulationDifference(stack, data.input.data(), data.target.data(), 4, &microPeak);
    EXPECT_LT(difference, kAccumulationTolerance);
    EXPECT_DOUBLE_EQ(microPeak, full.peakBytes / 4.0);
    // The comparison can fail: the gradients of half the batch are not the full batch's.
    const Data half = data;
    MlpStack other(shape);
    const Gradients a = gradientsOf(other, data, StepMode::Plain);
    ActivationLedger ledger;
    StepCount count;
    other.zeroGradients();
    other.accumulate(half.input.data(), half.target.data(), shape.tokens / 2, shape.tokens, StepMode::Plain, ledger,
                     count);
    double worst = 0.0;
    for (std::size_t i = 0; i < a.weights[0].size(); ++i)
        worst = std::max(worst, static_cast<double>(std::fabs(a.weights[0][i] - other.gradients()[0][i])));
    EXPECT_GT(worst / largest(a.weights[0]), 100.0 * kAccumulationTolerance);
}

TEST(TrainingStep, MeasuredStepsLandAsTrainingKernelsWithTheirSummary)
{
    MeasureControl control(true, {});
    const MlpShape shape{64, 32, 128, 2};
    const auto measured = measureTraining(shape, 4, 1, control);
    ASSERT_TRUE(measured.has_value());
    ASSERT_EQ(measured->kernels.size(), 3u);
    for (const KernelResult& k : measured->kernels) {
        EXPECT_EQ(k.kind, QStringLiteral("training-step"));
        EXPECT_GT(k.gflops, 0.0) << k.name.toStdString();
        EXPECT_GT(k.intensity, 0.0) << k.name.toStdString();
    }
    const TrainingResult& t = measured->summary;
    EXPECT_EQ(t.tokens, 64);
    EXPECT_EQ(t.microBatches, 4);
    EXPECT_LT(t.gradientDifference, t.tolerance);
    EXPECT_NEAR(t.extraCompute(), measured->kernels[1].flops / measured->kernels[0].flops - 1.0, 1e-12);
    EXPECT_LT(t.checkpointPeakBytes, t.plainPeakBytes);
    EXPECT_DOUBLE_EQ(t.microBatchPeakBytes, t.plainPeakBytes / 4.0);
    // Checkpointing's own recompute is timed inside its steps, apart from the whole step's time.
    EXPECT_GT(t.recomputeSeconds, 0.0);
    EXPECT_LT(t.recomputeSeconds, t.checkpointSeconds);
    EXPECT_NEAR(t.forwardShare(), 1.0 / 3.0, 0.02);
    EXPECT_GT(t.forwardShare(), t.extraCompute());
}

}  // namespace
}  // namespace ridgeline
