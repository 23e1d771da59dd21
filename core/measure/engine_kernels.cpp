// The kernels placed on the roof: every series (gemm, add, decode, fusion, training) bounded by time; the low
// precisions' are engine_lowp_kernels.cpp's (oneDNN).
#include "core/measure/engine_decode_batches.h"
#include "core/measure/engine_run.h"
#include "core/model/units.h"

#include "core/measure/compute/peaks.h"
#include "core/measure/run/statistics.h"
#include "core/measure/workloads/kernels.h"
#include "core/measure/workloads/training_experiment.h"

#include <algorithm>
#include <chrono>
#include <new>

namespace ridgeline::engine_detail {

bool Run::measureKernels()
{
    const ExperimentSizes sizes = sizeExperiments(m_dramBytes, m_options.quick, m_budget);
    m_session.skipped.insert(m_session.skipped.end(), sizes.skipped.begin(), sizes.skipped.end());
    addFindings(sizes.notes);
    // Steps as listed; each series corrects this as it plans its sizes in time (adjustTotal).
    const int remaining =
        1 + static_cast<int>(sizes.sgemmSizes.size() + sizes.dgemmSizes.size() + sizes.addSizes.size()) +
        (sizes.decodeDim > 0 ? kDecodeBatches : 0) + (sizes.fusionRows > 0 ? 1 : 0) + 1 + lowpKernelSteps(sizes);
    m_control.setTotal(m_control.done() + remaining);

    const std::int64_t array = sizes.streamArrayBytes;
    if (!step(
            QStringLiteral("STREAM triad, 3 x %1 MiB").arg(array / kMiB),
            [&] {
                const auto triad = measureStreamTriad(array, m_threads, m_control, *m_bandwidthScratch);
                m_bandwidthScratch.reset();
                if (!triad)
                    return false;
                m_session.streamTriadGbps = triad->max;  // STREAM reports the best rate
                return true;
            },
            m_threads))
        return false;

    const KernelBudgets budgets = kernelBudgets(m_options.quick);
    m_reserves.plan(QStringLiteral("sgemm"), budgets.sgemm);
    m_reserves.plan(QStringLiteral("dgemm"), budgets.dgemm);
    m_reserves.plan(QStringLiteral("add"), budgets.add);
    m_reserves.plan(QStringLiteral("decode"), budgets.decode, true);
    m_reserves.plan(QStringLiteral("fusion"), budgets.fusion);
    m_reserves.plan(QStringLiteral("training"), budgets.training);
    planLowpReserves(sizes, budgets);
    return measureGemmSeries(Precision::Fp32, sizes.sgemmSizes, budgets.sgemm) &&
           measureGemmSeries(Precision::Fp64, sizes.dgemmSizes, budgets.dgemm) &&
           measureAddSeries(sizes.addSizes, budgets.add) && measureDecodeSeries(sizes.decodeDim, budgets.decode) &&
           measureFusionStep(sizes.fusionRows, budgets.fusion) && measureTrainingStep(budgets.training) &&
           measureLowpKernels(sizes) && (addFindings(crossCheckSession(m_session)), true);
}

bool Run::runSeries(SeriesBudget& budget, const std::vector<SeriesStep>& steps, const QString& firstBasis,
                    const std::function<std::optional<KernelResult>(std::size_t)>& measure,
                    const std::function<double(std::size_t)>& overhead)
{
    // The model's run time is scaled by how the last step of its kind (compute- or memory-bound) compared with
    // it: its fastest run over its model run. The fastest run, not the step's wall time, so that one disturbed
    // repetition does not stop a series; what a later step cost beyond its runs and the model's overhead
    // (packing, waking threads) is added to the next. A slow gemv at batch 1 says nothing of the gemm at 256.
    double scales[2] = {1.0, 1.0};
    double unmodelled = 0.0;
    QString basis = firstBasis;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const SeriesStep& s = steps[i];
        const double overheadSeconds = overhead ? overhead(i) : s.overheadSeconds;
        double& scale = scales[s.computeBound ? 1 : 0];
        const double projected = projectedStepSeconds(scale * s.runSeconds, s.timing) + overheadSeconds + unmodelled;
        if (!budget.admit(s.stage, projected, basis)) {
            adjustTotal(-1);
            continue;
        }
        const auto started = std::chrono::steady_clock::now();
        double fastest = 0.0;
        if (!step(s.stage, [&] {
                std::optional<KernelResult> kernel = measure(i);
                if (!kernel)
                    return false;
                fastest = kernel->spread.min;
                m_session.kernels.push_back(std::move(*kernel));
                return true;
            }))
            return false;
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        budget.spend(wall);
        if (s.runSeconds > 0.0 && fastest > 0.0)
            scale = fastest / s.runSeconds;
        // The first step's surplus is set-up done once (allocating, converting weights, compiling kernels).
        if (i > 0)
            unmodelled = std::max(0.0, wall - projectedStepSeconds(fastest, s.timing) - overheadSeconds);
        basis = QStringLiteral("%1, whose fastest run took %2 of its %3")
                    .arg(s.stage, durationText(fastest), durationText(wall));
    }
    m_session.skipped.insert(m_session.skipped.end(), budget.skipped().begin(), budget.skipped().end());
    return true;
}

