#pragma once
// The one home of number text for people: every label, caption, table and report formats its numbers here.
// GB (1e9 bytes) and GiB (2^30 bytes) are different. Nothing here ever prints "nan" or "inf": a value that is
// not a finite number reads "–".

#include <QString>
#include <QStringView>

#include <cstdint>

namespace ridgeline {

inline constexpr double kBytesPerGB = 1e9;
inline constexpr double kBytesPerGiB = 1073741824.0;

// About `significant` significant digits, thousands grouped: "1,234", "12.3", "0.0123" (the batching
// explorer's rule: the digits a chart label has room for).
QString formatSignificant(double value, int significant = 3);
// Short numbers for sentences and tooltips: "230", "5.8", "0.08", "0.0012", no grouping (the explanation's
// rule: whole numbers above 10, one decimal below 10, two below 1, two significant digits below 0.01).
QString formatCompact(double value);
// Fixed decimals with thousands grouped, as the source text prints its figures: "1,365", "0.17".
QString formatGrouped(double value, int decimals = 0);
inline QString formatGrouped(std::int64_t value)
{
    return formatGrouped(static_cast<double>(value), 0);
}

QString formatGB(double bytes, int decimals = 2);   // "13.48 GB"
QString formatGiB(double bytes, int decimals = 2);  // "12.55 GiB"
QString formatBinaryBytes(double bytes);            // picks B, KiB, MiB, GiB, TiB: "512 KiB", "1.25 MiB"
// Memory of a card: GiB with two decimals from one GiB up ("4.00 GiB"), formatBinaryBytes below ("160 MiB").
QString formatMemory(double bytes);
QString formatSeconds(double seconds);  // "1.20 s", "6.74 ms", "35.0 µs", "80.0 ns"
QString formatDollars(double usd);      // three significant digits: "$0.0712", "$1.23"
QString formatCount(double value);      // "6.740e+09" for big counts, plain otherwise
// A quantity with an SI prefix (k, M, G, T, P, E) and three significant digits: formatSi(1.37e11, "FLOP") is
// "137 GFLOP", formatSi(2.01e8, "B") "201 MB" (decimal, as GB/s is).
QString formatSi(double value, const QString& unit);

// The unit an axis of FLOP/s is labelled in: GFLOP/s for a CPU, TFLOP/s or PFLOP/s once GPU roofs reach that high.
struct FlopRateUnit {
    double gflops = 1.0;                       // GFLOP/s per unit: 1, 1e3 or 1e6
    QString name = QStringLiteral("GFLOP/s");  // or "TFLOP/s", "PFLOP/s"
};
// The largest unit in which the axis top reads 10 or more and its bottom 1e-5 or more: decade ticks from 0.0001 up
// print without exponents ("%.10g"), and a CPU's 1 GFLOP/s still has a tick under a GPU's 989 TFLOP/s.
FlopRateUnit flopRateUnitFor(double lowGflops, double highGflops);
// Integer precisions count operations (a multiply and an add each), not floating-point ones: an int8 ceiling
// reads "TOP/s" and its ridge "OP/byte" where a float's read "TFLOP/s" and "FLOP/byte". Takes a precision
// ("int8") or a ceiling's name that starts with one ("int8 avx512_vnni x2 threads").
bool countsOperations(QStringView precision);
// "232 GFLOP/s", "989 TFLOP/s", "1979 TFLOP/s", "20 PFLOP/s": GFLOP/s below 10,000 GFLOP/s, TFLOP/s below 10,000;
// "GOP/s", "TOP/s", "POP/s" for operations.
QString formatFlopRate(double gflops, bool operations = false);

}  // namespace ridgeline
