#include "core/measure/run/repeatability.h"

#include <algorithm>
#include <map>

namespace ridgeline {

double CeilingAgreement::relativeDifference() const
{
    if (values.empty())
        return 0.0;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    return *lo > 0.0 ? (*hi - *lo) / *lo : 0.0;
}

std::vector<CeilingAgreement> compareRuns(const std::vector<Session>& runs)
{
    std::vector<CeilingAgreement> rows;
    if (runs.empty())
        return rows;
    auto valuesOf = [](const Session& s) {
        std::vector<std::pair<QString, double>> values;
        for (const ComputeCeiling& c : s.computeCeilings)
            values.emplace_back(c.name, c.gflops);
        for (const BandwidthCeiling& c : s.bandwidthCeilings)
            values.emplace_back(c.level + QStringLiteral(" bandwidth"), c.gbps);
        return values;
    };
    for (const auto& [name, firstValue] : valuesOf(runs.front())) {
        CeilingAgreement row;
        row.name = name;
        row.unit = name.endsWith(QLatin1String(" bandwidth")) ? QStringLiteral("GB/s") : QStringLiteral("GFLOP/s");
        for (const Session& run : runs) {
            const auto values = valuesOf(run);
            const auto found =
                std::find_if(values.begin(), values.end(), [&row](const auto& v) { return v.first == row.name; });
            if (found == values.end())
                break;
            row.values.push_back(found->second);
        }
        if (row.values.size() == runs.size())
            rows.push_back(row);
    }
    return rows;
}

}  // namespace ridgeline
