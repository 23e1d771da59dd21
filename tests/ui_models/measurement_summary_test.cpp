// The Measurement dock's one line, from real sessions: an Intel Xeon guest with AMX whose session holds five
// impossible results (ceilings above their peak), a quiet measurement, and an import with no measurement.
#include "ui/models/measurement_summary.h"
#include "core/session/format/session_json.h"
#include "tests/ui_models/test_session.h"

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

Session load(const char* name)
{
    const Result<Session> s = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/") + QLatin1String(name));
    EXPECT_TRUE(s.ok());
    return s.ok() ? s.value() : Session{};
}

}  // namespace

TEST(MeasurementSummary, TheClockBothChainsAndEveryImpossibleResultAreCountedAndColourTheLine)
{
    const MeasurementSummary xeon = summarizeMeasurement(load("xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.measured);
    EXPECT_TRUE(xeon.headline.startsWith(QStringLiteral("Clock 3.59 GHz (add chain 3.59 GHz, imul chain 3.69 GHz)")))
        << xeon.headline.toStdString();
    EXPECT_TRUE(xeon.headline.contains(QStringLiteral("5 impossible results"))) << xeon.headline.toStdString();
    EXPECT_EQ(xeon.severity, MeasurementSummary::Severity::Impossible);
}

TEST(MeasurementSummary, ADoubtfulClockAndSkippedExperimentsAreSaidAndAQuietRunPassesEveryCheck)
{
    Session session = load("xeon-amx-2vcpu.json");
    session.findings.clear();
    session.noisyMeasurements.clear();
    EXPECT_TRUE(summarizeMeasurement(session).headline.endsWith(QStringLiteral("every check passed")));
    EXPECT_EQ(summarizeMeasurement(session).severity, MeasurementSummary::Severity::Fine);

    session.machine.clock.doubtful = true;
    session.machine.clock.doubt = QStringLiteral("the add chain reads 19.1 GHz, more than 7 GHz");
    session.skipped.push_back({QStringLiteral("fusion"), QStringLiteral("needs 80 MiB of memory")});
    const MeasurementSummary doubtful = summarizeMeasurement(session);
    EXPECT_TRUE(doubtful.headline.contains(QStringLiteral("doubtful: the add chain reads 19.1 GHz")));
    EXPECT_TRUE(doubtful.headline.contains(QStringLiteral("1 not measured")));
    EXPECT_EQ(doubtful.severity, MeasurementSummary::Severity::Doubtful);
}

TEST(MeasurementSummary, AnImportHasNoMeasurementToReport)
{
    Session imported;
    imported.kernels.push_back(KernelResult{});
    const MeasurementSummary summary = summarizeMeasurement(imported);
    EXPECT_FALSE(summary.measured);
    EXPECT_TRUE(summary.headline.contains(QStringLiteral("No measurement")));
}
