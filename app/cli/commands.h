#pragma once
// The command-line front end: `ridgeline COMMAND ...` runs headless and shares the engine with the GUI.

#include <QStringList>
#include <QTextStream>

namespace ridgeline::cli {

struct Streams {
    QTextStream& out;
    QTextStream& err;
};

// True when `word` names a command (so main() starts headless instead of opening the window).
bool isCommand(const QString& word);

// Runs the command named by arguments[1]; arguments[0] is the program. Returns the exit code.
int run(const QStringList& arguments, Streams io);

// One function per command; each gets the full argument list (program, command, options...).
int runMeasure(const QStringList& arguments, Streams io);
int runModel(const QStringList& arguments, Streams io);
int runCatalog(const QStringList& arguments, Streams io);
int runRender(const QStringList& arguments, Streams io);
int runImport(const QStringList& arguments, Streams io);
int runDeck(const QStringList& arguments, Streams io);

// True for commands that draw (they need a QApplication, offscreen when there is no display).
bool needsGui(const QString& word);

}  // namespace ridgeline::cli
