#pragma once
// The batching tab in the real window, for the tests of the window at a size, its panel, a named
// control, the real `ridgeline` executable for the command line's answer to the same question, and the dialogs the
// tab opens (found among the top-level widgets, as a person sees them).

#include "tests/app/cli_runner.h"
#include "tests/ui/ui_test_util.h"
#include "ui/mainwindow.h"
#include "ui/panels/batching_panel.h"

#include <QApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>

#include <gtest/gtest.h>

namespace ridgeline::fixtures {

template <typename T>
T* control(const QWidget& parent, const char* name)
{
    T* found = parent.findChild<T*>(QLatin1String(name));
    EXPECT_NE(found, nullptr) << name;
    return found;
}

struct BatchingWindow {
    ui::MainWindow window;
    ui::BatchingPanel* panel = nullptr;
    explicit BatchingWindow(QSize size, const Session& session)
    {
        window.setSession(session);
        window.show();
        window.tabs()->setCurrentIndex(1);
        layoutNow(window, size);
        panel = window.batchingPanel();
    }
    void settle() { layoutNow(window, window.size()); }
};

// `ridgeline model ARGS --json`, parsed.
inline QJsonObject cliModelJson(const QStringList& arguments)
{
    const test::CliRun run =
        test::runRidgeline(QStringList{QStringLiteral("model")} + arguments + QStringList{QStringLiteral("--json")});
    EXPECT_EQ(run.exitCode, 0) << run.err.toStdString();
    return QJsonDocument::fromJson(run.out.toUtf8()).object();
}

// The visible top-level widget of this type and object name (a dialog the tab opened), after the events ran.
template <typename T>
T* openDialog(const char* name)
{
    QCoreApplication::processEvents();
    for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* dialog = qobject_cast<T*>(w); dialog && dialog->isVisible() && w->objectName() == QLatin1String(name))
            return dialog;
    return nullptr;
}

}  // namespace ridgeline::fixtures
