#include "core/measure/workloads/kernels.h"

#include "core/measure/memory/stream_kernels.h"
#include "core/measure/run/aligned_buffer.h"
#include "core/measure/run/kernel_timing.h"
#include "core/measure/run/parallel.h"
#include "core/measure/run/statistics.h"
#include "core/measure/run/time_plan.h"
#include "core/measure/workloads/gemm.h"
#include "core/model/intensity.h"

#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace ridgeline {

namespace {

using Clock = std::chrono::steady_clock;

// Splits [0, count) into `threads` contiguous, cache-line aligned slices.
std::pair<std::size_t, std::size_t> sliceOf(std::size_t count, int threads, int thread)
{
    const std::size_t per = ((count / static_cast<std::size_t>(threads)) / 16) * 16;
    const std::size_t begin = per * static_cast<std::size_t>(thread);
    const std::size_t end = thread == threads - 1 ? count : begin + per;
    return {begin, end};
}

// Runs `work(begin, end)` on each thread's slice; the parallel run itself is one repetition.
template <typename Work>
bool runSliced(std::size_t count, int threads, Work work)
{
    runParallel(threads, 1,
                [&](int thread, int) {
                    const auto [begin, end] = sliceOf(count, threads, thread);
                    work(begin, end);
                },
                {});
    return true;
}

// Element i gets scale * ((i * 7919) % 1000) / 1000 - scale / 2, for i in [from, to); the residue is stepped, not
// divided for. The value depends on i alone, so a buffer can be filled in pieces.
template <typename T>
void fillPattern(T* data, std::size_t from, std::size_t to, int threads, double scale)
{
    T table[1000];
    for (int r = 0; r < 1000; ++r)
        table[r] = static_cast<T>(scale * static_cast<double>(r) / 1000.0 - scale / 2.0);
    runSliced(to - from, threads, [&](std::size_t begin, std::size_t end) {
        begin += from;
        end += from;
        std::size_t residue = (begin % 1000) * 7919 % 1000;
        for (std::size_t i = begin; i < end; ++i) {
            data[i] = table[residue];
            residue += 919;  // 7919 mod 1000
            if (residue >= 1000)
                residue -= 1000;
        }
    });
}

template <typename T>
void fillPattern(AlignedBuffer<T>& buffer, int threads, double scale)
{
    fillPattern(buffer.data(), 0, buffer.size(), threads, scale);
}

}  // namespace

std::optional<KernelResult> measureGemm(Precision precision, int n, int threads, double gflopsGuess,
                                        MeasureControl& control)
{
    openblas_set_num_threads(threads);
    const auto elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    auto keepGoing = [&] { return control.keepGoing(); };
    const StepTiming timing = stepTiming(KernelExperiment::Gemm, control.quick(), n);
    // The warm-up assumes a third of the guess, so that even it keeps cancel prompt.
    int parts = gemmParts(n, gflopsGuess / 3.0, kMaxSecondsPerBlasCall);
    const double flops = 2.0 * n * static_cast<double>(n) * n;
    auto measured = [&](auto& a, auto& b, auto& c, auto gemm) -> std::optional<std::vector<double>> {
        fillPattern(a, threads, 1.0);
        fillPattern(b, threads, 1.0);
        fillPattern(c, threads, 0.0);  // first touched here, not inside the timed warm-up
        const auto warmStart = Clock::now();
        if (!gemm(a.data(), b.data(), c.data(), n, parts, keepGoing) || !control.keepGoing())
            return std::nullopt;
        const double warmSeconds = std::chrono::duration<double>(Clock::now() - warmStart).count();
        parts = gemmParts(n, flops / std::max(warmSeconds, 1e-9) / 1e9, kMaxSecondsPerBlasCall);
        return timeRepeated([&] { return gemm(a.data(), b.data(), c.data(), n, parts, keepGoing); }, timing.minReps,
                            timing.minSeconds, control, warmSeconds);
    };
    std::optional<std::vector<double>> seconds;
    if (precision == Precision::Fp32) {
        AlignedBuffer<float> a(elements), b(elements), c(elements);
        seconds = measured(a, b, c, [&](auto... args) { return gemmFp32(args...); });
    } else {
        AlignedBuffer<double> a(elements), b(elements), c(elements);
        seconds = measured(a, b, c, [&](auto... args) { return gemmFp64(args...); });
    }
    if (!seconds)
        return std::nullopt;
    const QString kind = precision == Precision::Fp32 ? QStringLiteral("sgemm") : QStringLiteral("dgemm");
    KernelResult kernel = makeKernel(kind, QStringLiteral("%1x%1").arg(n), precisionName(precision), threads,
                                     matmulCount(n, bytesPerElement(precision)), *seconds);
    kernel.name = kind + QLatin1Char(' ') + QString::number(n);
    return kernel;
}

