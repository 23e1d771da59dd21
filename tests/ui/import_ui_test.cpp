// The window's side of File > Import and drag and drop of profiler files, the import summary, the
// kernel filter, and imported kernels on the chart (short labels, full names in tooltips, levels, before/after).

#include "core/session/format/session_json.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui/window_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/models/kernel_table_model.h"
#include "ui/models/session_list_model.h"
#include "ui/plots/roofline/kernel_comparison.h"

#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <gtest/gtest.h>

#include <cmath>

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

// A GPU profile that names no catalog GPU makes the window ask which one its kernels ran on. Choose
// `gpuId` ("" = none of these) in the dialog's list with the keyboard and press Import with the mouse.
void answerGpuQuestion(QWidget& window, const QString& gpuId)
{
    QDialog* dialog = nullptr;  // a dialog closed before is deleted later: the visible one asks
    for (QDialog* candidate : window.findChildren<QDialog*>(QStringLiteral("ImportGpuDialog")))
        if (candidate->isVisible())
            dialog = candidate;
    ASSERT_NE(dialog, nullptr) << "the window did not ask which GPU";
    auto* list = dialog->findChild<QComboBox*>(QStringLiteral("ImportGpuList"));
    ASSERT_NE(list, nullptr);
    const int target = gpuId.isEmpty() ? list->count() - 1 : list->findData(gpuId);
    ASSERT_GT(target, 0) << gpuId.toStdString();
    QPushButton* import = nullptr;
    for (QPushButton* button : dialog->findChildren<QPushButton*>())
        if (button->text() == QStringLiteral("Import"))
            import = button;
    ASSERT_NE(import, nullptr);
    EXPECT_FALSE(import->isEnabled());  // nothing chosen yet
    list->setFocus();
    while (list->currentIndex() < target)
        QTest::keyClick(list, Qt::Key_Down);
    ASSERT_EQ(list->currentIndex(), target);
    ASSERT_TRUE(import->isEnabled());
    QTest::mouseClick(import, Qt::LeftButton);
}

