// Comparing two sessions: what counts as a regression is a change of at least the threshold AND
// larger than the noise (the larger (max - min) / median of the two sides); ceilings are matched by what they
// measure, so two machines with different thread counts still compare their all-thread ceilings.
#include "core/session/session_compare.h"
#include "core/session/format/session_json.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <optional>

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

Session load(const char* name)
{
    Result<Session> loaded = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/") + QLatin1String(name));
    EXPECT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    return std::move(loaded).value();
}

const ComparisonRow& row(const SessionComparison& comparison, const QString& key)
{
    for (const ComparisonRow& r : comparison.rows)
        if (r.key == key)
            return r;
    ADD_FAILURE() << "no row " << key.toStdString();
    return comparison.rows.front();
}

// Sets a ceiling's value and a spread of `spreadPercent` (max - min over median) around it.
void setCeiling(ComputeCeiling& c, double gflops, double spreadPercent)
{
    c.gflops = gflops;
    c.spread = Spread{gflops * (1.0 - spreadPercent / 100.0), gflops, gflops};
}

}  // namespace

TEST(SessionCompare, ASessionAgainstItselfHasNothingToReport)
{
    const Session session = load("example.json");
    const SessionComparison comparison = compareSessions(session, session, 5.0);
    EXPECT_EQ(comparison.rows.size(),
              session.computeCeilings.size() + session.bandwidthCeilings.size() + session.kernels.size());
    EXPECT_EQ(comparison.count(ComparisonVerdict::Unchanged), static_cast<int>(comparison.rows.size()));
    EXPECT_FALSE(comparison.hasRegression());
    EXPECT_TRUE(comparison.notes.isEmpty()) << comparison.notes.join(u'|').toStdString();
}

TEST(SessionCompare, ARegressionMustExceedBothTheThresholdAndTheNoise)
{
    Session baseline = load("example.json");
    const QString key = baseline.computeCeilings.front().name;
    setCeiling(baseline.computeCeilings.front(), 100.0, 2.0);
    Session candidate = baseline;

    // -10 %, 2 % noise: a regression.
    setCeiling(candidate.computeCeilings.front(), 90.0, 2.0);
    SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    const auto find = [&](const SessionComparison& c) -> const ComparisonRow& {
        for (const ComparisonRow& r : c.rows)
            if (r.baseline && r.baseline->name == key)
                return r;
        ADD_FAILURE() << "no row for " << key.toStdString();
        return c.rows.front();
    };
    EXPECT_EQ(find(comparison).verdict, ComparisonVerdict::Regression);
    EXPECT_NEAR(find(comparison).changePercent, -10.0, 1e-9);
    EXPECT_NEAR(*find(comparison).noisePercent, 2.0, 1e-9);
    EXPECT_TRUE(comparison.hasRegression());
    EXPECT_EQ(comparison.count(ComparisonVerdict::Regression), 1);

    // -10 % but the new run spread by 15 %: within noise, not a regression.
    setCeiling(candidate.computeCeilings.front(), 90.0, 15.0);
    comparison = compareSessions(baseline, candidate, 5.0);
    EXPECT_EQ(find(comparison).verdict, ComparisonVerdict::WithinNoise);
    EXPECT_NEAR(*find(comparison).noisePercent, 15.0, 1e-9);
    EXPECT_FALSE(comparison.hasRegression());

    // -3 % with 1 % noise: beyond the noise, below the threshold.
    setCeiling(candidate.computeCeilings.front(), 97.0, 1.0);
    comparison = compareSessions(baseline, candidate, 5.0);
    EXPECT_EQ(find(comparison).verdict, ComparisonVerdict::Unchanged);
    // ... and a regression once the threshold is 2 %.
    EXPECT_EQ(find(compareSessions(baseline, candidate, 2.0)).verdict, ComparisonVerdict::Regression);

    // +10 %: an improvement, never a failure.
    setCeiling(candidate.computeCeilings.front(), 110.0, 1.0);
    comparison = compareSessions(baseline, candidate, 5.0);
    EXPECT_EQ(find(comparison).verdict, ComparisonVerdict::Improvement);
    EXPECT_FALSE(comparison.hasRegression());
}

