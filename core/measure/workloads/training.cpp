#include "core/measure/workloads/training.h"

#include "core/measure/workloads/training_gelu.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <utility>

namespace ridgeline {

namespace {

using namespace training_gelu;

void geluPassForward(float* out, const float* in, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i)
        out[i] = gelu(in[i]);
}

// gradient *= GELU'(preActivation), in place.
void geluPassBackward(float* gradient, const float* preActivation, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i)
        gradient[i] *= geluDerivative(preActivation[i]);
}

double bytesOf(double elements)
{
    return 4.0 * elements;
}

// C (m x n) = op(A) op(B) + beta C, row-major; counted as 2 m n k FLOPs and each operand moved once (C twice
// when it is accumulated into).
void product(bool transA, bool transB, int m, int n, int k, const float* a, const float* b, float beta, float* c,
             StepCount& count, bool recompute)
{
    const int lda = transA ? m : k;
    const int ldb = transB ? k : n;
    cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, m, n, k, 1.0f, a,
                lda, b, ldb, beta, c, n);
    const double md = m, nd = n, kd = k;
    count.add(2.0 * md * nd * kd, bytesOf(md * kd + kd * nd + (beta != 0.0f ? 2.0 : 1.0) * md * nd), recompute);
}

}  // namespace

float trainingGelu(float x)
{
    return gelu(x);
}

float trainingGeluDerivative(float x)
{
    return geluDerivative(x);
}

void fillTrainingPattern(float* data, std::size_t count, std::size_t seed, float scale)
{
    for (std::size_t i = 0; i < count; ++i) {
        // splitmix64 of (seed, i): a fixed, well spread pattern without a random state.
        std::uint64_t z = (static_cast<std::uint64_t>(seed) << 40) + i + 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        data[i] = scale * (static_cast<float>(z >> 40) / 16777216.0f - 0.5f);
    }
}

ActivationLedger::Buffer::Buffer(ActivationLedger* ledger, std::size_t count, AlignedBuffer<float> memory)
    : m_ledger(ledger), m_count(count), m_memory(std::move(memory))
{
}

ActivationLedger::Buffer::Buffer(Buffer&& other) noexcept
    : m_ledger(std::exchange(other.m_ledger, nullptr)),
      m_count(std::exchange(other.m_count, 0)),
      m_memory(std::move(other.m_memory))
{
}

ActivationLedger::Buffer& ActivationLedger::Buffer::operator=(Buffer&& other) noexcept
{
    if (this != &other) {
        release();
        m_ledger = std::exchange(other.m_ledger, nullptr);
        m_count = std::exchange(other.m_count, 0);
        m_memory = std::move(other.m_memory);
    }
    return *this;
}

void ActivationLedger::Buffer::release()
{
    if (m_ledger)
        m_ledger->giveBack(m_count, std::move(m_memory));
    m_ledger = nullptr;
    m_count = 0;
}

ActivationLedger::Buffer ActivationLedger::take(std::size_t count)
{
    AlignedBuffer<float> memory;
    const auto pooled =
        std::find_if(m_pool.begin(), m_pool.end(), [&](const AlignedBuffer<float>& b) { return b.size() == count; });
    if (pooled != m_pool.end()) {
        memory = std::move(*pooled);
        m_pool.erase(pooled);
    } else {
        memory = AlignedBuffer<float>(count);
    }
    m_live += bytesOf(static_cast<double>(count));
    m_peak = std::max(m_peak, m_live);
    return Buffer(this, count, std::move(memory));
}

void ActivationLedger::giveBack(std::size_t count, AlignedBuffer<float> memory)
{
    m_live -= bytesOf(static_cast<double>(count));
    m_pool.push_back(std::move(memory));
}

MlpStack::MlpStack(const MlpShape& shape) : m_shape(shape)
{
    const auto in = static_cast<std::size_t>(shape.model);
    const auto hidden = static_cast<std::size_t>(shape.hidden);
    for (int l = 0; l < shape.layers; ++l)
        for (int w = 0; w < 2; ++w) {
            // Uniform with variance 1 / fan-in, so activations keep their scale through the stack.
            const std::size_t fanIn = w == 0 ? in : hidden;
            m_weights.emplace_back(in * hidden);
            m_gradients.emplace_back(in * hidden);
            fillTrainingPattern(m_weights.back().data(), in * hidden, static_cast<std::size_t>(2 * l + w + 1),
                                2.0f * std::sqrt(3.0f / static_cast<float>(fanIn)));
        }
    zeroGradients();
}

void MlpStack::zeroGradients()
{
    for (AlignedBuffer<float>& g : m_gradients)
        std::fill(g.data(), g.data() + g.size(), 0.0f);
}

