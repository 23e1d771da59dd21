// The window as a whole: the dark theme darkens docks, tables and menus (not only the chart) and keeps
// the DRAM roof visible; at 1280x800 the roofline keeps most of the window; Ctrl+E on the batching tab exports
// the batching charts under a name made from what they show, in a sensible folder.

#include "tests/ui/modal_util.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/file_actions.h"
#include "ui/kernel_dock.h"
#include "ui/mainwindow.h"
#include "ui/models/settings.h"
#include "ui/panels/batching_export.h"
#include "ui/panels/batching_panel.h"
#include "ui/plots/layout/chart_theme.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QHeaderView>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

QAction* darkThemeAction(MainWindow& window)
{
    for (QAction* action : window.findChildren<QAction*>())
        if (action->text() == QStringLiteral("&Dark Theme"))
            return action;
    return nullptr;
}

// The share of a widget's pixels within `tolerance` of `color`.
double shareNear(const QImage& image, const QColor& color, int tolerance = 40)
{
    int near = 0;
    for (int y = 0; y < image.height(); y += 2)
        for (int x = 0; x < image.width(); x += 2)
            near += fixtures::colorDistance(image.pixelColor(x, y), color) <= tolerance ? 1 : 0;
    return double(near) / ((image.width() / 2.0) * (image.height() / 2.0));
}

}  // namespace

TEST(UiDarkTheme, TheWholeWindowGoesDarkAndTheDramRoofStaysVisible)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    fixtures::layoutNow(window, QSize(1600, 1000));
    QAction* dark = darkThemeAction(window);
    ASSERT_NE(dark, nullptr);
    dark->setChecked(false);
    dark->setChecked(true);
    QCoreApplication::processEvents();
    const ChartTheme theme = ChartTheme::make(ThemeKind::Dark);

    // The kernel table and the explanation: dark, as the chart is.
    QTableView* table = window.kernelDock()->view();
    const QImage tableImage = fixtures::grabImage(*table);
    tableImage.save(fixtures::outputPath(QStringLiteral("dark_table.png")));
    // Right of the last column, in the viewport (the bottom-right corner is the scroll bars' corner).
    const QPoint empty = table->viewport()->mapTo(
        table, QPoint(table->horizontalHeader()->length() + 20, table->viewport()->height() / 2));
    ASSERT_LT(empty.x(), tableImage.width() - 40) << "the table is wider than its columns at 1600 px";
    EXPECT_LT(tableImage.pixelColor(empty).lightness(), 60) << "the table's empty area";
    EXPECT_LT(window.palette().color(QPalette::Window).lightness(), 60);
    EXPECT_LT(table->palette().color(QPalette::Base).lightness(), 60);
    EXPECT_GT(table->palette().color(QPalette::Text).lightness(), 200);
    EXPECT_LT(window.menuBar()->palette().color(QPalette::Window).lightness(), 60);
    const QImage whole = fixtures::grabImage(window);
    EXPECT_LT(shareNear(whole, QColor(Qt::white), 30), 0.01) << "no white panels left";
    whole.save(fixtures::outputPath(QStringLiteral("mainwindow_dark_1600x1000.png")));

    // The DRAM roof on the chart: drawn in its dark-theme colour, which stands out from the background.
    const QColor dram = theme.bandwidthColor(QStringLiteral("DRAM"));
    EXPECT_GT(contrastRatio(dram, theme.background), 4.5);
    const QImage chart = fixtures::grabImage(*window.chart()->viewport());
    // On the roof at intensity 0.5 FLOP/byte (40 GB/s x 0.5 = 20 GFLOP/s), a pixel of the DRAM colour.
    const QPoint onRoof = window.chart()->viewportPosition(QPointF(0.5, 20.0));
    EXPECT_TRUE(fixtures::colorNear(chart, onRoof, dram, 3, 60));

    dark->setChecked(false);
    QCoreApplication::processEvents();
    EXPECT_GT(window.palette().color(QPalette::Window).lightness(), 150) << "light gives the system's palette back";
}

