#include "core/measure/arm64/arm64_clock.h"

#include <algorithm>

namespace ridgeline {

std::uint64_t arm64TimerFrequencyHz()
{
    std::uint64_t hz = 0;
    asm volatile("mrs %0, cntfrq_el0" : "=r"(hz));
    return hz;
}

std::uint64_t arm64TimerTicks()
{
    std::uint64_t ticks = 0;
    asm volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(ticks) : : "memory");
    return ticks;
}

std::uint64_t arm64DependentAdds(std::uint64_t trips)
{
    std::uint64_t x = 0;
    const std::uint64_t one = 1;
    asm volatile(
        "1:\n\t"
        "add %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\t"
        "add %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\t"
        "add %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\t"
        "add %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\tadd %[x], %[x], %[one]\n\t"
        "subs %[n], %[n], #1\n\t"
        "b.ne 1b\n\t"
        : [x] "+r"(x), [n] "+r"(trips)
        : [one] "r"(one)
        : "cc");
    return x;
}

Arm64ChainClock measureArm64ChainClock(double seconds)
{
    Arm64ChainClock clock;
    clock.timerHz = arm64TimerFrequencyHz();
    if (clock.timerHz == 0)
        return clock;
    const double hz = static_cast<double>(clock.timerHz);
    // A window of at least 200 us and 100 timer ticks, so the timer's resolution costs under 1 %.
    const double windowSeconds = std::max(0.0002, 100.0 / hz);
    std::uint64_t trips = 256;
    double elapsed = 0.0;
    while (elapsed < windowSeconds && trips < (1ULL << 40)) {
        trips *= 2;
        const std::uint64_t start = arm64TimerTicks();
        arm64DependentAdds(trips);
        elapsed = static_cast<double>(arm64TimerTicks() - start) / hz;
    }
    if (elapsed <= 0.0)
        return clock;
    double best = static_cast<double>(trips) * 16.0 / elapsed;
    const std::uint64_t deadline = arm64TimerTicks() + static_cast<std::uint64_t>(seconds * hz);
    while (arm64TimerTicks() < deadline) {
        const std::uint64_t start = arm64TimerTicks();
        arm64DependentAdds(trips);
        const auto ticks = static_cast<double>(arm64TimerTicks() - start);
        if (ticks > 0.0)
            best = std::max(best, static_cast<double>(trips) * 16.0 * hz / ticks);
    }
    clock.ghz = best / 1e9;
    clock.windowSeconds = static_cast<double>(trips) * 16.0 / best;
    clock.timerTicksPerWindow = clock.windowSeconds * hz;
    return clock;
}

}  // namespace ridgeline
