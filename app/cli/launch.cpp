#include "app/cli/launch.h"

#include "app/cli/command_line.h"
#include "app/cli/commands.h"

#include <QFileInfo>
#include <QTextStream>

namespace ridgeline::cli {

namespace {

Launch refuse(const QString& message, bool withCommandList)
{
    QString text = message + u'\n';
    if (withCommandList) {
        QTextStream stream(&text);
        stream << '\n';
        printUsage(stream);
    }
    return Launch{Launch::Kind::Refuse, {}, text, kExitBadInput};
}

// A first argument that is not a file and reads like a word (no folder, no suffix) was meant as a command.
bool looksLikeCommandWord(const QString& argument)
{
    return !argument.isEmpty() && !argument.contains(u'/') && !argument.contains(u'.');
}

Launch unknownCommand(const QString& word)
{
    QString message = QStringLiteral("ridgeline: unknown command '%1'").arg(word);
    const QString near = nearestCommand(word);
    if (!near.isEmpty())
        message += QStringLiteral(" (did you mean '%1'?)").arg(near);
    return refuse(message, true);
}

}  // namespace

QString windowUnavailableReason(const QProcessEnvironment& environment)
{
    // QT_QPA_PLATFORM may carry options after a colon ("offscreen:fontengine=freetype").
    const QString platform = environment.value(QStringLiteral("QT_QPA_PLATFORM")).section(u':', 0, 0).trimmed();
    if (platform == QLatin1String("offscreen") || platform == QLatin1String("minimal"))
        return QStringLiteral("QT_QPA_PLATFORM=%1 draws on no screen, so the window would wait for input forever")
            .arg(platform);
    if (platform.isEmpty() && environment.value(QStringLiteral("DISPLAY")).isEmpty() &&
        environment.value(QStringLiteral("WAYLAND_DISPLAY")).isEmpty())
        return QStringLiteral("there is no display (DISPLAY and WAYLAND_DISPLAY are not set)");
    return {};
}

Launch decideLaunch(const QStringList& arguments, const QProcessEnvironment& environment)
{
    const QStringList rest = arguments.mid(1);
    if (!rest.isEmpty() && isCommand(rest.constFirst()))
        return Launch{Launch::Kind::Command, {}, {}, 0};

    for (qsizetype i = 0; i < rest.size(); ++i) {
        const QString& argument = rest[i];
        if (argument.startsWith(u'-'))
            return refuse(QStringLiteral("ridgeline: unknown option '%1'").arg(argument), true);
        const QFileInfo info(argument);
        if (!info.exists()) {
            if (i == 0 && looksLikeCommandWord(argument))
                return unknownCommand(argument);
            return refuse(QStringLiteral("ridgeline: %1: no such file").arg(argument), false);
        }
        if (info.isDir())
            return refuse(QStringLiteral("ridgeline: %1: is a folder, not a session file").arg(argument), false);
    }

    const QString unavailable = windowUnavailableReason(environment);
    if (!unavailable.isEmpty())
        return refuse(QStringLiteral("ridgeline: cannot open the window: %1.\n"
                                     "Run a command instead (e.g. `ridgeline measure --quick`, "
                                     "`ridgeline render SESSION.json --out chart.png`), or start the window "
                                     "on a virtual display: `xvfb-run ridgeline`.")
                          .arg(unavailable),
                      false);
    return Launch{Launch::Kind::Window, rest, {}, 0};
}

}  // namespace ridgeline::cli
