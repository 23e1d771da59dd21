#include "core/measure/run/time_plan.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline {

namespace {

QString secondsText(double seconds)
{
    return QLocale::c().toString(seconds, 'f', seconds < 10.0 ? 2 : 0) + QStringLiteral(" s");
}

}  // namespace

QString durationText(double seconds)
{
    if (seconds >= 1.0)
        return secondsText(seconds);
    const double ms = 1e3 * seconds;
    return QLocale::c().toString(ms, 'f', ms < 1.0 ? 3 : ms < 10.0 ? 2 : 1) + QStringLiteral(" ms");
}

StepTiming stepTiming(KernelExperiment experiment, bool quick, int n)
{
    const int reps = quick ? 3 : 5;
    switch (experiment) {
        case KernelExperiment::Gemm:
            return {n >= 4096 ? 2 : reps, quick ? 0.05 : 0.3};
        case KernelExperiment::Add:
            return {reps, quick ? 0.05 : 0.2};
        case KernelExperiment::Decode:
            return {reps, quick ? 0.015 : 0.1};
        case KernelExperiment::Fusion:
            return {reps, quick ? 0.05 : 0.25};
        case KernelExperiment::Training:
            // A full run's plain step takes about 0.15 s on 2 cores: two timed steps besides the warm-up.
            return {quick ? 3 : 2, quick ? 0.05 : 0.25};
    }
    return {reps, 0.05};
}

double projectedStepSeconds(double runSeconds, const StepTiming& timing)
{
    if (!(runSeconds > 0.0))
        return 0.0;
    // timeRepeated: a warm-up, then ceil(minSeconds / warm-up) runs, at least minReps and at most 200.
    const int timed = std::clamp(static_cast<int>(std::ceil(timing.minSeconds / runSeconds)), timing.minReps, 200);
    return (1 + timed) * runSeconds;
}

KernelBudgets kernelBudgets(bool quick)
{
    KernelBudgets b;
    // Full: about two and a half times what each series takes on a 2-core Xeon VM, so a normal machine runs
    // every listed size and only a far slower one (an emulator) stops a series early. Quick: what the Xeon guest
    // needs for every listed size of the source text's experiments (decode's 4096 x 4096 weights at every batch
    // take 0.56 s there), less for the rest; the run's own limit (runSeconds) keeps the whole within 5 s.
    if (quick) {
        b.sgemm = 0.6;
        b.dgemm = 0.25;
        b.add = 0.45;
        b.decode = 0.6;
        b.fusion = 0.35;
        b.training = 0.45;
        b.bf16Gemm = 0.35;
        b.lowpDecode = 0.22;
    } else {
        b.sgemm = 4.0;
        b.dgemm = 7.0;
        b.add = 3.0;
        b.decode = 3.0;
        b.fusion = 2.0;
        b.training = 3.0;
        b.bf16Gemm = 3.0;
        b.lowpDecode = 2.0;
    }
    return b;
}

double RunLimit::left() const
{
    return elapsed ? seconds - reserved - elapsed() : std::numeric_limits<double>::infinity();
}

double sweepSeconds(bool quick)
{
    return quick ? 1.0 : 6.0;
}

double projectedSweepStepSeconds(std::int64_t lastBytes, double lastSeconds, std::int64_t nextBytes)
{
    return lastBytes > 0 ? lastSeconds * static_cast<double>(nextBytes) / static_cast<double>(lastBytes) : 0.0;
}

void RunReserves::plan(const QString& series, double seconds, bool keepsAll)
{
    m_planned.emplace_back(series, keepsAll ? seconds : m_share * seconds);
}

double RunReserves::start(const QString& series)
{
    const auto it = std::find_if(m_planned.begin(), m_planned.end(), [&](const auto& p) { return p.first == series; });
    if (it != m_planned.end())
        m_planned.erase(m_planned.begin(), it + 1);
    double later = 0.0;
    for (const auto& planned : m_planned)
        later += planned.second;
    return later;
}

double runSeconds(bool quick)
{
    // A quick run at 4.6 s took 5.12 s end to end on a 2-vCPU Zen 5 (start-up and the last steps overshoot).
    return quick ? 4.1 : 28.0;
}

SeriesBudget::SeriesBudget(QString series, double seconds, QString runKind, Order order, RunLimit run)
    : m_series(std::move(series)),
      m_seconds(seconds),
      m_runKind(std::move(runKind)),
      m_order(order),
      m_run(std::move(run))
{
}

double SeriesBudget::left() const
{
    return std::min(m_seconds - m_spent, m_run.left());
}

