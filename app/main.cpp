// Entry point: a command word runs headless (CLI); anything else opens the window.

#include "app/cli/commands.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCoreApplication>

#include <cstdio>

int main(int argc, char** argv)
{
    QCoreApplication::setApplicationName(QStringLiteral("Ridgeline"));
    QCoreApplication::setOrganizationName(QStringLiteral("Ridgeline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(RIDGELINE_VERSION));

    if (argc > 1 && ridgeline::cli::isCommand(QString::fromLocal8Bit(argv[1]))) {
        QCoreApplication app(argc, argv);
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
