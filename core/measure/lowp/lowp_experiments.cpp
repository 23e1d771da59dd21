#include "core/measure/lowp/lowp_experiments.h"

#include "core/measure/lowp/lowp_kernels.h"
#include "core/measure/run/kernel_timing.h"
#include "core/measure/workloads/kernels.h"
#include "core/session/decode_series.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

namespace ridgeline {

namespace {

// The kernels' input pattern (kernels.cpp's fillPattern): values in [-scale/2, scale/2).
// Repeats every kPatternPeriod elements (MatmulOperand::periodic fills large operands from one period).
constexpr std::size_t kPatternPeriod = 1000;

float patternValue(std::size_t i, double scale)
{
    return static_cast<float>(scale * static_cast<double>((i * 7919) % 1000) / 1000.0 - scale / 2.0);
}

}  // namespace

QString lowpDecodeKind(MatmulType weights)
{
    return decodeKind(matmulTypeName(weights));
}

std::optional<KernelResult> measureBf16Gemm(int n, int threads, double gflopsGuess, MeasureControl& control)
{
    const auto elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    // Row panels: A's rows in equal blocks against the one packed B, each block one oneDNN call.
    const double flops = 2.0 * n * static_cast<double>(n) * n;
    const double guessSeconds = flops / (std::max(gflopsGuess, 1.0) * 1e9);
    int panels = 1;
    while (guessSeconds / panels > kMaxSecondsPerBlasCall && n % (2 * panels) == 0 && n / (2 * panels) >= 64)
        panels *= 2;
    const int rows = n / panels;
    const MatmulOperand a = MatmulOperand::periodic(MatmulType::Bf16, elements, kPatternPeriod,
                                                    [](std::size_t i) { return patternValue(i, 1.0); });
    const MatmulOperand b = MatmulOperand::periodic(MatmulType::Bf16, elements, kPatternPeriod,
                                                    [](std::size_t i) { return patternValue(i, 1.0); });
    auto product = OneDnnMatmul::create({rows, n, n}, MatmulOperand{MatmulType::Bf16, {}, 1.0f}, b, threads);
    if (!product)
        return std::nullopt;
    std::vector<float> c(elements);
    const std::size_t panelElements = static_cast<std::size_t>(rows) * static_cast<std::size_t>(n);
    auto once = [&] {
        for (int p = 0; p < panels; ++p) {
            if (p > 0 && !control.keepGoing())
                return false;
            product.value()->run(a.bytes.data() + 2 * panelElements * p, c.data() + panelElements * p);
        }
        return true;
    };
    const auto seconds = timeRepeated(once, n >= 4096 ? 3 : control.reps(), control.quick() ? 0.05 : 0.3, control);
    if (!seconds)
        return std::nullopt;
    const OpCount count{flops, 2.0 * 2.0 * static_cast<double>(elements) + 4.0 * static_cast<double>(elements)};
    KernelResult kernel = makeKernel(QStringLiteral("bf16-gemm"), QStringLiteral("%1x%1").arg(n),
                                     QStringLiteral("bf16"), threads, count, *seconds);
    kernel.name = QStringLiteral("bf16 gemm %1").arg(n);
    return kernel;
}

LowpDecodeExperiment::LowpDecodeExperiment(MatmulType weights, int dim, int threads)
    : m_type(weights), m_dim(dim), m_threads(threads)
{
    // The weights as oneDNN's "weights" operand: dim (inputs) x dim (outputs).
    m_weights = MatmulOperand::periodic(weights, static_cast<std::size_t>(dim) * static_cast<std::size_t>(dim),
                                        kPatternPeriod, [](std::size_t i) { return patternValue(i, 0.1); });
}

std::optional<KernelResult> LowpDecodeExperiment::measure(int batch, MeasureControl& control)
{
    const MatmulOperand activations =
        MatmulOperand::periodic(m_type, static_cast<std::size_t>(batch) * static_cast<std::size_t>(m_dim),
                                kPatternPeriod, [](std::size_t i) { return patternValue(i, 1.0); });
    auto product = OneDnnMatmul::create({batch, m_dim, m_dim}, activations, m_weights, m_threads, m_first.get());
    if (!product)
        return std::nullopt;
    OneDnnMatmul& step = *product.value();
    std::unique_ptr<OneDnnMatmul> keep;  // the first product stays alive for the others to share its weights
    if (!m_first)
        keep = std::move(product.value());
    const auto seconds = timeRepeated(
        [&] {
            step.run();
            return true;
        },
        control.reps(), control.quick() ? 0.015 : 0.15, control);
    if (!seconds)
        return std::nullopt;
    const QString type = matmulTypeName(m_type);
    KernelResult kernel = makeKernel(lowpDecodeKind(m_type), QStringLiteral("%1x%1 x B=%2").arg(m_dim).arg(batch), type,
                                     m_threads, {step.flops(), step.bytes()}, *seconds);
    kernel.name = QStringLiteral("decode %1 B=%2").arg(type).arg(batch);
    kernel.batch = batch;
    kernel.tokensPerSecond = kernel.seconds > 0.0 ? batch / kernel.seconds : 0.0;
    if (keep)
        m_first = std::move(keep);
    return kernel;
}

LowpDecodeSize lowpDecodeSize(int decodeDim, std::int64_t dramBytes, std::int64_t memoryBudget, int maxBatch,
                              const std::function<bool(int)>& fitsTime)
{
    auto footprint = [&](std::int64_t dim) { return 4 * dim * (2 * dim + 2 * maxBatch); };
    LowpDecodeSize size;
    if (decodeDim <= 0 || footprint(decodeDim) > memoryBudget)
        return size;
    size.dim = decodeDim;
    while (static_cast<std::int64_t>(size.dim) * size.dim < dramBytes && 2 * size.dim <= kMaxLowpDecodeDim &&
           footprint(2 * static_cast<std::int64_t>(size.dim)) <= memoryBudget && (!fitsTime || fitsTime(2 * size.dim)))
        size.dim *= 2;
    const std::int64_t int8Bytes = static_cast<std::int64_t>(size.dim) * size.dim;
    if (int8Bytes < dramBytes)
        size.note = Finding{QStringLiteral("decode int8"), QStringLiteral("note"),
                            QStringLiteral("%1 x %1 int8 weights (%2 MiB) are smaller than a DRAM working set of this "
                                           "machine (%3 MiB): caches may serve part of them, and of the bf16 ones")
                                .arg(size.dim)
                                .arg(int8Bytes / (1024 * 1024))
                                .arg(dramBytes / (1024 * 1024))};
    return size;
}

std::vector<int> lowpDecodeBatches(bool quick, int maxBatch)
{
    std::vector<int> batches;
    for (int batch = 1; batch <= maxBatch; batch *= quick ? 4 : 2)
        batches.push_back(batch);
    return batches;
}

void waitForIdleBlasWorkers()
{
    std::this_thread::sleep_for(std::chrono::duration<double>(kBlasWorkersSpinSeconds));
}

}  // namespace ridgeline
