// ARM64's FMA chains for the fp32 / fp64 ceilings (fma_kernels.h): FMADD, NEON FMLA and SVE FMLA, from
// arm64_kernels.
#include "core/measure/arm64/arm64_kernels.h"
#include "core/measure/compute/fma_kernels.h"

namespace ridgeline {

double runFmaChains(Isa isa, Precision precision, std::int64_t iterations)
{
    const bool fp32 = precision == Precision::Fp32;
    Arm64Loop loop = fp32 ? Arm64Loop::ScalarFp32 : Arm64Loop::ScalarFp64;
    if (isa == Isa::Neon)
        loop = fp32 ? Arm64Loop::NeonFp32 : Arm64Loop::NeonFp64;
    else if (isa == Isa::Sve)
        loop = fp32 ? Arm64Loop::SveFp32 : Arm64Loop::SveFp64;
    else if (isa != Isa::Scalar)
        return 0.0;  // an x86 ISA: never chosen on ARM64 (fmaIsasFromFlags)
    return runArm64Loop(loop, iterations).operations;
}

}  // namespace ridgeline
