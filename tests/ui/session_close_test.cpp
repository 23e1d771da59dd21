// Closing what is open: File > Close Session (Ctrl+W) asks before unsaved work goes and leaves the start page; an
// overlay comes off the chart by Delete in the Sessions dock or from File > Remove Overlay, and the open session and
// its unsaved changes stay.

#include "core/session/format/session_json.h"
#include "tests/ui/modal_util.h"
#include "tests/ui/window_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/models/session_document.h"
#include "ui/session_list_view.h"
#include "ui/welcome_panel.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;
using namespace ridgeline::fixtures;

namespace {

QAction* fileAction(MainWindow& window, const QString& text)
{
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text() == text)
            return a;
    return nullptr;
}

}  // namespace

TEST(UiCloseSession, CtrlWAsksAboutAnUnsavedMeasurementAndLeavesTheStartPage)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());  // a finished measurement: unsaved
    showActive(window, QSize(1280, 800));
    QAction* close = fileAction(window, QStringLiteral("&Close Session"));
    ASSERT_NE(close, nullptr);
    EXPECT_TRUE(close->isEnabled());

    auto asked = fixtures::clickWhenAsked(QMessageBox::Cancel);
    QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier);
    EXPECT_TRUE(asked->seen);
    EXPECT_TRUE(asked->informativeText.contains(QStringLiteral("closing it"))) << asked->informativeText.toStdString();
    ASSERT_NE(window.document()->primary(), nullptr) << "Cancel keeps the measurement";
    EXPECT_FALSE(window.welcomePanel()->isVisible());

    window.activateWindow();  // back from the question, as the window is when a person looks at it again
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    asked = fixtures::clickWhenAsked(QMessageBox::Discard);
    QTest::keyClick(&window, Qt::Key_W, Qt::ControlModifier);
    EXPECT_TRUE(asked->seen);
    EXPECT_EQ(window.document()->primary(), nullptr);
    EXPECT_TRUE(window.chart()->sessions().empty());
    EXPECT_TRUE(window.welcomePanel()->isVisible()) << "the start page offers to measure or open again";
    EXPECT_FALSE(window.document()->isDirty());
    EXPECT_FALSE(close->isEnabled()) << "nothing left to close";
}

TEST(UiCloseSession, DeleteInTheSessionsDockTakesAnOverlayOffAndKeepsTheOpenSession)
{
    QTemporaryDir dir;
    MainWindow window;
    ASSERT_TRUE(window.openSession(writeSession(dir, QStringLiteral("zen4.json"), fixtures::zen4Session())));
    const QString faster = writeSession(dir, QStringLiteral("faster.json"), fixtures::zen4FasterDramSession());
    const QString other = writeSession(dir, QStringLiteral("other.json"), fixtures::zen4SlowerFp32FasterSgemmSession());
    ASSERT_TRUE(window.document()->addOverlay(faster));
    ASSERT_TRUE(window.document()->addOverlay(other));
    ASSERT_TRUE(window.document()->removeKernel(0));  // an unsaved edit of the open session
    showActive(window, QSize(1280, 800));
    ASSERT_EQ(window.chart()->sessions().size(), 3u);
    auto* list = window.findChild<SessionListView*>();
    ASSERT_NE(list, nullptr);

    // The open session itself does not come off with Delete: Close Session does that, asking first.
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(list->model()->index(0, 0)).center());
    QTest::keyClick(list, Qt::Key_Delete);
    EXPECT_EQ(window.chart()->sessions().size(), 3u);
    EXPECT_FALSE(list->removeAction()->isEnabled());

    // A click on faster.json's row, then Delete.
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualRect(list->model()->index(1, 0)).center());
    QTest::keyClick(list, Qt::Key_Delete);
    ASSERT_EQ(window.document()->model()->sessions().size(), 2u);
    EXPECT_EQ(window.document()->model()->sessions()[1].path, QFileInfo(other).absoluteFilePath());
    EXPECT_EQ(window.chart()->sessions().size(), 2u);
    EXPECT_TRUE(window.document()->isDirty()) << "the open session's unsaved edit stays";

    // File > Remove Overlay lists what is left; a click on its entry takes it off.
    auto* menu = window.findChild<QMenu*>(QStringLiteral("removeOverlayMenu"));
    ASSERT_NE(menu, nullptr);
    ASSERT_EQ(menu->actions().size(), 1);
    EXPECT_EQ(menu->actions().front()->text(), QStringLiteral("other.json"));
    menu->popup(window.mapToGlobal(QPoint(100, 100)));
    ASSERT_TRUE(QTest::qWaitForWindowExposed(menu));
    QTest::mouseClick(menu, Qt::LeftButton, {}, menu->actionGeometry(menu->actions().front()).center());
    QCoreApplication::processEvents();
    EXPECT_EQ(window.document()->model()->sessions().size(), 1u);
    EXPECT_EQ(window.chart()->sessions().size(), 1u);
    EXPECT_FALSE(menu->isEnabled()) << "no overlay left";
    EXPECT_EQ(window.document()->primary()->kernels.size(), fixtures::zen4Session().kernels.size() - 1);
}