QStringList legendLabels(RooflineChart& chart)
{
    QStringList labels;
    for (const LegendEntry& entry : chart.legend().entries())
        labels << entry.text;
    return labels;
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
    // The file does not name its GPU: nothing changes until the window is told which GPU it was.
    EXPECT_EQ(finished.count(), 0);
    EXPECT_EQ(window.chart()->kernelPointCount(), before);
    answerGpuQuestion(window, QStringLiteral("a100-40gb-sxm"));
    ASSERT_EQ(finished.count(), 1);
    // The summary names the file, the kernel count, the skipped rows with their reasons and the GPU chosen.
    const QString summary = finished.first().at(0).toStringList().join(QLatin1Char('\n'));
    EXPECT_TRUE(summary.contains(QStringLiteral("ncu_details.csv (ncu): 3 kernels, 2 skipped")))
        << summary.toStdString();
    EXPECT_TRUE(summary.contains(QStringLiteral("copy_kernel (ID 3)"))) << summary.toStdString();
    EXPECT_TRUE(
        summary.contains(QStringLiteral("3 kernels drawn on the roofline of NVIDIA A100 40GB SXM4 (chosen on "
                                        "import)")))
        << summary.toStdString();
    QDialog* dialog = importSummary(window);
    ASSERT_NE(dialog, nullptr);
    EXPECT_TRUE(dialog->isVisible());
    fixtures::grabImage(*dialog).save(fixtures::outputPath(QStringLiteral("import_summary.png")));

    // One primary session, now with the three kernels; the measured ceilings stay, and the A100's roofs join them
    // (not as this CPU's ceilings).
    EXPECT_EQ(window.sessionModel()->rowCount(), 1);
    EXPECT_EQ(window.chart()->kernelPointCount(), before + 3);
    EXPECT_EQ(window.kernelModel()->rowCount(), before + 3);
    EXPECT_EQ(window.chart()->ceilingSeries().size(), 6);
    EXPECT_TRUE(window.windowTitle().contains(QLatin1Char('*')));  // unsaved
    const RooflinePlot& plot = window.chart()->plot();
    QStringList gpuRoofs;
    for (const PlotRoof& roof : plot.roofs)
        if (roof.kind == RoofKind::DeviceBandwidth || roof.kind == RoofKind::DeviceCompute)
            gpuRoofs << QStringLiteral("%1 %2").arg(roof.name).arg(roof.value);
    EXPECT_EQ(
        gpuRoofs,
        QStringList({QStringLiteral("A100 40GB SXM4 bf16 tensor 312000"), QStringLiteral("A100 40GB SXM4 fp32 19500"),
                     QStringLiteral("A100 40GB SXM4 fp64 9700"), QStringLiteral("A100 40GB SXM4 HBM2 1555"),
                     QStringLiteral("A100 40GB SXM4 L2 5400"), QStringLiteral("A100 40GB SXM4 L1/shared 19100")}));
    // "Of roof" is against the A100: saxpy's 97.5 GFLOP/s at 0.1667 FLOP/byte under 1,555 GB/s is 37.6 %, where
    // this CPU's roof gave it more than 1000 %; and the explanation says whose roof it is.
    const Session& session = window.sessionModel()->sessions().front().session;
    const auto saxpy = std::find_if(session.kernels.begin(), session.kernels.end(),
                                    [](const KernelResult& k) { return k.name == QLatin1String("saxpy_kernel"); });
    ASSERT_NE(saxpy, session.kernels.end());
    const int row = static_cast<int>(saxpy - session.kernels.begin());
    const double expected = 100.0 * saxpy->gflops / (saxpy->intensity * 1555.0);
    EXPECT_NEAR(expected, 37.6, 0.1);
    EXPECT_NEAR(
        window.kernelModel()->index(row, KernelTableModel::PercentOfRoof).data(KernelTableModel::SortRole).toDouble(),
        expected, 1e-9);
    EXPECT_EQ(window.kernelModel()->index(row, KernelTableModel::Bound).data().toString(), QStringLiteral("memory"));
    closeDialogs(window);
    fixtures::layoutNow(window, QSize(1600, 1000));
    // Choose saxpy in the Kernels table with the mouse: the explanation follows.
    auto* table = window.findChild<QTableView*>();
    ASSERT_NE(table, nullptr);
    const QModelIndex cell =
        window.kernelProxy()->mapFromSource(window.kernelModel()->index(row, KernelTableModel::Name));
    table->scrollTo(cell);
    QTest::mouseClick(table->viewport(), Qt::LeftButton, Qt::NoModifier, table->visualRect(cell).center());
    const QString explanation = window.explanationHtml();
    EXPECT_TRUE(
        explanation.contains(QStringLiteral("NVIDIA A100 40GB SXM4</span>: compared with that GPU's catalog roof")))
        << explanation.toStdString();
    EXPECT_TRUE(explanation.contains(QStringLiteral("1,555 GB/s")) || explanation.contains(QStringLiteral("1555")))
        << explanation.toStdString();
    EXPECT_FALSE(explanation.contains(QStringLiteral("quiet machine"))) << explanation.toStdString();
    // Two machines on one chart, said on it; the legend names the marker of each level.
    const QString labels = window.chart()->visibleLabels().join(u'|');
    EXPECT_TRUE(labels.contains(QStringLiteral("Machines mixed on one chart:"))) << labels.toStdString();
    const QStringList legend = legendLabels(*window.chart());
    for (const char* level :
         {"GPU kernels: bytes at DRAM/HBM", "GPU kernels: bytes at L2", "GPU kernels: bytes at L1/shared"})
        EXPECT_TRUE(legend.contains(QString::fromLatin1(level))) << legend.join(u'|').toStdString();
    // As drawn: no legend entry or label cut short.
    const QStringList cut = fixtures::truncated(fixtures::sceneTexts(window.chart()));
    EXPECT_TRUE(cut.isEmpty()) << cut.join(u'|').toStdString();
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("import_gpu_over_cpu_1600x1000.png")));
}

