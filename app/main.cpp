// Entry point: a command word runs headless (CLI); session files that exist open the window; anything else
// is refused at once with exit status 2 (app/cli/launch.h), so a typo never waits for a window nobody sees.

#include "app/cli/commands.h"
#include "app/cli/launch.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstdio>
#include <memory>

namespace {

QStringList argumentsOf(int argc, char** argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return arguments;
}

int runCommand(int argc, char** argv)
{
    // Drawing commands (render) need a QApplication; without a display they draw offscreen.
    const bool gui = ridgeline::cli::needsGui(QString::fromLocal8Bit(argv[1]));
    if (gui && qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
        qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    std::unique_ptr<QCoreApplication> app;
    if (gui)
        app = std::make_unique<QApplication>(argc, argv);
    else
        app = std::make_unique<QCoreApplication>(argc, argv);
    QTextStream out(stdout);
    QTextStream err(stderr);
    const int code = ridgeline::cli::run(QCoreApplication::arguments(), {out, err});
    out.flush();
    err.flush();
    return code;
}

}  // namespace

int main(int argc, char** argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("Ridgeline"));
    QCoreApplication::setOrganizationName(QStringLiteral("Ridgeline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RIDGELINE_VERSION));

    const ridgeline::cli::Launch launch =
        ridgeline::cli::decideLaunch(argumentsOf(argc, argv), QProcessEnvironment::systemEnvironment());
    switch (launch.kind) {
        case ridgeline::cli::Launch::Kind::Command:
            return runCommand(argc, argv);
        case ridgeline::cli::Launch::Kind::Refuse:
            std::fputs(launch.message.toLocal8Bit().constData(), stderr);
            return launch.exitCode;
        case ridgeline::cli::Launch::Kind::Window:
            break;
    }

    QApplication app(argc, argv);
    ridgeline::ui::MainWindow window;
    if (!launch.files.isEmpty()) {
        window.openSession(launch.files.constFirst());
        for (const QString& overlay : launch.files.mid(1))
            window.addOverlay(overlay);
    } else {
        window.reopenLastSession();  // else the empty chart offers what to start from
    }
    window.show();
    return QApplication::exec();
}
