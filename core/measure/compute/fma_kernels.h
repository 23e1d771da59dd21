#pragma once
// Independent FMA chains, one function per ISA and precision, compiled with target attributes so the program
// itself needs only its architecture's baseline (x86-64, ARMv8-A); the caller picks what the CPU supports at run
// time (fmaIsasFromFlags). One implementation per architecture: fma_kernels.cpp (scalar, AVX2, AVX-512) and
// arm64/fma_kernels_arm64.cpp (FMADD, NEON and SVE FMLA at the hardware's vector length).

#include "core/measure/machine/isa.h"

#include <cstdint>

namespace ridgeline {

// Runs `iterations` rounds of independent FMA chains; returns the FLOPs executed, 0 for an ISA of the other
// architecture. The chains' results are kept (a volatile sink, or returned lanes) so the optimizer cannot drop the
// work.
double runFmaChains(Isa isa, Precision precision, std::int64_t iterations);

}  // namespace ridgeline
