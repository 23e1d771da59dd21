#include "core/measure/compute/peaks.h"

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

// "2", "1 to 2", "1/16" (one per 16 cycles).
QString rateNumber(double rate)
{
    if (rate > 0.0 && rate < 1.0 && std::abs(1.0 / rate - std::round(1.0 / rate)) < 1e-9)
        return QStringLiteral("1/") + number(1.0 / rate, 0);
    return number(rate, rate < 1.0 ? 2 : 0);
}

QString rateText(const FmaRate& rate)
{
    return rate.min == rate.max ? rateNumber(rate.max)
                                : rateNumber(rate.min) + QStringLiteral(" to ") + rateNumber(rate.max);
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

PeakSubject fmaPeakSubject(Isa isa, Precision precision, const CoreModel& core)
{
    PeakSubject subject;
    subject.opsPerInstruction = flopsPerFma(isa, precision);
    subject.rate = core.rate(isa);
    subject.core = core.name;
    subject.entry = isaName(isa);
    subject.instruction = isaName(isa) + QStringLiteral(" FMA");
    return subject;
}

PeakAssessment assessPeak(const QString& ceilingName, double gflops, int threads, double clockGhz, Isa isa,
                          Precision precision, const CoreModel& core)
{
    return assessPeak(ceilingName, gflops, threads, clockGhz, fmaPeakSubject(isa, precision, core));
}

CeilingClock peakClock(double gflops, int threads, double besideGhz, double plainGhz, const QString& besideWhat,
                       const PeakSubject& subject)
{
    CeilingClock clock = ceilingClock(besideGhz, plainGhz, besideWhat);
    if (!subject.rate.known() || !(gflops > 0.0) || threads < 1 || !(subject.opsPerInstruction > 0.0))
        return clock;
    const double mostPerGhz = threads * subject.rate.max * subject.opsPerInstruction;
    const auto explains = [&](double ghz) { return gflops <= (1.0 + kAboveTheoreticalTolerance) * mostPerGhz * ghz; };
    if (explains(clock.ghz) || !(plainGhz > clock.ghz) || !explains(plainGhz))
        return clock;
    const double needed = gflops / threads / clock.ghz / subject.opsPerInstruction;
    clock.note = QStringLiteral(
                     "the clock beside %1 read %2 GHz, at which the ceiling would have started %3 %4 instructions per "
                     "cycle per core, more than the %5 %6 starts: the adds lost cycles to the unit's instructions; "
                     "the plain clock, %7 GHz, is used")
                     .arg(besideWhat, number(besideGhz, 2), number(needed, 2), subject.instruction,
                          rateText(subject.rate), subject.core, number(plainGhz, 2));
    clock.ghz = plainGhz;
    return clock;
}

PeakAssessment assessPeak(const QString& ceilingName, double gflops, int threads, double clockGhz,
                          const PeakSubject& subject)
{
    PeakAssessment result;
    if (!(clockGhz > 0.0) || threads < 1 || !(gflops > 0.0) || !(subject.opsPerInstruction > 0.0))
        return result;
    result.flopsPerCycle = gflops / threads / clockGhz;
    const double measured = result.flopsPerCycle / subject.opsPerInstruction;
    const double snapped = snapFmaPerCycle(measured);
    const FmaRate& rate = subject.rate;
    auto finding = [&](const char* kind, const QString& message) {
        result.findings.push_back({ceilingName, QString::fromLatin1(kind), message});
    };

    if (!rate.known()) {
        result.fmaPerCycle = snapped;
        result.basis = QStringLiteral("measured (%1 has no entry for %2)").arg(subject.core, subject.entry);
    } else if (snapped > rate.max) {
        result.fmaPerCycle = snapped;
        result.basis = QStringLiteral("measured, above the table (%1: %2 per cycle)").arg(subject.core, rateText(rate));
        finding("impossible",
                QStringLiteral("measured %1 %2 instructions per cycle per core, but %3 starts at "
                               "most %4: the clock reads low or the core is not what it says")
                    .arg(number(measured, measured < 0.1 ? 3 : 2), subject.instruction, subject.core, rateText(rate)));
    } else if (snapped < rate.min) {
        result.fmaPerCycle = rate.min;
        result.basis = QStringLiteral("table: %1 (%2 per cycle)").arg(subject.core, rateText(rate));
        finding("note",
                QStringLiteral("reached %1 of the %2 %3 instructions per cycle per core that %4 has: "
                               "threads may share a core, or the machine was busy")
                    .arg(number(measured, measured < 0.1 ? 3 : 2), rateText(rate), subject.instruction, subject.core));
    } else {
        result.fmaPerCycle = snapped;
        result.basis =
            rate.min == rate.max
                ? QStringLiteral("table: %1 (%2 per cycle), confirmed by the measurement")
                      .arg(subject.core, rateText(rate))
                : QStringLiteral("measured, within the table's %2 per cycle for %1").arg(subject.core, rateText(rate));
    }
    result.theoreticalGflops = threads * clockGhz * result.fmaPerCycle * subject.opsPerInstruction;
    if (gflops > (1.0 + kAboveTheoreticalTolerance) * result.theoreticalGflops) {
        finding("impossible", QStringLiteral("%1 %4 is %2 % of its theoretical peak of %3 %4")
                                  .arg(number(gflops, 1), number(100.0 * gflops / result.theoreticalGflops, 0),
                                       number(result.theoreticalGflops, 1), subject.rateUnit));
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
    // Each memory level is faster than the one behind it on every CPU; one that is not was measured while it
    // lost its core (or the level was mislabelled).
    const BandwidthCeiling* faster = nullptr;
    for (const QString& level :
         {QStringLiteral("L1"), QStringLiteral("L2"), QStringLiteral("L3"), QStringLiteral("DRAM")}) {
        const auto it = std::find_if(session.bandwidthCeilings.begin(), session.bandwidthCeilings.end(),
                                     [&](const BandwidthCeiling& b) { return b.level == level; });
        if (it == session.bandwidthCeilings.end())
            continue;
        if (faster && !(faster->gbps > it->gbps)) {
            findings.push_back({faster->level + QStringLiteral(" bandwidth"), QStringLiteral("impossible"),
                                QStringLiteral("%1 reads %2 GB/s, no more than %3's %4 GB/s: a nearer level is "
                                               "always faster; that run was disturbed")
                                    .arg(faster->level, number(faster->gbps, 1), it->level, number(it->gbps, 1))});
        }
        faster = &*it;
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
