#pragma once
// The architecture's share of measuring the clock: dependent chains whose latency in core cycles is fixed
// by the architecture, and its constant-rate reference counter. One implementation per architecture:
// clock_chains_x86_64.cpp (add and imul chains, the TSC) and arm64/clock_chains_arm64.cpp (add and eor chains; the
// generic timer CNTVCT_EL0 only times the windows, it is no core-rate reference, so hasReferenceCounter() is false).

#include "core/measure/machine/isa.h"

#include <QString>

#include <cstdint>

namespace ridgeline {

// Links per trip of every chain below; a trip also decrements a loop counter, which runs beside the chain.
inline constexpr int kChainLinksPerTrip = 16;

struct ChainDescription {
    QString name;                // "dependent register-register add chain"
    double cyclesPerLink = 1.0;  // the latency every core of this architecture gives one link
};

ChainDescription addChainDescription();
ChainDescription mulChainDescription();

// `trips` x kChainLinksPerTrip dependent links; the result only keeps the optimiser honest.
std::uint64_t runAddChain(std::uint64_t trips);
std::uint64_t runMulChain(std::uint64_t trips);
// The add chain with one FMA instruction of `isa` beside every link (eight independent FMA chains), so the
// core runs at the clock it grants while that ISA's FMA units are busy: AVX-512 may lower it. ARM64: FMADD, NEON
// or SVE FMLA.
std::uint64_t runAddChainBesideFma(Isa isa, std::uint64_t trips);

// A counter that ticks at a constant rate near the nominal core clock (x86-64's TSC), or false (ARM64).
bool hasReferenceCounter();
std::uint64_t readReferenceCounter();

}  // namespace ridgeline
