#pragma once
// Independent FMA chains, one function per ISA and precision, compiled with target attributes so the
// program itself needs only baseline x86-64; the caller picks what the CPU supports at run time.

#include "core/measure/isa.h"

#include <cstdint>

namespace ridgeline {

// Runs `iterations` rounds of independent FMA chains; returns the FLOPs executed.
// The chains' sum goes to a volatile sink so the optimizer cannot drop the work.
double runFmaChains(Isa isa, Precision precision, std::int64_t iterations);

}  // namespace ridgeline
