#pragma once
// The measured training step in bf16 mixed precision (Micikevicius et al. 2018, "Mixed Precision Training", with bf16
// as PyTorch's autocast runs it): the MLP stack's fp32 master weights are rounded to bf16 once a step; every product
// multiplies bf16 operands with fp32 sums (oneDNN's bf16 matmul, core/measure/lowp/onednn_matmul.h: Debian's
// OpenBLAS has no cblas_sbgemm); activations and the gradients passed between layers are kept in bf16, two bytes
// each, counted by the ledger; the weight gradients are summed in fp32 into the stack's master gradients, and the
// update is the fp32 step's. Built where Ridgeline links oneDNN (x86-64).

#include "core/measure/lowp/onednn_matmul.h"
#include "core/measure/run/measure_control.h"
#include "core/measure/workloads/training.h"
#include "core/result.h"
#include "core/session/session.h"

#include <QString>

#include <memory>

namespace ridgeline {

class Bf16MlpStep {
public:
    // The six products of a block (two forward, two weight gradients, two input gradients) for the stack's shape.
    static Result<std::unique_ptr<Bf16MlpStep>> create(MlpStack& stack, int threads);

    // As MlpStack::accumulate over the whole batch without checkpointing: adds the loss's gradients to the stack's
    // fp32 gradients and returns the loss.
    double accumulate(const float* input, const float* target, ActivationLedger& ledger, StepCount& count);
    // "oneDNN 2.6.3 brg:avx512_core_bf16": the library and the kernels its products ran.
    QString products() const;

private:
    Bf16MlpStep(MlpStack& stack, std::vector<std::unique_ptr<OneDnnBf16Gemm>> gemms);
    void multiply(int which, const std::uint16_t* a, const std::uint16_t* b, void* c, StepCount& count);
    MlpStack& m_stack;
    std::vector<std::unique_ptr<OneDnnBf16Gemm>> m_gemms;
    std::vector<AlignedBuffer<std::uint16_t>> m_weights;  // the master weights rounded, once a step
};

struct Bf16TrainingMeasurement {
    KernelResult kernel;       // "training-step", precision "bf16"
    double fp32Seconds = 0.0;  // the fp32 plain step's median, timed just before the bf16 one
    double peakBytes = 0.0;    // activation bytes live at once
    double fp32PeakBytes = 0.0;
    double gradientDifference = 0.0;  // against the fp32 step's gradients on the same weights
    QString products;
};

// The bf16 step beside the fp32 plain step, one after the other, at the run's size. An error when oneDNN cannot make
// the products; Error::Code::Cancelled when stopped.
Result<Bf16TrainingMeasurement> measureTrainingBf16(const MlpShape& shape, int threads, MeasureControl& control);

}  // namespace ridgeline