TEST(SessionCompare, AKernelIsJudgedByItsGflopsWithItsTimeSpreadTurnedIntoGflops)
{
    Session baseline = load("example.json");
    Session candidate = baseline;
    KernelResult& k = candidate.kernels.front();
    // 25 % slower at the median, every repetition slower in proportion.
    k.seconds *= 1.25;
    k.spread = Spread{k.spread.min * 1.25, k.spread.median * 1.25, k.spread.max * 1.25};
    k.gflops /= 1.25;
    const SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    const ComparisonRow& r = row(comparison, baseline.kernels.front().name);
    EXPECT_EQ(r.section, ComparisonSection::Kernel);
    EXPECT_EQ(r.unit, QStringLiteral("GFLOP/s"));
    EXPECT_NEAR(r.changePercent, -20.0, 1e-9);
    const KernelResult& b = baseline.kernels.front();
    // Fastest time = highest GFLOP/s.
    EXPECT_NEAR(r.baseline->spread.max, b.gflops * b.seconds / b.spread.min, 1e-9);
    EXPECT_NEAR(r.baseline->spread.min, b.gflops * b.seconds / b.spread.max, 1e-9);
    EXPECT_EQ(r.verdict, (*r.noisePercent < 20.0 ? ComparisonVerdict::Regression : ComparisonVerdict::WithinNoise));
    EXPECT_LT(*r.noisePercent, 20.0) << "the example's first kernel is not that noisy";
}

TEST(SessionCompare, AllThreadCeilingsMatchAcrossMachinesWithOtherThreadCounts)
{
    Session baseline = load("example.json");
    Session candidate = baseline;
    candidate.machine.cpuModel = QStringLiteral("Another CPU");
    candidate.machine.cores = 64;
    for (ComputeCeiling& c : candidate.computeCeilings)
        if (c.threads == 2) {
            c.threads = 64;
            c.name.replace(QStringLiteral("x2"), QStringLiteral("x64"));
        }
    const SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    const ComparisonRow& all = row(comparison, QStringLiteral("fp32 avx512 all threads"));
    ASSERT_TRUE(all.baseline && all.candidate);
    EXPECT_EQ(all.baseline->name, QStringLiteral("fp32 avx512 x2 threads"));
    EXPECT_EQ(all.candidate->name, QStringLiteral("fp32 avx512 x64 threads"));
    EXPECT_EQ(comparison.count(ComparisonVerdict::OnlyInBaseline), 0);
    ASSERT_FALSE(comparison.notes.isEmpty());
    EXPECT_TRUE(comparison.notes.front().startsWith(QStringLiteral("different machines: ")))
        << comparison.notes.front().toStdString();
}

TEST(SessionCompare, WhatOnlyOneSideHasIsListedAndNeverAFailure)
{
    Session baseline = load("example.json");
    Session candidate = baseline;
    const QString gone = candidate.kernels.back().name;
    candidate.kernels.pop_back();
    KernelResult added = candidate.kernels.front();
    added.name = QStringLiteral("new kernel");
    candidate.kernels.push_back(added);
    candidate.bandwidthCeilings.erase(candidate.bandwidthCeilings.begin());
    const SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    EXPECT_EQ(row(comparison, gone).verdict, ComparisonVerdict::OnlyInBaseline);
    EXPECT_EQ(row(comparison, QStringLiteral("new kernel")).verdict, ComparisonVerdict::OnlyInNew);
    EXPECT_EQ(comparison.count(ComparisonVerdict::OnlyInBaseline), 2);
    EXPECT_EQ(comparison.count(ComparisonVerdict::OnlyInNew), 1);
    EXPECT_FALSE(comparison.hasRegression());
    // New-only rows come last in their section.
    EXPECT_EQ(comparison.rows.back().key, QStringLiteral("new kernel"));
}

