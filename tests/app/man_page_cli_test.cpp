// `ridgeline help --man`, the manual page the Debian package installs: written from the commands'
// own --help, so every option of every command is on it, and groff reads it without a warning.
#include "tests/app/cli_runner.h"

#include <QRegularExpression>
#include <QStandardPaths>

#include <gtest/gtest.h>

using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

namespace {

const QStringList kCommands = {QStringLiteral("measure"), QStringLiteral("model"),  QStringLiteral("train"),
                               QStringLiteral("catalog"), QStringLiteral("render"), QStringLiteral("import"),
                               QStringLiteral("deck"),    QStringLiteral("export"), QStringLiteral("compare")};

// "--out", "--gpu-format" ... as a command's --help lists them (the generic --help and --help-all left out).
QStringList optionsInHelp(const QString& help)
{
    QStringList options;
    static const QRegularExpression option(QStringLiteral("^  (?:-\\w, )?--([\\w-]+)"),
                                           QRegularExpression::MultilineOption);
    for (const QRegularExpressionMatch& match : option.globalMatch(help))
        if (match.captured(1) != QLatin1String("help") && match.captured(1) != QLatin1String("help-all"))
            options << match.captured(1);
    return options;
}

}  // namespace

TEST(ManPageCli, EveryCommandAndEveryOptionIsOnThePage)
{
    const CliRun man = runRidgeline({QStringLiteral("help"), QStringLiteral("--man")});
    ASSERT_EQ(man.exitCode, 0) << man.err.toStdString();
    EXPECT_TRUE(
        man.out.contains(QRegularExpression(QStringLiteral("^\\.TH RIDGELINE 1 \"\\d{4}-\\d\\d-\\d\\d\" "
                                                           "\"ridgeline \\d+\\.\\d+\\.\\d+\" \"User Commands\"$"),
                                            QRegularExpression::MultilineOption)))
        << man.out.left(400).toStdString();
    for (const QString& command : kCommands) {
        EXPECT_TRUE(man.out.contains(QStringLiteral(".SS \"ridgeline ") + command + u' ')) << command.toStdString();
        const CliRun help = runRidgeline({command, QStringLiteral("--help")});
        const QStringList options = optionsInHelp(help.out);
        EXPECT_GE(options.size(), 1) << command.toStdString();
        for (const QString& option : options)
            EXPECT_TRUE(
                man.out.contains(QStringLiteral(".B \\-\\-") + QString(option).replace(u'-', QLatin1String("\\-"))))
                << command.toStdString() << " --" << option.toStdString();
    }
    // The build machine's path never leaks into the page, and no line starts a roff request by accident.
    EXPECT_FALSE(man.out.contains(QStringLiteral(RIDGELINE_CLI_PATH)));
    EXPECT_FALSE(man.out.contains(QStringLiteral("--help-all")));
}

TEST(ManPageCli, GroffReadsThePageWithoutAWarning)
{
    const QString groff = QStandardPaths::findExecutable(QStringLiteral("groff"));
    ASSERT_FALSE(groff.isEmpty()) << "groff is missing (Debian package groff-base, in scripts/deps.sh)";
    const CliRun man = runRidgeline({QStringLiteral("help"), QStringLiteral("--man")});
    QProcess process;
    process.start(groff, {QStringLiteral("-man"), QStringLiteral("-ww"), QStringLiteral("-Tutf8")});
    ASSERT_TRUE(process.waitForStarted());
    process.write(man.out.toUtf8());
    process.closeWriteChannel();
    ASSERT_TRUE(process.waitForFinished(30000));
    EXPECT_EQ(process.exitCode(), 0);
    EXPECT_EQ(QString::fromUtf8(process.readAllStandardError()), QString());
    // Rendered: option names read as typed, with plain hyphen-minus signs.
    const QString text =
        QString::fromUtf8(process.readAllStandardOutput()).remove(QRegularExpression(QStringLiteral(".\\x08")));
    EXPECT_TRUE(text.contains(QStringLiteral("--cancel-after <SECONDS>"))) << text.left(2000).toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("ridgeline render [options] SESSION.json...")));
}
