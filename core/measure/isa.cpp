#include "core/measure/isa.h"

namespace ridgeline {

QString isaName(Isa isa)
{
    switch (isa) {
        case Isa::Scalar:
            return QStringLiteral("scalar");
        case Isa::Avx2:
            return QStringLiteral("avx2");
        case Isa::Avx512:
            return QStringLiteral("avx512");
    }
    return {};
}

QString precisionName(Precision precision)
{
    return precision == Precision::Fp32 ? QStringLiteral("fp32") : QStringLiteral("fp64");
}

int bytesPerElement(Precision precision)
{
    return precision == Precision::Fp32 ? 4 : 8;
}

int vectorBits(Isa isa, Precision precision)
{
    switch (isa) {
        case Isa::Scalar:
            return 8 * bytesPerElement(precision);
        case Isa::Avx2:
            return 256;
        case Isa::Avx512:
            return 512;
    }
    return 0;
}

double flopsPerFma(Isa isa, Precision precision)
{
    const int lanes = vectorBits(isa, precision) / (8 * bytesPerElement(precision));
    return 2.0 * lanes;
}

std::vector<Isa> fmaIsasFromFlags(const QStringList& flags)
{
    std::vector<Isa> isas;
    if (!flags.contains(QLatin1String("fma")))
        return isas;
    isas.push_back(Isa::Scalar);
    if (flags.contains(QLatin1String("avx2")))
        isas.push_back(Isa::Avx2);
    if (flags.contains(QLatin1String("avx512f")))
        isas.push_back(Isa::Avx512);
    return isas;
}

}  // namespace ridgeline