double Run::dramGbps() const
{
    if (m_session.streamTriadGbps > 0.0)
        return m_session.streamTriadGbps;
    for (const BandwidthCeiling& c : m_session.bandwidthCeilings)
        if (c.level == QLatin1String("DRAM"))
            return c.gbps;
    return 1.0;  // nothing measured: a slow guess, for the first projection only
}

double Run::measuredGflops(const QString& kind) const
{
    double best = 0.0;
    for (const KernelResult& k : m_session.kernels)
        if (k.kind == kind && k.spread.min > 0.0)
            best = std::max(best, k.flops / k.spread.min / 1e9);
    return best;
}

// sgemm or dgemm at every listed size the series' seconds allow; a slow machine starts below the list.
bool Run::measureGemmSeries(Precision precision, const std::vector<int>& listed, double seconds)
{
    const bool fp32 = precision == Precision::Fp32;
    const QString kind = fp32 ? QStringLiteral("sgemm") : QStringLiteral("dgemm");
    // OpenBLAS reaches half to nine tenths of the FMA ceiling: the first size is projected at half.
    const double ceiling = measuredCeiling(precisionName(precision), kUnmeasuredGflops);
    const double gflops = 0.5 * ceiling;
    auto stepOf = [&](int n) {
        return SeriesStep{QStringLiteral("%1 %2").arg(kind).arg(n), gemmRunSeconds(n, gflops),
                          stepTiming(KernelExperiment::Gemm, m_options.quick, n), 0.0};
    };
    const std::vector<int> sizes = seriesSizes(listed, kSmallestGemm, seconds, [&](int n) {
        const SeriesStep s = stepOf(n);
        return projectedStepSeconds(s.runSeconds, s.timing);
    });
    adjustTotal(static_cast<int>(sizes.size()) - static_cast<int>(listed.size()));
    std::vector<SeriesStep> steps;
    for (int n : sizes)
        steps.push_back(stepOf(n));
    SeriesBudget budget(kind, seconds, runKind(), SeriesBudget::Order::Ascending, runLimit(kind));
    const QString basis =
        QStringLiteral("half the best %1 ceiling, %2 GFLOP/s").arg(precisionName(precision)).arg(ceiling, 0, 'f', 1);
    return runSeries(budget, steps, basis,
                     [&](std::size_t i) { return measureGemm(precision, sizes[i], m_threads, ceiling, m_control); });
}

