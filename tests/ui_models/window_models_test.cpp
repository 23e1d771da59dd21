// The plain data behind the window's issue-15 parts: the kernel table's columns with units, removing a kernel
// with undo in the document, the staircase's ticks and plateaus, default export names and folders, and the dark
// theme's DRAM roof against its background.

#include "core/model/units.h"
#include "tests/ui_models/test_session.h"
#include "ui/models/export_naming.h"
#include "ui/models/kernel_table_model.h"
#include "ui/models/session_document.h"
#include "ui/models/settings.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/roofline/bandwidth_staircase.h"

#include <QDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUndoStack>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

TEST(KernelTable, TimeShareFlopsBytesAndSpreadColumnsCarryUnits)
{
    KernelTableModel model;
    const Session s = fixtures::zen4Session();
    model.setSession(s);
    const auto text = [&](int row, int column) { return model.index(row, column).data().toString(); };
    // sgemm 4096: 2 x 4096^3 = 137 GFLOP, 12 x 4096^2 = 201 MB, at 200 GFLOP/s = 0.687 s.
    ASSERT_EQ(text(3, KernelTableModel::Name), QStringLiteral("sgemm 4096"));
    EXPECT_EQ(text(3, KernelTableModel::Flops), QStringLiteral("137 GFLOP"));
    EXPECT_EQ(text(3, KernelTableModel::Bytes), QStringLiteral("201 MB"));
    EXPECT_EQ(text(3, KernelTableModel::Time), QStringLiteral("687.19 ms"));
    // Spread: the fixture's runs take 0.98x to 1.04x the median: 6 % apart, shown as half of it either side.
    EXPECT_NEAR(model.index(3, KernelTableModel::Spread).data(KernelTableModel::SortRole).toDouble(), 6.0, 1e-9);
    EXPECT_TRUE(text(3, KernelTableModel::Spread).startsWith(QStringLiteral("±3"))) << text(3, 12).toStdString();
    EXPECT_TRUE(text(3, KernelTableModel::Spread).endsWith(QStringLiteral(" %")));
    // Shares of the measurement's kernel time add up to 100 %.
    double total = 0.0;
    for (int row = 0; row < model.rowCount(); ++row)
        total += model.index(row, KernelTableModel::TimeShare).data(KernelTableModel::SortRole).toDouble();
    EXPECT_NEAR(total, 1.0, 1e-9);
    EXPECT_TRUE(text(3, KernelTableModel::TimeShare).endsWith(QStringLiteral(" %")));
    for (int column = 0; column < KernelTableModel::ColumnCount; ++column)
        EXPECT_FALSE(model.headerData(column, Qt::Horizontal).toString().isEmpty()) << column;
    // A kernel without a time reads "–", not "0 s" or "nan".
    Session unknown = s;
    unknown.kernels[0].seconds = 0.0;
    unknown.kernels[0].spread = {};
    model.setSession(unknown);
    EXPECT_EQ(text(0, KernelTableModel::Time), QStringLiteral("\u2013"));
    EXPECT_EQ(text(0, KernelTableModel::TimeShare), QStringLiteral("\u2013"));
    EXPECT_EQ(text(0, KernelTableModel::Spread), QStringLiteral("\u2013"));
}

TEST(SessionDocumentEdits, RemovingAKernelIsUndoableAndMarksTheDocumentUnsavedUntilUndone)
{
    Settings settings;
    SessionDocument doc(&settings);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("zen4.json"));
    doc.setSession(fixtures::zen4Session());
    ASSERT_TRUE(doc.save(path));
    ASSERT_FALSE(doc.isDirty());
    QSignalSpy changed(&doc, &SessionDocument::changed);
    const int before = static_cast<int>(doc.primary()->kernels.size());
    ASSERT_TRUE(doc.removeKernel(3));
    EXPECT_EQ(static_cast<int>(doc.primary()->kernels.size()), before - 1);
    EXPECT_EQ(doc.primary()->kernels[3].name, QStringLiteral("add 2048"));
    EXPECT_TRUE(doc.isDirty());
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(doc.undoStack()->undoText(), QStringLiteral("Remove Kernel sgemm 4096"));
    doc.undoStack()->undo();
    EXPECT_EQ(doc.primary()->kernels[3].name, QStringLiteral("sgemm 4096"));
    EXPECT_FALSE(doc.isDirty()) << "back to what is on disk";
    doc.undoStack()->redo();
    EXPECT_TRUE(doc.isDirty());
    ASSERT_TRUE(doc.save(path));
    EXPECT_FALSE(doc.isDirty());
    EXPECT_FALSE(doc.removeKernel(99));
    // Opening another session forgets the edits of this one.
    ASSERT_TRUE(doc.open(path));
    EXPECT_FALSE(doc.undoStack()->canUndo());
    EXPECT_EQ(static_cast<int>(doc.primary()->kernels.size()), before - 1);
}

TEST(SessionDocumentEdits, ABuiltInSessionIsNotUnsavedAndHasNoFile)
{
    Settings settings;
    SessionDocument doc(&settings);
    doc.showBuiltIn(fixtures::zen4Session(), QStringLiteral("Bundled measurement"));
    EXPECT_FALSE(doc.isDirty());
    EXPECT_TRUE(doc.currentPath().isEmpty());
    EXPECT_EQ(doc.displayName(), QStringLiteral("Bundled measurement"));
    doc.setSession(fixtures::zen4Session());
    EXPECT_TRUE(doc.isDirty());
    EXPECT_EQ(doc.displayName(), QStringLiteral("Unsaved measurement"));
}

