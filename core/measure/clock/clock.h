#pragma once
// The core clock, measured so that no core can fool it: two dependent chains of different instructions
// (one cycle per add, three per imul) must agree, and the result is checked against the rates the system
// reports (the TSC, cpufreq, /proc/cpuinfo). A clock that fails a check is still used, but marked doubtful
// with the reason, in the session and the table.

#include "core/measure/machine/isa.h"
#include "core/session/session.h"

namespace ridgeline {

struct ClockReadings {
    double addChainGhz = 0.0;
    double mulChainGhz = 0.0;
    double tscGhz = 0.0;         // 0: the architecture has no constant-rate counter
    double cpufreqMaxGhz = 0.0;  // 0: no cpufreq (typical in a VM)
    double cpuinfoGhz = 0.0;     // 0: not reported
};

struct ClockJudgement {
    double ghz = 0.0;  // the clock to compute theoretical peaks with
    ClockMeasurement measurement;
};

// Chains agreeing within this fraction are one clock.
inline constexpr double kClockChainAgreement = 0.05;
// No x86-64 or ARM64 core with FMA runs outside this band at stock settings.
inline constexpr double kMinPlausibleClockGhz = 0.2;
inline constexpr double kMaxPlausibleClockGhz = 7.0;
// Turbo runs above the TSC's (nominal) rate: up to 3.8x on low-power laptop parts (1.0 GHz base,
// 3.8 GHz turbo); a folded add chain read 5.3x on a Xeon. Below a fifth of it is no clock either.
inline constexpr double kMaxClockOverNominal = 4.0;
inline constexpr double kMinClockOverNominal = 0.2;
// acpi-cpufreq may report the highest non-boost state as its maximum; boost adds at most about 40 %.
inline constexpr double kMaxClockOverCpufreqMax = 1.5;

// Which clock the readings support, and what to doubt. Pure: tested with readings of real machines.
ClockJudgement judgeClock(const ClockReadings& readings);

// The clock a ceiling's theoretical peak is computed with: the reading beside its FMAs, taken with the
// ceiling, when it is within [kMinBesideOverPlain, kMaxBesideOverPlain] of the plain clock. Lower means the
// add chain was starved of ports; higher (up to that bound) means the clock moved between the two readings
// (turbo, a busy host): the reading taken with the ceiling holds, else a ceiling would read above its peak.
// Beyond the bounds the plain clock is used. `note` (when not null) says why when it was not the plain reading.
// `besideWhat` names what ran beside the adds, for the note: "avx512 FMAs", "tdpbf16ps".
inline constexpr double kMinBesideOverPlain = 0.5;
inline constexpr double kMaxBesideOverPlain = 1.5;
struct CeilingClock {
    double ghz = 0.0;
    QString note;  // empty when the reading beside the FMAs agreed with the plain clock (within 10 %)
};
CeilingClock ceilingClock(double besideGhz, double plainGhz, const QString& besideWhat);

// The best of many short windows is the clock: preemption only stretches a window.
// The clock while `isa`'s FMA units are busy (an add chain beside FMAs); AVX-512 may lower it.
double measureClockBesideFma(Isa isa, double seconds);
// The reference counter's rate against the steady clock, in GHz; 0 when there is none.
double measureTscGhz(double seconds);

// The add and imul chains in alternating windows over `seconds`, the TSC, judged; on the calling thread. cpufreqMaxMhz
// and cpuinfoMhz come from the probe.
ClockJudgement measureClock(double cpufreqMaxMhz, double cpuinfoMhz, double seconds);

}  // namespace ridgeline
