#pragma once
// THE rule for physical quantities on their way in: every loader (sessions, decks, GPU catalogs, ERT files,
// benchmark results) and every command-line figure checks its rates, bandwidths, intensities and times here, so
// that everything derived from them stays a finite number: a ridge (FLOP/s over B/s), the chart's log axes, a time
// (FLOPs over FLOP/s) and a relative error (over a measured time).
//
// The bounds are a thousand-odd times beyond anything real on either side, so that no real measurement or datasheet
// is refused, yet every quotient of two of them fits a double with hundreds of decades to spare:
// - compute rate 1e-6 .. 1e9 GFLOP/s (1 kFLOP/s .. 1 EFLOP/s; one 2026 GPU peaks near 1e7 GFLOP/s at fp4);
// - bandwidth 1e-6 .. 1e9 GB/s (1 kB/s .. 1 EB/s; an HBM3e card reads 8e3 GB/s, a CPU's L1 at most 1e5 GB/s);
//   a ridge is then within 1e-15 .. 1e15 FLOP/byte;
// - arithmetic intensity 1e-12 .. 1e12 FLOP/byte;
// - duration 1e-12 .. 1e7 s (a picosecond, below any kernel or latency a tool reports, to about four months);
// - a count per second (tokens/s, requests/s of a benchmark) 1e-9 .. 1e12 per second.
// A value of exactly 0 ("not measured") is each caller's own decision; a value that is not finite, negative, or
// outside its bounds (a denormal such as 5e-324 among them) is refused with a message naming the bounds.

#include <QString>
#include <QStringView>

#include <optional>

namespace ridgeline {

enum class PhysicalQuantity { ComputeGflops, BandwidthGbps, IntensityFlopPerByte, DurationSeconds, PerSecond };

struct PhysicalBounds {
    double min = 0.0;  // in the quantity's base unit: GFLOP/s, GB/s, FLOP/byte, s, 1/s
    double max = 0.0;
    const char* unit = "";  // the base unit's name: "GFLOP/s"
};

PhysicalBounds physicalBounds(PhysicalQuantity quantity);

// Whether value (in the base unit) is finite and within the quantity's bounds.
bool isPhysical(PhysicalQuantity quantity, double value);

// Nothing when value is acceptable; else what is wrong, for the caller to put after the file and the field:
// "must be between 1e-06 and 1e+09 GB/s, got 1e-305". `unitsPerShown` and `shownUnit` state the bounds in the
// caller's own unit (1000 and "TB/s" for a GPU's bandwidth_tbs); value is given in that unit as well.
std::optional<QString> physicalProblem(PhysicalQuantity quantity, double value, double unitsPerShown = 1.0,
                                       QStringView shownUnit = {});

}  // namespace ridgeline