TEST(Staircase, DecadeTicksWithMinorLabelsAtTwoAndFive)
{
    const std::vector<StaircaseTick> ticks = decadeTicks(15.0, 1100.0);
    QStringList labels;
    for (const StaircaseTick& t : ticks)
        labels << t.label;
    EXPECT_EQ(labels, QStringList({QStringLiteral("20"), QStringLiteral("50"), QStringLiteral("100"),
                                   QStringLiteral("200"), QStringLiteral("500"), QStringLiteral("1,000")}));
    EXPECT_TRUE(ticks[2].major);
    EXPECT_FALSE(ticks[1].major);
    EXPECT_DOUBLE_EQ(ticks[2].position, 2.0);
    EXPECT_TRUE(decadeTicks(0.0, 10.0).empty());
}

TEST(Staircase, PlateausCarryTheRooflinesBandwidthCeilings)
{
    const BandwidthStaircase s = buildStaircase(fixtures::zen4Session());
    EXPECT_EQ(s.mix, QStringLiteral("read"));
    ASSERT_EQ(s.plateaus.size(), 4u);
    EXPECT_EQ(s.plateaus[0].text, QStringLiteral("L1 500 GB/s"));
    EXPECT_EQ(s.plateaus[3].text, QStringLiteral("DRAM 40.0 GB/s"));
    EXPECT_DOUBLE_EQ(s.plateaus[3].log2Bytes, 30.0);
    // Sizes every other power of two from 4 KiB; GB/s from 20 to 1,000 (the curve's 40..500 with room).
    EXPECT_EQ(s.xTicks.front().label, QStringLiteral("4 KiB"));
    EXPECT_EQ(s.yTicks.front().label, QStringLiteral("20"));
    EXPECT_EQ(s.yTicks.back().label, QStringLiteral("1,000"));
    const QString hover = staircasePointText(s.points[3]);  // 32 KiB
    EXPECT_TRUE(hover.contains(QStringLiteral("32 KiB working set: 500 GB/s"))) << hover.toStdString();
    EXPECT_TRUE(hover.contains(QStringLiteral("served from L1")));
}

TEST(ExportNaming, NamesComeFromWhatIsShownAndFoldersAreNeverTheCurrentDirectory)
{
    EXPECT_EQ(defaultFileName(QStringLiteral("AMD EPYC 9R14 (Zen 4), 2 threads"), QStringLiteral("roofline"),
                              QStringLiteral("png")),
              QStringLiteral("amd-epyc-9r14-zen-4-2-threads-roofline.png"));
    EXPECT_EQ(defaultFileName(QStringLiteral("Llama 2 7B on NVIDIA H100 SXM"), QStringLiteral("batching"),
                              QStringLiteral("pdf")),
              QStringLiteral("llama-2-7b-on-nvidia-h100-sxm-batching.pdf"));
    EXPECT_EQ(defaultFileName(QStringLiteral("  ???  "), {}, QStringLiteral("json")), QStringLiteral("ridgeline.json"));
    EXPECT_EQ(fileNameStem(QStringLiteral("Café Zürich")), QStringLiteral("cafe-zurich"));

    QTemporaryDir last;
    EXPECT_EQ(defaultDirectory(last.path(), QStringLiteral("png")), last.path());
    const QString gone = last.filePath(QStringLiteral("gone"));
    const QString images = defaultDirectory(gone, QStringLiteral("png"));
    const QString documents = defaultDirectory({}, QStringLiteral("pdf"));
    for (const QString& folder : {images, documents}) {
        EXPECT_NE(folder, QDir::currentPath());
        EXPECT_TRUE(QFileInfo(folder).isDir()) << folder.toStdString();
    }
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    if (QFileInfo(pictures).isDir())
        EXPECT_EQ(images, pictures);
    else
        EXPECT_EQ(images, QDir::homePath());
}

TEST(DarkTheme, TheDramRoofStandsOutFromTheDarkBackground)
{
    const ChartTheme dark = ChartTheme::make(ThemeKind::Dark);
    // WCAG asks 3:1 of lines and marks; the roof most kernels hit gets more than text's 4.5:1.
    EXPECT_GT(contrastRatio(dark.bandwidthColor(QStringLiteral("DRAM")), dark.background), 4.5);
    EXPECT_GT(contrastRatio(dark.bandwidthColor(QStringLiteral("DRAM")), dark.plotBackground), 4.5);
    for (const char* level : {"L1", "L2", "L3"})
        EXPECT_GT(contrastRatio(dark.bandwidthColor(QLatin1String(level)), dark.background), 4.5) << level;
    EXPECT_NEAR(contrastRatio(Qt::black, Qt::white), 21.0, 1e-9);
    // The window's palette is dark where the chart is: text on base reads, base is the chart's background.
    const QPalette palette = windowPalette(ThemeKind::Dark);
    EXPECT_EQ(palette.color(QPalette::Base), dark.background);
    EXPECT_GT(contrastRatio(palette.color(QPalette::Text), palette.color(QPalette::Base)), 7.0);
    EXPECT_GT(contrastRatio(palette.color(QPalette::WindowText), palette.color(QPalette::Window)), 7.0);
}

TEST(Units, SiPrefixesForCountsAndBytes)
{
    EXPECT_EQ(formatSi(1.374e11, QStringLiteral("FLOP")), QStringLiteral("137 GFLOP"));
    EXPECT_EQ(formatSi(2.01e8, QStringLiteral("B")), QStringLiteral("201 MB"));
    EXPECT_EQ(formatSi(999.7, QStringLiteral("B")), QStringLiteral("1.00 kB"));
    EXPECT_EQ(formatSi(512.0, QStringLiteral("B")), QStringLiteral("512 B"));
    EXPECT_EQ(formatSi(std::nan(""), QStringLiteral("B")), QStringLiteral("\u2013"));
}
