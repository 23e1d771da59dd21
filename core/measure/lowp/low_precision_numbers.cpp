#include "core/measure/lowp/low_precision_numbers.h"

#include <cmath>
#include <cstring>

namespace ridgeline {

std::uint16_t fp16FromDouble(double value)
{
    constexpr std::uint16_t kInfinity = 0x7C00;
    if (std::isnan(value))
        return 0x7E00;
    const std::uint16_t sign = std::signbit(value) ? 0x8000 : 0x0000;
    const double magnitude = std::fabs(value);
    if (magnitude >= 65520.0)  // halfway between the largest finite (65504) and 2^16 rounds (to even) up
        return sign | kInfinity;
    int exponent = 0;
    std::frexp(magnitude, &exponent);  // magnitude = m x 2^exponent, m in [0.5, 1)
    const int leading = exponent - 1;  // exponent of the leading bit
    if (magnitude == 0.0 || leading < -14) {
        // Subnormal (or zero): multiples of 2^-24; nearbyint rounds ties to even in the default mode.
        const double quanta = std::nearbyint(std::ldexp(magnitude, 24));
        return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(quanta));  // 1024 = smallest normal
    }
    double significand = std::nearbyint(std::ldexp(magnitude, 10 - leading));  // in [1024, 2048]
    int biased = leading + 15;
    if (significand >= 2048.0) {
        significand = 1024.0;
        ++biased;
    }
    if (biased >= 31)
        return sign | kInfinity;
    return static_cast<std::uint16_t>(sign | (biased << 10) | (static_cast<int>(significand) - 1024));
}

double doubleFromFp16(std::uint16_t bits)
{
    const double sign = (bits & 0x8000) != 0 ? -1.0 : 1.0;
    const int biased = (bits >> 10) & 0x1F;
    const int fraction = bits & 0x3FF;
    if (biased == 0)
        return sign * std::ldexp(fraction, -24);
    if (biased == 31)
        return fraction == 0 ? sign * INFINITY : NAN;
    return sign * std::ldexp(1024 + fraction, biased - 25);
}

}  // namespace ridgeline