TEST(SessionCompare, WithoutRecordedSpreadsTheThresholdAloneDecides)
{
    Session baseline = load("minimal.json");  // no spreads on its kernels
    Session candidate = baseline;
    KernelResult& k = candidate.kernels.front();
    k.gflops *= 0.9;
    k.seconds /= 0.9;
    const SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    const ComparisonRow& r = row(comparison, baseline.kernels.front().name);
    EXPECT_FALSE(r.noisePercent.has_value());
    EXPECT_EQ(r.verdict, ComparisonVerdict::Regression);
}

TEST(SessionCompare, KernelsOfTheSameNameAreMatchedInOrder)
{
    Session baseline = load("example.json");
    KernelResult twin = baseline.kernels.front();
    twin.gflops *= 2.0;
    baseline.kernels.push_back(twin);
    Session candidate = baseline;
    const SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    const QString name = baseline.kernels.front().name;
    const ComparisonRow& second = row(comparison, (name + QStringLiteral(" #2")));
    EXPECT_EQ(second.baseline->value, twin.gflops);
    EXPECT_EQ(second.verdict, ComparisonVerdict::Unchanged);
}

TEST(SessionCompare, QuickAndNoisyRunsAreNoted)
{
    Session baseline = load("example.json");
    Session candidate = baseline;
    candidate.quick = true;
    candidate.noisyMeasurements = {QStringLiteral("L1 bandwidth")};
    const SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    EXPECT_TRUE(comparison.notes.contains(QStringLiteral("the baseline is a full run, the new session a quick run")))
        << comparison.notes.join(u'|').toStdString();
    EXPECT_TRUE(comparison.notes.contains(QStringLiteral("the new session's machine was busy; noisy: L1 bandwidth")));
}

TEST(SessionCompare, JsonCarriesEveryRowAndTheCounts)
{
    Session baseline = load("example.json");
    Session candidate = baseline;
    setCeiling(baseline.computeCeilings.front(), 100.0, 1.0);
    setCeiling(candidate.computeCeilings.front(), 80.0, 1.0);
    const SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    const QJsonObject json = comparisonToJson(comparison);
    EXPECT_EQ(json.value(QStringLiteral("format")).toString(), QStringLiteral("ridgeline-comparison"));
    EXPECT_EQ(json.value(QStringLiteral("threshold_percent")).toDouble(), 5.0);
    EXPECT_TRUE(json.value(QStringLiteral("regression")).toBool());
    EXPECT_EQ(json.value(QStringLiteral("counts")).toObject().value(QStringLiteral("regression")).toInt(), 1);
    const QJsonArray rows = json.value(QStringLiteral("rows")).toArray();
    ASSERT_EQ(rows.size(), static_cast<qsizetype>(comparison.rows.size()));
    const QJsonObject first = rows.first().toObject();
    EXPECT_EQ(first.value(QStringLiteral("section")).toString(), QStringLiteral("compute"));
    EXPECT_EQ(first.value(QStringLiteral("verdict")).toString(), QStringLiteral("regression"));
    EXPECT_NEAR(first.value(QStringLiteral("change_percent")).toDouble(), -20.0, 1e-9);
    EXPECT_NEAR(first.value(QStringLiteral("noise_percent")).toDouble(), 1.0, 1e-9);
    EXPECT_EQ(first.value(QStringLiteral("baseline")).toObject().value(QStringLiteral("value")).toDouble(), 100.0);
    EXPECT_EQ(first.value(QStringLiteral("new"))
                  .toObject()
                  .value(QStringLiteral("spread"))
                  .toObject()
                  .value(QStringLiteral("min"))
                  .toDouble(),
              79.2);
}

