#include "core/model/units.h"

#include <QLocale>

#include <array>
#include <cmath>

namespace ridgeline {

namespace {

const QString kNotANumber = QStringLiteral("\u2013");

const QLocale& english()
{
    static const QLocale locale(QLocale::English);
    return locale;
}

}  // namespace

QString formatSignificant(double value, int significant)
{
    if (!std::isfinite(value))
        return kNotANumber;
    if (value == 0.0)
        return QStringLiteral("0");
    if (std::fabs(value) >= 1e15)
        return english().toString(value, 'e', significant - 1);
    const double magnitude = std::floor(std::log10(std::fabs(value)));
    const int decimals = std::max(0, significant - 1 - static_cast<int>(magnitude));
    return english().toString(value, 'f', decimals);
}

QString formatCompact(double value)
{
    if (!std::isfinite(value))
        return kNotANumber;
    const double a = std::abs(value);
    if (a < 0.01)
        return QString::number(value, 'g', 2);
    int decimals = 0;
    if (a < 1.0)
        decimals = 2;
    else if (a < 10.0 && value != std::round(value))
        decimals = 1;
    return QLocale::c().toString(value, 'f', decimals);
}

QString formatGrouped(double value, int decimals)
{
    if (!std::isfinite(value))
        return kNotANumber;
    return english().toString(value, 'f', decimals);
}

QString formatGB(double bytes, int decimals)
{
    if (!std::isfinite(bytes))
        return kNotANumber;
    return QString::number(bytes / kBytesPerGB, 'f', decimals) + QStringLiteral(" GB");
}

QString formatGiB(double bytes, int decimals)
{
    if (!std::isfinite(bytes))
        return kNotANumber;
    return QString::number(bytes / kBytesPerGiB, 'f', decimals) + QStringLiteral(" GiB");
}

QString formatBinaryBytes(double bytes)
{
    if (!std::isfinite(bytes))
        return kNotANumber;
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

QString formatMemory(double bytes)
{
    if (!std::isfinite(bytes))
        return kNotANumber;
    return std::fabs(bytes) >= kBytesPerGiB ? formatGiB(bytes) : formatBinaryBytes(bytes);
}

QString formatSeconds(double seconds)
{
    if (!std::isfinite(seconds))
        return kNotANumber;
    if (seconds >= 1.0)
        return QString::number(seconds, 'f', 2) + QStringLiteral(" s");
    if (seconds >= 1e-3)
        return QString::number(seconds * 1e3, 'f', 2) + QStringLiteral(" ms");
    if (seconds >= 1e-6 || seconds == 0.0)
        return QString::number(seconds * 1e6, 'f', 1) + QStringLiteral(" \u00b5s");
    return QString::number(seconds * 1e9, 'f', 1) + QStringLiteral(" ns");
}

QString formatDollars(double usd)
{
    return QStringLiteral("$") + formatSignificant(usd, 3);
}

QString formatCount(double value)
{
    if (!std::isfinite(value))
        return kNotANumber;
    if (std::fabs(value) >= 1e6)
        return QString::number(value, 'e', 3);
    return QString::number(value, 'f', value == std::floor(value) ? 0 : 2);
}

QString formatSi(double value, const QString& unit)
{
    if (!std::isfinite(value))
        return kNotANumber;
    static const std::array<const char*, 7> prefixes = {"", "k", "M", "G", "T", "P", "E"};
    std::size_t prefix = 0;
    double scaled = value;
    // 999.5 and up rounds to "1,000" at three digits: take the next prefix instead.
    while (std::fabs(scaled) >= 999.5 && prefix + 1 < prefixes.size()) {
        scaled /= 1000.0;
        ++prefix;
    }
    // Just under a power of 1000 (999.7 -> 0.9997 k) three digits are "1.00", not "1.000".
    const QString digits =
        std::fabs(scaled) < 1.0 && prefix > 0 ? QString::number(scaled, 'f', 2) : formatSignificant(scaled, 3);
    return digits + QLatin1Char(' ') + QLatin1String(prefixes[prefix]) + unit;
}

FlopRateUnit flopRateUnitFor(double lowGflops, double highGflops)
{
    static const std::array<FlopRateUnit, 3> units = {FlopRateUnit{1e6, QStringLiteral("PFLOP/s")},
                                                      FlopRateUnit{1e3, QStringLiteral("TFLOP/s")},
                                                      FlopRateUnit{1.0, QStringLiteral("GFLOP/s")}};
    for (const FlopRateUnit& unit : units)
        if (std::isfinite(highGflops) && highGflops / unit.gflops >= 10.0 && lowGflops / unit.gflops >= 1e-5)
            return unit;
    return units.back();
}

bool countsOperations(QStringView precision)
{
    const QStringView first = precision.left(precision.indexOf(u' '));
    return first == u"int8" || first == u"int4";
}

QString formatFlopRate(double gflops, bool operations)
{
    if (!std::isfinite(gflops))
        return kNotANumber;
    const QString unit = operations ? QStringLiteral("OP/s") : QStringLiteral("FLOP/s");
    const double a = std::fabs(gflops);
    if (a >= 1e7)
        return formatCompact(gflops / 1e6) + QStringLiteral(" P") + unit;
    if (a >= 1e4)
        return formatCompact(gflops / 1e3) + QStringLiteral(" T") + unit;
    return formatCompact(gflops) + QStringLiteral(" G") + unit;
}

}  // namespace ridgeline
