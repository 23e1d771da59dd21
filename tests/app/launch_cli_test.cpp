// `ridgeline ARGS...` never hangs: an unknown command word, an unknown option or a missing file is
// refused at once with exit status 2, and the window is only attempted for files that exist and a display
// that exists. Every run here would hang until the runner's time-out if the window opened instead.
#include "tests/app/cli_runner.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using ridgeline::test::CliRun;
using ridgeline::test::environmentWithoutDisplay;
using ridgeline::test::runRidgeline;

namespace {

const QStringList kCommandWords = {QStringLiteral("measure"), QStringLiteral("model"),  QStringLiteral("train"),
                                   QStringLiteral("catalog"), QStringLiteral("render"), QStringLiteral("import"),
                                   QStringLiteral("deck"),    QStringLiteral("export"), QStringLiteral("compare"),
                                   QStringLiteral("help")};

QString minimalSession()
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/minimal.json");
}

// Qt drawing offscreen: the window would show on no screen and wait forever.
QProcessEnvironment offscreenEnvironment()
{
    QProcessEnvironment environment = environmentWithoutDisplay();
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return environment;
}

void expectListsEveryCommand(const QString& text)
{
    for (const QString& word : kCommandWords)
        EXPECT_TRUE(text.contains(QStringLiteral("\n  ") + word + u' ')) << word.toStdString() << " missing in:\n"
                                                                         << text.toStdString();
}

}  // namespace

TEST(LaunchCli, AnUnknownCommandWordIsRefusedWithTheListOfCommands)
{
    // Even where the window could be shown (offscreen): a word that is no file is never taken for a session.
    const CliRun run = runRidgeline({QStringLiteral("frobnicate"), QStringLiteral("a.json"), QStringLiteral("b.json")},
                                    offscreenEnvironment());
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.err.startsWith(QStringLiteral("ridgeline: unknown command 'frobnicate'\n")))
        << run.err.toStdString();
    EXPECT_FALSE(run.err.contains(QStringLiteral("did you mean")));
    expectListsEveryCommand(run.err);
    EXPECT_TRUE(run.out.isEmpty());
}

TEST(LaunchCli, AMistypedCommandSuggestsTheNearestOne)
{
    const CliRun typo = runRidgeline({QStringLiteral("mesure"), QStringLiteral("--quick")}, offscreenEnvironment());
    EXPECT_EQ(typo.exitCode, 2);
    EXPECT_TRUE(typo.err.startsWith(QStringLiteral("ridgeline: unknown command 'mesure' (did you mean 'measure'?)\n")))
        << typo.err.toStdString();
    const CliRun prefix = runRidgeline({QStringLiteral("cat"), QStringLiteral("gpus")}, offscreenEnvironment());
    EXPECT_EQ(prefix.exitCode, 2);
    EXPECT_TRUE(prefix.err.contains(QStringLiteral("(did you mean 'catalog'?)"))) << prefix.err.toStdString();
}

TEST(LaunchCli, AMissingSessionFileOrAFolderIsRefusedByName)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString missing = dir.filePath(QStringLiteral("gone.json"));
    const CliRun gone = runRidgeline({missing}, offscreenEnvironment());
    EXPECT_EQ(gone.exitCode, 2);
    EXPECT_EQ(gone.err, QStringLiteral("ridgeline: ") + missing + QStringLiteral(": no such file\n"));

    // The second file is missing: nothing opens, not even the first.
    const CliRun second = runRidgeline({minimalSession(), missing}, offscreenEnvironment());
    EXPECT_EQ(second.exitCode, 2);
    EXPECT_EQ(second.err, QStringLiteral("ridgeline: ") + missing + QStringLiteral(": no such file\n"));

    const CliRun folder = runRidgeline({dir.path()}, offscreenEnvironment());
    EXPECT_EQ(folder.exitCode, 2);
    EXPECT_EQ(folder.err,
              QStringLiteral("ridgeline: ") + dir.path() + QStringLiteral(": is a folder, not a session file\n"));
}

