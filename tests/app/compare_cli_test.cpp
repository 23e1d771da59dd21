// `ridgeline compare` and `ridgeline export`, run as the real executable: the exit status a CI job
// keys on (1 regression, 0 none, 2 bad input), the table and JSON it prints, and the CSV folder it writes.
#include "core/session/format/session_json.h"
#include "tests/app/cli_runner.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

namespace {

QString example()
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json");
}

// A copy of the example whose all-thread fp32 AVX-512 ceiling is `factor` times the original, every repetition
// scaled alike (so its own spread stays that of the example, about 3.5 %).
QString scaledCopy(const QTemporaryDir& dir, const char* name, double factor)
{
    Session session = loadSession(example()).value();
    for (ComputeCeiling& c : session.computeCeilings)
        if (c.name == QLatin1String("fp32 avx512 x2 threads")) {
            c.gflops *= factor;
            c.spread = Spread{c.spread.min * factor, c.spread.median * factor, c.spread.max * factor};
        }
    const QString path = dir.filePath(QLatin1String(name));
    EXPECT_FALSE(saveSession(session, path).has_value());
    return path;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

TEST(CompareCli, NothingRegressedExitsZero)
{
    const CliRun run = runRidgeline({QStringLiteral("compare"), example(), example()});
    EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.err.isEmpty()) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("0 regressed, 0 improved, 0 within noise, 32 unchanged")))
        << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("compute ceilings (GFLOP/s)")));
    EXPECT_TRUE(run.out.contains(QStringLiteral("bandwidth ceilings (GB/s)")));
    EXPECT_TRUE(run.out.contains(QStringLiteral("kernels (GFLOP/s)")));
}

TEST(CompareCli, ARegressionBeyondThresholdAndNoiseExitsOne)
{
    QTemporaryDir dir;
    const QString slower = scaledCopy(dir, "slower.json", 0.8);
    const CliRun run = runRidgeline({QStringLiteral("compare"), example(), slower});
    EXPECT_EQ(run.exitCode, 1) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("1 regressed, 0 improved"))) << run.out.toStdString();
    // The row: key, both sides with their spreads, change, noise, verdict.
    EXPECT_TRUE(run.out.contains(QRegularExpression(QStringLiteral(
        "\\nfp32 avx512 all threads +229\\.7 \\(222\\.8\\.\\.230\\.8\\) +183\\.8 \\(178\\.2\\.\\.184\\.6\\) "
        "+-20\\.0 % +3\\.5 % +REGRESSION\\n"))))
        << run.out.toStdString();

    // The same change in the other direction is an improvement: exit 0.
    const CliRun back = runRidgeline({QStringLiteral("compare"), slower, example()});
    EXPECT_EQ(back.exitCode, 0);
    EXPECT_TRUE(back.out.contains(QStringLiteral("0 regressed, 1 improved"))) << back.out.toStdString();

    // Above the threshold: not counted.
    const CliRun lenient = runRidgeline(
        {QStringLiteral("compare"), example(), slower, QStringLiteral("--threshold"), QStringLiteral("25%")});
    EXPECT_EQ(lenient.exitCode, 0) << lenient.out.toStdString();
}

TEST(CompareCli, AChangeInsideTheNoiseIsNotARegression)
{
    QTemporaryDir dir;
    // -3 %: beyond a 2 % threshold but inside the example's 3.5 % spread.
    const QString slightly = scaledCopy(dir, "slightly.json", 0.97);
    const CliRun run = runRidgeline(
        {QStringLiteral("compare"), example(), slightly, QStringLiteral("--threshold"), QStringLiteral("2")});
    EXPECT_EQ(run.exitCode, 0) << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("0 regressed, 0 improved, 1 within noise"))) << run.out.toStdString();
}

