#pragma once
// bf16 and fp16 numbers in software: the conversions the kernels use to build their inputs and read their
// results, and the reference the tests check the hardware against. Round to nearest, ties to even.

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ridgeline {

// bf16: the top half of an fp32 (8 exponent bits, 8 significant bits). Inline: the training step converts every
// activation it stores through these, and a call per element would cost more than the arithmetic.
inline std::uint16_t bf16FromFloat(float value)
{
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    if (std::isnan(value))
        return static_cast<std::uint16_t>((bits >> 16) | 0x0040);  // stays a (quiet) NaN
    const std::uint32_t lsb = (bits >> 16) & 1U;
    return static_cast<std::uint16_t>((bits + 0x7FFFU + lsb) >> 16);
}

inline float floatFromBf16(std::uint16_t bits)
{
    const std::uint32_t wide = static_cast<std::uint32_t>(bits) << 16;
    float value = 0.0f;
    std::memcpy(&value, &wide, sizeof value);
    return value;
}

// IEEE binary16 (5 exponent bits, 11 significant bits), with subnormals and infinities; correctly rounded
// from a double (one rounding, not two through float).
std::uint16_t fp16FromDouble(double value);
double doubleFromFp16(std::uint16_t bits);

}  // namespace ridgeline