// Closing the question imports nothing; "none of these" imports the kernels without a roof, and the
// chart says so instead of comparing them with this CPU's roof.
TEST(UiImport, ClosingTheGpuQuestionImportsNothingAndNoneOfTheseKeepsThemWithoutARoof)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    const int before = window.chart()->kernelPointCount();
    QSignalSpy finished(&window, &MainWindow::importFinished);
    ASSERT_TRUE(window.importFiles({importFixture(QStringLiteral("ncu_details.csv"))}));
    auto* dialog = window.findChild<QDialog*>(QStringLiteral("ImportGpuDialog"));
    ASSERT_NE(dialog, nullptr);
    QTest::keyClick(dialog, Qt::Key_Escape);
    EXPECT_EQ(finished.count(), 0);
    EXPECT_EQ(window.chart()->kernelPointCount(), before);
    EXPECT_EQ(window.sessionModel()->sessions().front().session.kernels.size(), fixtures::zen4Session().kernels.size());

    ASSERT_TRUE(window.importFiles({importFixture(QStringLiteral("ncu_details.csv"))}));
    answerGpuQuestion(window, QString());
    ASSERT_EQ(finished.count(), 1);
    EXPECT_EQ(window.chart()->kernelPointCount(), before + 3);
    const Session& session = window.sessionModel()->sessions().front().session;
    const int saxpy = static_cast<int>(session.kernels.size()) - 3;
    EXPECT_EQ(session.kernels[static_cast<std::size_t>(saxpy)].name, QStringLiteral("saxpy_kernel"));
    // No "of roof" at all rather than this CPU's, and the explanation says why.
    EXPECT_FALSE(window.kernelModel()->index(saxpy, KernelTableModel::PercentOfRoof).data().isValid());
    closeDialogs(window);
    fixtures::layoutNow(window, QSize(1600, 1000));
    const QString labels = window.chart()->visibleLabels().join(u'|');
    EXPECT_TRUE(labels.contains(QStringLiteral("3 GPU kernels without a roof"))) << labels.toStdString();
}

TEST(UiImport, WithoutASessionTheImportBecomesOne)
{
    MainWindow window;
    ASSERT_TRUE(window.importFiles(
        {importFixture(QStringLiteral("ncu_details.csv")), importFixture(QStringLiteral("likwid_mem_dp.csv"))}));
    answerGpuQuestion(window, QStringLiteral("h100-sxm"));
    // The GPU kernels make the new session; likwid's ran on a CPU of their own (a Xeon Gold 6148), an overlay.
    ASSERT_EQ(window.sessionModel()->rowCount(), 2);
    const Session& session = window.sessionModel()->sessions().front().session;
    EXPECT_EQ(importedKernelCount(session), static_cast<int>(session.kernels.size()));
    EXPECT_EQ(session.kernels.size(), 3u);
    const Session& cpu = window.sessionModel()->sessions().back().session;
    EXPECT_EQ(cpu.machine.cpuModel, QStringLiteral("Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz"));
    EXPECT_EQ(cpu.kernels.size(), 2u);
    EXPECT_EQ(window.chart()->kernelPointCount(), static_cast<int>(session.kernels.size() + cpu.kernels.size()));
    closeDialogs(window);
}

TEST(UiImport, AMalformedFileImportsNothingAndSaysWhereItIsWrong)
{
    QTemporaryDir dir;
    // The second data row's flops have a decimal comma: line 3, column 6.
    const QString bad =
        writeFile(dir, QStringLiteral("broken.csv"), "name,flops,bytes,seconds\nk1,1e9,1e9,0.1\nk2,\"1,5\",1e9,0.1\n");
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
    answerGpuQuestion(window, QStringLiteral("a100-40gb-sxm"));
    closeDialogs(window);
    fixtures::layoutNow(window, QSize(1600, 1000));  // labels are placed in a laid-out plot

    window.kernelFilter()->setText(QStringLiteral("SAXPY"));  // any case
    ASSERT_EQ(window.kernelProxy()->rowCount(), 1);
    EXPECT_EQ(window.kernelProxy()->index(0, KernelTableModel::Name).data().toString(), QStringLiteral("saxpy_kernel"));
    EXPECT_EQ(window.chart()->kernelPointCount(), 1);
    EXPECT_EQ(window.chart()->dimmedKernelPointCount(), all + 2);
    const QString labels = window.chart()->visibleLabels().join(u'|');
    EXPECT_TRUE(labels.contains(QStringLiteral("saxpy_kernel"))) << labels.toStdString();
    EXPECT_FALSE(labels.contains(QStringLiteral("dgemm_tile"))) << labels.toStdString();

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
    fixtures::dropFiles(window, {importFixture(QStringLiteral("plain.csv")), sessionPath});
    EXPECT_EQ(finished.count(), 1);
    ASSERT_EQ(window.sessionModel()->rowCount(), 1);
    EXPECT_EQ(window.currentPath(), QFileInfo(sessionPath).absoluteFilePath());
    const Session& session = window.sessionModel()->sessions().front().session;
    EXPECT_EQ(importedKernelCount(session), 4);
    EXPECT_EQ(session.computeCeilings.size(), fixtures::zen4Session().computeCeilings.size());
    closeDialogs(window);

    // ERT's roofline.json is JSON but not a session: it is imported (its ceilings, as an overlay here).
    fixtures::dropFiles(window, {importFixture(QStringLiteral("ert_roofline.json"))});
    EXPECT_EQ(finished.count(), 2);
    EXPECT_EQ(window.sessionModel()->rowCount(), 2);
    closeDialogs(window);
}

