// The window's side of issue 6: File > Import and drag and drop of profiler files, the import summary, the
// kernel filter, and imported kernels on the chart (short labels, full names in tooltips, levels, before/after).

#include "core/session/session_json.h"
#include "tests/ui/test_session.h"
#include "tests/ui/ui_test_util.h"
#include "ui/chart/roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/models/kernel_table_model.h"
#include "ui/models/session_list_model.h"

#include <QDialog>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QUrl>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

QString importFixture(const QString& name)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/import/") + name;
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& bytes)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(bytes);
    return path;
}

void closeDialogs(QWidget& window)
{
    for (QDialog* dialog : window.findChildren<QDialog*>())
        dialog->close();
}

QDialog* importSummary(QWidget& window)
{
    return window.findChild<QDialog*>(QStringLiteral("ImportSummaryDialog"));
}

int importedKernelCount(const Session& session)
{
    return static_cast<int>(std::count_if(session.kernels.begin(), session.kernels.end(),
                                          [](const KernelResult& k) { return k.kind == QLatin1String("imported"); }));
}

void drop(QWidget& window, const QStringList& paths)
{
    QMimeData mime;
    QList<QUrl> urls;
    for (const QString& path : paths)
        urls << QUrl::fromLocalFile(path);
    mime.setUrls(urls);
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent dropEvent(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &dropEvent);
}

}  // namespace

TEST(UiImport, NsightComputeKernelsJoinTheOpenSessionOnChartAndTable)
{
    MainWindow window;
    const Session zen4 = fixtures::zen4Session();
    window.setSession(zen4);
    const int before = static_cast<int>(zen4.kernels.size());
    QSignalSpy finished(&window, &MainWindow::importFinished);
    ASSERT_TRUE(window.importFiles({importFixture(QStringLiteral("ncu_details.csv"))}));
    ASSERT_EQ(finished.count(), 1);
    // The summary names the file, the kernel count and the skipped rows with their reasons.
    const QString summary = finished.first().at(0).toStringList().join(QLatin1Char('\n'));
    EXPECT_TRUE(summary.contains(QStringLiteral("ncu_details.csv (ncu): 3 kernels, 2 skipped")))
        << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("copy_kernel (ID 3)"))) << summary.toStdString();
    EXPECT_NE(importSummary(window), nullptr);

    // One primary session, now with the three kernels; the measured ceilings stay.
    EXPECT_EQ(window.sessionModel()->rowCount(), 1);
    EXPECT_EQ(window.chart()->kernelPointCount(), before + 3);
    EXPECT_EQ(window.kernelModel()->rowCount(), before + 3);
    EXPECT_EQ(window.chart()->ceilingSeries().size(), 6);
    EXPECT_TRUE(window.windowTitle().contains(QLatin1Char('*')));  // unsaved
    closeDialogs(window);
}

TEST(UiImport, WithoutASessionTheImportBecomesOne)
{
    MainWindow window;
    ASSERT_TRUE(window.importFiles({importFixture(QStringLiteral("ncu_details.csv")),
                                    importFixture(QStringLiteral("likwid_mem_dp.csv"))}));
    ASSERT_EQ(window.sessionModel()->rowCount(), 1);
    const Session& session = window.sessionModel()->sessions().front().session;
    EXPECT_EQ(importedKernelCount(session), static_cast<int>(session.kernels.size()));
    EXPECT_GE(session.kernels.size(), 4u);
    EXPECT_EQ(window.chart()->kernelPointCount(), static_cast<int>(session.kernels.size()));
    closeDialogs(window);
}

