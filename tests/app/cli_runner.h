#pragma once
// Runs the real `ridgeline` executable (its path comes in as RIDGELINE_CLI_PATH) for the CLI suites.

#include <QByteArray>
#include <QCoreApplication>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <gtest/gtest.h>

namespace ridgeline::test {

struct CliRun {
    int exitCode = -1;
    QString out;
    QString err;
};

// environment: the child's whole environment (default: this process's).
inline CliRun runRidgeline(const QStringList& arguments,
                           const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment())
{
    static int argc = 1;
    static char name[] = "ridgeline_cli_tests";
    static char* argv[] = {name, nullptr};
    if (!QCoreApplication::instance())
        new QCoreApplication(argc, argv);  // QProcess wants an application object; lives for the process
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(RIDGELINE_CLI_PATH), arguments);
    EXPECT_TRUE(process.waitForFinished(30000)) << "ridgeline " << arguments.join(u' ').toStdString();
    return CliRun{process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                  QString::fromUtf8(process.readAllStandardError())};
}

// This process's environment without a display: no DISPLAY, no WAYLAND_DISPLAY, QT_QPA_PLATFORM unset.
inline QProcessEnvironment environmentWithoutDisplay()
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QString::fromLatin1(name));
    return environment;
}

// "model --batch 8" -> {"model", "--batch", "8"}
inline QStringList cliArgs(const char* line)
{
    return QString::fromLatin1(line).split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

// A fixture under tests/data.
inline QString data(const char* path)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/") + QLatin1String(path);
}

// A file's bytes, or a marker no real file holds when it cannot be read.
inline QByteArray contentsOf(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

}  // namespace ridgeline::test