// Likwid logs of one run with a group each (FLOPS_DP_N.log, L3_N.log) dropped together become one kernel
// with FLOPs and bytes, as `ridgeline import` reads them; one by one each was refused.
TEST(UiImport, DroppingOneGroupLikwidLogsOfOneRunImportsOneKernelWithFlopsAndBytes)
{
    QTemporaryDir dir;
    const QByteArray banner =
        "--------------------------------------------------------------------------------\n"
        "CPU name:\tIntel(R) Core(TM) i5-7500 CPU @ 3.40GHz\n"
        "--------------------------------------------------------------------------------\n";
    const QString flops = writeFile(dir, QStringLiteral("FLOPS_DP_64.log"),
                                    banner +
                                        "TABLE,Region mv,Group 1 Metric,FLOPS_DP,2\nMetric,Core 3,\n"
                                        "Runtime (RDTSC) [s],0.5,\nDP MFLOP/s,800,\n");
    const QString mem = writeFile(dir, QStringLiteral("MEM_64.log"),
                                  banner +
                                      "TABLE,Region mv,Group 1 Metric,MEM,2\nMetric,Core 3,\n"
                                      "Runtime (RDTSC) [s],0.5,\nMemory data volume [GBytes],2,\n");
    MainWindow window;
    QSignalSpy finished(&window, &MainWindow::importFinished);
    QSignalSpy errors(&window, &MainWindow::errorReported);
    fixtures::dropFiles(window, {flops, mem});
    ASSERT_EQ(errors.count(), 0) << errors.value(0).value(1).toString().toStdString();
    ASSERT_EQ(finished.count(), 1);
    ASSERT_EQ(window.sessionModel()->rowCount(), 1);
    const Session& session = window.sessionModel()->sessions().front().session;
    ASSERT_EQ(session.kernels.size(), 1u);
    EXPECT_DOUBLE_EQ(session.kernels[0].flops, 800e6 * 0.5);
    EXPECT_DOUBLE_EQ(session.kernels[0].bytes, 2e9);
    EXPECT_EQ(window.chart()->kernelPointCount(), 1);
    closeDialogs(window);
}

namespace {

QStringList g_messages;

void collectMessage(QtMsgType, const QMessageLogContext&, const QString& message)
{
    g_messages << message;
}

int kernelIndex(const Session& session, const QString& name, const QString& group = {})
{
    for (int i = 0; i < static_cast<int>(session.kernels.size()); ++i) {
        const KernelResult& k = session.kernels[static_cast<std::size_t>(i)];
        if (k.name == name && (group.isEmpty() || k.group == group))
            return i;
    }
    return -1;
}

}  // namespace

