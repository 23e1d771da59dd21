#include "ui/plots/roofline/kernel_comparison.h"

#include <QHash>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <map>

namespace ridgeline::ui {

QString comparisonGroup(const KernelResult& kernel)
{
    return kernel.group.isEmpty() ? kernel.source : kernel.group;
}

std::vector<std::optional<double>> timeShares(const Session& session)
{
    const auto groupOf = [](const KernelResult& k) {
        return k.kind == QLatin1String("imported") ? QString(QStringLiteral("imported:") + comparisonGroup(k))
                                                   : QString();
    };
    QHash<QString, double> totals;
    for (const KernelResult& k : session.kernels)
        if (k.seconds > 0.0 && std::isfinite(k.seconds))
            totals[groupOf(k)] += k.seconds;
    std::vector<std::optional<double>> shares;
    shares.reserve(session.kernels.size());
    for (const KernelResult& k : session.kernels) {
        const double total = totals.value(groupOf(k));
        if (k.seconds > 0.0 && std::isfinite(k.seconds) && total > 0.0)
            shares.emplace_back(k.seconds / total);
        else
            shares.emplace_back(std::nullopt);
    }
    return shares;
}

std::vector<KernelChange> beforeAfterChanges(const Session& session)
{
    // Groups in order of first appearance, then "before" to the front and "after" to the back.
    QStringList groups;
    for (const KernelResult& k : session.kernels)
        if (k.kind == QLatin1String("imported") && !groups.contains(comparisonGroup(k)))
            groups << comparisonGroup(k);
    if (groups.size() < 2)
        return {};
    auto rank = [](const QString& group) {
        if (group.compare(QLatin1String("before"), Qt::CaseInsensitive) == 0)
            return 0;
        if (group.compare(QLatin1String("after"), Qt::CaseInsensitive) == 0)
            return 2;
        return 1;
    };
    std::stable_sort(groups.begin(), groups.end(),
                     [&](const QString& a, const QString& b) { return rank(a) < rank(b); });

    // Per kernel name, the first kernel of each group that has it, keyed by the group's position.
    std::map<QString, std::map<qsizetype, int>> byName;
    QStringList nameOrder;
    for (int i = 0; i < static_cast<int>(session.kernels.size()); ++i) {
        const KernelResult& k = session.kernels[static_cast<std::size_t>(i)];
        if (k.kind != QLatin1String("imported") || k.gflops <= 0.0 || k.intensity <= 0.0)
            continue;
        const QString name = k.fullName.isEmpty() ? k.name : k.fullName;
        if (!byName.count(name))
            nameOrder << name;
        byName[name].emplace(groups.indexOf(comparisonGroup(k)), i);  // emplace keeps the first
    }
    std::vector<KernelChange> changes;
    for (const QString& name : std::as_const(nameOrder)) {
        const std::map<qsizetype, int>& found = byName[name];
        for (auto it = found.begin(); it != found.end() && std::next(it) != found.end(); ++it) {
            const int before = it->second;
            const int after = std::next(it)->second;
            const double from = session.kernels[static_cast<std::size_t>(before)].gflops;
            const double to = session.kernels[static_cast<std::size_t>(after)].gflops;
            changes.push_back({before, after, (to / from - 1.0) * 100.0});
        }
    }
    return changes;
}

QString formatPercentChange(double percent)
{
    const QString sign = percent >= 0.0 ? QStringLiteral("+") : QStringLiteral("−");
    const double magnitude = std::abs(percent);
    const QString number =
        magnitude < 10.0 ? QString::number(magnitude, 'g', 2) : QString::number(std::lround(magnitude));
    return sign + number + QStringLiteral(" %");
}

}  // namespace ridgeline::ui
