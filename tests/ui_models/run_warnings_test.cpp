// Honest warnings after a run: each condition a session can have gives its part of the one message,
// and a clean session gives none.

#include "ui/models/run_warnings.h"
#include "core/measure/run/load.h"
#include "tests/ui_models/test_session.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

int countOf(const std::vector<RunWarning>& warnings, RunWarningKind kind)
{
    return static_cast<int>(
        std::count_if(warnings.begin(), warnings.end(), [&](const RunWarning& w) { return w.kind == kind; }));
}

KernelResult& kernelNamed(Session& s, const QString& name)
{
    return *std::find_if(s.kernels.begin(), s.kernels.end(), [&](const KernelResult& k) { return k.name == name; });
}

}  // namespace

TEST(RunWarnings, AQuietRunOnAnIdleMachineHasNothingToSay)
{
    const std::vector<RunWarning> warnings = runWarnings(fixtures::zen4Session(), RunContext{0.1, 2});
    EXPECT_TRUE(warnings.empty()) << runWarningsMessage(warnings).toStdString();
    EXPECT_TRUE(runWarningsMessage(warnings).isEmpty());
}

TEST(RunWarnings, AKernelAboveItsComputeRoofIsNamedWithItsFigures)
{
    Session s = fixtures::zen4Session();
    KernelResult& k = kernelNamed(s, QStringLiteral("sgemm 4096"));
    k.gflops = 300.0;  // the fp32 roof is 230
    const std::vector<RunWarning> warnings = runWarnings(s);
    ASSERT_EQ(countOf(warnings, RunWarningKind::AboveRoof), 1);
    EXPECT_TRUE(warnings.front().text.contains(QStringLiteral("sgemm 4096")));
    EXPECT_TRUE(warnings.front().text.contains(QStringLiteral("230")));
    EXPECT_EQ(warnings.size(), 1u);
}

TEST(RunWarnings, Fp32CloseToFp64AtOneWidthIsSuspicious)
{
    Session s = fixtures::zen4Session();
    for (ComputeCeiling& c : s.computeCeilings)
        if (c.precision == QLatin1String("fp64"))
            c.gflops = 210.0;  // fp32 is 230: 1.1x where the vector width says 2x
    const std::vector<RunWarning> warnings = runWarnings(s);
    ASSERT_EQ(countOf(warnings, RunWarningKind::PrecisionRatio), 1);
    EXPECT_TRUE(warnings.front().text.contains(QStringLiteral("1.10x")));
}

TEST(RunWarnings, WideSpreadsOfCeilingsAndKernelsAreListed)
{
    Session s = fixtures::zen4Session();
    s.noisyMeasurements = {QStringLiteral("fp32 avx512 x2")};
    KernelResult& k = kernelNamed(s, QStringLiteral("add 4096"));
    k.spread = {k.seconds * 0.8, k.seconds, k.seconds * 1.4};  // 60 % apart
    const std::vector<RunWarning> warnings = runWarnings(s);
    ASSERT_EQ(countOf(warnings, RunWarningKind::WideSpread), 2);
    EXPECT_TRUE(warnings[0].text.contains(QStringLiteral("fp32 avx512 x2")));
    EXPECT_TRUE(warnings[1].text.contains(QStringLiteral("add 4096")));
    EXPECT_TRUE(warnings[1].text.contains(QStringLiteral("60 %")));
}

TEST(RunWarnings, ABusyMachineFromTheLoadFindingOrTheLoadAverage)
{
    Session s = fixtures::zen4Session();
    s.findings.push_back({kLoadFindingSubject, QStringLiteral("doubtful"),
                          QStringLiteral("other processes took the CPUs during 5 of the 20 steps")});
    std::vector<RunWarning> warnings = runWarnings(s, RunContext{0.2, 2});
    ASSERT_EQ(countOf(warnings, RunWarningKind::BusyMachine), 1);
    EXPECT_TRUE(warnings.front().text.contains(QStringLiteral("5 of the 20")));

    // A load average of 12 on 2 CPUs when the run started, on an otherwise clean session.
    warnings = runWarnings(fixtures::zen4Session(), RunContext{12.0, 2});
    ASSERT_EQ(countOf(warnings, RunWarningKind::BusyMachine), 1);
    EXPECT_TRUE(warnings.front().text.contains(QStringLiteral("12")));
    EXPECT_TRUE(warnings.front().text.contains(QStringLiteral("2 CPUs")));
    // Below half a CPU's worth per CPU it is not called busy; without a reading nothing is said.
    EXPECT_TRUE(runWarnings(fixtures::zen4Session(), RunContext{0.9, 2}).empty());
    EXPECT_TRUE(runWarnings(fixtures::zen4Session(), RunContext{std::nullopt, 2}).empty());
}

TEST(RunWarnings, EverythingAtOnceMakesOneMessageWithOneHeadingPerKind)
{
    Session s = fixtures::zen4Session();
    for (KernelResult& k : s.kernels)
        if (k.kind == QLatin1String("sgemm"))
            k.gflops = 400.0;  // four kernels above the roof
    for (ComputeCeiling& c : s.computeCeilings)
        if (c.precision == QLatin1String("fp64"))
            c.gflops = 220.0;
    s.noisyMeasurements = {QStringLiteral("DRAM bandwidth")};
    const std::vector<RunWarning> warnings = runWarnings(s, RunContext{4.0, 2});
    const QString message = runWarningsMessage(warnings);
    EXPECT_TRUE(message.contains(QStringLiteral("4 kernels are above their roofs")));
    EXPECT_TRUE(message.contains(QStringLiteral("and 1 more"))) << "at most three examples of a kind";
    EXPECT_TRUE(message.contains(QStringLiteral("fp32 is not about twice fp64")));
    EXPECT_TRUE(message.contains(QStringLiteral("Repetitions spread widely")));
    EXPECT_TRUE(message.contains(QStringLiteral("The machine was busy")));
    EXPECT_TRUE(message.contains(QStringLiteral("measure again")));
    // Kinds in a fixed order: the physics first, the circumstances last.
    EXPECT_LT(message.indexOf(QStringLiteral("above their roofs")), message.indexOf(QStringLiteral("busy")));
}
