// ARM64 chains for the clock (clock_chains.h). A register-register ADD and a register-register EOR take one cycle
// on every ARM64 core and neither is folded away, so each chain counts cycles; two different operations cross-check
// each other against a core that fuses or eliminates one of them. (Multiplies are no second clock here: MUL's latency
// differs between cores, 2 cycles on Neoverse N1, 3 on Cortex-A72.) The chains' windows are timed by steady_clock,
// which Linux's arm64 vDSO reads from the generic timer CNTVCT_EL0. That timer runs at CNTFRQ_EL0 (25 MHz on Ampere
// Altra, 1.05 GHz on Graviton3, 24 MHz on Apple silicon): a time base, never a core rate, so it is not offered as
// a TSC-like reference counter.
#include "core/measure/clock/clock_chains.h"

namespace ridgeline {

ChainDescription addChainDescription()
{
    return {QStringLiteral("dependent register-register add chain (1 cycle per add), timed by CNTVCT_EL0"), 1.0};
}

ChainDescription mulChainDescription()
{
    return {QStringLiteral("dependent register-register eor chain (1 cycle per eor)"), 1.0};
}

std::uint64_t runAddChain(std::uint64_t trips)
{
    std::uint64_t x = 0;
    const std::uint64_t step = 1;
    asm volatile(
        "1:\n\t"
        ".rept 16\n\t"
        "add %[x], %[x], %[step]\n\t"
        ".endr\n\t"
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b\n\t"
        : [x] "+r"(x), [n] "+r"(trips)
        : [step] "r"(step)
        : "cc");
    return x;
}

std::uint64_t runMulChain(std::uint64_t trips)
{
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    const std::uint64_t mask = 0x5851F42D4C957F2DULL;
    asm volatile(
        "1:\n\t"
        ".rept 16\n\t"
        "eor %[x], %[x], %[m]\n\t"
        ".endr\n\t"
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b\n\t"
        : [x] "+r"(x), [n] "+r"(trips)
        : [m] "r"(mask)
        : "cc");
    return x;
}

std::uint64_t runAddChainBesideFma(Isa isa, std::uint64_t trips)
{
    // One add and one FMLA per link into eight rotating accumulators, as on x86-64; SVE at its vector length.
    std::uint64_t x = 0;
    const std::uint64_t step = 1;
    if (isa == Isa::Sve) {
        asm volatile(
            ".arch_extension sve\n\t"
            "ptrue p0.s\n\t"
            ".irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9\n\t"
            "dup z\\r\\().s, #0\n\t"
            ".endr\n\t"
            "1:\n\t"
            ".irp acc, 2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 8, 9\n\t"
            "add %[x], %[x], %[step]\n\t"
            "fmla z\\acc\\().s, p0/m, z0.s, z1.s\n\t"
            ".endr\n\t"
            "subs %[n], %[n], #1\n\t"
            "b.ne 1b\n\t"
            : [x] "+r"(x), [n] "+r"(trips)
            : [step] "r"(step)
            : "cc", "p0", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9");
        return x;
    }
    if (isa == Isa::Scalar) {
        asm volatile(
            ".irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9\n\t"
            "movi d\\r, #0\n\t"
            ".endr\n\t"
            "1:\n\t"
            ".irp acc, 2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 8, 9\n\t"
            "add %[x], %[x], %[step]\n\t"
            "fmadd d\\acc, d0, d1, d\\acc\n\t"
            ".endr\n\t"
            "subs %[n], %[n], #1\n\t"
            "b.ne 1b\n\t"
            : [x] "+r"(x), [n] "+r"(trips)
            : [step] "r"(step)
            : "cc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9");
        return x;
    }
    asm volatile(
        ".irp r, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9\n\t"
        "movi v\\r\\().4s, #0\n\t"
        ".endr\n\t"
        "1:\n\t"
        ".irp acc, 2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 8, 9\n\t"
        "add %[x], %[x], %[step]\n\t"
        "fmla v\\acc\\().4s, v0.4s, v1.4s\n\t"
        ".endr\n\t"
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b\n\t"
        : [x] "+r"(x), [n] "+r"(trips)
        : [step] "r"(step)
        : "cc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9");
    return x;
}

bool hasReferenceCounter()
{
    return false;
}

std::uint64_t readReferenceCounter()
{
    return 0;
}

}  // namespace ridgeline
