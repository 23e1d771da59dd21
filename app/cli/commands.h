#pragma once
// The command-line front end: `ridgeline COMMAND ...` runs headless and shares the engine with the GUI.

#include "app/cli/command_line.h"

#include <QStringList>
#include <QTextStream>

#include <vector>

namespace ridgeline::cli {

// True when `word` names a command or a top-level option (--help, --version), so main() runs it headless
// instead of opening the window.
bool isCommand(const QString& word);

// Runs the command named by arguments[1]; arguments[0] is the program. Returns the exit code.
int run(const QStringList& arguments, Streams io);

// One function per command; each gets the full argument list (program, command, options...).
int runMeasure(const QStringList& arguments, Streams io);
int runModel(const QStringList& arguments, Streams io);
int runTrain(const QStringList& arguments, Streams io);
int runCatalog(const QStringList& arguments, Streams io);
int runRender(const QStringList& arguments, Streams io);
int runImport(const QStringList& arguments, Streams io);
int runDeck(const QStringList& arguments, Streams io);
int runExport(const QStringList& arguments, Streams io);
int runCompare(const QStringList& arguments, Streams io);
int runCalibrate(const QStringList& arguments, Streams io);
int runHelp(const QStringList& arguments, Streams io);

// True for --help and -h.
bool isHelpOption(const QString& word);

// True for commands that draw (they need a QApplication, offscreen when there is no display).
bool needsGui(const QString& word);

struct CommandSummary {
    QString name;
    QString summary;
};
// Every command word, in the order `ridgeline --help` lists them.
std::vector<CommandSummary> commandSummaries();

// The top-level usage and the list of commands, as `ridgeline --help` prints them.
void printUsage(QTextStream& stream);

// The command whose name is closest to a mistyped `word` (at most two edits, or a prefix), or "".
QString nearestCommand(const QString& word);

}  // namespace ridgeline::cli
