// The low-precision kernels placed on the roof, through oneDNN: the bf16 matrix product beside sgemm, decode by
// weight precision and the training step in bf16 mixed precision. Built where Ridgeline links oneDNN (x86-64);
// engine_lowp_kernels_without_onednn.cpp stands in elsewhere.
#include "core/measure/engine_decode_batches.h"
#include "core/measure/engine_run.h"
#include "core/model/units.h"

#include "core/measure/lowp/lowp_experiments.h"
#include "core/measure/lowp/training_bf16.h"
#include "core/measure/workloads/kernels.h"

#include <algorithm>

namespace ridgeline::engine_detail {

int Run::lowpKernelSteps(const ExperimentSizes& sizes) const
{
    const bool bf16 = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                  [](LowpUnit u) { return lowpUnitInfo(u).precision == QLatin1String("bf16"); });
    const bool int8 = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                  [](LowpUnit u) { return lowpUnitInfo(u).precision == QLatin1String("int8"); });
    // fp32 weights through oneDNN beside the low precisions, at their d (lowpDecodeSize).
    const int batches = static_cast<int>(lowpDecodeBatches(m_options.quick, kDecodeMaxBatch).size());
    const bool decode =
        (bf16 || int8) && lowpDecodeSize(sizes.decodeDim, sizes.dramBytes, m_budget, kDecodeMaxBatch).dim > 0;
    const int decodes = decode ? batches * (1 + (bf16 ? 1 : 0) + (int8 ? 1 : 0)) : 0;
    return (bf16 ? static_cast<int>(sizes.sgemmSizes.size()) : 0) + decodes;
}

void Run::planLowpReserves(const ExperimentSizes& sizes, const KernelBudgets& budgets)
{
    if (lowpKernelSteps(sizes) == 0)
        return;
    auto has = [&](const QString& precision) {
        return precision == QLatin1String("fp32") ||
               std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                           [&](LowpUnit u) { return lowpUnitInfo(u).precision == precision; });
    };
    if (has(QStringLiteral("bf16")))
        m_reserves.plan(QStringLiteral("the bf16 gemm"), budgets.bf16Gemm);
    for (MatmulType type : {MatmulType::Fp32, MatmulType::Bf16, MatmulType::Int8})
        if (has(matmulTypeName(type)))
            m_reserves.plan(QStringLiteral("decode with %1 weights").arg(matmulTypeName(type)), budgets.lowpDecode);
}

