#include "ui/plots/layout/log_scale.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ridgeline::ui {

bool isLogRange(double low, double high)
{
    return low > 0.0 && high > low && std::isfinite(high);
}

LogAxisRange safeLogAxisRange(double low, double high)
{
    if (!(std::isfinite(low) && std::isfinite(high) && low > 0.0 && high > 0.0))
        return {};
    low = std::clamp(low, kLogAxisFloor, kLogAxisCeiling);
    high = std::clamp(high, kLogAxisFloor, kLogAxisCeiling);
    if (low > high)
        std::swap(low, high);
    if (!(high > low * (1.0 + 1e-9))) {
        low = std::max(low / 10.0, kLogAxisFloor);
        high = std::min(high * 10.0, kLogAxisCeiling);
        if (!(high > low) && high == kLogAxisCeiling)  // both at the ceiling
            low = high / 10.0;
        else if (!(high > low))  // both at the floor
            high = low * 10.0;
    }
    return {low, high};
}

bool PlotRange::valid() const
{
    return isLogRange(xMin, xMax) && isLogRange(yMin, yMax);
}

QPointF PlotMapping::toPixel(QPointF value) const
{
    // Qt Charts' LogXLogYDomain::calculateGeometryPoint, offset by the plot area.
    const double logBaseX = std::log10(xBase);
    const double logBaseY = std::log10(yBase);
    const double logLeft = std::log10(range.xMin) / logBaseX;
    const double logRight = std::log10(range.xMax) / logBaseX;
    const double logBottom = std::log10(range.yMin) / logBaseY;
    const double logTop = std::log10(range.yMax) / logBaseY;
    const double deltaX = plot.width() / std::abs(logRight - logLeft);
    const double deltaY = plot.height() / std::abs(logTop - logBottom);
    const double x = (std::log10(value.x()) / logBaseX) * deltaX - logLeft * deltaX;
    const double y = (std::log10(value.y()) / logBaseY) * -deltaY - logBottom * -deltaY + plot.height();
    return QPointF(x, y) + plot.topLeft();
}

QPointF PlotMapping::toValue(QPointF pixel) const
{
    const double logLeft = std::log10(range.xMin);
    const double logRight = std::log10(range.xMax);
    const double logBottom = std::log10(range.yMin);
    const double logTop = std::log10(range.yMax);
    const double fx = (pixel.x() - plot.left()) / plot.width();
    const double fy = (plot.bottom() - pixel.y()) / plot.height();
    return {std::pow(10.0, logLeft + fx * (logRight - logLeft)), std::pow(10.0, logBottom + fy * (logTop - logBottom))};
}

double decadeBelow(double value)
{
    return value > 0.0 && std::isfinite(value) ? std::pow(10.0, std::floor(std::log10(value))) : 1.0;
}

double decadeAbove(double value)
{
    return value > 0.0 && std::isfinite(value) ? std::pow(10.0, std::ceil(std::log10(value))) : 10.0;
}

LogRange steadyLogRange(LogRange current, LogRange wanted, double slackDecades)
{
    const double slack = std::pow(10.0, slackDecades);
    const bool holds = isLogRange(current.low, current.high) && current.low <= wanted.low &&
                       current.high >= wanted.high && current.low * slack >= wanted.low &&
                       current.high <= wanted.high * slack;
    return holds ? current : wanted;
}

std::vector<LogGridLine> logGridLines(double low, double high, double base, int limit)
{
    if (!isLogRange(low, high) || !(base >= 2.0) || !std::isfinite(base))
        return {};
    const double first = std::floor(std::log(low) / std::log(base));
    const double last = std::ceil(std::log(high) / std::log(base));
    const int multiples = static_cast<int>(std::floor(base));  // 1 (the power itself) .. base - 1
    const double powers = last - first + 1.0;
    if (powers > limit)
        return {};
    const bool minors = powers * multiples <= limit;
    std::vector<LogGridLine> lines;
    for (double k = first; k <= last; k += 1.0) {
        const double power = std::pow(base, k);
        for (int m = 1; m <= (minors ? multiples - 1 : 1); ++m) {
            const double value = m * power;
            // A hair of tolerance: the ends of a range are often exactly a power (0.1 from pow(10, -1)).
            if (value >= low * (1.0 - 1e-12) && value <= high * (1.0 + 1e-12))
                lines.push_back({value, m == 1});
        }
    }
    return lines;
}

}  // namespace ridgeline::ui