AddExperiment::AddExperiment(int maxN, int threads)
    : m_threads(threads),
      m_a(static_cast<std::size_t>(maxN) * static_cast<std::size_t>(maxN)),
      m_b(m_a.size()),
      m_c(m_a.size())
{
}

std::optional<KernelResult> AddExperiment::measure(int n, MeasureControl& control)
{
    const auto elements = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
    if (elements > m_a.size())
        return std::nullopt;
    if (elements > m_filled) {
        // Element i holds the same value whatever n, so each size fills (and first touches) only what the
        // sizes before it did not.
        const auto start = Clock::now();
        fillPattern(m_a.data(), m_filled, elements, m_threads, 1.0);
        fillPattern(m_b.data(), m_filled, elements, m_threads, 1.0);
        fillPattern(m_c.data(), m_filled, elements, m_threads, 0.0);
        m_lastFillSeconds = std::chrono::duration<double>(Clock::now() - start).count();
        m_lastFillBytes = 12.0 * static_cast<double>(elements - m_filled);
        m_filled = elements;
    }
    auto once = [&] {
        return runSliced(elements, m_threads, [&](std::size_t begin, std::size_t end) {
            addFp32(m_c.data() + begin, m_a.data() + begin, m_b.data() + begin, end - begin);
        });
    };
    const StepTiming timing = stepTiming(KernelExperiment::Add, control.quick());
    const auto seconds = timeRepeated(once, timing.minReps, timing.minSeconds, control);
    if (!seconds)
        return std::nullopt;
    KernelResult kernel = makeKernel(QStringLiteral("add"), QStringLiteral("%1x%1").arg(n), QStringLiteral("fp32"),
                                     m_threads, elementwiseAddCount(n, 4), *seconds);
    kernel.name = QStringLiteral("add %1").arg(n);
    return kernel;
}

double AddExperiment::fillGbps() const
{
    return m_lastFillSeconds > 0.0 ? m_lastFillBytes / m_lastFillSeconds / 1e9 : 0.0;
}

DecodeExperiment::DecodeExperiment(int dim, int maxBatch, int threads)
    : m_dim(dim),
      m_threads(threads),
      m_weights(static_cast<std::size_t>(dim) * static_cast<std::size_t>(dim)),
      m_inputs(static_cast<std::size_t>(dim) * static_cast<std::size_t>(maxBatch)),
      m_outputs(static_cast<std::size_t>(dim) * static_cast<std::size_t>(maxBatch))
{
    fillPattern(m_weights, threads, 0.1);
    fillPattern(m_inputs, threads, 1.0);
}

std::optional<KernelResult> DecodeExperiment::measure(int batch, MeasureControl& control)
{
    openblas_set_num_threads(m_threads);
    auto once = [&] {
        matrixTimesBatchFp32(m_weights.data(), m_inputs.data(), m_outputs.data(), m_dim, m_dim, batch);
        return true;
    };
    const StepTiming timing = stepTiming(KernelExperiment::Decode, control.quick());
    const auto seconds = timeRepeated(once, timing.minReps, timing.minSeconds, control);
    if (!seconds)
        return std::nullopt;
    KernelResult kernel =
        makeKernel(QStringLiteral("decode"), QStringLiteral("%1x%1 x B=%2").arg(m_dim).arg(batch),
                   QStringLiteral("fp32"), m_threads, matrixTimesBatchCount(m_dim, m_dim, batch, 4), *seconds);
    kernel.name = QStringLiteral("decode B=%1").arg(batch);
    kernel.batch = batch;
    kernel.tokensPerSecond = kernel.seconds > 0.0 ? batch / kernel.seconds : 0.0;
    return kernel;
}

double fusionSecondsPerElement(std::int64_t columns, int threads)
{
    // A few rows, small enough to stay in L2: the chain's arithmetic alone, on one thread.
    const auto elements = static_cast<std::size_t>(16 * columns);
    AlignedBuffer<float> input(elements), output(elements), bias(static_cast<std::size_t>(columns));
    fillPattern(input, 1, 4.0);
    for (std::size_t j = 0; j < bias.size(); ++j)
        bias[j] = 0.01f * static_cast<float>(j % 100);
    ChainParams params;
    params.bias = bias.data();
    params.columns = static_cast<std::size_t>(columns);
    double best = 0.0;
    for (int run = 0; run < 4; ++run) {
        const auto start = Clock::now();
        fusedBiasGeluDropout(output.data(), input.data(), elements, params);
        const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
        if (run > 0 && (best == 0.0 || seconds < best))  // the first run warms the caches
            best = seconds;
    }
    return best / static_cast<double>(elements) / std::max(threads, 1);
}