TEST(LaunchCli, AnUnknownOptionIsRefused)
{
    const CliRun run = runRidgeline({QStringLiteral("--frobnicate")}, offscreenEnvironment());
    EXPECT_EQ(run.exitCode, 2);
    EXPECT_TRUE(run.err.startsWith(QStringLiteral("ridgeline: unknown option '--frobnicate'\n")));
    expectListsEveryCommand(run.err);
}

TEST(LaunchCli, TheWindowWithoutADisplayIsRefusedAtOnce)
{
    for (const QStringList& arguments : {QStringList{}, QStringList{minimalSession()}}) {
        const CliRun none = runRidgeline(arguments, environmentWithoutDisplay());
        EXPECT_EQ(none.exitCode, 2);
        EXPECT_TRUE(none.err.startsWith(QStringLiteral(
            "ridgeline: cannot open the window: there is no display (DISPLAY and WAYLAND_DISPLAY are not set).\n")))
            << none.err.toStdString();
        EXPECT_TRUE(none.err.contains(QStringLiteral("ridgeline measure --quick")));
        EXPECT_TRUE(none.err.contains(QStringLiteral("xvfb-run ridgeline")));

        const CliRun offscreen = runRidgeline(arguments, offscreenEnvironment());
        EXPECT_EQ(offscreen.exitCode, 2);
        EXPECT_TRUE(offscreen.err.startsWith(
            QStringLiteral("ridgeline: cannot open the window: QT_QPA_PLATFORM=offscreen draws on no screen")))
            << offscreen.err.toStdString();
    }
    QProcessEnvironment withOptions = environmentWithoutDisplay();
    withOptions.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("minimal:enable_fonts"));
    EXPECT_EQ(runRidgeline({minimalSession()}, withOptions).exitCode, 2);
}

TEST(LaunchCli, AnExistingSessionWithADisplayNamedGoesToTheWindow)
{
    // A display that does not exist: Qt's X11 platform fails to connect and ends the process. It proves the
    // launch went to the window (not refused by Ridgeline, not taken for a command), and never hangs.
    QProcessEnvironment environment = environmentWithoutDisplay();
    environment.insert(QStringLiteral("DISPLAY"), QStringLiteral(":97"));
    environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    const CliRun run = runRidgeline({minimalSession()}, environment);
    EXPECT_NE(run.exitCode, 0);
    EXPECT_FALSE(run.err.contains(QStringLiteral("ridgeline:"))) << run.err.toStdString();
    EXPECT_TRUE(run.err.contains(QStringLiteral("could not connect to display"))) << run.err.toStdString();
}

TEST(LaunchCli, HelpAndVersion)
{
    const CliRun help = runRidgeline({QStringLiteral("--help")}, environmentWithoutDisplay());
    EXPECT_EQ(help.exitCode, 0);
    EXPECT_TRUE(help.out.startsWith(QStringLiteral("Usage: ridgeline [SESSION.json ...]")));
    expectListsEveryCommand(help.out);
    EXPECT_EQ(runRidgeline({QStringLiteral("help")}).out, help.out);

    const CliRun measureHelp = runRidgeline({QStringLiteral("help"), QStringLiteral("measure")});
    EXPECT_EQ(measureHelp.exitCode, 0);
    EXPECT_EQ(measureHelp.out, runRidgeline({QStringLiteral("measure"), QStringLiteral("--help")}).out);
    EXPECT_TRUE(measureHelp.out.contains(QStringLiteral("--quick")));

    const CliRun unknownTopic = runRidgeline({QStringLiteral("help"), QStringLiteral("frobnicate")});
    EXPECT_EQ(unknownTopic.exitCode, 2);
    EXPECT_TRUE(unknownTopic.err.startsWith(QStringLiteral("ridgeline help: unknown command 'frobnicate'\n")));

    const CliRun version = runRidgeline({QStringLiteral("--version")}, environmentWithoutDisplay());
    EXPECT_EQ(version.exitCode, 0);
    EXPECT_TRUE(QRegularExpression(QStringLiteral("^ridgeline \\d+\\.\\d+\\.\\d+\\n$")).match(version.out).hasMatch())
        << version.out.toStdString();
}
