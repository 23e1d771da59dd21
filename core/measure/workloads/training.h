#pragma once
// A real training step on this CPU: a stack of MLP blocks (Linear - GELU - Linear, no biases) on a batch of tokens,
// forward, backward to every weight and to the input, and an SGD update, each product an OpenBLAS sgemm. Three
// ways to run it: plainly (every activation kept for backward), with activation checkpointing (each block keeps
// its input only and recomputes its hidden layer in backward) and with gradient accumulation (micro-batches whose
// gradients are summed before the one update). FLOPs and bytes are counted as the code does them; the activation
// bytes are counted by the ledger that hands out every activation buffer, so the peak is what was live at once.

#include "core/measure/run/aligned_buffer.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ridgeline {

struct MlpShape {
    int tokens = 0;  // rows of the batch
    int model = 0;   // width of each block's input and output
    int hidden = 0;  // width of the hidden layer between the two products
    int layers = 0;  // blocks in the stack
};

// Hands out the activation buffers of a step and counts the bytes live at once. Buffers come back to a pool of
// their size on release, so repeated steps reuse memory already touched instead of faulting fresh pages in.
class ActivationLedger {
public:
    class Buffer {
    public:
        Buffer() = default;
        Buffer(ActivationLedger* ledger, std::size_t count, AlignedBuffer<float> memory);
        Buffer(Buffer&& other) noexcept;
        Buffer& operator=(Buffer&& other) noexcept;
        Buffer(const Buffer&) = delete;
        Buffer& operator=(const Buffer&) = delete;
        ~Buffer() { release(); }
        float* data() { return m_memory.data(); }
        const float* data() const { return m_memory.data(); }
        std::size_t size() const { return m_count; }
        void release();  // back to the ledger's pool; the live bytes drop at once

    private:
        ActivationLedger* m_ledger = nullptr;
        std::size_t m_count = 0;
        AlignedBuffer<float> m_memory;
    };

    Buffer take(std::size_t count);
    double liveBytes() const { return m_live; }
    double peakBytes() const { return m_peak; }
    void resetPeak() { m_peak = m_live; }

private:
    void giveBack(std::size_t count, AlignedBuffer<float> memory);
    std::vector<AlignedBuffer<float>> m_pool;
    double m_live = 0.0;
    double m_peak = 0.0;
};

// What a step did, counted by the code that did it.
struct StepCount {
    double flops = 0.0;
    double bytes = 0.0;             // every operand of every product and pass moved once
    double recomputeFlops = 0.0;    // part of flops: the hidden layers checkpointing computed a second time
    double forwardFlops = 0.0;      // part of flops: the forward before the loss, the first time through
    double recomputeSeconds = 0.0;  // spent recomputing, timed around the recompute itself
    void add(double f, double b, bool recompute)
    {
        flops += f;
        bytes += b;
        if (recompute)
            recomputeFlops += f;
    }
};

enum class StepMode { Plain, Checkpointed };

// The stack's weights and gradients: block l has W1 (model x hidden) and W2 (hidden x model), row-major.
class MlpStack {
public:
    explicit MlpStack(const MlpShape& shape);
    const MlpShape& shape() const { return m_shape; }
    std::vector<AlignedBuffer<float>>& weights() { return m_weights; }  // W1 of block 0, W2 of block 0, W1 ...
    std::vector<AlignedBuffer<float>>& gradients() { return m_gradients; }
    void zeroGradients();

    // Adds to the gradients those of the loss 0.5 * sum((Y - target)^2) / `lossTokens` over the rows of `input`
    // (rows x model, rows <= shape().tokens; `target` likewise), Y the stack's output; writes the gradient of the
    // loss with respect to the input into `inputGradient` when given. Returns the loss.
    double accumulate(const float* input, const float* target, int rows, int lossTokens, StepMode mode,
                      ActivationLedger& ledger, StepCount& count, float* inputGradient = nullptr);
    // W -= rate * dW for every weight.
    void update(float rate, StepCount& count);

private:
    MlpShape m_shape;
    std::vector<AlignedBuffer<float>> m_weights;
    std::vector<AlignedBuffer<float>> m_gradients;
};

// Fresh activation buffers of `count` bf16 values from the ledger, counted at two bytes each (bf16 mixed precision).
inline ActivationLedger::Buffer takeBf16(ActivationLedger& ledger, std::size_t count)
{
    return ledger.take((count + 1) / 2);
}
inline std::uint16_t* bf16Data(ActivationLedger::Buffer& buffer)
{
    return reinterpret_cast<std::uint16_t*>(buffer.data());
}

// The tanh-form GELU the step uses and its derivative, for the gradient check.
float trainingGelu(float x);
float trainingGeluDerivative(float x);

// Fills `data` with a fixed pattern of values in [-scale/2, scale/2): the same on every machine.
void fillTrainingPattern(float* data, std::size_t count, std::size_t seed, float scale);

}  // namespace ridgeline