TEST(UiSmallWindow, At1280x800TheRooflineKeepsMostOfTheWindow)
{
    Settings().setWindowState({});  // the first start: no saved layout
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    fixtures::layoutNow(window, QSize(1280, 800));
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents();
    const QSize chart = window.chart()->size();
    const double heightShare = double(chart.height()) / window.height();
    const double widthShare = double(chart.width()) / window.width();
    EXPECT_GT(heightShare, 0.55) << chart.height() << " of " << window.height() << " pixels high";
    EXPECT_GT(widthShare, 0.65) << chart.width() << " of " << window.width() << " pixels wide";
    EXPECT_GT(heightShare * widthShare, 0.4);
    // The docks are still there, and big enough to use.
    auto* kernels = window.findChild<QDockWidget*>(QStringLiteral("KernelsDock"));
    auto* explain = window.findChild<QDockWidget*>(QStringLiteral("ExplainDock"));
    EXPECT_GE(kernels->height(), 140);
    EXPECT_GE(explain->width(), 220);
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("mainwindow_1280x800.png")));
}

TEST(UiExport, CtrlEOnTheBatchingTabExportsTheBatchingChartsUnderANameOfWhatTheyShow)
{
    QTemporaryDir dir;
    Settings().setLastExportDirectory(dir.path());
    Settings().setExportSize(QSize(1280, 720));
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    fixtures::layoutNow(window, QSize(1600, 1000));
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_2, Qt::ControlModifier);  // the batching tab
    ASSERT_EQ(window.tabs()->currentIndex(), 1);
    window.batchingPanel()->setModel(QStringLiteral("llama-2-7b"));
    window.batchingPanel()->setGpu(QStringLiteral("h100-sxm"));

    // The file dialog proposes the name and folder; Return takes them; Return again takes the size.
    QString proposed;
    QSignalSpy exported(window.fileActions(), &FileActions::exported);
    std::shared_ptr<fixtures::ModalSeen> sizeDialog;
    auto fileDialog = fixtures::whenModal([&proposed, &sizeDialog](QWidget* modal) {
        auto* dialog = qobject_cast<QFileDialog*>(modal);
        if (!dialog)
            return;
        proposed = dialog->selectedFiles().value(0);
        sizeDialog = fixtures::whenModal([](QWidget* size) { QTest::keyClick(size, Qt::Key_Return); }, dialog);
        QTest::keyClick(dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")), Qt::Key_Return);
    });
    QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
    ASSERT_TRUE(fileDialog->seen);
    // "Llama 2 7B on NVIDIA H100 SXM5 80GB": the model and GPU names the tab shows.
    EXPECT_EQ(window.batchingPanel()->scenario().gpuName, QStringLiteral("NVIDIA H100 SXM5 80GB"));
    EXPECT_EQ(proposed, QDir(dir.path()).filePath(QStringLiteral("llama-2-7b-on-nvidia-h100-sxm5-80gb-batching.png")));
    ASSERT_EQ(exported.count(), 1);
    EXPECT_EQ(exported.front().at(1).value<ExportTarget>(), ExportTarget::Batching);
    const QString path = exported.front().at(0).toString();
    const QImage image(path);
    ASSERT_FALSE(image.isNull());
    EXPECT_EQ(image.size(), QSize(1280, 720));
    // The batching charts, as a fresh render of the same inputs draws them (not the roofline).
    const QImage expected = renderBatchingImage({window.batchingPanel()->inputs(), fixtures::zen4Session(),
                                                 window.batchingPanel()->theme()},
                                                QSize(1280, 720))
                                .convertToFormat(image.format());
    EXPECT_EQ(image, expected);
    image.save(fixtures::outputPath(QStringLiteral("batching_export.png")));

    // Back on the roofline, Ctrl+E exports the roofline, named after the session.
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
    QTest::keyClick(&window, Qt::Key_1, Qt::ControlModifier);
    ASSERT_EQ(window.tabs()->currentIndex(), 0);
    fileDialog = fixtures::whenModal([&proposed, &sizeDialog](QWidget* modal) {
        auto* dialog = qobject_cast<QFileDialog*>(modal);
        if (!dialog)
            return;
        proposed = dialog->selectedFiles().value(0);
        sizeDialog = fixtures::whenModal([](QWidget* size) { QTest::keyClick(size, Qt::Key_Return); }, dialog);
        QTest::keyClick(dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")), Qt::Key_Return);
    });
    QTest::keyClick(&window, Qt::Key_E, Qt::ControlModifier);
    EXPECT_EQ(proposed, QDir(dir.path()).filePath(QStringLiteral("amd-epyc-9r14-zen-4-2-threads-roofline.png")));
    ASSERT_EQ(exported.count(), 2);
    EXPECT_EQ(exported.back().at(1).value<ExportTarget>(), ExportTarget::Roofline);
    Settings().setLastExportDirectory({});
}
