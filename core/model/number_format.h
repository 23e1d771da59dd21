#pragma once
// Number formats for weights, KV cache and arithmetic, and the byte counts that follow from them.

#include <QString>
#include <QStringView>

#include <array>
#include <cstdint>
#include <optional>

namespace ridgeline {

// Fp4 is NVFP4 (e2m1 values, an e4m3 scale per 16 values); Mxfp4 the OCP microscaling format (e2m1, an e8m0
// scale per 32). Both multiply on FP4 tensor cores, so a GPU lists one "fp4" peak. Int4 is a weight-only format
// (AWQ/GPTQ groups of 128 with a 16-bit scale and zero point) that is dequantised before the multiply.
enum class NumberFormat { Fp32, Tf32, Bf16, Fp16, Fp8, Int8, Int4, Fp4, Mxfp4 };

inline constexpr std::array kAllNumberFormats = {NumberFormat::Fp32, NumberFormat::Tf32, NumberFormat::Bf16,
                                                 NumberFormat::Fp16, NumberFormat::Fp8,  NumberFormat::Int8,
                                                 NumberFormat::Int4, NumberFormat::Fp4,  NumberFormat::Mxfp4};

inline constexpr std::size_t formatIndex(NumberFormat format)
{
    return static_cast<std::size_t>(format);
}

// Storage bits per element of the values alone. Tf32 is a compute mode stored as fp32, so it counts 32 bits.
int bitsPerElement(NumberFormat precision);

// Storage bits per 32 elements including the block scales a format carries, exact in integers:
// fp4 (NVFP4) 32 x 4 + 2 x 8 = 144 (4.5 bits each), mxfp4 32 x 4 + 8 = 136 (4.25), int4 with a 16-bit scale
// and zero per 128 = 136 (4.25); the other formats 32 x bitsPerElement (per-tensor or per-channel scales are
// negligible).
int storageBitsPer32(NumberFormat precision);
double storageBitsPerElement(NumberFormat precision);  // storageBitsPer32 / 32

// The tensor-core precision a stored format multiplies in when the GPU has it: mxfp4 uses the fp4 units;
// every other format is its own. (Whether the GPU has that precision is the model's question.)
NumberFormat tensorPrecisionOf(NumberFormat storage);

// "bf16", "fp8", ...; the same words the catalogs and the CLI use. "nvfp4" is read as fp4.
QString numberFormatName(NumberFormat precision);
std::optional<NumberFormat> parseNumberFormat(QStringView name);
// The words, for messages: "fp32, bf16, fp16, fp8, int8, int4, fp4, mxfp4" (storage formats only).
QString storageFormatNames();

// Whether the format can hold weights or KV (tf32 cannot: it is only a tensor-core compute mode).
bool isStorageFormat(NumberFormat precision);

}  // namespace ridgeline
