// x86-64 chains for the clock. Recent Intel cores fold small-immediate adds at rename (a chain of
// `add $1, reg` ran at 5x the clock on a Xeon), so the add chain adds a register; the second chain is a
// 32-bit imul, three cycles on every x86-64 core with FMA (Intel since Nehalem, AMD since Zen).
#include "core/measure/clock/clock_chains.h"

#include <x86intrin.h>

namespace ridgeline {

ChainDescription addChainDescription()
{
    return {QStringLiteral("dependent register-register add chain (1 cycle per add)"), 1.0};
}

ChainDescription mulChainDescription()
{
    return {QStringLiteral("dependent 32-bit imul chain (3 cycles per imul)"), 3.0};
}

std::uint64_t runAddChain(std::uint64_t trips)
{
    std::uint64_t x = 0;
    const std::uint64_t step = 1;  // in a register: an immediate could be folded away
    asm volatile(
        "1:\n\t"
        ".rept 16\n\t"
        "add %[step], %[x]\n\t"
        ".endr\n\t"
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        : [x] "+r"(x), [n] "+r"(trips)
        : [step] "r"(step)
        : "cc");
    return x;
}

std::uint64_t runMulChain(std::uint64_t trips)
{
    std::uint32_t x = 3;
    const std::uint32_t factor = 0x9E3779B1u;  // odd, so the chain never collapses to zero
    asm volatile(
        "1:\n\t"
        ".rept 16\n\t"
        "imul %[f], %[x]\n\t"
        ".endr\n\t"
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        : [x] "+r"(x), [n] "+r"(trips)
        : [f] "r"(factor)
        : "cc");
    return x;
}

namespace {

// One add and one FMA per link: eight FMA accumulators, each touched twice per trip, so their latency
// (4-5 cycles) never limits the trip; one FMA per cycle is within every core's throughput.
#define RIDGELINE_ADD_BESIDE_FMA(NAME, TARGET, FMA, REG)                                             \
    __attribute__((target(TARGET))) std::uint64_t NAME(std::uint64_t trips)                          \
    {                                                                                                \
        std::uint64_t x = 0;                                                                         \
        const std::uint64_t step = 1;                                                                \
        asm volatile(                                                                                \
            ".irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9\n\t"                                               \
            "vxorps %%xmm\\r, %%xmm\\r, %%xmm\\r\n\t"                                                \
            ".endr\n\t"                                                                              \
            "1:\n\t"                                                                                 \
            ".irp acc, 2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 8, 9\n\t"                           \
            "add %[step], %[x]\n\t" FMA " %%" REG "0, %%" REG "1, %%" REG                            \
            "\\acc\n\t"                                                                              \
            ".endr\n\t"                                                                              \
            "dec %[n]\n\t"                                                                           \
            "jnz 1b\n\t"                                                                             \
            "vzeroupper\n\t"                                                                         \
            : [x] "+r"(x), [n] "+r"(trips)                                                           \
            : [step] "r"(step)                                                                       \
            : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9"); \
        return x;                                                                                    \
    }

RIDGELINE_ADD_BESIDE_FMA(addBesideScalarFma, "fma", "vfmadd231sd", "xmm")
RIDGELINE_ADD_BESIDE_FMA(addBesideAvx2Fma, "avx2,fma", "vfmadd231pd", "ymm")
RIDGELINE_ADD_BESIDE_FMA(addBesideAvx512Fma, "avx512f", "vfmadd231pd", "zmm")

#undef RIDGELINE_ADD_BESIDE_FMA

}  // namespace

std::uint64_t runAddChainBesideFma(Isa isa, std::uint64_t trips)
{
    switch (isa) {
        case Isa::Scalar:
            return addBesideScalarFma(trips);
        case Isa::Avx2:
            return addBesideAvx2Fma(trips);
        case Isa::Avx512:
            return addBesideAvx512Fma(trips);
        case Isa::Neon:
        case Isa::Sve:
            break;  // ARM64 ISAs: never chosen on x86-64
    }
    return runAddChain(trips);
}

bool hasReferenceCounter()
{
    return true;  // every x86-64 CPU has a TSC; its rate is constant on all with FMA ("constant_tsc")
}

std::uint64_t readReferenceCounter()
{
    return __rdtsc();
}

}  // namespace ridgeline
