#pragma once
// Number formats for weights, KV cache and arithmetic, and the byte counts that follow from them.

#include <QString>
#include <QStringView>

#include <array>
#include <optional>

namespace ridgeline {

enum class NumberFormat { Fp32, Tf32, Bf16, Fp16, Fp8, Int8, Int4 };

inline constexpr std::array kAllNumberFormats = {NumberFormat::Fp32, NumberFormat::Tf32, NumberFormat::Bf16,
                                                 NumberFormat::Fp16, NumberFormat::Fp8,  NumberFormat::Int8,
                                                 NumberFormat::Int4};

// Storage bits per element. Tf32 is a compute mode stored as fp32, so it counts 32 bits.
int bitsPerElement(NumberFormat precision);

// "bf16", "fp8", ...; the same words the catalogs and the CLI use.
QString numberFormatName(NumberFormat precision);
std::optional<NumberFormat> parseNumberFormat(QStringView name);

// Whether the format can hold weights or KV (tf32 cannot: it is only a tensor-core compute mode).
bool isStorageFormat(NumberFormat precision);

}  // namespace ridgeline