bool Run::measureAddSeries(const std::vector<int>& listed, double seconds)
{
    if (listed.empty())
        return true;
    const double gbps = dramGbps();
    const StepTiming timing = stepTiming(KernelExperiment::Add, m_options.quick);
    // Each size fills what the sizes before it did not; first touch costs about as much again as streaming
    // (page faults), so until a fill has been timed it is projected at half the triad's rate.
    auto fillSeconds = [](int n, int filled, double fillGbps) {
        return 12.0 * (static_cast<double>(n) * n - static_cast<double>(filled) * filled) / (fillGbps * 1e9);
    };
    const std::vector<int> sizes = seriesSizes(listed, kSmallestAdd, seconds, [&](int n) {
        return fillSeconds(n, 0, 0.5 * gbps) + projectedStepSeconds(addRunSeconds(n, gbps), timing);
    });
    adjustTotal(static_cast<int>(sizes.size()) - static_cast<int>(listed.size()));
    std::vector<SeriesStep> steps;
    for (int n : sizes)
        steps.push_back({QStringLiteral("add %1").arg(n), addRunSeconds(n, gbps), timing, 0.0});
    SeriesBudget budget(QStringLiteral("add"), seconds, runKind(), SeriesBudget::Order::Ascending,
                        runLimit(QStringLiteral("add")));
    // Allocated for the largest (untouched memory costs nothing); filled as far as each size needs.
    AddExperiment add(sizes.back(), m_threads);
    const QString basis = QStringLiteral("the STREAM triad's %1 GB/s").arg(gbps, 0, 'f', 1);
    return runSeries(
        budget, steps, basis, [&](std::size_t i) { return add.measure(sizes[i], m_control); },
        [&](std::size_t i) {
            // Memory never touched before can fault in at a third of the rate a smaller size's fill had: a VM's
            // host backs the guest's fresh pages (2.5 GB/s filling add 4096, 0.75 GB/s add 8192 on a Zen 5 guest).
            const double fillGbps = add.fillGbps() > 0.0 ? add.fillGbps() / 3.0 : 0.5 * gbps;
            return fillSeconds(sizes[i], i == 0 ? 0 : sizes[i - 1], fillGbps);
        });
}

// The fp32 decode series; its weights shrink from the memory-sized `maxDim` until all batches fit the seconds.
bool Run::measureDecodeSeries(int maxDim, double seconds)
{
    if (maxDim <= 0)
        return true;
    const double gbps = dramGbps();
    const double sgemm = measuredGflops(QStringLiteral("sgemm"));
    const double gflops = sgemm > 0.0 ? sgemm : 0.5 * fp32CeilingOrGuess();
    auto series = [&](std::int64_t dim) {
        return decodeSeriesSeconds(static_cast<int>(dim), kDecodeMaxBatch, 4.0, gbps, gflops, m_options.quick) +
               4.0 * static_cast<double>(dim) * static_cast<double>(dim) / (0.5 * gbps * 1e9);
    };
    std::vector<std::int64_t> dims;
    for (int dim = maxDim; dim >= kSmallestDecodeDim; dim /= 2)
        dims.push_back(dim);
    if (dims.empty())
        dims.push_back(maxDim);
    m_decodeDim = static_cast<int>(largestFitting(dims, seconds, series));
    if (m_decodeDim < maxDim)
        m_session.findings.push_back({QStringLiteral("decode"), QStringLiteral("note"),
                                      QStringLiteral("weights of %1 x %1 would take about %2 s for the %3 batches, "
                                                     "more than the %4 s this %5 run gives decode; using %6 x %6")
                                          .arg(maxDim)
                                          .arg(series(maxDim), 0, 'f', 1)
                                          .arg(kDecodeBatches)
                                          .arg(seconds, 0, 'f', 1)
                                          .arg(runKind())
                                          .arg(m_decodeDim)});
    const int dim = m_decodeDim;
    std::vector<int> batches;
    for (int batch = 1; batch <= kDecodeMaxBatch; batch *= 2)
        batches.push_back(batch);
    return measureDecodeBatches<DecodeExperiment>(
        QStringLiteral("decode"), QStringLiteral("decode"), dim, batches, 4.0, gflops, seconds,
        [&] { return std::make_unique<DecodeExperiment>(dim, kDecodeMaxBatch, m_threads); });
}

std::optional<KernelResult> Run::measureWithEnergy(const std::function<std::optional<KernelResult>()>& measure)
{
    if (!m_rapl) {
        m_rapl.emplace();
        m_session.energy = {m_rapl->available(), m_rapl->basis()};
    }
    const std::optional<RaplReading> before = m_rapl->read();
    const auto start = std::chrono::steady_clock::now();
    std::optional<KernelResult> kernel = measure();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::optional<RaplReading> after = m_rapl->read();
    if (kernel && before && after)
        if (const std::optional<RaplEnergy> energy = m_rapl->between(*before, *after))
            kernel->energy = kernelEnergy(*energy, seconds, kernel->tokensPerSecond);
    return kernel;
}

