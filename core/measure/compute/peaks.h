#pragma once
// The theoretical peak behind a measured compute ceiling. The measured FLOP/cycle per core is snapped to a
// whole number of FMA instructions per cycle and held against the table of known cores, so that neither a
// wrong table entry nor a wrong clock goes unnoticed: what cannot be right becomes a Finding.

#include "core/measure/clock/clock.h"
#include "core/measure/machine/isa.h"
#include "core/measure/machine/known_cores.h"
#include "core/session/session.h"

#include <vector>

namespace ridgeline {

// A ceiling may exceed its theoretical peak by this much before it is called impossible (the clock is
// measured to about 1 %).
inline constexpr double kAboveTheoreticalTolerance = 0.02;

// The FMA rate a core can have nearest to a measured one: 1/64 .. 8 in powers of two, or 3.
double snapFmaPerCycle(double measured);

struct PeakAssessment {
    double flopsPerCycle = 0.0;  // measured, per core
    double fmaPerCycle = 0.0;    // behind theoreticalGflops
    double theoreticalGflops = 0.0;
    QString basis;
    std::vector<Finding> findings;
};

// `gflops` measured on `threads` threads at `clockGhz` (the clock while this ISA's FMA units were busy).
PeakAssessment assessPeak(const QString& ceilingName, double gflops, int threads, double clockGhz, Isa isa,
                          Precision precision, const CoreModel& core);

// The same rule for any instruction a ceiling's loop runs (the FMAs above, the low-precision units of
// lowp_units.h): what one instruction does and how many of them the table says a core starts per cycle.
struct PeakSubject {
    double opsPerInstruction = 0.0;                // a multiply-add counted as two
    FmaRate rate;                                  // per core and cycle, from the table; {0, 0}: no entry
    QString core;                                  // the table's name for the core
    QString entry;                                 // what the table lists: "avx512", "AMX-BF16"
    QString instruction;                           // in messages: "avx512 FMA", "tdpbf16ps"
    QString rateUnit = QStringLiteral("GFLOP/s");  // "GOPS" for int8
};
PeakAssessment assessPeak(const QString& ceilingName, double gflops, int threads, double clockGhz,
                          const PeakSubject& subject);

// What an FMA ceiling's loop runs, for the two functions around it.
PeakSubject fmaPeakSubject(Isa isa, Precision precision, const CoreModel& core);

// The clock a ceiling's peak is computed with: clock.h's ceilingClock, then held against the rate the table gives
// the core. A frequency licence slows the unit as much as the adds beside it, so a reading at which the measurement
// would need more instructions per cycle than the core can start was taken low: the adds lost cycles to the unit's
// instructions (Zen 5 keeps its full clock under AVX-512: Chips and Cheese, "Zen 5's AVX-512 Frequency Behavior").
// The plain clock is used then, when it explains the measurement; when neither does, the rate is what is wrong and
// assessPeak says so.
CeilingClock peakClock(double gflops, int threads, double besideGhz, double plainGhz, const QString& besideWhat,
                       const PeakSubject& subject);

// Session-wide checks once everything is measured: fp32 against fp64 at the same vector width, memory levels
// out of order, kernels above their roofs. The per-ceiling and clock findings are made where those are measured.
std::vector<Finding> crossCheckSession(const Session& session);

}  // namespace ridgeline
