#include "core/measure/run/statistics.h"

#include <algorithm>

namespace ridgeline {

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

Spread spreadOf(const std::vector<double>& values)
{
    if (values.empty())
        return {};
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    return {*lo, median(values), *hi};
}

Spread rateSpread(const std::vector<double>& seconds, double work)
{
    std::vector<double> rates;
    rates.reserve(seconds.size());
    for (double s : seconds)
        if (s > 0.0)
            rates.push_back(work / s);
    return spreadOf(rates);
}

double relativeSpread(const Spread& spread)
{
    return spread.median > 0.0 ? (spread.max - spread.min) / spread.median : 0.0;
}

}  // namespace ridgeline
