#pragma once
// Helpers of the main-window tests: a session written to a real file, the window shown and active, the message
// boxes of a step closed.

#include "core/session/format/session_json.h"
#include "tests/ui/ui_test_util.h"

#include <QDialog>
#include <QMessageBox>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace ridgeline::fixtures {

// `session` saved as `name` in `dir` with the real writer; the file's path.
inline QString writeSession(const QTemporaryDir& dir, const QString& name, const Session& session)
{
    const QString path = dir.filePath(name);
    EXPECT_FALSE(saveSession(session, path).has_value());
    return path;
}

// Shown at `size` and active, as a window a person works in: shortcuts and focus need that.
inline void showActive(QWidget& window, QSize size)
{
    layoutNow(window, size);
    window.activateWindow();
    EXPECT_TRUE(QTest::qWaitForWindowActive(&window));
}

// Closes the message boxes and the import summary a step left open.
inline void closeMessageBoxes(QWidget& window)
{
    for (QMessageBox* box : window.findChildren<QMessageBox*>())
        box->close();
    if (auto* summary = window.findChild<QDialog*>(QStringLiteral("ImportSummaryDialog")))
        summary->close();
    QCoreApplication::processEvents();
}

}  // namespace ridgeline::fixtures