std::optional<FusionMeasurement> measureFusion(std::int64_t rows, std::int64_t columns, int threads,
                                               MeasureControl& control)
{
    const auto elements = static_cast<std::size_t>(rows * columns);
    // Unfused, every op writes a new tensor, as separate framework kernels do.
    AlignedBuffer<float> input(elements), afterBias(elements), afterGelu(elements), unfusedOut(elements),
        fusedOut(elements);
    AlignedBuffer<float> bias(static_cast<std::size_t>(columns));
    // Only the input needs values; the warm-up run writes (and first touches) the others, slice by slice on
    // the threads that use them.
    fillPattern(input, threads, 4.0);
    for (std::size_t j = 0; j < bias.size(); ++j)
        bias[j] = 0.01f * static_cast<float>(j % 100);

    auto paramsFor = [&](std::size_t begin) {
        ChainParams params;
        params.bias = bias.data();
        params.columns = static_cast<std::size_t>(columns);
        params.firstIndex = begin;
        return params;
    };
    // Three kernels, each a full pass over the tensor: the intermediate result goes to memory and back.
    auto unfused = [&] {
        runSliced(elements, threads, [&](std::size_t begin, std::size_t end) {
            biasAddPass(afterBias.data() + begin, input.data() + begin, end - begin, paramsFor(begin));
        });
        runSliced(elements, threads, [&](std::size_t begin, std::size_t end) {
            geluPass(afterGelu.data() + begin, afterBias.data() + begin, end - begin);
        });
        runSliced(elements, threads, [&](std::size_t begin, std::size_t end) {
            dropoutPass(unfusedOut.data() + begin, afterGelu.data() + begin, end - begin, paramsFor(begin));
        });
        return true;
    };
    auto fused = [&] {
        return runSliced(elements, threads, [&](std::size_t begin, std::size_t end) {
            fusedBiasGeluDropout(fusedOut.data() + begin, input.data() + begin, end - begin, paramsFor(begin));
        });
    };
    const StepTiming timing = stepTiming(KernelExperiment::Fusion, control.quick());
    const auto unfusedSeconds = timeRepeated(unfused, timing.minReps, timing.minSeconds, control);
    if (!unfusedSeconds)
        return std::nullopt;
    const auto fusedSeconds = timeRepeated(fused, timing.minReps, timing.minSeconds, control);
    if (!fusedSeconds)
        return std::nullopt;

    const double tensorBytes = static_cast<double>(elements) * 4.0;
    const double flopsPerElement = 1.0 + 12.0 + 1.0;  // bias add; GELU (tanh approximation); dropout scale
    const OpCount unfusedCount{flopsPerElement * static_cast<double>(elements), 6.0 * tensorBytes};
    const OpCount fusedCount{flopsPerElement * static_cast<double>(elements), 2.0 * tensorBytes};
    const QString size = QStringLiteral("%1x%2").arg(rows).arg(columns);

    FusionMeasurement result;
    result.unfused = makeKernel(QStringLiteral("fusion-unfused"), size, QStringLiteral("fp32"), threads, unfusedCount,
                                *unfusedSeconds);
    result.unfused.name = QStringLiteral("bias+GELU+dropout, 3 passes");
    result.fused =
        makeKernel(QStringLiteral("fusion-fused"), size, QStringLiteral("fp32"), threads, fusedCount, *fusedSeconds);
    result.fused.name = QStringLiteral("bias+GELU+dropout, fused");

    FusionResult& summary = result.summary;
    summary.elements = static_cast<std::int64_t>(elements);
    summary.unfusedBytes = unfusedCount.bytes;
    summary.fusedBytes = fusedCount.bytes;
    summary.unfusedSeconds = result.unfused.seconds;
    summary.fusedSeconds = result.fused.seconds;
    summary.speedup = summary.fusedSeconds > 0.0 ? summary.unfusedSeconds / summary.fusedSeconds : 0.0;
    double worst = 0.0;
    for (std::size_t i = 0; i < elements; i += 97)
        worst = std::max(worst, static_cast<double>(std::fabs(unfusedOut[i] - fusedOut[i])));
    summary.maxAbsDifference = worst;
    return result;
}

}  // namespace ridgeline
