#include "core/measure/machine/isa.h"

#if defined(__aarch64__)
#include "core/measure/arm64/arm64_kernels.h"
#endif

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
        case Isa::Neon:
            return QStringLiteral("neon");
        case Isa::Sve:
            return QStringLiteral("sve");
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
        case Isa::Neon:
            return 128;
        case Isa::Sve:
            return sveVectorBits();
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
    if (flags.contains(QLatin1String("asimd"))) {  // ARM64: FP and NEON come together on every Linux system
        isas = {Isa::Scalar, Isa::Neon};
        if (flags.contains(QLatin1String("sve")))
            isas.push_back(Isa::Sve);
        return isas;
    }
    if (!flags.contains(QLatin1String("fma")))
        return isas;
    isas.push_back(Isa::Scalar);
    if (flags.contains(QLatin1String("avx2")))
        isas.push_back(Isa::Avx2);
    if (flags.contains(QLatin1String("avx512f")))
        isas.push_back(Isa::Avx512);
    return isas;
}

int sveVectorBits()
{
#if defined(__aarch64__)
    return 8 * arm64SveBytes();
#else
    return 0;
#endif
}

}  // namespace ridgeline