TEST(CompareCli, JsonSaysTheSameAndKeepsTheExitStatus)
{
    QTemporaryDir dir;
    const QString slower = scaledCopy(dir, "slower.json", 0.8);
    const CliRun run = runRidgeline({QStringLiteral("compare"), example(), slower, QStringLiteral("--json")});
    EXPECT_EQ(run.exitCode, 1);
    QJsonParseError error;
    const QJsonObject json = QJsonDocument::fromJson(run.out.toUtf8(), &error).object();
    ASSERT_EQ(error.error, QJsonParseError::NoError) << run.out.toStdString();
    EXPECT_EQ(json.value(QStringLiteral("baseline")).toString(), example());
    EXPECT_EQ(json.value(QStringLiteral("new")).toString(), slower);
    EXPECT_TRUE(json.value(QStringLiteral("regression")).toBool());
    EXPECT_EQ(json.value(QStringLiteral("counts")).toObject().value(QStringLiteral("regression")).toInt(), 1);
    int regressions = 0;
    for (const QJsonValue& row : json.value(QStringLiteral("rows")).toArray())
        if (row.toObject().value(QStringLiteral("verdict")).toString() == QLatin1String("regression")) {
            ++regressions;
            EXPECT_EQ(row.toObject().value(QStringLiteral("key")).toString(),
                      QStringLiteral("fp32 avx512 all threads"));
            EXPECT_NEAR(row.toObject().value(QStringLiteral("change_percent")).toDouble(), -20.0, 1e-9);
        }
    EXPECT_EQ(regressions, 1);
}

TEST(CompareCli, BadInputExitsTwoNamingTheFileAndTheField)
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("missing.json"));
    const CliRun gone = runRidgeline({QStringLiteral("compare"), example(), missing});
    EXPECT_EQ(gone.exitCode, 2);
    EXPECT_EQ(gone.err, QStringLiteral("ridgeline compare: ") + missing + QStringLiteral(": no such file\n"));

    const QString bad = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bad/truncated.json");
    const CliRun corrupt = runRidgeline({QStringLiteral("compare"), bad, example()});
    EXPECT_EQ(corrupt.exitCode, 2);
    EXPECT_TRUE(corrupt.err.startsWith(QStringLiteral("ridgeline compare: ") + bad + QStringLiteral(": ")))
        << corrupt.err.toStdString();
    EXPECT_EQ(corrupt.err.count(u'\n'), 1) << "one line";

    for (const char* threshold : {"-1", "abc", "nan", "1e9"}) {
        const CliRun run = runRidgeline(
            {QStringLiteral("compare"), example(), example(), QStringLiteral("--threshold"), QLatin1String(threshold)});
        EXPECT_EQ(run.exitCode, 2) << threshold;
        EXPECT_TRUE(run.err.startsWith(QStringLiteral("ridgeline compare: --threshold takes a percentage")));
    }
    EXPECT_EQ(runRidgeline({QStringLiteral("compare"), example()}).exitCode, 2);
    EXPECT_EQ(runRidgeline({QStringLiteral("compare"), example(), example(), QStringLiteral("--bogus")}).exitCode, 2);
}

TEST(ExportCli, WritesTheTablesAndSaysWhat)
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("csv"));
    const CliRun run = runRidgeline({QStringLiteral("export"), example(), QStringLiteral("--csv"), folder});
    ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("wrote ") + folder + QStringLiteral("/ceilings.csv (11 rows)\n")))
        << run.out.toStdString();
    EXPECT_TRUE(run.out.contains(QStringLiteral("/kernels.csv (")));
    EXPECT_TRUE(run.out.contains(QStringLiteral("/bandwidth_curve.csv (")));
    EXPECT_TRUE(run.out.contains(QStringLiteral("/kernel_levels.csv (0 rows)")));
    EXPECT_TRUE(readAll(QDir(folder).filePath(QStringLiteral("kernels.csv"))).startsWith("name,kind,size,"));
}

TEST(ExportCli, ABadSessionWritesNothing)
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("csv"));
    const QString bad = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bad/truncated.json");
    const CliRun run = runRidgeline({QStringLiteral("export"), bad, QStringLiteral("--csv"), folder});
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_TRUE(run.err.startsWith(QStringLiteral("ridgeline export: ") + bad + QStringLiteral(": ")));
    EXPECT_TRUE(run.err.endsWith(QStringLiteral("\nnothing was written\n")));
    EXPECT_FALSE(QFileInfo::exists(folder));
    EXPECT_EQ(runRidgeline({QStringLiteral("export"), example()}).exitCode, 2);
    EXPECT_EQ(runRidgeline({QStringLiteral("export"), QStringLiteral("--csv"), folder}).exitCode, 2);
}
