#pragma once
// The training step measured: the same stack of MLP blocks run plainly, with activation checkpointing and with
// gradient accumulation, each timed as every kernel is and placed on the roofline ("training-step"), with the
// summary the report prints (session.h's TrainingResult).

#include "core/measure/run/measure_control.h"
#include "core/measure/workloads/training.h"
#include "core/session/session.h"

#include <optional>
#include <vector>

namespace ridgeline {

// Accumulated fp32 gradients may differ from the full batch's by the order of their sums, no more: the largest
// difference in a weight's gradient, over that gradient's largest magnitude, stays within this.
inline constexpr double kAccumulationTolerance = 1e-4;
inline constexpr int kTrainingMicroBatches = 4;
// Small enough that the weights drift little over the repetitions, so every repetition does the same work.
inline constexpr float kTrainingLearningRate = 1e-3f;

// The batch a measured step trains on: input and target, tokens x model each, a fixed pattern.
struct TrainingBatch {
    AlignedBuffer<float> input;
    AlignedBuffer<float> target;
    explicit TrainingBatch(const MlpShape& shape);
};

// The largest difference of any weight's gradient from the reference's, over that reference gradient's largest
// magnitude.
double gradientDifference(const std::vector<std::vector<float>>& reference,
                          const std::vector<AlignedBuffer<float>>& gradients);
std::vector<std::vector<float>> copyGradients(const std::vector<AlignedBuffer<float>>& gradients);

// The stack a run measures: a full run's two transformer-sized MLP blocks (512 tokens, 512 -> 2048 -> 512: 13 GFLOP
// a step); a quick run's half the tokens and half the width (1.6 GFLOP).
MlpShape trainingShape(bool quick);
// The FLOPs of one plain step as the code counts them (six products a block, the passes, the update).
double trainingStepFlops(const MlpShape& shape);

// Gradients of the full batch and of `microBatches` micro-batches summed, on the same weights: the largest
// difference of any weight's gradient over that gradient's largest magnitude. `microPeakBytes`, when given,
// receives the activation bytes live at once during a micro-batch.
double accumulationDifference(MlpStack& stack, const float* input, const float* target, int microBatches,
                              double* microPeakBytes = nullptr);

struct TrainingMeasurement {
    TrainingResult summary;
    std::vector<KernelResult> kernels;  // plain, checkpointed, accumulated
};
std::optional<TrainingMeasurement> measureTraining(const MlpShape& shape, int microBatches, int threads,
                                                   MeasureControl& control);

}  // namespace ridgeline
