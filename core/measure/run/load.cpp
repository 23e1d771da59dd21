#include "core/measure/run/load.h"

#include <QLocale>

#include <time.h>

#include <algorithm>

namespace ridgeline {

namespace {

// Below this a step's wall time is too short for its share to mean anything.
constexpr double kShortestJudgedSeconds = 0.005;

QString percent(double share)
{
    return QLocale::c().toString(100.0 * share, 'f', 0) + QStringLiteral(" %");
}

}  // namespace

double threadCpuSeconds()
{
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
        return 0.0;
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

CpuShareTimer::CpuShareTimer() : m_wallStart(std::chrono::steady_clock::now()), m_cpuStart(threadCpuSeconds()) {}

double CpuShareTimer::share() const
{
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_wallStart).count();
    if (wall < kShortestJudgedSeconds)
        return 1.0;
    return std::clamp((threadCpuSeconds() - m_cpuStart) / wall, 0.0, 1.0);
}

void LoadRecord::add(const QString& stage, double share)
{
    m_steps.push_back({stage, share});
}

std::optional<Finding> LoadRecord::finding() const
{
    std::vector<Step> disturbed;
    for (const Step& s : m_steps)
        if (s.share < kDisturbedShare)
            disturbed.push_back(s);
    if (disturbed.empty())
        return std::nullopt;
    std::sort(disturbed.begin(), disturbed.end(), [](const Step& a, const Step& b) { return a.share < b.share; });
    QStringList worst;
    for (std::size_t i = 0; i < std::min<std::size_t>(disturbed.size(), 3); ++i)
        worst.append(QStringLiteral("%1 (%2)").arg(disturbed[i].stage, percent(disturbed[i].share)));
    return Finding{kLoadFindingSubject, QStringLiteral("doubtful"),
                   QStringLiteral("other processes or the hypervisor took the CPUs during %1 of the %2 ceiling and "
                                  "bandwidth steps, which got as little as %3 of the CPU time they needed: their "
                                  "figures may read low, and relations between them (cache levels in order, a "
                                  "ceiling under its peak) may not hold; most disturbed: %4")
                       .arg(disturbed.size())
                       .arg(m_steps.size())
                       .arg(percent(disturbed.front().share), worst.join(QStringLiteral(", ")))};
}

}  // namespace ridgeline
