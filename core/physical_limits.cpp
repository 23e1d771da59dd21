#include "core/physical_limits.h"

#include <QLocale>

#include <cmath>

namespace ridgeline {

PhysicalBounds physicalBounds(PhysicalQuantity quantity)
{
    switch (quantity) {
        case PhysicalQuantity::ComputeGflops:
            return {1e-6, 1e9, "GFLOP/s"};
        case PhysicalQuantity::BandwidthGbps:
            return {1e-6, 1e9, "GB/s"};
        case PhysicalQuantity::IntensityFlopPerByte:
            return {1e-12, 1e12, "FLOP/byte"};
        case PhysicalQuantity::DurationSeconds:
            return {1e-12, 1e7, "s"};
        case PhysicalQuantity::PerSecond:
            return {1e-9, 1e12, "/s"};
    }
    return {};
}

bool isPhysical(PhysicalQuantity quantity, double value)
{
    const PhysicalBounds bounds = physicalBounds(quantity);
    return std::isfinite(value) && value >= bounds.min && value <= bounds.max;
}

std::optional<QString> physicalProblem(PhysicalQuantity quantity, double value, double unitsPerShown,
                                       QStringView shownUnit)
{
    const double base = value * unitsPerShown;
    if (isPhysical(quantity, base))
        return std::nullopt;
    const PhysicalBounds bounds = physicalBounds(quantity);
    const QString unit = shownUnit.isEmpty() ? QString::fromLatin1(bounds.unit) : shownUnit.toString();
    // The bounds as "1e-06" and "1e+09" in the shown unit, the value exactly as read: "1433.2", "5e-324", "inf".
    return QStringLiteral("must be between %1 and %2 %3, got %4")
        .arg(QString::number(bounds.min / unitsPerShown, 'g', 3), QString::number(bounds.max / unitsPerShown, 'g', 3),
             unit, QString::number(value, 'g', QLocale::FloatingPointShortest));
}

}  // namespace ridgeline
