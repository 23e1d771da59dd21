#include "core/measure/lowp/training_bf16.h"

#include "core/measure/lowp/low_precision_numbers.h"
#include "core/measure/lowp/lowp_experiments.h"
#include "core/measure/run/kernel_timing.h"
#include "core/measure/run/statistics.h"
#include "core/measure/run/time_plan.h"
#include "core/measure/workloads/training_experiment.h"
#include "core/measure/workloads/training_gelu.h"

#include <QStringList>

#include <cblas.h>

#include <chrono>
#include <set>
#include <utility>

namespace ridgeline {

namespace {

using namespace training_gelu;
using Clock = std::chrono::steady_clock;

// The block's products in the order the step runs them.
enum Gemm { Forward1, Forward2, WeightGradient2, HiddenGradient, WeightGradient1, InputGradient, kGemms };

void roundToBf16(const float* in, std::uint16_t* out, std::size_t count)
{
    for (std::size_t i = 0; i < count; ++i)
        out[i] = bf16FromFloat(in[i]);
}

}  // namespace

Bf16MlpStep::Bf16MlpStep(MlpStack& stack, std::vector<std::unique_ptr<OneDnnBf16Gemm>> gemms)
    : m_stack(stack), m_gemms(std::move(gemms))
{
    for (const AlignedBuffer<float>& w : m_stack.weights())
        m_weights.emplace_back(w.size());
}

Result<std::unique_ptr<Bf16MlpStep>> Bf16MlpStep::create(MlpStack& stack, int threads)
{
    const MlpShape& s = stack.shape();
    const int n = s.tokens, d = s.model, h = s.hidden;
    // W1 is d x h and W2 h x d, row-major; the gradients multiply by them transposed, and by the activations
    // transposed for the weights' gradients, which are summed in fp32.
    const Bf16GemmShape shapes[kGemms] = {
        {false, false, n, h, d, true, false},  // pre = x W1
        {false, false, n, d, h, true, false},  // out = GELU(pre) W2
        {true, false, h, d, n, false, true},   // dW2 += hidden^T grad
        {false, true, n, h, d, true, false},   // hidden's gradient = grad W2^T
        {true, false, d, h, n, false, true},   // dW1 += x^T pre's gradient
        {false, true, n, d, h, true, false},   // x's gradient = pre's gradient W1^T
    };
    std::vector<std::unique_ptr<OneDnnBf16Gemm>> gemms;
    for (const Bf16GemmShape& shape : shapes) {
        Result<std::unique_ptr<OneDnnBf16Gemm>> gemm = OneDnnBf16Gemm::create(shape, threads);
        if (!gemm.ok())
            return gemm.error();
        gemms.push_back(std::move(gemm.value()));
    }
    return std::unique_ptr<Bf16MlpStep>(new Bf16MlpStep(stack, std::move(gemms)));
}

QString Bf16MlpStep::products() const
{
    std::set<QString> kernels;
    for (const auto& gemm : m_gemms)
        kernels.insert(gemm->implementation());
    QStringList names(kernels.begin(), kernels.end());
    return QStringLiteral("oneDNN %1 %2").arg(oneDnnVersion(), names.join(QStringLiteral(", ")));
}

// Counted as 2 m n k FLOPs with each operand moved once: bf16 inputs, a bf16 result or an fp32 one read and written.
void Bf16MlpStep::multiply(int which, const std::uint16_t* a, const std::uint16_t* b, void* c, StepCount& count)
{
    OneDnnBf16Gemm& gemm = *m_gemms[static_cast<std::size_t>(which)];
    gemm.run(a, b, c);
    const Bf16GemmShape& s = gemm.shape();
    const double m = s.m, n = s.n, k = s.k;
    const double resultBytes = s.accumulate ? 8.0 : s.bf16Output ? 2.0 : 4.0;
    count.add(2.0 * m * n * k, 2.0 * (m * k + k * n) + resultBytes * m * n, false);
}

double Bf16MlpStep::accumulate(const float* input, const float* target, ActivationLedger& ledger, StepCount& count)
{
    const MlpShape& shape = m_stack.shape();
    const auto hiddenCount = static_cast<std::size_t>(shape.tokens) * static_cast<std::size_t>(shape.hidden);
    const auto modelCount = static_cast<std::size_t>(shape.tokens) * static_cast<std::size_t>(shape.model);
    const auto layers = static_cast<std::size_t>(shape.layers);
    // The master weights rounded for this step's products, and the input for the first block.
    for (std::size_t i = 0; i < m_weights.size(); ++i) {
        roundToBf16(m_stack.weights()[i].data(), m_weights[i].data(), m_weights[i].size());
        count.add(0.0, 6.0 * static_cast<double>(m_weights[i].size()), false);
    }
    ActivationLedger::Buffer x = takeBf16(ledger, modelCount);
    roundToBf16(input, bf16Data(x), modelCount);
    count.add(0.0, 6.0 * static_cast<double>(modelCount), false);
    auto weight = [&](std::size_t i) { return m_weights[i].data(); };

    std::vector<ActivationLedger::Buffer> pre(layers), hidden(layers), out(layers);
    auto inputOf = [&](std::size_t l) { return l == 0 ? bf16Data(x) : bf16Data(out[l - 1]); };
    const double flopsBefore = count.flops;
    for (std::size_t l = 0; l < layers; ++l) {
        pre[l] = takeBf16(ledger, hiddenCount);
        multiply(Forward1, inputOf(l), weight(2 * l), bf16Data(pre[l]), count);
        hidden[l] = takeBf16(ledger, hiddenCount);
        const std::uint16_t* p = bf16Data(pre[l]);
        std::uint16_t* a = bf16Data(hidden[l]);
        for (std::size_t i = 0; i < hiddenCount; ++i)
            a[i] = bf16FromFloat(gelu(floatFromBf16(p[i])));
        count.add(kGeluFlops * static_cast<double>(hiddenCount), 4.0 * static_cast<double>(hiddenCount), false);
        out[l] = takeBf16(ledger, modelCount);
        multiply(Forward2, bf16Data(hidden[l]), weight(2 * l + 1), bf16Data(out[l]), count);
    }
    count.forwardFlops += count.flops - flopsBefore;

    // The loss in fp32 from the bf16 output; its gradient rounded to bf16 over the output.
    ActivationLedger::Buffer grad = std::move(out[layers - 1]);
    std::uint16_t* g = bf16Data(grad);
    double loss = 0.0;
    const float inverse = 1.0f / static_cast<float>(shape.tokens);
    for (std::size_t i = 0; i < modelCount; ++i) {
        const float difference = floatFromBf16(g[i]) - target[i];
        loss += 0.5 * static_cast<double>(difference) * difference;
        g[i] = bf16FromFloat(difference * inverse);
    }
    count.add(kLossFlops * static_cast<double>(modelCount), 8.0 * static_cast<double>(modelCount), false);

    for (std::size_t l = layers; l-- > 0;) {
        multiply(WeightGradient2, bf16Data(hidden[l]), bf16Data(grad), m_stack.gradients()[2 * l + 1].data(), count);
        hidden[l].release();
        ActivationLedger::Buffer hiddenGrad = takeBf16(ledger, hiddenCount);
        multiply(HiddenGradient, bf16Data(grad), weight(2 * l + 1), bf16Data(hiddenGrad), count);
        grad.release();
        std::uint16_t* hg = bf16Data(hiddenGrad);
        const std::uint16_t* p = bf16Data(pre[l]);
        for (std::size_t i = 0; i < hiddenCount; ++i)
            hg[i] = bf16FromFloat(floatFromBf16(hg[i]) * geluDerivative(floatFromBf16(p[i])));
        count.add(kGeluBackwardFlops * static_cast<double>(hiddenCount), 6.0 * static_cast<double>(hiddenCount), false);
        pre[l].release();
        multiply(WeightGradient1, inputOf(l), bf16Data(hiddenGrad), m_stack.gradients()[2 * l].data(), count);
        ActivationLedger::Buffer inputGrad = takeBf16(ledger, modelCount);
        multiply(InputGradient, bf16Data(hiddenGrad), weight(2 * l), bf16Data(inputGrad), count);
        hiddenGrad.release();
        if (l > 0)
            out[l - 1].release();
        grad = std::move(inputGrad);
    }
    return loss / shape.tokens;
}

Result<Bf16TrainingMeasurement> measureTrainingBf16(const MlpShape& shape, int threads, MeasureControl& control)
{
    openblas_set_num_threads(threads);
    MlpStack stack(shape);
    const TrainingBatch batch(shape);
    Result<std::unique_ptr<Bf16MlpStep>> made = Bf16MlpStep::create(stack, threads);
    if (!made.ok())
        return made.error();
    Bf16MlpStep& bf16 = *made.value();
    Bf16TrainingMeasurement m;
    m.products = bf16.products();

    // Both steps' gradients on the same weights, their counts and peaks; then the update, as every timed step has.
    const int n = shape.tokens;
    ActivationLedger fp32Ledger, bf16Ledger;
    StepCount fp32Count, bf16Count;
    stack.zeroGradients();
    stack.accumulate(batch.input.data(), batch.target.data(), n, n, StepMode::Plain, fp32Ledger, fp32Count);
    const std::vector<std::vector<float>> fp32Gradients = copyGradients(stack.gradients());
    stack.zeroGradients();
    const auto warmStart = Clock::now();
    bf16.accumulate(batch.input.data(), batch.target.data(), bf16Ledger, bf16Count);
    stack.update(kTrainingLearningRate, bf16Count);
    const double warm = std::chrono::duration<double>(Clock::now() - warmStart).count();
    m.gradientDifference = gradientDifference(fp32Gradients, stack.gradients());
    m.peakBytes = bf16Ledger.peakBytes();
    m.fp32PeakBytes = fp32Ledger.peakBytes();
    if (!control.keepGoing())
        return makeError(Error::Code::Cancelled, QStringLiteral("the bf16 training step was stopped"));

    // The fp32 step's repetitions, then the bf16 step's once OpenBLAS's workers sleep: interleaved, the workers'
    // spinning after each sgemm (lowp_experiments.h) would take a core from the bf16 products' threads on a small
    // machine.
    const StepTiming timing = stepTiming(KernelExperiment::Training, control.quick());
    auto timed = [&](bool bf16Step) -> std::optional<std::vector<double>> {
        auto once = [&] {
            StepCount ignored;
            stack.zeroGradients();
            if (bf16Step)
                bf16.accumulate(batch.input.data(), batch.target.data(), bf16Ledger, ignored);
            else
                stack.accumulate(batch.input.data(), batch.target.data(), n, n, StepMode::Plain, fp32Ledger, ignored);
            stack.update(kTrainingLearningRate, ignored);
            return true;
        };
        return timeRepeated(once, timing.minReps, timing.minSeconds, control, warm);
    };
    const std::optional<std::vector<double>> fp32Seconds = timed(false);
    if (fp32Seconds)
        waitForIdleBlasWorkers();
    const std::optional<std::vector<double>> bf16Seconds = fp32Seconds ? timed(true) : std::nullopt;
    if (!bf16Seconds)
        return makeError(Error::Code::Cancelled, QStringLiteral("the bf16 training step was stopped"));
    const QString size =
        QStringLiteral("%1x%2x%3 L%4").arg(shape.tokens).arg(shape.model).arg(shape.hidden).arg(shape.layers);
    m.kernel = makeKernel(QStringLiteral("training-step"), size, QStringLiteral("bf16"), threads,
                          OpCount{bf16Count.flops, bf16Count.bytes}, *bf16Seconds);
    m.kernel.name = QStringLiteral("MLP training step, bf16 mixed");
    m.fp32Seconds = median(*fp32Seconds);
    return m;
}

}  // namespace ridgeline