double MlpStack::accumulate(const float* input, const float* target, int rows, int lossTokens, StepMode mode,
                            ActivationLedger& ledger, StepCount& count, float* inputGradient)
{
    const int d = m_shape.model;
    const int h = m_shape.hidden;
    const auto hiddenCount = static_cast<std::size_t>(rows) * static_cast<std::size_t>(h);
    const auto modelCount = static_cast<std::size_t>(rows) * static_cast<std::size_t>(d);
    const bool checkpointed = mode == StepMode::Checkpointed;
    const auto layers = static_cast<std::size_t>(m_shape.layers);
    // Block l's pre-activation and hidden layer (dropped at once when checkpointed) and its output, which is the
    // input of block l + 1: what backward needs, kept or recomputed.
    std::vector<ActivationLedger::Buffer> pre(layers), hidden(layers), out(layers);
    auto inputOf = [&](std::size_t l) { return l == 0 ? input : out[l - 1].data(); };
    auto hiddenLayer = [&](std::size_t l, bool recompute) {
        pre[l] = ledger.take(hiddenCount);
        product(false, false, rows, h, d, inputOf(l), m_weights[2 * l].data(), 0.0f, pre[l].data(), count, recompute);
        hidden[l] = ledger.take(hiddenCount);
        geluPassForward(hidden[l].data(), pre[l].data(), hiddenCount);
        count.add(kGeluFlops * static_cast<double>(hiddenCount), bytesOf(2.0 * static_cast<double>(hiddenCount)),
                  recompute);
    };
    const double flopsBefore = count.flops;
    for (std::size_t l = 0; l < layers; ++l) {
        hiddenLayer(l, false);
        out[l] = ledger.take(modelCount);
        product(false, false, rows, d, h, hidden[l].data(), m_weights[2 * l + 1].data(), 0.0f, out[l].data(), count,
                false);
        if (checkpointed) {
            hidden[l].release();
            pre[l].release();
        }
    }
    count.forwardFlops += count.flops - flopsBefore;
    // The loss, and its gradient written over the output, which nothing needs any more.
    ActivationLedger::Buffer grad = std::move(out[layers - 1]);
    double loss = 0.0;
    const float inverse = 1.0f / static_cast<float>(lossTokens);
    for (std::size_t i = 0; i < modelCount; ++i) {
        const float difference = grad.data()[i] - target[i];
        loss += 0.5 * static_cast<double>(difference) * difference;
        grad.data()[i] = difference * inverse;
    }
    count.add(kLossFlops * static_cast<double>(modelCount), bytesOf(3.0 * static_cast<double>(modelCount)), false);

    for (std::size_t l = layers; l-- > 0;) {
        if (checkpointed) {
            const auto start = std::chrono::steady_clock::now();
            hiddenLayer(l, true);
            count.recomputeSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        }
        product(true, false, h, d, rows, hidden[l].data(), grad.data(), 1.0f, m_gradients[2 * l + 1].data(), count,
                false);
        hidden[l].release();
        ActivationLedger::Buffer hiddenGrad = ledger.take(hiddenCount);
        product(false, true, rows, h, d, grad.data(), m_weights[2 * l + 1].data(), 0.0f, hiddenGrad.data(), count,
                false);
        grad.release();
        geluPassBackward(hiddenGrad.data(), pre[l].data(), hiddenCount);
        count.add(kGeluBackwardFlops * static_cast<double>(hiddenCount),
                  bytesOf(3.0 * static_cast<double>(hiddenCount)), false);
        pre[l].release();
        product(true, false, d, h, rows, inputOf(l), hiddenGrad.data(), 1.0f, m_gradients[2 * l].data(), count, false);
        ActivationLedger::Buffer inputGrad = ledger.take(modelCount);
        product(false, true, rows, d, h, hiddenGrad.data(), m_weights[2 * l].data(), 0.0f, inputGrad.data(), count,
                false);
        hiddenGrad.release();
        if (l > 0)
            out[l - 1].release();
        grad = std::move(inputGrad);
    }
    if (inputGradient)
        std::copy(grad.data(), grad.data() + modelCount, inputGradient);
    return loss / lossTokens;
}

void MlpStack::update(float rate, StepCount& count)
{
    for (std::size_t i = 0; i < m_weights.size(); ++i) {
        float* w = m_weights[i].data();
        const float* g = m_gradients[i].data();
        const std::size_t n = m_weights[i].size();
        for (std::size_t j = 0; j < n; ++j)
            w[j] -= rate * g[j];
        count.add(2.0 * static_cast<double>(n), bytesOf(3.0 * static_cast<double>(n)), false);
    }
}

}  // namespace ridgeline
