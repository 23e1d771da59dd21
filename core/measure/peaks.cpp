#include "core/measure/peaks.h"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <map>

namespace ridgeline {

namespace {

QString number(double value, int decimals)
{
    return QLocale::c().toString(value, 'f', decimals);
}

QString rateText(const FmaRate& rate)
{
    return rate.min == rate.max ? number(rate.max, rate.max < 1.0 ? 2 : 0)
                                : number(rate.min, 0) + QStringLiteral(" to ") + number(rate.max, 0);
}

// fp32 does this many times the FLOPs of fp64 per FMA instruction at one vector width; a measured ratio
// this far off means one of the two runs was not what it claims.
constexpr double kPrecisionRatioTolerance = 0.25;
// A kernel may sit this far above a roof before it is called impossible (roofs are best repetitions,
// kernels medians, so they are normally well below).
constexpr double kAboveRoofTolerance = 0.10;

}  // namespace

double snapFmaPerCycle(double measured)
{
    if (!(measured > 0.0))
        return 0.0;
    double best = 1.0;
    auto consider = [&](double candidate) {
        if (std::abs(std::log(measured / candidate)) < std::abs(std::log(measured / best)))
            best = candidate;
    };
    for (int k = -6; k <= 3; ++k)
        consider(std::ldexp(1.0, k));
    consider(3.0);
    return best;
}

PeakAssessment assessPeak(const QString& ceilingName, double gflops, int threads, double clockGhz, Isa isa,
                          Precision precision, const CoreModel& core)
{
    PeakAssessment result;
    const double perFma = flopsPerFma(isa, precision);
    if (!(clockGhz > 0.0) || threads < 1 || !(gflops > 0.0))
        return result;
    result.flopsPerCycle = gflops / threads / clockGhz;
    const double measuredFma = result.flopsPerCycle / perFma;
    const double snapped = snapFmaPerCycle(measuredFma);
    const FmaRate rate = core.rate(isa);
    auto finding = [&](const char* kind, const QString& message) {
        result.findings.push_back({ceilingName, QString::fromLatin1(kind), message});
    };

    if (!rate.known()) {
        result.fmaPerCycle = snapped;
        result.basis = QStringLiteral("measured (%1 has no entry for %2)").arg(core.name, isaName(isa));
    } else if (snapped > rate.max) {
        result.fmaPerCycle = snapped;
        result.basis = QStringLiteral("measured, above the table (%1: %2 per cycle)").arg(core.name, rateText(rate));
        finding("impossible", QStringLiteral("measured %1 %2 FMA instructions per cycle per core, but %3 starts at "
                                             "most %4: the clock reads low or the core is not what it says")
                                  .arg(number(measuredFma, 2), isaName(isa), core.name, rateText(rate)));
    } else if (snapped < rate.min) {
        result.fmaPerCycle = rate.min;
        result.basis = QStringLiteral("table: %1 (%2 per cycle)").arg(core.name, rateText(rate));
        finding("note", QStringLiteral("reached %1 of the %2 %3 FMA instructions per cycle per core that %4 has: "
                                       "threads may share a core, or the machine was busy")
                            .arg(number(measuredFma, 2), rateText(rate), isaName(isa), core.name));
    } else {
        result.fmaPerCycle = snapped;
        result.basis =
            rate.min == rate.max
                ? QStringLiteral("table: %1 (%2 per cycle), confirmed by the measurement")
                      .arg(core.name, rateText(rate))
                : QStringLiteral("measured, within the table's %2 per cycle for %1").arg(core.name, rateText(rate));
    }
    result.theoreticalGflops = threads * clockGhz * result.fmaPerCycle * perFma;
    if (gflops > (1.0 + kAboveTheoreticalTolerance) * result.theoreticalGflops) {
        finding("impossible", QStringLiteral("%1 GFLOP/s is %2 % of its theoretical peak of %3 GFLOP/s")
                                  .arg(number(gflops, 1), number(100.0 * gflops / result.theoreticalGflops, 0),
                                       number(result.theoreticalGflops, 1)));
    }
    return result;
}

std::vector<Finding> crossCheckSession(const Session& session)
{
    std::vector<Finding> findings;
    // fp32 against fp64 of the same ISA and thread count.
    std::map<std::pair<QString, int>, std::pair<const ComputeCeiling*, const ComputeCeiling*>> pairs;
    for (const ComputeCeiling& c : session.computeCeilings) {
        auto& pair = pairs[{c.isa, c.threads}];
        if (c.precision == QLatin1String("fp32"))
            pair.first = &c;
        else if (c.precision == QLatin1String("fp64"))
            pair.second = &c;
    }
    for (const auto& [key, pair] : pairs) {
        const auto [fp32, fp64] = pair;
        if (!fp32 || !fp64 || !(fp64->gflops > 0.0))
            continue;
        // The ISA's lane counts say what to expect: 2x for vectors, 1x for scalar.
        const bool scalar = key.first == isaName(Isa::Scalar);
        const double expected = scalar ? 1.0 : 2.0;
        const double ratio = fp32->gflops / fp64->gflops;
        if (std::abs(ratio / expected - 1.0) > kPrecisionRatioTolerance) {
            findings.push_back({fp32->name, QStringLiteral("impossible"),
                                QStringLiteral("fp32 is %1x fp64 at the same vector width (%2 threads); expected "
                                               "about %3x: one of the two runs was disturbed")
                                    .arg(number(ratio, 2), QString::number(key.second), number(expected, 0))});
        }
    }
    // Kernels above their roofs: the best compute ceiling of their precision, and their intensity times the
    // fastest memory level.
    std::map<QString, double> bestCompute;
    for (const ComputeCeiling& c : session.computeCeilings)
        bestCompute[c.precision] = std::max(bestCompute[c.precision], c.gflops);
    double fastestMemory = 0.0;
    for (const BandwidthCeiling& b : session.bandwidthCeilings)
        fastestMemory = std::max(fastestMemory, b.gbps);
    for (const KernelResult& k : session.kernels) {
        if (!(k.gflops > 0.0))
            continue;
        const auto compute = bestCompute.find(k.precision);
        if (compute != bestCompute.end() && compute->second > 0.0 &&
            k.gflops > (1.0 + kAboveRoofTolerance) * compute->second) {
            findings.push_back({k.name, QStringLiteral("impossible"),
                                QStringLiteral("%1 GFLOP/s is above the best %2 compute ceiling (%3 GFLOP/s)")
                                    .arg(number(k.gflops, 1), k.precision, number(compute->second, 1))});
        }
        const double memoryRoof = k.intensity * fastestMemory;
        if (fastestMemory > 0.0 && k.intensity > 0.0 && k.gflops > (1.0 + kAboveRoofTolerance) * memoryRoof) {
            findings.push_back({k.name, QStringLiteral("impossible"),
                                QStringLiteral("%1 GFLOP/s is above intensity x the fastest memory level "
                                               "(%2 FLOP/byte x %3 GB/s = %4 GFLOP/s)")
                                    .arg(number(k.gflops, 1), number(k.intensity, 3), number(fastestMemory, 1),
                                         number(memoryRoof, 1))});
        }
    }
    return findings;
}

}  // namespace ridgeline
