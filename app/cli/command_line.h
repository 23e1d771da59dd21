#pragma once
// What every command does before its own work, done one way: parse its options, answer --help, refuse a bad option
// with the one message style, and leave with one of the three exit statuses every command shares.

#include <QCommandLineParser>
#include <QString>
#include <QStringView>
#include <QTextStream>

#include <optional>

namespace ridgeline::cli {

// Where a command writes: what it was asked for, and what went wrong.
struct Streams {
    QTextStream& out;
    QTextStream& err;
};

// 0: done. 1: the work failed (a file that does not load, a write refused) or, for compare, found a regression.
// 2: the command line or an input was refused before any work; nothing was written.
enum ExitStatus : int { kExitOk = 0, kExitFailed = 1, kExitBadInput = 2 };

// Parses `arguments` as QCommandLineParser does (the first word is taken as the program). Returns the status to
// leave with at once, --help answered (kExitOk) or a bad option refused (kExitBadInput), or nothing when the
// command goes on with `parser` filled.
std::optional<int> parseCommandLine(QCommandLineParser& parser, const QStringList& arguments, QStringView command,
                                    Streams io);

// "ridgeline COMMAND: MESSAGE" and where to read the options, on stderr; returns kExitBadInput.
int refuseArguments(Streams io, QStringView command, const QString& message);

}  // namespace ridgeline::cli
