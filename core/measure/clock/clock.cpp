#include "core/measure/clock/clock.h"

#include "core/measure/clock/clock_chains.h"

#include <QLocale>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <vector>

namespace ridgeline {

namespace {

using Clock = std::chrono::steady_clock;

QString ghzText(double ghz)
{
    return QLocale::c().toString(ghz, 'f', 2) + QStringLiteral(" GHz");
}

// Each window lasts at least this long, so the steady clock's resolution is far below 1 %.
constexpr double kWindowSeconds = 0.0002;

// A chain timed in windows of at least kWindowSeconds: calibrate the trips once, then keep the fastest window.
class ChainTimer {
public:
    ChainTimer(std::function<void(std::uint64_t)> chain, double cyclesPerLink)
        : m_chain(std::move(chain)), m_cyclesPerLink(cyclesPerLink)
    {
        double elapsed = 0.0;
        while (elapsed < kWindowSeconds && m_trips < (1ULL << 40)) {
            m_trips *= 2;
            elapsed = window();
        }
    }
    // Times one window; returns its length in seconds.
    double window()
    {
        const auto start = Clock::now();
        m_chain(m_trips);
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        if (elapsed > 0.0)
            m_best =
                std::max(m_best, static_cast<double>(m_trips) * kChainLinksPerTrip * m_cyclesPerLink / elapsed / 1e9);
        return elapsed;
    }
    double bestGhz() const { return m_best; }

private:
    std::function<void(std::uint64_t)> m_chain;
    double m_cyclesPerLink;
    std::uint64_t m_trips = 64;
    double m_best = 0.0;
};

// Windows of each timer in turn until `seconds` have passed, so that all see the same clock: a core's clock
// moves by a few per cent over tenths of a second (turbo), which must not read as a disagreement.
void runInterleaved(std::vector<ChainTimer*> timers, double seconds)
{
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    do {
        for (ChainTimer* timer : timers)
            timer->window();
    } while (Clock::now() < deadline);
}

void addDoubt(ClockMeasurement& m, const QString& reason)
{
    m.doubtful = true;
    m.doubt = m.doubt.isEmpty() ? reason : m.doubt + QStringLiteral("; ") + reason;
}

}  // namespace

ClockJudgement judgeClock(const ClockReadings& r)
{
    ClockJudgement judgement;
    ClockMeasurement& m = judgement.measurement;
    m.addChainGhz = r.addChainGhz;
    m.mulChainGhz = r.mulChainGhz;
    m.tscGhz = r.tscGhz;
    if (r.cpufreqMaxGhz > 0.0) {
        m.reportedGhz = r.cpufreqMaxGhz;
        m.reportedSource = QStringLiteral("cpufreq cpuinfo_max_freq");
    } else if (r.cpuinfoGhz > 0.0) {
        m.reportedGhz = r.cpuinfoGhz;
        m.reportedSource = QStringLiteral("/proc/cpuinfo cpu MHz");
    }

    const double add = r.addChainGhz;
    const double mul = r.mulChainGhz;
    const QString addName = addChainDescription().name;
    const QString mulName = mulChainDescription().name;
    if (add > 0.0 && mul > 0.0) {
        const double disagreement = std::abs(add - mul) / std::min(add, mul);
        // A chain can only be fooled into running faster than its documented latency, so the lower one holds.
        judgement.ghz = disagreement <= kClockChainAgreement ? add : std::min(add, mul);
        m.method = (judgement.ghz == add ? addName : mulName) + QStringLiteral(", cross-checked by the ") +
                   (judgement.ghz == add ? mulName : addName);
        if (disagreement > kClockChainAgreement)
            addDoubt(m, QStringLiteral("the add chain reads %1 and the imul chain %2 (%3 % apart): one of them does "
                                       "not run at its documented latency on this core; the lower is used")
                            .arg(ghzText(add), ghzText(mul))
                            .arg(QLocale::c().toString(100.0 * disagreement, 'f', 0)));
    } else {
        judgement.ghz = std::max(add, mul);
        m.method = add > 0.0 ? addName : mulName;
        addDoubt(m, QStringLiteral("only one chain could be timed, so nothing cross-checks it"));
    }
    const double ghz = judgement.ghz;
    if (m.tscGhz > 0.0)
        m.method += QStringLiteral(" and the TSC");

    if (!(ghz >= kMinPlausibleClockGhz && ghz <= kMaxPlausibleClockGhz)) {
        addDoubt(m, QStringLiteral("%1 is outside %2..%3, where every core with FMA runs")
                        .arg(ghzText(ghz), ghzText(kMinPlausibleClockGhz), ghzText(kMaxPlausibleClockGhz)));
    }
    if (r.cpufreqMaxGhz > 0.0 && ghz > kMaxClockOverCpufreqMax * r.cpufreqMaxGhz) {
        addDoubt(
            m, QStringLiteral("%1 is %2x cpufreq's maximum of %3")
                   .arg(ghzText(ghz), QLocale::c().toString(ghz / r.cpufreqMaxGhz, 'f', 1), ghzText(r.cpufreqMaxGhz)));
    }
    // The nominal rate: the TSC when there is one, else what /proc/cpuinfo says.
    const double nominal = r.tscGhz > 0.0 ? r.tscGhz : r.cpuinfoGhz;
    const QString nominalName = r.tscGhz > 0.0 ? QStringLiteral("the TSC") : QStringLiteral("/proc/cpuinfo");
    if (nominal > 0.0 && (ghz > kMaxClockOverNominal * nominal || ghz < kMinClockOverNominal * nominal)) {
        addDoubt(m,
                 QStringLiteral("%1 is %2x the %3 rate of %4")
                     .arg(ghzText(ghz), QLocale::c().toString(ghz / nominal, 'f', 1), nominalName, ghzText(nominal)));
    }
    return judgement;
}

CeilingClock ceilingClock(double besideGhz, double plainGhz, const QString& besideWhat)
{
    CeilingClock result;
    const QString readings = QStringLiteral("the clock beside %1 read %2 against %3 without")
                                 .arg(besideWhat, ghzText(besideGhz), ghzText(plainGhz));
    if (!(plainGhz > 0.0)) {
        result.ghz = besideGhz;
        return result;
    }
    const double ratio = besideGhz / plainGhz;
    if (ratio >= kMinBesideOverPlain && ratio <= 1.1) {
        result.ghz = besideGhz;  // the same clock, or a frequency licence (AVX-512)
    } else if (ratio > 1.1 && ratio <= kMaxBesideOverPlain && besideGhz <= kMaxPlausibleClockGhz) {
        result.ghz = besideGhz;
        result.note = readings + QStringLiteral(
                                     ": the clock moved between the two (turbo or a busy host); the "
                                     "reading taken with the ceiling is used");
    } else {
        result.ghz = plainGhz;
        result.note = readings + (ratio < kMinBesideOverPlain
                                      ? QStringLiteral(": the add chain was starved of ports; the plain clock is used")
                                      : QStringLiteral(": not a clock; the plain clock is used"));
    }
    return result;
}

double measureClockBesideFma(Isa isa, double seconds)
{
    ChainTimer beside([isa](std::uint64_t trips) { runAddChainBesideFma(isa, trips); },
                      addChainDescription().cyclesPerLink);
    runInterleaved({&beside}, seconds);
    return beside.bestGhz();
}

double measureTscGhz(double seconds)
{
    if (!hasReferenceCounter())
        return 0.0;
    // Several windows, keeping the median ratio: an interruption between the two reads of a pair skews one.
    std::vector<double> rates;
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < deadline || rates.size() < 3) {
        const auto start = Clock::now();
        const std::uint64_t ticks0 = readReferenceCounter();
        while (std::chrono::duration<double>(Clock::now() - start).count() < 0.002) {
        }
        const std::uint64_t ticks1 = readReferenceCounter();
        const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
        rates.push_back(static_cast<double>(ticks1 - ticks0) / elapsed / 1e9);
    }
    std::nth_element(rates.begin(), rates.begin() + static_cast<std::ptrdiff_t>(rates.size() / 2), rates.end());
    return rates[rates.size() / 2];
}

ClockJudgement measureClock(double cpufreqMaxMhz, double cpuinfoMhz, double seconds)
{
    ChainTimer add([](std::uint64_t trips) { runAddChain(trips); }, addChainDescription().cyclesPerLink);
    ChainTimer mul([](std::uint64_t trips) { runMulChain(trips); }, mulChainDescription().cyclesPerLink);
    runInterleaved({&add, &mul}, seconds);
    ClockReadings readings;
    readings.addChainGhz = add.bestGhz();
    readings.mulChainGhz = mul.bestGhz();
    readings.tscGhz = measureTscGhz(0.01);
    readings.cpufreqMaxGhz = cpufreqMaxMhz / 1000.0;
    readings.cpuinfoGhz = cpuinfoMhz / 1000.0;
    return judgeClock(readings);
}

}  // namespace ridgeline
