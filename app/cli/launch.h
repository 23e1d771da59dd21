#pragma once
// What `ridgeline ARGS...` does, decided from the arguments and the environment before any Qt application
// exists: run a command headless, open the window on files that exist, or refuse with one clear message.
// Nothing here ever waits: a mistyped command or a window without a display is refused at once (exit 2).

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace ridgeline::cli {

struct Launch {
    enum class Kind { Command, Window, Refuse };
    Kind kind = Kind::Refuse;
    QStringList files;  // Window: session files to open (the first is primary, the others overlays)
    QString message;    // Refuse: what to print on stderr (ends with a newline)
    int exitCode = 0;   // Refuse: the exit status
};

// arguments[0] is the program.
Launch decideLaunch(const QStringList& arguments, const QProcessEnvironment& environment);

// Why the window cannot be shown here (no display, or Qt told to draw on none), or an empty string.
QString windowUnavailableReason(const QProcessEnvironment& environment);

}  // namespace ridgeline::cli
