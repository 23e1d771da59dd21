#pragma once
// Run::measureDecodeBatches, shared by the fp32 decode series (engine_kernels.cpp) and the decode by weight
// precision (engine_lowp_kernels.cpp). Internal to core/measure.

#include "core/measure/engine_run.h"

#include <algorithm>

namespace ridgeline::engine_detail {

// Decode steps of one weight type at every batch of `ascending` the seconds allow.
template <typename Experiment>
bool Run::measureDecodeBatches(const QString& label, const QString& series, int dim, const std::vector<int>& ascending,
                               double bytesPerWeight, double gflops, double seconds,
                               const std::function<std::unique_ptr<Experiment>()>& makeExperiment)
{
    const double gbps = dramGbps();
    std::vector<SeriesStep> steps;
    const std::vector<int> batches = curveOrder(ascending);
    for (int batch : batches) {
        // The weights are filled (and first touched) before the first batch.
        const double fill =
            batch == batches.front() ? bytesPerWeight * dim * static_cast<double>(dim) / (0.5 * gbps * 1e9) : 0.0;
        const double run = decodeRunSeconds(dim, batch, bytesPerWeight, gbps, gflops);
        const bool computeBound = run > decodeRunSeconds(dim, batch, bytesPerWeight, gbps, 0.0);
        steps.push_back({QStringLiteral("%1 B=%2").arg(label).arg(batch), run,
                         stepTiming(KernelExperiment::Decode, m_options.quick), fill, computeBound});
    }
    // The batches are run in the order that best draws the curve at any budget (curveOrder), so a
    // batch that does not fit leaves the others to be tried, and the kernels are kept in batch order.
    SeriesBudget budget(series, seconds, runKind(), SeriesBudget::Order::Independent, runLimit(series));
    // The fp32 series is the source text's batching curve: its ends and middle run on any machine.
    if (series == QLatin1String("decode"))
        budget.alwaysRun(3);
    const std::size_t first = m_session.kernels.size();
    const QString basis = QStringLiteral("%1 x %1 weights at %2 GB/s and %3 GFLOP/s")
                              .arg(dim)
                              .arg(gbps, 0, 'f', 1)
                              .arg(gflops, 0, 'f', 1);
    std::unique_ptr<Experiment> experiment;
    if (!runSeries(budget, steps, basis, [&](std::size_t i) {
            if (!experiment)
                experiment = makeExperiment();
            return measureWithEnergy([&] { return experiment->measure(batches[i], m_control); });
        }))
        return false;
    std::stable_sort(m_session.kernels.begin() + static_cast<std::ptrdiff_t>(first), m_session.kernels.end(),
                     [](const KernelResult& a, const KernelResult& b) { return a.batch < b.batch; });
    return true;
}

}  // namespace ridgeline::engine_detail