// The fusion chain at the memory-sized `maxRows`, fewer rows when that would overrun the seconds.
bool Run::measureFusionStep(std::int64_t maxRows, double seconds)
{
    if (maxRows <= 0)
        return true;
    const double gbps = dramGbps();
    const double perElement = fusionSecondsPerElement(kFusionColumns, m_threads);
    auto model = [&](std::int64_t rows) {
        const std::int64_t elements = rows * kFusionColumns;
        // The input is filled and the four outputs first touched in the warm-up runs.
        return fusionStepSeconds(elements, gbps, perElement, m_options.quick) +
               5.0 * 4.0 * static_cast<double>(elements) / (0.5 * gbps * 1e9);
    };
    std::vector<std::int64_t> candidates;
    for (std::int64_t rows = maxRows; rows >= kSmallestFusionRows; rows /= 2)
        candidates.push_back(rows);
    if (candidates.empty())
        candidates.push_back(maxRows);
    const std::int64_t rows = largestFitting(candidates, seconds, model);
    if (rows < maxRows)
        m_session.findings.push_back(
            {QStringLiteral("fusion"), QStringLiteral("note"),
             QStringLiteral("%1 x %2 elements would take about %3 s, more than the %4 s this %5 run gives fusion; "
                            "using %6 x %2, which caches may partly serve")
                 .arg(maxRows)
                 .arg(kFusionColumns)
                 .arg(model(maxRows), 0, 'f', 1)
                 .arg(seconds, 0, 'f', 1)
                 .arg(runKind())
                 .arg(rows)});
    // One step, sized by its own seconds only: fewer rows would be served by caches, not DRAM.
    m_reserves.start(QStringLiteral("fusion"));
    // The chain's input and output together are a DRAM working set (sizing.h), so it streams from DRAM.
    return step(QStringLiteral("fusion: bias + GELU + dropout"), [&] {
        const auto fusion = measureFusion(rows, kFusionColumns, m_threads, m_control);
        if (!fusion)
            return false;
        m_session.fusion = fusion->summary;
        m_session.kernels.push_back(fusion->unfused);
        m_session.kernels.push_back(fusion->fused);
        return true;
    });
}

// The training step's three ways (training_experiment.h) at the run's size, when they fit its seconds; otherwise
// the session says why not.
bool Run::measureTrainingStep(double seconds)
{
    const MlpShape shape = trainingShape(m_options.quick);
    const double sgemm = measuredGflops(QStringLiteral("sgemm"));
    // The step's products are thinner than sgemm's squares and its passes single-threaded: projected at eight
    // tenths of sgemm's rate (its three ways ran at 0.8-1.0 of it on a busy 2-vCPU Zen 4 guest).
    const double gflops = sgemm > 0.0 ? 0.8 * sgemm : 0.5 * fp32CeilingOrGuess();
    const double plainSeconds = trainingStepFlops(shape) / (gflops * 1e9);
    const double projected = trainingSeconds(plainSeconds, m_options.quick);
    // Like a series' first step, the step runs whenever it fits its own seconds, however late the run reached
    // it: no experiment is dropped for time on a machine that can run it.
    m_reserves.start(QStringLiteral("training"));
    if (projected > seconds) {
        m_session.skipped.push_back(
            {QStringLiteral("training step"),
             QStringLiteral("not run: its three ways would take about %1, more than the %2 this %3 run gives it")
                 .arg(durationText(projected), durationText(seconds), runKind())});
        adjustTotal(-1);
        return true;
    }
    return step(QStringLiteral("training step: plain, checkpointed, accumulated, bf16 mixed"), [&] {
        const auto training = measureTraining(shape, kTrainingMicroBatches, m_threads, m_control);
        if (!training)
            return false;
        m_session.training = training->summary;
        m_session.kernels.insert(m_session.kernels.end(), training->kernels.begin(), training->kernels.end());
        // bf16 mixed precision when its seconds fit what the three ways leave.
        return measureTrainingBf16(shape, trainingBf16Seconds(plainSeconds, m_options.quick), seconds - projected);
    });
}

}  // namespace ridgeline::engine_detail
