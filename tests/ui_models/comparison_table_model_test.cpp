// The comparison table's rows: the text of each cell, the colours of regressions and improvements,
// the summary line, the threshold and the swap, and a side that is missing shown as "—", never as a number.

#include "ui/models/comparison_table_model.h"
#include "tests/ui_models/test_session.h"

#include <QColor>
#include <QFont>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

int rowOf(const ComparisonTableModel& model, const QString& key)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, ComparisonTableModel::KeyColumn).data().toString() == key)
            return row;
    return -1;
}

QString cell(const ComparisonTableModel& model, int row, int column)
{
    return model.index(row, column).data().toString();
}

ComparisonTableModel* beforeAfter(ComparisonTableModel& model)
{
    model.setSides({fixtures::zen4Session(), QStringLiteral("before.json")},
                   {fixtures::zen4SlowerFp32FasterSgemmSession(), QStringLiteral("after.json")});
    return &model;
}

}  // namespace

TEST(ComparisonTable, CellTextsCarryUnitsAndSignedChanges)
{
    ComparisonTableModel model;
    beforeAfter(model);
    ASSERT_EQ(model.rowCount(), 22);  // 2 compute, 4 bandwidth, 16 kernels
    ASSERT_EQ(model.columnCount(), 7);
    const int fp32 = rowOf(model, QStringLiteral("fp32 avx512 all threads"));
    ASSERT_GE(fp32, 0);
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::SectionColumn), QStringLiteral("compute"));
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::BeforeColumn), QStringLiteral("230.0 GFLOP/s"));
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::AfterColumn), QStringLiteral("184.0 GFLOP/s"));
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::ChangeColumn), QStringLiteral("−20 %"));
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::NoiseColumn), QStringLiteral("3.0 %"));
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::VerdictColumn), QStringLiteral("regression"));
    const int sgemm = rowOf(model, QStringLiteral("sgemm 4096"));
    EXPECT_EQ(cell(model, sgemm, ComparisonTableModel::ChangeColumn), QStringLiteral("+25 %"));
    EXPECT_EQ(cell(model, sgemm, ComparisonTableModel::VerdictColumn), QStringLiteral("improvement"));
    const int dram = rowOf(model, QStringLiteral("DRAM read"));
    EXPECT_EQ(cell(model, dram, ComparisonTableModel::BeforeColumn), QStringLiteral("40.00 GB/s"));
    EXPECT_EQ(cell(model, dram, ComparisonTableModel::ChangeColumn), QStringLiteral("0 %"));
    EXPECT_EQ(cell(model, dram, ComparisonTableModel::VerdictColumn), QStringLiteral("unchanged"));
    EXPECT_EQ(model.summary(), QStringLiteral("1 regression, 1 improvement, 20 unchanged at 5 % threshold"));
    ASSERT_EQ(model.comparison().notes.size(), 1);
    EXPECT_TRUE(model.comparison().notes.first().contains(QStringLiteral("quick run")));
}

TEST(ComparisonTable, RegressionsAndImprovementsTakeTheThemeColoursInBothThemes)
{
    ComparisonTableModel model;
    beforeAfter(model);
    const int fp32 = rowOf(model, QStringLiteral("fp32 avx512 all threads"));
    const int sgemm = rowOf(model, QStringLiteral("sgemm 4096"));
    const int dram = rowOf(model, QStringLiteral("DRAM read"));
    for (ThemeKind kind : {ThemeKind::Light, ThemeKind::Dark}) {
        model.setTheme(kind);
        const ChartTheme theme = ChartTheme::make(kind);
        const auto colour = [&](int row, int column, int role) {
            return model.index(row, column).data(role).value<QColor>();
        };
        EXPECT_EQ(colour(fp32, ComparisonTableModel::VerdictColumn, Qt::ForegroundRole), theme.regression);
        EXPECT_EQ(colour(fp32, ComparisonTableModel::ChangeColumn, Qt::ForegroundRole), theme.regression);
        EXPECT_EQ(colour(sgemm, ComparisonTableModel::VerdictColumn, Qt::ForegroundRole), theme.improvement);
        EXPECT_FALSE(model.index(fp32, ComparisonTableModel::NoiseColumn).data(Qt::ForegroundRole).isValid());
        EXPECT_EQ(colour(fp32, ComparisonTableModel::KeyColumn, Qt::BackgroundRole), theme.rowTint(theme.regression));
        EXPECT_FALSE(model.index(dram, ComparisonTableModel::VerdictColumn).data(Qt::ForegroundRole).isValid());
        EXPECT_EQ(colour(dram, ComparisonTableModel::ChangeColumn, Qt::ForegroundRole), theme.mutedText);
        EXPECT_FALSE(model.index(dram, ComparisonTableModel::KeyColumn).data(Qt::BackgroundRole).isValid());
        EXPECT_TRUE(model.index(fp32, ComparisonTableModel::VerdictColumn).data(Qt::FontRole).value<QFont>().bold());
    }
    // Readable: the text colours stand apart from their theme's background.
    for (ThemeKind kind : {ThemeKind::Light, ThemeKind::Dark}) {
        const ChartTheme t = ChartTheme::make(kind);
        for (const QColor& c : {t.regression, t.improvement})
            EXPECT_GT(std::abs(c.lightness() - t.background.lightness()), 90) << c.name().toStdString();
    }
}