TEST(UiImport, TheLabelIsTheShortNameAndTheTooltipHasTheFullNameFileLevelAndTime)
{
    MainWindow window;
    ASSERT_TRUE(window.importFiles({importFixture(QStringLiteral("ncu_details.csv"))}));
    answerGpuQuestion(window, QStringLiteral("a100-40gb-sxm"));
    closeDialogs(window);
    fixtures::layoutNow(window, QSize(1600, 1000));
    const Session& session = window.sessionModel()->sessions().front().session;
    const int dgemm = kernelIndex(session, QStringLiteral("dgemm_tile"));
    ASSERT_GE(dgemm, 0);
    const QString tooltip = window.chart()->kernelTooltip(0, dgemm);
    // The file has the mangled _Z10dgemm_tilePKdS0_Pdi; the tooltip shows it demangled in full.
    EXPECT_TRUE(tooltip.contains(QStringLiteral("dgemm_tile(double const*, double const*, double*, int)")))
        << tooltip.toStdString();
    EXPECT_TRUE(tooltip.contains(QStringLiteral("ncu_details.csv (ncu)"))) << tooltip.toStdString();
    EXPECT_TRUE(tooltip.contains(QStringLiteral("bytes at DRAM"))) << tooltip.toStdString();
    EXPECT_TRUE(tooltip.contains(QStringLiteral("per run"))) << tooltip.toStdString();
    // Template arguments are escaped, not swallowed as HTML tags.
    const int saxpy = kernelIndex(session, QStringLiteral("saxpy_kernel"));
    EXPECT_TRUE(window.chart()->kernelTooltip(0, saxpy).contains(QStringLiteral("saxpy_kernel&lt;float&gt;")));
    EXPECT_TRUE(tooltip.contains(QStringLiteral("of attainable on NVIDIA A100 40GB SXM4"))) << tooltip.toStdString();
    // On the chart: the short name, with the level of the filled dot; a GPU kernel's other levels are markers of
    // their level's shape, which the legend names, rather than tags.
    const QStringList labels = window.chart()->visibleLabels();
    EXPECT_TRUE(labels.contains(QStringLiteral("dgemm_tile (DRAM)"))) << labels.join(u'|').toStdString();
    EXPECT_FALSE(labels.contains(QStringLiteral("L2"))) << labels.join(u'|').toStdString();
    EXPECT_TRUE(legendLabels(*window.chart()).contains(QStringLiteral("GPU kernels: bytes at L2")));
    EXPECT_FALSE(labels.join(u'|').contains(QStringLiteral("double const*")));
}

TEST(UiImport, BeforeAndAfterGroupsOfPlainCsvGetAnArrowWithThePercentChange)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    ASSERT_TRUE(window.importFiles({importFixture(QStringLiteral("plain.csv"))}));
    closeDialogs(window);
    fixtures::layoutNow(window, QSize(1600, 1000));
    // stencil_3d: 1.6 GFLOP in 0.2 s before (8 GFLOP/s), in 0.08 s after (20 GFLOP/s): +150 %.
    EXPECT_EQ(window.chart()->beforeAfterArrowCount(), 1);
    const QStringList labels = window.chart()->visibleLabels();
    EXPECT_TRUE(labels.contains(QStringLiteral("+150 %"))) << labels.join(u'|').toStdString();
    // The "before" end is the arrow's tail: at most the "after" end is named.
    EXPECT_LE(labels.count(QStringLiteral("stencil_3d (DRAM)")), 1);
    EXPECT_EQ(labels.count(QStringLiteral("stencil_3d")), 0);
    // The arrow's pixels run between the two points, in the "better" green.
    const Session& session = window.sessionModel()->sessions().front().session;
    const KernelResult& before = session.kernels[static_cast<std::size_t>(
        kernelIndex(session, QStringLiteral("stencil_3d"), QStringLiteral("before")))];
    const KernelResult& after = session.kernels[static_cast<std::size_t>(
        kernelIndex(session, QStringLiteral("stencil_3d"), QStringLiteral("after")))];
    const QPoint from = window.chart()->viewportPosition(QPointF(before.intensity, before.gflops));
    const QPoint to = window.chart()->viewportPosition(QPointF(after.intensity, after.gflops));
    const QImage image = window.chart()->viewport()->grab().toImage();
    EXPECT_TRUE(fixtures::colorNear(image, (from + to) / 2, QColor(0x00, 0x87, 0x62), 3));

    // Filtered out, the arrow goes with its kernels.
    window.kernelFilter()->setText(QStringLiteral("dgemm"));
    EXPECT_EQ(window.chart()->beforeAfterArrowCount(), 0);
}

TEST(UiImport, TwoImportsOfTheSameKernelsCompareFileToFile)
{
    QTemporaryDir dir;
    const QString a =
        writeFile(dir, QStringLiteral("run1.csv"), "name,flops,bytes,seconds\nk,1e9,1e9,0.1\nz,1e9,1e8,1\n");
    const QString b = writeFile(dir, QStringLiteral("run2.csv"), "name,flops,bytes,seconds\nk,1e9,1e9,0.125\n");
    MainWindow window;
    ASSERT_TRUE(window.importFiles({a, b}));
    closeDialogs(window);
    fixtures::layoutNow(window, QSize(1600, 1000));
    EXPECT_EQ(window.chart()->beforeAfterArrowCount(), 1);
    // 10 -> 8 GFLOP/s.
    EXPECT_TRUE(window.chart()->visibleLabels().contains(QStringLiteral("−20 %")))
        << window.chart()->visibleLabels().join(u'|').toStdString();
}

