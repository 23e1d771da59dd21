#include "core/model/units.h"

#include <array>
#include <cmath>

namespace ridgeline {

QString formatGB(double bytes, int decimals)
{
    return QString::number(bytes / kBytesPerGB, 'f', decimals) + QStringLiteral(" GB");
}

QString formatGiB(double bytes, int decimals)
{
    return QString::number(bytes / kBytesPerGiB, 'f', decimals) + QStringLiteral(" GiB");
}

QString formatBinaryBytes(double bytes)
{
    static const std::array<const char*, 6> units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    std::size_t unit = 0;
    double value = bytes;
    while (std::fabs(value) >= 1024.0 && unit + 1 < units.size()) {
        value /= 1024.0;
        ++unit;
    }
    const int decimals = value == std::floor(value) ? 0 : 2;
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + QLatin1String(units[unit]);
}

QString formatSeconds(double seconds)
{
    if (!std::isfinite(seconds))
        return QStringLiteral("-");
    if (seconds >= 1.0)
        return QString::number(seconds, 'f', 2) + QStringLiteral(" s");
    if (seconds >= 1e-3)
        return QString::number(seconds * 1e3, 'f', 2) + QStringLiteral(" ms");
    return QString::number(seconds * 1e6, 'f', 1) + QStringLiteral(" us");
}

QString formatCount(double value)
{
    if (std::fabs(value) >= 1e6)
        return QString::number(value, 'e', 3);
    return QString::number(value, 'f', value == std::floor(value) ? 0 : 2);
}

}  // namespace ridgeline
