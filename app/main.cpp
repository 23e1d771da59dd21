// Entry point: a command word runs headless (CLI); anything else opens the window.

#include "app/cli/commands.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstdio>
#include <memory>

int main(int argc, char** argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("Ridgeline"));
    QCoreApplication::setOrganizationName(QStringLiteral("Ridgeline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RIDGELINE_VERSION));

    if (argc > 1 && ridgeline::cli::isCommand(QString::fromLocal8Bit(argv[1]))) {
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

    QApplication app(argc, argv);
    ridgeline::ui::MainWindow window;
    if (argc > 1)
        window.openSession(QString::fromLocal8Bit(argv[1]));
    window.show();
    return QApplication::exec();
}
