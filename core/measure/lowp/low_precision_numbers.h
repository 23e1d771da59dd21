#pragma once
// bf16 and fp16 numbers in software: the conversions the kernels use to build their inputs and read their
// results, and the reference the tests check the hardware against. Round to nearest, ties to even.

#include <cstdint>

namespace ridgeline {

// bf16: the top half of an fp32 (8 exponent bits, 8 significant bits).
std::uint16_t bf16FromFloat(float value);
float floatFromBf16(std::uint16_t bits);

// IEEE binary16 (5 exponent bits, 11 significant bits), with subnormals and infinities; correctly rounded
// from a double (one rounding, not two through float).
std::uint16_t fp16FromDouble(double value);
double doubleFromFp16(std::uint16_t bits);

}  // namespace ridgeline