TEST(ComparisonTable, TheThresholdAndTheSwapRecompute)
{
    ComparisonTableModel model;
    beforeAfter(model);
    const int fp32 = rowOf(model, QStringLiteral("fp32 avx512 all threads"));
    model.setThreshold(30.0);
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::VerdictColumn), QStringLiteral("unchanged"));
    EXPECT_EQ(model.summary(), QStringLiteral("0 regressions, 0 improvements, 22 unchanged at 30 % threshold"));
    model.setThreshold(kDefaultCompareThresholdPercent);
    model.swapSides();
    EXPECT_EQ(model.before().name, QStringLiteral("after.json"));
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::BeforeColumn), QStringLiteral("184.0 GFLOP/s"));
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::ChangeColumn), QStringLiteral("+25 %"));
    EXPECT_EQ(cell(model, fp32, ComparisonTableModel::VerdictColumn), QStringLiteral("improvement"));
    const int sgemm = rowOf(model, QStringLiteral("sgemm 4096"));
    EXPECT_EQ(cell(model, sgemm, ComparisonTableModel::ChangeColumn), QStringLiteral("−20 %"));
    EXPECT_EQ(cell(model, sgemm, ComparisonTableModel::VerdictColumn), QStringLiteral("regression"));
}

TEST(ComparisonTable, AMissingSideShowsADashAndSortsFirst)
{
    Session after = fixtures::zen4Session();
    after.kernels.pop_back();  // decode B=256 only before
    KernelResult extra = after.kernels.front();
    extra.name = QStringLiteral("sgemm 8192");
    after.kernels.push_back(extra);
    ComparisonTableModel model;
    model.setSides({fixtures::zen4Session(), QStringLiteral("a.json")}, {after, QStringLiteral("b.json")});
    const int gone = rowOf(model, QStringLiteral("decode B=256"));
    const int added = rowOf(model, QStringLiteral("sgemm 8192"));
    ASSERT_GE(gone, 0);
    ASSERT_GE(added, 0);
    EXPECT_EQ(cell(model, gone, ComparisonTableModel::AfterColumn), QStringLiteral("—"));
    EXPECT_EQ(cell(model, gone, ComparisonTableModel::ChangeColumn), QStringLiteral("—"));
    EXPECT_EQ(cell(model, gone, ComparisonTableModel::VerdictColumn), QStringLiteral("only in baseline"));
    EXPECT_EQ(cell(model, added, ComparisonTableModel::BeforeColumn), QStringLiteral("—"));
    EXPECT_EQ(cell(model, added, ComparisonTableModel::VerdictColumn), QStringLiteral("only in new"));
    EXPECT_EQ(
        model.summary(),
        QStringLiteral("0 regressions, 0 improvements, 21 unchanged, 1 only before, 1 only after at 5 % threshold"));
    const QVariant sort = model.index(gone, ComparisonTableModel::ChangeColumn).data(ComparisonTableModel::SortRole);
    EXPECT_LT(sort.toDouble(), -1e300);
    // The section column sorts to core's order, whatever order a previous sort left.
    EXPECT_EQ(model.index(gone, ComparisonTableModel::SectionColumn).data(ComparisonTableModel::SortRole).toInt(),
              gone);
    // Nothing on screen reads nan or inf.
    for (int row = 0; row < model.rowCount(); ++row)
        for (int column = 0; column < model.columnCount(); ++column) {
            const QString text = cell(model, row, column).toLower();
            EXPECT_FALSE(text.contains(QStringLiteral("nan")) || text.contains(QStringLiteral("inf")))
                << text.toStdString();
        }
}

TEST(ComparisonTable, HelpersAndCopiedText)
{
    EXPECT_EQ(comparedValueText(std::nullopt, QStringLiteral("GB/s")), QStringLiteral("—"));
    EXPECT_EQ(comparedValueText(ComparedSide{QStringLiteral("x"), 1365.25, {}}, QStringLiteral("GFLOP/s")),
              QStringLiteral("1,365 GFLOP/s"));
    EXPECT_EQ(comparedValueText(ComparedSide{QStringLiteral("x"), 0.08125, {}}, QStringLiteral("GB/s")),
              QStringLiteral("0.08125 GB/s"));
    EXPECT_EQ(noiseText(std::nullopt), QStringLiteral("n/a"));
    EXPECT_EQ(noiseText(12.34), QStringLiteral("12 %"));
    EXPECT_EQ(sessionDescription(fixtures::zen4Session()),
              QStringLiteral("AMD EPYC 9R14 96-Core Processor, 2 CPUs, full run, 2026-12-02 16:00 UTC"));
    EXPECT_EQ(verdictColor(ComparisonVerdict::Unchanged, ChartTheme::make(ThemeKind::Light)), std::nullopt);

    ComparisonTableModel model;
    beforeAfter(model);
    const QStringList lines = model.asText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 2 + 1 + 1 + 22 + 1);  // before, after, the note, header, rows, summary
    EXPECT_TRUE(lines[0].startsWith(QStringLiteral("Before: before.json (AMD EPYC")));
    EXPECT_EQ(lines[3], QStringLiteral("Section\tWhat\tBefore\tAfter\tChange\tNoise\tVerdict"));
    EXPECT_TRUE(lines.contains(
        QStringLiteral("compute\tfp32 avx512 all threads\t230.0 GFLOP/s\t184.0 GFLOP/s\t−20 %\t3.0 %\tregression")));
    EXPECT_EQ(lines.last(), model.summary());
}