TEST(UiImport, AMalformedFileImportsNothingAndSaysWhereItIsWrong)
{
    QTemporaryDir dir;
    // The second data row's flops have a decimal comma: line 3, column 6.
    const QString bad = writeFile(dir, QStringLiteral("broken.csv"),
                                  "name,flops,bytes,seconds\nk1,1e9,1e9,0.1\nk2,\"1,5\",1e9,0.1\n");
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    const int kernels = window.chart()->kernelPointCount();
    QSignalSpy errors(&window, &MainWindow::errorReported);
    QSignalSpy finished(&window, &MainWindow::importFinished);
    // All or nothing: the good file before it is not imported either.
    EXPECT_FALSE(window.importFiles({importFixture(QStringLiteral("ncu_details.csv")), bad}));
    ASSERT_EQ(errors.count(), 1);
    const QString message = errors.first().at(1).toString();
    EXPECT_TRUE(message.contains(QStringLiteral("broken.csv"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("line 3"))) << message.toStdString();
    EXPECT_TRUE(message.contains(QStringLiteral("column"))) << message.toStdString();
    EXPECT_EQ(window.findChildren<QMessageBox*>().size(), 1);
    EXPECT_EQ(finished.count(), 0);
    EXPECT_EQ(importSummary(window), nullptr);
    EXPECT_EQ(window.sessionModel()->rowCount(), 1);
    EXPECT_EQ(window.chart()->kernelPointCount(), kernels);
    EXPECT_EQ(window.kernelModel()->rowCount(), kernels);
    closeDialogs(window);
}

TEST(UiImport, TheFilterHidesRowsAndDimsKernelsThatDoNotMatchShortOrFullName)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    const int all = window.chart()->kernelPointCount();
    ASSERT_TRUE(window.importFiles({importFixture(QStringLiteral("ncu_details.csv"))}));
    closeDialogs(window);
    fixtures::layoutNow(window, QSize(1600, 1000));  // labels are placed in a laid-out plot

    window.kernelFilter()->setText(QStringLiteral("SAXPY"));  // any case
    ASSERT_EQ(window.kernelProxy()->rowCount(), 1);
    EXPECT_EQ(window.kernelProxy()->index(0, KernelTableModel::Name).data().toString(),
              QStringLiteral("saxpy_kernel"));
    EXPECT_EQ(window.chart()->kernelPointCount(), 1);
    EXPECT_EQ(window.chart()->dimmedKernelPointCount(), all + 2);
    EXPECT_TRUE(window.chart()->visibleLabels().contains(QStringLiteral("saxpy_kernel")));
    EXPECT_FALSE(window.chart()->visibleLabels().contains(QStringLiteral("dgemm_tile")));

    // "double const*" is only in dgemm_tile's full (demangled) name.
    window.kernelFilter()->setText(QStringLiteral("double const*"));
    ASSERT_EQ(window.kernelProxy()->rowCount(), 1);
    EXPECT_EQ(window.kernelProxy()->index(0, KernelTableModel::Name).data().toString(), QStringLiteral("dgemm_tile"));
    EXPECT_EQ(window.chart()->kernelPointCount(), 1);

    window.kernelFilter()->clear();
    EXPECT_EQ(window.kernelProxy()->rowCount(), all + 3);
    EXPECT_EQ(window.chart()->kernelPointCount(), all + 3);
    EXPECT_EQ(window.chart()->dimmedKernelPointCount(), 0);
}

TEST(UiImport, DroppingACsvImportsItAndASessionFileStillOpens)
{
    QTemporaryDir dir;
    const QString sessionPath = dir.filePath(QStringLiteral("zen4.json"));
    ASSERT_FALSE(saveSession(fixtures::zen4Session(), sessionPath).has_value());
    MainWindow window;
    QSignalSpy finished(&window, &MainWindow::importFinished);
    // A session and a profile in one drop: the session opens, the profile joins it.
    drop(window, {importFixture(QStringLiteral("plain.csv")), sessionPath});
    EXPECT_EQ(finished.count(), 1);
    ASSERT_EQ(window.sessionModel()->rowCount(), 1);
    EXPECT_EQ(window.currentPath(), QFileInfo(sessionPath).absoluteFilePath());
    const Session& session = window.sessionModel()->sessions().front().session;
    EXPECT_EQ(importedKernelCount(session), 4);
    EXPECT_EQ(session.computeCeilings.size(), fixtures::zen4Session().computeCeilings.size());
    closeDialogs(window);

    // ERT's roofline.json is JSON but not a session: it is imported (its ceilings, as an overlay here).
    drop(window, {importFixture(QStringLiteral("ert_roofline.json"))});
    EXPECT_EQ(finished.count(), 2);
    EXPECT_EQ(window.sessionModel()->rowCount(), 2);
    closeDialogs(window);
}
