#include "core/measure/workloads/training_experiment.h"

#include "core/measure/run/kernel_timing.h"
#include "core/measure/run/statistics.h"
#include "core/measure/run/time_plan.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ridgeline {

namespace {

using Clock = std::chrono::steady_clock;

enum class Variant { Plain, Checkpointed, Accumulated };

// One SGD step of `variant`: gradients from the whole batch (or its micro-batches, summed), then the update.
void trainingStep(MlpStack& stack, const TrainingBatch& batch, Variant variant, int microBatches,
                  ActivationLedger& ledger, StepCount& count)
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
    stack.update(kTrainingLearningRate, count);
}

struct VariantRun {
    StepCount count;
    double peakBytes = 0.0;
    std::vector<double> seconds;
    std::vector<double> recomputeSeconds;
};

// The variants' steps interleaved, one of each per repetition, so that a machine whose load changes during the
// measurement slows them alike and their ratios (checkpointing's extra time) compare like with like. The first
// round is the warm-up; its counts and peaks are every round's (the same code on the same sizes).
std::optional<std::vector<VariantRun>> runVariants(MlpStack& stack, const TrainingBatch& batch,
                                                   const std::vector<Variant>& variants, int microBatches,
                                                   MeasureControl& control)
{
    std::vector<VariantRun> runs(variants.size());
    std::vector<ActivationLedger> ledgers(variants.size());
    double warm = 0.0;
    for (std::size_t i = 0; i < variants.size(); ++i) {
        const auto start = Clock::now();
        trainingStep(stack, batch, variants[i], microBatches, ledgers[i], runs[i].count);
        warm += std::chrono::duration<double>(Clock::now() - start).count();
        runs[i].peakBytes = ledgers[i].peakBytes();
    }
    const StepTiming timing = stepTiming(KernelExperiment::Training, control.quick());
    auto once = [&] {
        for (std::size_t i = 0; i < variants.size(); ++i) {
            StepCount count;
            const auto start = Clock::now();
            trainingStep(stack, batch, variants[i], microBatches, ledgers[i], count);
            runs[i].seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
            runs[i].recomputeSeconds.push_back(count.recomputeSeconds);
        }
        return true;
    };
    const double minSeconds = timing.minSeconds * static_cast<double>(variants.size());
    if (!timeRepeated(once, timing.minReps, minSeconds, control, warm))
        return std::nullopt;
    return runs;
}

}  // namespace

TrainingBatch::TrainingBatch(const MlpShape& shape)
    : input(static_cast<std::size_t>(shape.tokens) * static_cast<std::size_t>(shape.model)), target(input.size())
{
    fillTrainingPattern(input.data(), input.size(), 100, 2.0f);
    fillTrainingPattern(target.data(), target.size(), 101, 2.0f);
}

std::vector<std::vector<float>> copyGradients(const std::vector<AlignedBuffer<float>>& gradients)
{
    std::vector<std::vector<float>> copy;
    for (const AlignedBuffer<float>& g : gradients)
        copy.emplace_back(g.data(), g.data() + g.size());
    return copy;
}

double gradientDifference(const std::vector<std::vector<float>>& reference,
                          const std::vector<AlignedBuffer<float>>& gradients)
{
    double worst = 0.0;
    for (std::size_t i = 0; i < reference.size() && i < gradients.size(); ++i) {
        const float* other = gradients[i].data();
        double largest = 0.0, difference = 0.0;
        for (std::size_t j = 0; j < reference[i].size(); ++j) {
            largest = std::max(largest, static_cast<double>(std::fabs(reference[i][j])));
            difference = std::max(difference, static_cast<double>(std::fabs(reference[i][j] - other[j])));
        }
        worst = std::max(worst, largest > 0.0 ? difference / largest : difference);
    }
    return worst;
}

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
    const std::vector<std::vector<float>> full = copyGradients(stack.gradients());

    stack.zeroGradients();
    ActivationLedger microLedger;
    const int rows = shape.tokens / microBatches;
    const auto stride = static_cast<std::size_t>(rows) * static_cast<std::size_t>(shape.model);
    for (int m = 0; m < microBatches; ++m)
        stack.accumulate(input + m * stride, target + m * stride, rows, shape.tokens, StepMode::Plain, microLedger,
                         count);
    if (microPeakBytes)
        *microPeakBytes = microLedger.peakBytes();

    return gradientDifference(full, stack.gradients());
}

std::optional<TrainingMeasurement> measureTraining(const MlpShape& shape, int microBatches, int threads,
                                                   MeasureControl& control)
{
    openblas_set_num_threads(threads);
    MlpStack stack(shape);
    const TrainingBatch batch(shape);
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
    std::vector<Variant> order;
    for (const auto& v : variants)
        order.push_back(v.variant);
    const std::optional<std::vector<VariantRun>> runs = runVariants(stack, batch, order, microBatches, control);
    if (!runs)
        return std::nullopt;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const VariantRun& run = (*runs)[i];
        KernelResult kernel = makeKernel(QStringLiteral("training-step"), size, QStringLiteral("fp32"), threads,
                                         OpCount{run.count.flops, run.count.bytes}, run.seconds);
        kernel.name = variants[i].name;
        result.kernels.push_back(kernel);
        if (order[i] == Variant::Plain) {
            t.plainSeconds = kernel.seconds;
            t.plainFlops = run.count.flops;
            t.forwardFlops = run.count.forwardFlops;
            t.plainPeakBytes = run.peakBytes;
        } else if (order[i] == Variant::Checkpointed) {
            t.checkpointSeconds = kernel.seconds;
            t.recomputeFlops = run.count.recomputeFlops;
            t.recomputeSeconds = median(run.recomputeSeconds);
            t.checkpointPeakBytes = run.peakBytes;
        } else {
            t.accumulateSeconds = kernel.seconds;
        }
    }
    return result;
}

}  // namespace ridgeline
