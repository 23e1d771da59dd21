// The clock chains on the core these tests run on. They time real instructions, so they run in the serial
// executable (no other test beside them) and give the machine a few tries: another guest on the same host can
// slow one chain's windows for a whole attempt, while a chain that does not run at its latency (Intel's folded
// small-immediate adds read 19 GHz) is wrong in every attempt.
#include "core/measure/clock/clock.h"

#include <QtGlobal>

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

using namespace ridgeline;

namespace {

constexpr int kAttempts = 5;

// What is wrong with one attempt, or an empty string if nothing is.
std::string clockProblems()
{
    std::ostringstream problems;
    const ClockJudgement j = measureClock(0.0, 0.0, 0.1);
    const ClockMeasurement& m = j.measurement;
    if (!(m.addChainGhz > kMinPlausibleClockGhz && m.mulChainGhz > kMinPlausibleClockGhz))
        problems << "a chain below " << kMinPlausibleClockGhz << " GHz; ";
    if (m.mulChainGhz > 0.0 && std::abs(m.addChainGhz / m.mulChainGhz - 1.0) > kClockChainAgreement)
        problems << "the chains disagree; ";
    if (m.doubtful)
        problems << "doubtful: " << m.doubt.toStdString() << "; ";
    if (m.tscGhz > 0.0 && !(j.ghz < kMaxClockOverNominal * m.tscGhz && j.ghz > kMinClockOverNominal * m.tscGhz))
        problems << "far from the TSC's " << m.tscGhz << " GHz; ";
    // The clock beside scalar FMAs is a clock too; turbo moves it between samples (the Xeon guest's was 1.11x its
    // plain chains a moment before).
    const double beside = measureClockBesideFma(Isa::Scalar, 0.05);
    if (!(beside < 1.2 * j.ghz && beside > 0.5 * j.ghz))
        problems << "beside FMAs " << beside << " GHz; ";
    if (problems.tellp() > 0)
        problems << "(add " << m.addChainGhz << ", imul " << m.mulChainGhz << ", clock " << j.ghz << " GHz)";
    return problems.str();
}

}  // namespace

TEST(ClockChains, ThisCoreRunsBothChainsAtOneClockNearItsReferences)
{
    // Whatever this CPU is: the two chains are different instructions, so they agree only if both run at
    // their documented latency. The best of many windows is immune to other processes slowing some down.
    // Not under an emulator (scripts/test-arm64 sets RIDGELINE_UNDER_EMULATOR): there the chains are the host's
    // translated code and an FMA costs its software emulation, so the adds beside it slow down with it (qemu-aarch64
    // read 0.23 "GHz" beside FMADD, 3.7 alone), and on a loaded host the add and eor chains read 36 % apart.
    if (const QByteArray emulator = qgetenv("RIDGELINE_UNDER_EMULATOR"); !emulator.isEmpty())
        GTEST_SKIP() << "the clock's timings are not checked under " << emulator.constData()
                     << ": its instruction timings are its own (the chains run in measure --quick all the same)";
    std::string attempts;
    for (int attempt = 1; attempt <= kAttempts; ++attempt) {
        const std::string problems = clockProblems();
        if (problems.empty())
            return;
        attempts += "attempt " + std::to_string(attempt) + ": " + problems + "\n";
    }
    ADD_FAILURE() << "no attempt of " << kAttempts << " read one plausible clock:\n" << attempts;
}