// Ctrl+Shift+N (View > Name Every Kernel), pressed on the window: of a profile's 40 kernels imported into a measured
// session, spread over the plot, the chart names the points that matter (selected, extreme, largest) and counts the
// rest in a note; the shortcut names every one that has room, the note says what is still left out, and the choice is
// remembered.
TEST(UiImport, CtrlShiftNNamesEveryKernelThatHasRoom)
{
    QSettings().remove(QStringLiteral("chart/allKernelNames"));
    QTemporaryDir dir;
    QByteArray csv = "name,flops,bytes,seconds\n";
    for (int i = 0; i < 40; ++i) {
        // Intensities from 0.1 to 1000 FLOP/byte, 1 to 100 GFLOP/s, so that the dots stand apart.
        const double intensity = std::pow(10.0, -1.0 + 4.0 * (i % 8) / 7.0);
        const double gflops = std::pow(10.0, 0.5 * (i / 8));
        csv += QStringLiteral("k%1,%2,%3,1\n").arg(i).arg(gflops * 1e9).arg(gflops * 1e9 / intensity).toUtf8();
    }
    const QString path = writeFile(dir, QStringLiteral("forty.csv"), csv);
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    ASSERT_TRUE(window.importFiles({path}));
    closeDialogs(window);
    fixtures::showActive(window, QSize(1280, 800));
    const std::size_t before = window.chart()->kernelLabelRects().size();
    ASSERT_LT(before, 40u) << window.chart()->visibleLabels().join(u'|').toStdString();
    ASSERT_TRUE(window.chart()->visibleLabels().join(u'|').contains(QStringLiteral("Ctrl+Shift+N")));

    QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_TRUE(window.chart()->options().allKernelNames);
    const std::vector<QRectF> rects = window.chart()->kernelLabelRects();
    EXPECT_GT(rects.size(), before);
    for (std::size_t i = 0; i < rects.size(); ++i)
        for (std::size_t j = i + 1; j < rects.size(); ++j)
            EXPECT_FALSE(rects[i].intersects(rects[j])) << i << ' ' << j;
    EXPECT_FALSE(window.chart()->visibleLabels().join(u'|').contains(QStringLiteral("Ctrl+Shift+N")));
    EXPECT_TRUE(QSettings().value(QStringLiteral("chart/allKernelNames")).toBool());

    QTest::keyClick(&window, Qt::Key_N, Qt::ControlModifier | Qt::ShiftModifier);
    EXPECT_FALSE(window.chart()->options().allKernelNames);
    EXPECT_EQ(window.chart()->kernelLabelRects().size(), before);
}

TEST(UiImport, SizeByTimeShareGivesDotsAnAreaInProportionToTheirShare)
{
    QTemporaryDir dir;
    // Shares 64 %, 16 %, 16 %, 4 % of 1 s: diameters in the ratio 4 : 2 : 2 : 1 (area in proportion).
    const QString path = writeFile(dir, QStringLiteral("shares.csv"),
                                   "name,flops,bytes,seconds\nbig,6.4e9,1e9,0.64\nmid,1.6e9,1e8,0.16\n"
                                   "mid2,1.6e9,1e10,0.16\nsmall,4e8,1e9,0.04\n");
    MainWindow window;
    ASSERT_TRUE(window.importFiles({path}));
    closeDialogs(window);
    RooflineChart* chart = window.chart();
    const double plain = chart->kernelMarkerSize(0, 0);
    EXPECT_DOUBLE_EQ(chart->kernelMarkerSize(0, 3), plain);
    window.sizeByTimeAction()->setChecked(true);
    const double big = chart->kernelMarkerSize(0, 0);
    const double mid = chart->kernelMarkerSize(0, 1);
    const double small = chart->kernelMarkerSize(0, 3);
    EXPECT_NEAR(big / mid, 2.0, 1e-9);
    EXPECT_NEAR(mid / small, 2.0, 1e-9);
    EXPECT_GT(big, 3.0 * plain / 1.5);
    // The big dot really is big on screen: a pixel well off its centre is still its colour.
    fixtures::layoutNow(window, QSize(1600, 1000));
    const Session& session = window.sessionModel()->sessions().front().session;
    const QPoint centre = chart->viewportPosition(QPointF(session.kernels[0].intensity, session.kernels[0].gflops));
    const QImage image = chart->viewport()->grab().toImage();
    const QColor ink = chart->theme().kernelColor(QStringLiteral("imported"));
    EXPECT_TRUE(fixtures::colorNear(image, centre + QPoint(static_cast<int>(big / 2.0) - 5, 0), ink, 1));
    {
        // The choice is a preference: the next window starts with it.
        MainWindow next;
        EXPECT_TRUE(next.sizeByTimeAction()->isChecked());
        EXPECT_TRUE(next.chart()->options().sizeByTimeShare);
    }
    window.sizeByTimeAction()->setChecked(false);
    EXPECT_DOUBLE_EQ(chart->kernelMarkerSize(0, 0), plain);
    MainWindow after;
    EXPECT_FALSE(after.sizeByTimeAction()->isChecked());
}