TEST(SessionCompare, JsonWrittenARowAtATimeIsTheSameDocument)
{
    Session baseline = load("example.json");
    Session candidate = baseline;
    setCeiling(candidate.computeCeilings.front(), 80.0, 1.0);
    candidate.kernels.pop_back();
    const SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    const QJsonObject extra{{QStringLiteral("baseline"), QStringLiteral("a.json")},
                            {QStringLiteral("new"), QStringLiteral("b.json")}};
    QByteArray text;
    int pieces = 0;
    writeComparisonJson(comparison, extra, [&](const QByteArray& piece) {
        text += piece;
        ++pieces;
    });
    QJsonParseError error;
    const QJsonDocument written = QJsonDocument::fromJson(text, &error);
    ASSERT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString();
    QJsonObject expected = comparisonToJson(comparison);
    expected.insert(QStringLiteral("baseline"), QStringLiteral("a.json"));
    expected.insert(QStringLiteral("new"), QStringLiteral("b.json"));
    EXPECT_EQ(written.object(), expected);
    EXPECT_EQ(pieces, static_cast<int>(comparison.rows.size()) + 2);  // the head, each row, the end
    EXPECT_TRUE(text.endsWith("\n    ]\n}\n"));
}

TEST(SessionCompare, JsonOfNoRowsIsStillAnObject)
{
    const SessionComparison comparison;
    QByteArray text;
    writeComparisonJson(comparison, {}, [&](const QByteArray& piece) { text += piece; });
    const QJsonDocument written = QJsonDocument::fromJson(text);
    ASSERT_TRUE(written.isObject()) << text.toStdString();
    EXPECT_EQ(written.object(), comparisonToJson(comparison));
}

TEST(SessionCompare, ACeilingTheNewSessionHasTwiceIsMatchedToItsLastAndNeverListedAsNew)
{
    const Session baseline = load("example.json");
    Session candidate = baseline;
    ComputeCeiling again = candidate.computeCeilings.front();
    setCeiling(again, again.gflops * 0.5, 1.0);
    again.name += QStringLiteral(" again");
    candidate.computeCeilings.push_back(again);
    const SessionComparison comparison = compareSessions(baseline, candidate, 5.0);
    EXPECT_EQ(comparison.count(ComparisonVerdict::OnlyInNew), 0);
    EXPECT_EQ(comparison.rows.size(),
              baseline.computeCeilings.size() + baseline.bandwidthCeilings.size() + baseline.kernels.size());
    const ComparisonRow& first = comparison.rows.front();
    ASSERT_TRUE(first.candidate.has_value());
    EXPECT_EQ(first.candidate->name, again.name);
    EXPECT_EQ(first.verdict, ComparisonVerdict::Regression);
}

// `ridgeline compare` keeps only each session's figures and drops its kernels before it reads the other file.
TEST(SessionCompare, FiguresTakenFromSessionsCompareAsTheSessionsThemselves)
{
    const Session baseline = load("example.json");
    Session candidate = load("xeon-amx-2vcpu.json");
    candidate.kernels.push_back(candidate.kernels.front());  // a second kernel of a name: "... #2"
    candidate.kernels.front().gflops *= 0.5;
    candidate.quick = !baseline.quick;
    candidate.noisyMeasurements = {QStringLiteral("DRAM read")};
    const QJsonObject expected = comparisonToJson(compareSessions(baseline, candidate, 5.0));

    std::optional<Session> before = baseline;
    std::optional<Session> after = candidate;
    const ComparedSession beforeFigures = comparedSession(*before);
    const ComparedSession afterFigures = comparedSession(*after);
    before.reset();  // nothing of a session is read after its figures are taken
    after.reset();
    const SessionComparison fromFigures = compareSessions(beforeFigures, afterFigures, 5.0);
    EXPECT_EQ(comparisonToJson(fromFigures), expected);
    EXPECT_GT(fromFigures.count(ComparisonVerdict::OnlyInNew), 0);
    EXPECT_FALSE(fromFigures.notes.isEmpty());
}