bool SeriesBudget::admit(const QString& step, double projectedSeconds, const QString& projectedFrom)
{
    // The first step always runs: it is the series' smallest size, and an experiment is never dropped for time.
    const double seriesLeft = m_seconds - m_spent;
    const double runLeft = m_run.left();
    if (!m_stopped && (m_admitted < m_alwaysRun || projectedSeconds <= std::min(seriesLeft, runLeft))) {
        ++m_admitted;
        return true;
    }
    m_stopped = m_order == Order::Ascending;
    const QString projection = QStringLiteral("not run: it would take about %1 (projected from %2)")
                                   .arg(secondsText(projectedSeconds), projectedFrom);
    if (runLeft < seriesLeft) {
        const QString kept =
            m_run.reserved > 0.0
                ? QStringLiteral(", once %1 are kept for the experiments after it").arg(secondsText(m_run.reserved))
                : QString();
        m_skipped.push_back({step, QStringLiteral("%1, more than the %2 left of the %3 a %4 run takes in all%5")
                                       .arg(projection, secondsText(std::max(runLeft, 0.0)), secondsText(m_run.seconds),
                                            m_runKind, kept)});
    } else
        m_skipped.push_back({step, QStringLiteral("%1, more than the %2 left of the %3 this %4 run gives %5")
                                       .arg(projection, secondsText(std::max(seriesLeft, 0.0)), secondsText(m_seconds),
                                            m_runKind, m_series)});
    return false;
}

std::vector<int> curveOrder(const std::vector<int>& ascending)
{
    if (ascending.size() < 2)
        return ascending;
    // Indices 0 and last, then each round the middle of every gap between indices already taken.
    const int last = static_cast<int>(ascending.size()) - 1;
    std::vector<int> indices{0, last};
    std::vector<std::pair<int, int>> gaps{{0, last}};
    while (!gaps.empty()) {
        std::vector<std::pair<int, int>> next;
        for (const auto& [low, high] : gaps) {
            if (high - low < 2)
                continue;
            const int middle = (low + high) / 2;
            indices.push_back(middle);
            next.push_back({low, middle});
            next.push_back({middle, high});
        }
        gaps = std::move(next);
    }
    std::vector<int> ordered;
    for (int i : indices)
        ordered.push_back(ascending[static_cast<std::size_t>(i)]);
    return ordered;
}

std::vector<int> seriesSizes(const std::vector<int>& listed, int smallest, double seconds,
                             const std::function<double(int)>& projectedSeconds)
{
    if (listed.empty())
        return listed;
    int first = listed.front();
    while (first / 2 >= smallest && projectedSeconds(first) > seconds)
        first /= 2;
    // From the first size that fits (or the smallest) up: the doublings below the listed sizes, then those.
    std::vector<int> sizes;
    for (int n = first; n < listed.front(); n *= 2)
        sizes.push_back(n);
    sizes.insert(sizes.end(), listed.begin(), listed.end());
    return sizes;
}

std::int64_t largestFitting(const std::vector<std::int64_t>& candidates, double seconds,
                            const std::function<double(std::int64_t)>& projectedSeconds)
{
    for (std::int64_t candidate : candidates)
        if (projectedSeconds(candidate) <= seconds)
            return candidate;
    return candidates.empty() ? 0 : candidates.back();
}

double gemmRunSeconds(int n, double gflops)
{
    return gflops > 0.0 ? 2.0 * n * static_cast<double>(n) * n / (gflops * 1e9) : 0.0;
}

double addRunSeconds(int n, double gbps)
{
    return gbps > 0.0 ? 12.0 * n * static_cast<double>(n) / (gbps * 1e9) : 0.0;
}

double decodeRunSeconds(int dim, int batch, double bytesPerWeight, double gbps, double gflops)
{
    const double weights = static_cast<double>(dim) * dim;
    const double memory = gbps > 0.0 ? bytesPerWeight * weights / (gbps * 1e9) : 0.0;
    const double compute = gflops > 0.0 ? 2.0 * weights * batch / (gflops * 1e9) : 0.0;
    return std::max(memory, compute);
}

double decodeSeriesSeconds(int dim, int maxBatch, double bytesPerWeight, double gbps, double gflops, bool quick)
{
    const StepTiming timing = stepTiming(KernelExperiment::Decode, quick);
    double total = 0.0;
    for (int batch = 1; batch <= maxBatch; batch *= 2)
        total += projectedStepSeconds(decodeRunSeconds(dim, batch, bytesPerWeight, gbps, gflops), timing);
    return total;
}

double fusionStepSeconds(std::int64_t elements, double gbps, double secondsPerElement, bool quick)
{
    const auto count = static_cast<double>(elements);
    const double bytes = 4.0 * count;  // one fp32 tensor
    auto run = [&](double transfers) {
        const double memory = gbps > 0.0 ? transfers * bytes / (gbps * 1e9) : 0.0;
        return std::max(memory, count * secondsPerElement);
    };
    const StepTiming timing = stepTiming(KernelExperiment::Fusion, quick);
    // Unfused: six transfers; fused: two. The arithmetic is the same in both.
    return projectedStepSeconds(run(6.0), timing) + projectedStepSeconds(run(2.0), timing);
}

double trainingSeconds(double plainSeconds, bool quick)
{
    const StepTiming timing = stepTiming(KernelExperiment::Training, quick);
    return projectedStepSeconds(plainSeconds, timing) + projectedStepSeconds(1.17 * plainSeconds, timing) +
           projectedStepSeconds(1.1 * plainSeconds, timing) + 2.0 * plainSeconds;  // the gradient comparison
}

double trainingBf16Seconds(double plainSeconds, bool quick)
{
    const StepTiming timing = stepTiming(KernelExperiment::Training, quick);
    return 2.0 * projectedStepSeconds(plainSeconds, timing) + plainSeconds;
}

}  // namespace ridgeline
