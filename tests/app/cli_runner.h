#pragma once
// Runs the real `ridgeline` executable (its path comes in as RIDGELINE_CLI_PATH) for the CLI suites.

#include <QCoreApplication>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <gtest/gtest.h>

namespace ridgeline::test {

struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

inline CliRun runRidgeline(const QStringList& arguments)
{
    static int argc = 1;
    static char name[] = "ridgeline_cli_tests";
    static char* argv[] = {name, nullptr};
    if (!QCoreApplication::instance())
        new QCoreApplication(argc, argv);  // QProcess wants an application object; lives for the process
    QProcess process;
    process.start(QStringLiteral(RIDGELINE_CLI_PATH), arguments);
    EXPECT_TRUE(process.waitForFinished(30000)) << "ridgeline " << arguments.join(u' ').toStdString();
    return CliRun{process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                  QString::fromUtf8(process.readAllStandardError())};
}

// "model --batch 8" -> {"model", "--batch", "8"}
inline QStringList cliArgs(const char* line)
{
    return QString::fromLatin1(line).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

}  // namespace ridgeline::test