// Regression: a session of imports only has no roofs; the axes come from the kernels, and Qt must not
// be asked for the logarithm of zero.
TEST(UiImport, AnImportOnlySessionDrawsWithoutLogarithmWarnings)
{
    g_messages.clear();
    const QtMessageHandler previous = qInstallMessageHandler(collectMessage);
    {
        MainWindow window;
        EXPECT_TRUE(window.importFiles(
            {importFixture(QStringLiteral("ncu_details.csv")), importFixture(QStringLiteral("plain.csv"))}));
        answerGpuQuestion(window, QStringLiteral("a100-40gb-sxm"));
        closeDialogs(window);
        fixtures::layoutNow(window, QSize(1600, 1000));
        window.chart()->resetView();
        fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("import_only_1600x1000.png")));
        EXPECT_GT(window.chart()->visibleLabels().size(), 4);
        MainWindow ert;
        EXPECT_TRUE(ert.importFiles({importFixture(QStringLiteral("ert_roofline.json"))}));
        closeDialogs(ert);
        fixtures::layoutNow(ert, QSize(1600, 1000));
        EXPECT_FALSE(ert.chart()->ceilingSeries().isEmpty());
        fixtures::grabImage(ert).save(fixtures::outputPath(QStringLiteral("import_ert_1600x1000.png")));
    }
    qInstallMessageHandler(previous);
    const QStringList logs = g_messages.filter(QStringLiteral("ogarithm"));
    EXPECT_TRUE(logs.isEmpty()) << logs.join(u'\n').toStdString();
}

TEST(UiImport, GrabsOfImportedKernelsOverAMeasuredSession)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    ASSERT_TRUE(window.importFiles({importFixture(QStringLiteral("ncu_details.csv")),
                                    importFixture(QStringLiteral("plain.csv")),
                                    importFixture(QStringLiteral("likwid_mem_dp.csv"))}));
    answerGpuQuestion(window, QStringLiteral("a100-40gb-sxm"));
    closeDialogs(window);
    for (const QSize size : {QSize(1600, 1000), QSize(1920, 1080)}) {
        fixtures::layoutNow(window, size);
        const QImage image = fixtures::grabImage(window);
        EXPECT_EQ(image.size(), size);
        image.save(fixtures::outputPath(QStringLiteral("import_%1x%2.png").arg(size.width()).arg(size.height())));
        // Every imported kernel is named on the chart, or counted in the note beside it with how to read it.
        const QString labels = window.chart()->visibleLabels().join(u'|');
        int named = 0;
        for (const QString& name :
             {QStringLiteral("saxpy_kernel"), QStringLiteral("dgemm_tile"), QStringLiteral("cutlass::Kernel"),
              QStringLiteral("stencil_3d"), QStringLiteral("dgemm 1024"), QStringLiteral("conv2d")})
            named += labels.contains(name) ? 1 : 0;
        EXPECT_GE(named, 2) << labels.toStdString();
        if (named < 6) {
            EXPECT_TRUE(labels.contains(QStringLiteral("kernel name(s) not shown"))) << labels.toStdString();
        }
        // No two kernel labels overlap.
        const std::vector<QRectF> rects = window.chart()->kernelLabelRects();
        for (std::size_t i = 0; i < rects.size(); ++i)
            for (std::size_t j = i + 1; j < rects.size(); ++j)
                EXPECT_FALSE(rects[i].intersects(rects[j])) << i << ' ' << j;
    }
    window.sizeByTimeAction()->setChecked(true);
    fixtures::layoutNow(window, QSize(1920, 1080));
    fixtures::grabImage(window).save(fixtures::outputPath(QStringLiteral("import_time_share_1920x1080.png")));
    ChartOptions dark = window.chart()->options();
    dark.theme = ThemeKind::Dark;
    window.chart()->setOptions(dark);
    fixtures::layoutNow(window, QSize(1920, 1080));
    fixtures::grabImage(*window.chart()).save(fixtures::outputPath(QStringLiteral("import_dark_chart.png")));
    window.sizeByTimeAction()->setChecked(false);  // a saved preference: leave it as the next test expects
}

