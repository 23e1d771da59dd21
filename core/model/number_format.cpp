#include "core/model/number_format.h"

#include <QStringList>

namespace ridgeline {

int bitsPerElement(NumberFormat precision)
{
    switch (precision) {
        case NumberFormat::Fp32:
        case NumberFormat::Tf32:
            return 32;
        case NumberFormat::Bf16:
        case NumberFormat::Fp16:
            return 16;
        case NumberFormat::Fp8:
        case NumberFormat::Int8:
            return 8;
        case NumberFormat::Int4:
        case NumberFormat::Fp4:
        case NumberFormat::Mxfp4:
            return 4;
    }
    return 16;
}

int storageBitsPer32(NumberFormat precision)
{
    switch (precision) {
        case NumberFormat::Fp4:
            return 32 * 4 + 2 * 8;  // NVFP4: one e4m3 scale per 16 values (the fp32 tensor scale is negligible)
        case NumberFormat::Mxfp4:
            return 32 * 4 + 8;  // MXFP4: one e8m0 scale per 32 values
        case NumberFormat::Int4:
            return 32 * 4 + 8;  // AWQ / GPTQ: a 16-bit scale and a 16-bit zero per group of 128 = 32 bits / 128
        default:
            return 32 * bitsPerElement(precision);
    }
}

double storageBitsPerElement(NumberFormat precision)
{
    return storageBitsPer32(precision) / 32.0;
}

NumberFormat tensorPrecisionOf(NumberFormat storage)
{
    return storage == NumberFormat::Mxfp4 ? NumberFormat::Fp4 : storage;
}

QString numberFormatName(NumberFormat precision)
{
    switch (precision) {
        case NumberFormat::Fp32:
            return QStringLiteral("fp32");
        case NumberFormat::Tf32:
            return QStringLiteral("tf32");
        case NumberFormat::Bf16:
            return QStringLiteral("bf16");
        case NumberFormat::Fp16:
            return QStringLiteral("fp16");
        case NumberFormat::Fp8:
            return QStringLiteral("fp8");
        case NumberFormat::Int8:
            return QStringLiteral("int8");
        case NumberFormat::Int4:
            return QStringLiteral("int4");
        case NumberFormat::Fp4:
            return QStringLiteral("fp4");
        case NumberFormat::Mxfp4:
            return QStringLiteral("mxfp4");
    }
    return QString();
}

std::optional<NumberFormat> parseNumberFormat(QStringView name)
{
    if (name.compare(u"nvfp4", Qt::CaseInsensitive) == 0)
        return NumberFormat::Fp4;
    for (NumberFormat precision : kAllNumberFormats)
        if (name.compare(numberFormatName(precision), Qt::CaseInsensitive) == 0)
            return precision;
    return std::nullopt;
}

QString storageFormatNames()
{
    QStringList names;
    for (NumberFormat precision : kAllNumberFormats)
        if (isStorageFormat(precision))
            names << numberFormatName(precision);
    return names.join(QStringLiteral(", "));
}

bool isStorageFormat(NumberFormat precision)
{
    return precision != NumberFormat::Tf32;
}

}  // namespace ridgeline
