#include "core/model/number_format.h"

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
            return 4;
    }
    return 16;
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
    }
    return QString();
}

std::optional<NumberFormat> parseNumberFormat(QStringView name)
{
    for (NumberFormat precision : kAllNumberFormats)
        if (name.compare(numberFormatName(precision), Qt::CaseInsensitive) == 0)
            return precision;
    return std::nullopt;
}

bool isStorageFormat(NumberFormat precision)
{
    return precision != NumberFormat::Tf32;
}

}  // namespace ridgeline
