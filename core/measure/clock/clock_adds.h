#pragma once
// A block of dependent register-register adds for measuring the clock inside a unit's loop: each add needs the
// previous one's result, so the block takes one cycle per add on every x86-64 core (register-register adds
// are never folded, unlike small-immediate ones on recent Intel cores).

#include <cstdint>

namespace ridgeline {

// Adds per block: more cycles than one loop iteration's unit instructions take at their slowest documented
// rate (16 vdpbf16ps at 0.5 per cycle = 32 cycles; 4 AMX tile products at 16 cycles each = 64), so the adds
// are the bottleneck and count the cycles.
constexpr int kClockAddsPerIteration = 128;

}  // namespace ridgeline

#define RIDGELINE_ADDS_8                                                               \
    "add %[one], %[x]\n\tadd %[one], %[x]\n\tadd %[one], %[x]\n\tadd %[one], %[x]\n\t" \
    "add %[one], %[x]\n\tadd %[one], %[x]\n\tadd %[one], %[x]\n\tadd %[one], %[x]\n\t"
#define RIDGELINE_ADDS_32 RIDGELINE_ADDS_8 RIDGELINE_ADDS_8 RIDGELINE_ADDS_8 RIDGELINE_ADDS_8
#define RIDGELINE_ADDS_128 RIDGELINE_ADDS_32 RIDGELINE_ADDS_32 RIDGELINE_ADDS_32 RIDGELINE_ADDS_32

// kClockAddsPerIteration dependent adds on the 64-bit integer `counter`.
#define RIDGELINE_CLOCK_ADDS(counter)                                                  \
    do {                                                                               \
        const std::uint64_t one_ = 1;                                                  \
        asm volatile(RIDGELINE_ADDS_128 : [x] "+r"(counter) : [one] "r"(one_) : "cc"); \
    } while (false)