TEST(UiImport, BeforeAfterPairsFollowGroupNamesThenFileOrderAndMatchFullNames)
{
    auto kernel = [](const QString& name, const QString& fullName, const QString& group, const QString& source,
                     double gflops) {
        KernelResult k;
        k.kind = QStringLiteral("imported");
        k.name = name;
        k.fullName = fullName;
        k.group = group;
        k.source = source;
        k.gflops = gflops;
        k.intensity = 1.0;
        return k;
    };
    Session session;
    const QString a = QStringLiteral("a.csv (ncu)");
    const QString b = QStringLiteral("b.csv (ncu)");
    session.kernels = {kernel(QStringLiteral("k"), QStringLiteral("void k<float>()"), {}, a, 10.0),
                       kernel(QStringLiteral("k"), QStringLiteral("void k<double>()"), {}, a, 5.0),
                       kernel(QStringLiteral("k"), QStringLiteral("void k<float>()"), {}, b, 12.0),
                       kernel(QStringLiteral("k"), QStringLiteral("void k<float>()"), {}, b, 99.0),  // 2nd launch
                       kernel(QStringLiteral("s"), {}, QStringLiteral("After"), a, 30.0),
                       kernel(QStringLiteral("s"), {}, QStringLiteral("BEFORE"), a, 20.0)};
    const std::vector<KernelChange> changes = beforeAfterChanges(session);
    ASSERT_EQ(changes.size(), 2u);
    // k<float>: a.csv's to b.csv's first launch; k<double> has no partner (full names differ).
    EXPECT_EQ(changes[0].before, 0);
    EXPECT_EQ(changes[0].after, 2);
    EXPECT_NEAR(changes[0].percentGflops, 20.0, 1e-9);
    // s: "before" comes first whatever the order in the file, and any case.
    EXPECT_EQ(changes[1].before, 5);
    EXPECT_EQ(changes[1].after, 4);
    EXPECT_NEAR(changes[1].percentGflops, 50.0, 1e-9);
    EXPECT_EQ(formatPercentChange(50.0), QStringLiteral("+50 %"));
    EXPECT_EQ(formatPercentChange(-4.34), QStringLiteral("−4.3 %"));
    // One group only: nothing to compare.
    session.kernels.resize(2);
    EXPECT_TRUE(beforeAfterChanges(session).empty());
}

TEST(UiImport, ManyBeforeAfterPairsGiveAHintInsteadOfAThicketAndTheFilterBringsArrowsBack)
{
    QTemporaryDir dir;
    QByteArray csv = "name,flops,bytes,seconds,group\n";
    for (int i = 0; i < 45; ++i)
        csv += QStringLiteral("kernel_%1,1e9,%2,0.1,before\nkernel_%1,1e9,%2,0.05,after\n")
                   .arg(i)
                   .arg(1e7 * (i + 1))
                   .toUtf8();
    const QString path = writeFile(dir, QStringLiteral("pairs.csv"), csv);
    MainWindow window;
    ASSERT_TRUE(window.importFiles({path}));
    closeDialogs(window);
    fixtures::layoutNow(window, QSize(1600, 1000));
    EXPECT_EQ(window.chart()->beforeAfterArrowCount(), 0);
    EXPECT_TRUE(window.chart()->visibleLabels().join(u'|').contains(QStringLiteral("45 before/after pairs")));
    window.kernelFilter()->setText(QStringLiteral("kernel_7"));
    EXPECT_EQ(window.chart()->beforeAfterArrowCount(), 1);
    EXPECT_TRUE(window.chart()->visibleLabels().contains(QStringLiteral("+100 %")));
}