// The bf16 matrix product at the sizes sgemm ran at, and decode with bf16 and int8 weights, where the CPU has the
// units (oneDNN would emulate them elsewhere, which is no roof of this machine's), beside fp32 weights through the
// same library at the same d; each a series in time. All oneDNN, after OpenBLAS's workers have gone to sleep.
bool Run::measureLowpKernels(const ExperimentSizes& sizes)
{
    if (lowpKernelSteps(sizes) == 0) {  // never silently: the table and the session say why
        const bool any = !m_lowp.units.empty();
        m_session.skipped.push_back(
            {QStringLiteral("decode by weight precision"),
             any ? QStringLiteral("not run: its weights do not fit the memory this run may use (%1)")
                       .arg(formatBinaryBytes(static_cast<double>(m_budget)))
                 : QStringLiteral("not run: this CPU has no bf16 or int8 unit to compare fp32 weights with")});
        return true;
    }
    waitForIdleBlasWorkers();
    const KernelBudgets budgets = kernelBudgets(m_options.quick);
    const bool bf16 = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                  [](LowpUnit u) { return lowpUnitInfo(u).precision == QLatin1String("bf16"); });
    if (!bf16)
        m_session.skipped.push_back({QStringLiteral("bf16 gemm"),
                                     QStringLiteral("not run: this CPU has no bf16 unit (oneDNN would emulate one, "
                                                    "which is no roof of this machine's)")});
    if (bf16) {
        std::vector<int> ran;
        for (const KernelResult& k : m_session.kernels)
            if (k.kind == QLatin1String("sgemm"))
                ran.push_back(k.size.section(QLatin1Char('x'), 0, 0).toInt());
        adjustTotal(static_cast<int>(ran.size()) - static_cast<int>(sizes.sgemmSizes.size()));
        // Sizes the product's panels; a slow guess without a bf16 ceiling.
        const double guess = measuredCeiling(QStringLiteral("bf16"), 100.0);
        std::vector<SeriesStep> steps;
        for (int n : ran)
            steps.push_back({QStringLiteral("bf16 gemm %1").arg(n), gemmRunSeconds(n, 0.5 * guess),
                             stepTiming(KernelExperiment::Gemm, m_options.quick, n), 0.0});
        SeriesBudget budget(QStringLiteral("the bf16 gemm"), budgets.bf16Gemm, runKind(),
                            SeriesBudget::Order::Ascending, runLimit(QStringLiteral("the bf16 gemm")));
        const QString basis = QStringLiteral("half the bf16 ceiling, %1 GFLOP/s").arg(guess, 0, 'f', 0);
        if (!runSeries(budget, steps, basis,
                       [&](std::size_t i) { return measureBf16Gemm(ran[i], m_threads, guess, m_control); }))
            return false;
    }
    // From the fp32 decode's d (already fitted to its time), doubled while the int8 weights stay in a cache and
    // the fp32 reference (the slowest of the three) still fits this series' seconds.
    const double gbps = dramGbps();
    const double fp32Gflops = 0.5 * fp32CeilingOrGuess();
    const LowpDecodeSize decodeSize = lowpDecodeSize(
        m_decodeDim > 0 ? m_decodeDim : sizes.decodeDim, sizes.dramBytes, m_budget, kDecodeMaxBatch, [&](int dim) {
            return decodeSeriesSeconds(dim, kDecodeMaxBatch, 4.0, gbps, fp32Gflops, m_options.quick) +
                       4.0 * dim * static_cast<double>(dim) / (0.5 * gbps * 1e9) <=
                   budgets.lowpDecode;
        });
    if (decodeSize.dim <= 0) {
        m_session.skipped.push_back({QStringLiteral("decode by weight precision"),
                                     QStringLiteral("not run: its weights do not fit the memory this run may use (%1)")
                                         .arg(formatBinaryBytes(static_cast<double>(m_budget)))});
        return true;
    }
    if (decodeSize.note)
        addFindings({*decodeSize.note});
    for (MatmulType type : {MatmulType::Fp32, MatmulType::Bf16, MatmulType::Int8}) {
        const QString precision = matmulTypeName(type);
        const bool has =
            type == MatmulType::Fp32 || std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                                    [&](LowpUnit u) { return lowpUnitInfo(u).precision == precision; });
        if (!has)
            continue;
        const int dim = decodeSize.dim;
        // Half the precision's ceiling, or half fp32's where the precision has none.
        const double gflops =
            0.5 * (type == MatmulType::Fp32 ? fp32CeilingOrGuess() : measuredCeiling(precision, fp32CeilingOrGuess()));
        if (!measureDecodeBatches<LowpDecodeExperiment>(
                QStringLiteral("decode %1").arg(precision), QStringLiteral("decode with %1 weights").arg(precision),
                dim, lowpDecodeBatches(m_options.quick, kDecodeMaxBatch), bytesPerElement(type), gflops,
                budgets.lowpDecode, [&] { return std::make_unique<LowpDecodeExperiment>(type, dim, m_threads); }))
            return false;
    }
    return true;
}

// The plain training step again with bf16 products and activations, fp32 master weights and gradients, timed beside
// the fp32 step; a CPU without bf16 units would have oneDNN emulate them, which says nothing of this machine.
bool Run::measureTrainingBf16(const MlpShape& shape, double seconds, double left)
{
    const QString experiment = QStringLiteral("training step, bf16 mixed precision");
    const bool bf16 = std::any_of(m_lowp.units.begin(), m_lowp.units.end(),
                                  [](LowpUnit u) { return lowpUnitInfo(u).precision == QLatin1String("bf16"); });
    if (!bf16) {
        m_session.skipped.push_back({experiment, QStringLiteral("not run: this CPU has no bf16 unit (oneDNN would "
                                                                "emulate one, which is no measure of this machine)")});
        return true;
    }
    if (seconds > left) {
        m_session.skipped.push_back(
            {experiment, QStringLiteral("not run: it would take about %1, more than the %2 the fp32 ways leave of the "
                                        "training step's seconds in this %3 run")
                             .arg(durationText(seconds), durationText(std::max(left, 0.0)), runKind())});
        return true;
    }
    const Result<Bf16TrainingMeasurement> measured = ridgeline::measureTrainingBf16(shape, m_threads, m_control);
    if (!measured.ok()) {
        if (measured.error().code == Error::Code::Cancelled)
            return false;
        m_session.skipped.push_back({experiment, QStringLiteral("not run: ") + measured.error().message});
        return true;
    }
    const Bf16TrainingMeasurement& m = measured.value();
    TrainingResult& t = m_session.training;
    t.bf16Seconds = m.kernel.seconds;
    t.bf16Fp32Seconds = m.fp32Seconds;
    t.bf16Flops = m.kernel.flops;
    t.bf16PeakBytes = m.peakBytes;
    t.bf16GradientDifference = m.gradientDifference;
    t.bf16Products = m.products;
    m_session.kernels.push_back(m.kernel);
    return true;
}

}  // namespace ridgeline::engine_detail
