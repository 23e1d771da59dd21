// The kernel table: time, share of time, FLOPs, bytes and spread columns; Delete (or the row's context
// menu) removes a kernel from the chart and the session, Ctrl+Z brings it back; the document is unsaved until
// then. Real clicks on the rows and real key presses.

#include "ui/kernel_dock.h"
#include "core/session/format/session_json.h"
#include "tests/ui/modal_util.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui/window_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/mainwindow.h"
#include "ui/models/kernel_table_model.h"
#include "ui/models/session_document.h"

#include <QAction>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;
using ridgeline::fixtures::showActive;

namespace {

// Scrolled into view first, as a person scrolls to a row before clicking it.
void clickRow(QTableView* table, int row)
{
    table->scrollTo(table->model()->index(row, 0));
    const QRect rect = table->visualRect(table->model()->index(row, 0));
    ASSERT_TRUE(table->viewport()->rect().contains(rect.center())) << "row " << row << " is not on screen";
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
}

QStringList names(const MainWindow& window)
{
    QStringList out;
    for (const KernelResult& k : window.document()->primary()->kernels)
        out << k.name;
    return out;
}

}  // namespace

TEST(UiKernelDock, TheTableShowsTimeShareFlopsBytesAndSpreadWithUnits)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    showActive(window, QSize(1600, 1000));
    QTableView* table = window.kernelDock()->view();
    QStringList headers;
    for (int c = 0; c < table->model()->columnCount(); ++c)
        headers << table->model()->headerData(c, Qt::Horizontal).toString();
    for (const char* expected : {"Time", "% of time", "FLOPs", "Bytes", "Spread"})
        EXPECT_TRUE(headers.contains(QLatin1String(expected))) << expected;
    // sgemm 4096 as the table draws it.
    EXPECT_EQ(table->model()->index(3, KernelTableModel::Flops).data().toString(), QStringLiteral("137 GFLOP"));
    EXPECT_EQ(table->model()->index(3, KernelTableModel::Bytes).data().toString(), QStringLiteral("201 MB"));
    EXPECT_TRUE(table->model()->index(3, KernelTableModel::Time).data().toString().endsWith(QStringLiteral(" ms")));
    // Clicking the Time header sorts by time: the slowest kernel last (decode B=256, 0.74 s, just behind sgemm 4096's
    // 0.69 s in this fixture).
    const std::vector<KernelResult>& kernels = fixtures::zen4Session().kernels;
    const auto slowest =
        std::max_element(kernels.begin(), kernels.end(),
                         [](const KernelResult& a, const KernelResult& b) { return a.seconds < b.seconds; });
    const int timeX = table->horizontalHeader()->sectionViewportPosition(KernelTableModel::Time) + 5;
    QTest::mouseClick(table->horizontalHeader()->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(timeX, 5));
    const int last = table->model()->rowCount() - 1;
    EXPECT_EQ(table->model()->index(last, KernelTableModel::Name).data().toString(), slowest->name);
    EXPECT_EQ(slowest->name, QStringLiteral("decode B=256"));
    QTest::mouseClick(table->horizontalHeader()->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(timeX, 5));
    EXPECT_EQ(table->model()->index(0, KernelTableModel::Name).data().toString(), slowest->name)
        << "a second click sorts the other way";
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("kernel_table.png")));
}

TEST(UiKernelDock, DeleteRemovesTheKernelAndCtrlZBringsItBack)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("zen4.json"));
    ASSERT_FALSE(saveSession(fixtures::zen4Session(), path).has_value());
    MainWindow window;
    ASSERT_TRUE(window.openSession(path));
    showActive(window, QSize(1600, 1000));
    QTableView* table = window.kernelDock()->view();
    const int points = window.chart()->kernelPointCount();
    clickRow(table, 4);  // add 2048
    ASSERT_TRUE(window.explanationHtml().contains(QStringLiteral("add 2048")));
    ASSERT_TRUE(table->hasFocus());

    QTest::keyClick(table, Qt::Key_Delete);
    EXPECT_FALSE(names(window).contains(QStringLiteral("add 2048")));
    EXPECT_EQ(window.chart()->kernelPointCount(), points - 1);
    EXPECT_EQ(table->model()->rowCount(), points - 1);
    EXPECT_TRUE(window.windowTitle().contains(QLatin1Char('*')));
    EXPECT_TRUE(window.document()->isDirty());
    // The next row is current, so Delete can go on; its explanation replaced the removed kernel's.
    EXPECT_EQ(table->currentIndex().row(), 4);
    EXPECT_FALSE(window.explanationHtml().contains(QStringLiteral("add 2048")));

    QTest::keyClick(table, Qt::Key_Z, Qt::ControlModifier);
    EXPECT_EQ(names(window).value(4), QStringLiteral("add 2048"));
    EXPECT_EQ(window.chart()->kernelPointCount(), points);
    EXPECT_FALSE(window.windowTitle().contains(QLatin1Char('*'))) << "as it is on disk again";
    EXPECT_FALSE(window.document()->isDirty());

    // Delete in the filter field edits the text; it never removes a kernel.
    QLineEdit* filter = window.kernelFilter();
    QTest::mouseClick(filter, Qt::LeftButton, Qt::NoModifier, filter->rect().center());
    QTest::keyClicks(filter, QStringLiteral("sgemm"));
    QTest::keyClick(filter, Qt::Key_Home);
    QTest::keyClick(filter, Qt::Key_Delete);
    EXPECT_EQ(filter->text(), QStringLiteral("gemm"));
    EXPECT_EQ(window.document()->primary()->kernels.size(), static_cast<std::size_t>(points));
}

TEST(UiKernelDock, TheRowsContextMenuRemovesAKernelAndSavingKeepsTheRemoval)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("zen4.json"));
    ASSERT_FALSE(saveSession(fixtures::zen4Session(), path).has_value());
    MainWindow window;
    ASSERT_TRUE(window.openSession(path));
    showActive(window, QSize(1600, 1000));
    QTableView* table = window.kernelDock()->view();
    const QRect rect = table->visualRect(table->model()->index(0, 0));
    // A right press makes the row current; the context menu opens at the mouse, Return on its one entry.
    QTest::mousePress(table->viewport(), Qt::RightButton, Qt::NoModifier, rect.center());
    QTest::mouseRelease(table->viewport(), Qt::RightButton, Qt::NoModifier, rect.center());
    const auto menu = fixtures::whenPopup([](QWidget* popup) {
        QTest::keyClick(popup, Qt::Key_Down);
        QTest::keyClick(popup, Qt::Key_Return);
    });
    QContextMenuEvent event(QContextMenuEvent::Mouse, rect.center(), table->viewport()->mapToGlobal(rect.center()));
    QApplication::sendEvent(table->viewport(), &event);
    EXPECT_EQ(menu->className, QStringLiteral("QMenu"));
    // Ctrl+S is a window shortcut: it needs the window active again once the menu has closed.
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    EXPECT_FALSE(names(window).contains(QStringLiteral("sgemm 512")));
    QTest::keyClick(&window, Qt::Key_S, Qt::ControlModifier);
    EXPECT_FALSE(window.document()->isDirty());
    const Result<Session> saved = loadSession(path);
    ASSERT_TRUE(saved.ok());
    EXPECT_EQ(saved.value().kernels.size(), fixtures::zen4Session().kernels.size() - 1);
    EXPECT_EQ(saved.value().kernels.front().name, QStringLiteral("sgemm 1024"));
}
