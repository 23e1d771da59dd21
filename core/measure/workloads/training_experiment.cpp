#include "core/measure/workloads/training_experiment.h"

#include "core/measure/run/kernel_timing.h"
#include "core/measure/run/time_plan.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ridgeline {

namespace {

using Clock = std::chrono::steady_clock;

// Small enough that the weights drift little over the repetitions, so every repetition does the same work.
constexpr float kLearningRate = 1e-3f;

struct Batch {
    AlignedBuffer<float> input;
    AlignedBuffer<float> target;
    explicit Batch(const MlpShape& shape)
        : input(static_cast<std::size_t>(shape.tokens) * static_cast<std::size_t>(shape.model)), target(input.size())
    {
        fillTrainingPattern(input.data(), input.size(), 100, 2.0f);
        fillTrainingPattern(target.data(), target.size(), 101, 2.0f);
    }
};

enum class Variant { Plain, Checkpointed, Accumulated };

// One SGD step of `variant`: gradients from the whole batch (or its micro-batches, summed), then the update.
void trainingStep(MlpStack& stack, const Batch& batch, Variant variant, int microBatches, ActivationLedger& ledger,
                  StepCount& count)
{
    const MlpShape& shape = stack.shape();
    stack.zeroGradients();
    if (variant == Variant::Accumulated) {
        const int rows = shape.tokens / microBatches;
        const auto stride = static_cast<std::size_t>(rows) * static_cast<std::size_t>(shape.model);
        for (int m = 0; m < microBatches; ++m)
            stack.accumulate(batch.input.data() + m * stride, batch.target.data() + m * stride, rows, shape.tokens,
                             StepMode::Plain, ledger, count);
    } else {
        stack.accumulate(batch.input.data(), batch.target.data(), shape.tokens, shape.tokens,
                         variant == Variant::Checkpointed ? StepMode::Checkpointed : StepMode::Plain, ledger, count);
    }
    stack.update(kLearningRate, count);
}

struct VariantRun {
    StepCount count;
    double peakBytes = 0.0;
    std::vector<double> seconds;
};

// The first step is the warm-up; its count and peak are every step's (the same code on the same sizes).
std::optional<VariantRun> runVariant(MlpStack& stack, const Batch& batch, Variant variant, int microBatches,
                                     MeasureControl& control)
{
    ActivationLedger ledger;
    VariantRun run;
    const auto start = Clock::now();
    trainingStep(stack, batch, variant, microBatches, ledger, run.count);
    const double warm = std::chrono::duration<double>(Clock::now() - start).count();
    run.peakBytes = ledger.peakBytes();
    const StepTiming timing = stepTiming(KernelExperiment::Training, control.quick());
    auto once = [&] {
        StepCount ignored;
        trainingStep(stack, batch, variant, microBatches, ledger, ignored);
        return true;
    };
    auto seconds = timeRepeated(once, timing.minReps, timing.minSeconds, control, warm);
    if (!seconds)
        return std::nullopt;
    run.seconds = std::move(*seconds);
    return run;
}

}  // namespace

MlpShape trainingShape(bool quick)
{
    return quick ? MlpShape{256, 256, 1024, 2} : MlpShape{512, 512, 2048, 2};
}

double trainingStepFlops(const MlpShape& shape)
{
    const double n = shape.tokens, d = shape.model, h = shape.hidden;
    // Two products forward, four backward (two weight gradients, two input gradients); GELU and its derivative;
    // the loss; the update of both weights.
    const double block = 12.0 * n * d * h + 32.0 * n * h + 4.0 * d * h;
    return shape.layers * block + 4.0 * n * d;
}

double accumulationDifference(MlpStack& stack, const float* input, const float* target, int microBatches,
                              double* microPeakBytes)
{
    const MlpShape& shape = stack.shape();
    ActivationLedger ledger;
    StepCount count;
    stack.zeroGradients();
    stack.accumulate(input, target, shape.tokens, shape.tokens, StepMode::Plain, ledger, count);
    std::vector<std::vector<float>> full;
    for (const AlignedBuffer<float>& g : stack.gradients())
        full.emplace_back(g.data(), g.data() + g.size());

    stack.zeroGradients();
    ActivationLedger microLedger;
    const int rows = shape.tokens / microBatches;
    const auto stride = static_cast<std::size_t>(rows) * static_cast<std::size_t>(shape.model);
    for (int m = 0; m < microBatches; ++m)
        stack.accumulate(input + m * stride, target + m * stride, rows, shape.tokens, StepMode::Plain, microLedger,
                         count);
    if (microPeakBytes)
        *microPeakBytes = microLedger.peakBytes();

    double worst = 0.0;
    for (std::size_t i = 0; i < full.size(); ++i) {
        const float* accumulated = stack.gradients()[i].data();
        double largest = 0.0, difference = 0.0;
        for (std::size_t j = 0; j < full[i].size(); ++j) {
            largest = std::max(largest, static_cast<double>(std::fabs(full[i][j])));
            difference = std::max(difference, static_cast<double>(std::fabs(full[i][j] - accumulated[j])));
        }
        worst = std::max(worst, largest > 0.0 ? difference / largest : difference);
    }
    return worst;
}

std::optional<TrainingMeasurement> measureTraining(const MlpShape& shape, int microBatches, int threads,
                                                   MeasureControl& control)
{
    openblas_set_num_threads(threads);
    MlpStack stack(shape);
    const Batch batch(shape);
    TrainingMeasurement result;
    TrainingResult& t = result.summary;
    t.tokens = shape.tokens;
    t.model = shape.model;
    t.hidden = shape.hidden;
    t.layers = shape.layers;
    t.microBatches = microBatches;
    t.tolerance = kAccumulationTolerance;
    t.gradientDifference =
        accumulationDifference(stack, batch.input.data(), batch.target.data(), microBatches, &t.microBatchPeakBytes);
    if (!control.keepGoing())
        return std::nullopt;

    const QString size =
        QStringLiteral("%1x%2x%3 L%4").arg(shape.tokens).arg(shape.model).arg(shape.hidden).arg(shape.layers);
    const struct {
        Variant variant;
        QString name;
    } variants[] = {{Variant::Plain, QStringLiteral("MLP training step")},
                    {Variant::Checkpointed, QStringLiteral("MLP training step, checkpointed")},
                    {Variant::Accumulated, QStringLiteral("MLP training step, %1 micro-batches").arg(microBatches)}};
    for (const auto& v : variants) {
        const std::optional<VariantRun> run = runVariant(stack, batch, v.variant, microBatches, control);
        if (!run)
            return std::nullopt;
        KernelResult kernel = makeKernel(QStringLiteral("training-step"), size, QStringLiteral("fp32"), threads,
                                         OpCount{run->count.flops, run->count.bytes}, run->seconds);
        kernel.name = v.name;
        result.kernels.push_back(kernel);
        if (v.variant == Variant::Plain) {
            t.plainSeconds = kernel.seconds;
            t.plainFlops = run->count.flops;
            t.plainPeakBytes = run->peakBytes;
        } else if (v.variant == Variant::Checkpointed) {
            t.checkpointSeconds = kernel.seconds;
            t.recomputeFlops = run->count.recomputeFlops;
            t.checkpointPeakBytes = run->peakBytes;
        } else {
            t.accumulateSeconds = kernel.seconds;
        }
    }
    return result;
}

}  // namespace ridgeline
