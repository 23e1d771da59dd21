#pragma once
// The ARM64 side of the clock measurement: a chain of dependent register-register adds, which take
// one cycle each on every ARM64 core, timed with the generic timer (CNTVCT_EL0 ticks at CNTFRQ_EL0 Hz, both
// readable from user space on Linux). The timer is not the core clock (25 MHz on Ampere Altra, 1.05 GHz on
// Graviton3, 24 MHz on Apple silicon); it only times the chain.

#include <cstdint>

namespace ridgeline {

// CNTFRQ_EL0: the generic timer's frequency in Hz.
std::uint64_t arm64TimerFrequencyHz();

// CNTVCT_EL0 after an ISB, so the read is not taken early.
std::uint64_t arm64TimerTicks();

// 16 x `trips` dependent adds (the loop counter runs alongside on another ALU); returns the sum so it is kept.
std::uint64_t arm64DependentAdds(std::uint64_t trips);

struct Arm64ChainClock {
    double ghz = 0.0;                  // adds per second of the fastest window, in GHz
    std::uint64_t timerHz = 0;         // CNTFRQ_EL0
    double windowSeconds = 0.0;        // length of one window
    double timerTicksPerWindow = 0.0;  // resolution check: a window of few ticks reads coarse
};

// Many short windows for `seconds`, keeping the fastest: an interrupted window only reads low.
Arm64ChainClock measureArm64ChainClock(double seconds);

}  // namespace ridgeline
