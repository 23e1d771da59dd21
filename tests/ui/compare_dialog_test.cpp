// The comparison in the window: File > Compare With… opens the before/after comparison of the open session and a
// session file chosen in the file dialog (typed in, as a person does); the threshold typed into its spin box
// recomputes the verdicts, Swap flips them, a bad file is named with its reason and changes nothing.

#include "ui/compare_dialog.h"
#include "core/session/format/session_json.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/batching_tab_support.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui/window_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/chart/roofline_chart.h"
#include "ui/mainwindow.h"
#include "ui/models/session_list_model.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;
using fixtures::control;
using ridgeline::fixtures::closeMessageBoxes;

namespace {

const QString kFp32 = QStringLiteral("fp32 avx512 all threads");

// Two real session files on disk and the window with the first one open.
struct CompareFixture {
    QTemporaryDir dir;
    MainWindow window;
    QString before;
    QString after;
    CompareFixture()
    {
        before = write(QStringLiteral("before.json"), fixtures::zen4Session());
        after = write(QStringLiteral("after.json"), fixtures::zen4SlowerFp32FasterSgemmSession());
        EXPECT_TRUE(window.openSession(before));
        fixtures::layoutNow(window, QSize(1400, 900));
    }
    QString write(const QString& name, const Session& session)
    {
        const QString path = dir.filePath(name);
        EXPECT_FALSE(saveSession(session, path).has_value());
        return path;
    }
    QString writeRaw(const QString& name, const QByteArray& bytes)
    {
        QFile file(dir.filePath(name));
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        return file.fileName();
    }
};

// File > Compare With…: trigger the menu's action, type the path into the file dialog, press Return.
CompareDialog* compareByMenu(MainWindow& window, const QString& path)
{
    QAction* action = window.findChild<QAction*>(QStringLiteral("compareWithAction"));
    EXPECT_NE(action, nullptr);
    if (!action)
        return nullptr;
    EXPECT_TRUE(action->isEnabled());
    action->trigger();
    const QPointer<QFileDialog> dialog = fixtures::openDialog<QFileDialog>("CompareWithDialog");
    EXPECT_NE(dialog, nullptr);
    if (!dialog)
        return nullptr;
    QLineEdit* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    QTest::mouseClick(name, Qt::LeftButton, Qt::NoModifier, name->rect().center());
    QTest::keyClick(name, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(name, path);
    QTest::keyClick(name, Qt::Key_Return);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    EXPECT_TRUE(dialog.isNull());
    return fixtures::openDialog<CompareDialog>("CompareDialog");
}

// The table's (sorted) row showing `key`, as the view shows it.
QModelIndex rowIndex(const QTableView* table, const QString& key, int column)
{
    const QAbstractItemModel* model = table->model();
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, ComparisonTableModel::KeyColumn).data().toString() == key)
            return model->index(row, column);
    return {};
}

QString shown(const QTableView* table, const QString& key, int column)
{
    return rowIndex(table, key, column).data().toString();
}

// The pixel rectangle of a cell in the dialog's picture.
QRect cellRect(CompareDialog& dialog, const QModelIndex& index)
{
    const QRect rect = dialog.table()->visualRect(index);
    return QRect(dialog.table()->viewport()->mapTo(&dialog, rect.topLeft()), rect.size());
}

bool rectHasColour(const QImage& image, const QRect& rect, const QColor& colour, int tolerance)
{
    for (int y = rect.top(); y <= rect.bottom(); ++y)
        for (int x = rect.left(); x <= rect.right(); ++x)
            if (fixtures::colorDistance(image.pixelColor(x, y), colour) <= tolerance)
                return true;
    return false;
}

QColor blend(const QColor& base, const QColor& tint)
{
    const float a = tint.alphaF();
    return QColor::fromRgbF(base.redF() * (1.0f - a) + tint.redF() * a, base.greenF() * (1.0f - a) + tint.greenF() * a,
                            base.blueF() * (1.0f - a) + tint.blueF() * a);
}

}  // namespace

TEST(UiCompareDialog, CompareWithShowsRowsVerdictsColoursNotesAndSummary)
{
    CompareFixture f;
    CompareDialog* dialog = compareByMenu(f.window, f.after);
    ASSERT_NE(dialog, nullptr);
    fixtures::layoutNow(*dialog, QSize(1180, 760));
    const QTableView* table = dialog->table();
    ASSERT_EQ(table->model()->rowCount(), 22);
    EXPECT_EQ(shown(table, kFp32, ComparisonTableModel::BeforeColumn), QStringLiteral("230.0 GFLOP/s"));
    EXPECT_EQ(shown(table, kFp32, ComparisonTableModel::AfterColumn), QStringLiteral("184.0 GFLOP/s"));
    EXPECT_EQ(shown(table, kFp32, ComparisonTableModel::ChangeColumn), QStringLiteral("−20 %"));
    EXPECT_EQ(shown(table, kFp32, ComparisonTableModel::VerdictColumn), QStringLiteral("regression"));
    EXPECT_EQ(shown(table, QStringLiteral("sgemm 4096"), ComparisonTableModel::VerdictColumn),
              QStringLiteral("improvement"));
    EXPECT_EQ(shown(table, QStringLiteral("L3 read"), ComparisonTableModel::VerdictColumn),
              QStringLiteral("unchanged"));
    EXPECT_EQ(control<QLabel>(*dialog, "compareSummary")->text(),
              QStringLiteral("1 regression, 1 improvement, 20 unchanged at 5 % threshold"));
    const QLabel* notes = control<QLabel>(*dialog, "compareNotes");
    EXPECT_TRUE(notes->isVisible());
    EXPECT_TRUE(notes->text().contains(QStringLiteral("the new session a quick run")));
    EXPECT_TRUE(control<QLabel>(*dialog, "compareBefore")->text().contains(QStringLiteral("before.json")));
    EXPECT_TRUE(control<QLabel>(*dialog, "compareAfter")->text().contains(QStringLiteral("after.json")));

    // A click on the Change header sorts by the number, not the text: the loss first, the gain last.
    QHeaderView* header = table->horizontalHeader();
    const int changeX = header->sectionViewportPosition(ComparisonTableModel::ChangeColumn) +
                        header->sectionSize(ComparisonTableModel::ChangeColumn) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(changeX, header->height() / 2));
    const QAbstractItemModel* rows = table->model();
    EXPECT_EQ(rows->index(0, ComparisonTableModel::KeyColumn).data().toString(), kFp32);
    EXPECT_EQ(rows->index(rows->rowCount() - 1, ComparisonTableModel::KeyColumn).data().toString(),
              QStringLiteral("sgemm 4096"));
    QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier,
                      QPoint(header->sectionViewportPosition(0) + 10, header->height() / 2));
    EXPECT_EQ(rows->index(0, ComparisonTableModel::KeyColumn).data().toString(), kFp32);  // back to sections

    // Colours on screen: the regression's row tinted and its verdict in the theme's red, the improvement's green.
    const QImage image = fixtures::grabImage(*dialog);
    image.save(fixtures::outputPath(QStringLiteral("compare_dialog.png")));
    const ChartTheme theme = ChartTheme::make(ThemeKind::Light);
    const QColor base = table->viewport()->palette().color(QPalette::Base);
    const QRect fp32Key = cellRect(*dialog, rowIndex(table, kFp32, ComparisonTableModel::KeyColumn));
    const QPoint tinted(fp32Key.right() - 3, fp32Key.center().y());
    EXPECT_TRUE(fixtures::colorNear(image, tinted, blend(base, theme.rowTint(theme.regression)), 0, 6));
    EXPECT_GT(fixtures::colorDistance(image.pixelColor(tinted), base), 30);  // a wash one sees
    EXPECT_TRUE(rectHasColour(image, cellRect(*dialog, rowIndex(table, kFp32, ComparisonTableModel::VerdictColumn)),
                              theme.regression, 40));
    EXPECT_TRUE(rectHasColour(
        image, cellRect(*dialog, rowIndex(table, QStringLiteral("sgemm 4096"), ComparisonTableModel::VerdictColumn)),
        theme.improvement, 40));
    const QRect l3 = cellRect(*dialog, rowIndex(table, QStringLiteral("L3 read"), ComparisonTableModel::VerdictColumn));
    EXPECT_FALSE(rectHasColour(image, l3, theme.regression, 40));
    EXPECT_FALSE(rectHasColour(image, l3, theme.improvement, 40));

    // No number is cut short: every figure column is as wide as its widest text.
    for (int column = ComparisonTableModel::BeforeColumn; column <= ComparisonTableModel::VerdictColumn; ++column)
        for (int row = 0; row < table->model()->rowCount(); ++row) {
            const QModelIndex index = table->model()->index(row, column);
            QFont font = table->font();
            if (index.data(Qt::FontRole).isValid())
                font = index.data(Qt::FontRole).value<QFont>();
            EXPECT_GE(table->columnWidth(column), QFontMetrics(font).horizontalAdvance(index.data().toString()) + 4)
                << index.data().toString().toStdString();
        }
    dialog->setTheme(ThemeKind::Dark);
    fixtures::grabImage(*dialog).save(fixtures::outputPath(QStringLiteral("compare_dialog_dark.png")));
    dialog->close();
}

TEST(UiCompareDialog, TypingAThresholdRecomputesTheVerdictsLive)
{
    CompareFixture f;
    CompareDialog* dialog = compareByMenu(f.window, f.after);
    ASSERT_NE(dialog, nullptr);
    fixtures::layoutNow(*dialog, QSize(1180, 760));
    auto* spin = control<QDoubleSpinBox>(*dialog, "compareThreshold");
    EXPECT_DOUBLE_EQ(spin->value(), kDefaultCompareThresholdPercent);
    QLineEdit* edit = spin->findChild<QLineEdit*>();
    QTest::mouseClick(edit, Qt::LeftButton, Qt::NoModifier, edit->rect().center());
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, QStringLiteral("30"));  // no Return: the table follows the keys
    EXPECT_DOUBLE_EQ(spin->value(), 30.0);
    const QTableView* table = dialog->table();
    EXPECT_EQ(shown(table, kFp32, ComparisonTableModel::VerdictColumn), QStringLiteral("unchanged"));
    EXPECT_EQ(shown(table, QStringLiteral("sgemm 4096"), ComparisonTableModel::VerdictColumn),
              QStringLiteral("unchanged"));
    EXPECT_EQ(control<QLabel>(*dialog, "compareSummary")->text(),
              QStringLiteral("0 regressions, 0 improvements, 22 unchanged at 30 % threshold"));
    // Down to 21 %: the 25 % gain counts again, the 20 % loss does not.
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, QStringLiteral("21"));
    EXPECT_EQ(control<QLabel>(*dialog, "compareSummary")->text(),
              QStringLiteral("0 regressions, 1 improvement, 21 unchanged at 21 % threshold"));
    dialog->close();
}

TEST(UiCompareDialog, SwapFlipsBeforeAndAfter)
{
    CompareFixture f;
    CompareDialog* dialog = compareByMenu(f.window, f.after);
    ASSERT_NE(dialog, nullptr);
    fixtures::layoutNow(*dialog, QSize(1180, 760));
    fixtures::clickCentre(control<QPushButton>(*dialog, "compareSwap"));
    const QTableView* table = dialog->table();
    EXPECT_EQ(shown(table, kFp32, ComparisonTableModel::BeforeColumn), QStringLiteral("184.0 GFLOP/s"));
    EXPECT_EQ(shown(table, kFp32, ComparisonTableModel::ChangeColumn), QStringLiteral("+25 %"));
    EXPECT_EQ(shown(table, kFp32, ComparisonTableModel::VerdictColumn), QStringLiteral("improvement"));
    EXPECT_EQ(shown(table, QStringLiteral("sgemm 4096"), ComparisonTableModel::ChangeColumn), QStringLiteral("−20 %"));
    EXPECT_EQ(shown(table, QStringLiteral("sgemm 4096"), ComparisonTableModel::VerdictColumn),
              QStringLiteral("regression"));
    EXPECT_TRUE(control<QLabel>(*dialog, "compareBefore")->text().contains(QStringLiteral("after.json")));
    EXPECT_TRUE(
        control<QLabel>(*dialog, "compareNotes")->text().contains(QStringLiteral("the baseline is a quick run")));
    // Back again: as first shown.
    fixtures::clickCentre(control<QPushButton>(*dialog, "compareSwap"));
    EXPECT_EQ(shown(table, kFp32, ComparisonTableModel::ChangeColumn), QStringLiteral("−20 %"));
    // The window's own sessions never moved.
    EXPECT_EQ(f.window.currentPath(), QFileInfo(f.before).absoluteFilePath());
    EXPECT_EQ(f.window.sessionModel()->rowCount(), 1);
    dialog->close();
}

TEST(UiCompareDialog, ExportCsvWritesTheRowsShown)
{
    CompareFixture f;
    CompareDialog* dialog = compareByMenu(f.window, f.after);
    ASSERT_NE(dialog, nullptr);
    fixtures::layoutNow(*dialog, QSize(1180, 760));
    fixtures::clickCentre(control<QPushButton>(*dialog, "compareExportCsv"));
    const QPointer<QFileDialog> save = fixtures::openDialog<QFileDialog>("CompareExportDialog");
    ASSERT_NE(save, nullptr);
    QLineEdit* name = save->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    const QString path = f.dir.filePath(QStringLiteral("comparison"));  // the suffix comes from the dialog
    QTest::mouseClick(name, Qt::LeftButton, Qt::NoModifier, name->rect().center());
    QTest::keyClick(name, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(name, path);
    QTest::keyClick(name, Qt::Key_Return);
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    QFile file(path + QStringLiteral(".csv"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    ASSERT_EQ(lines.size(), 1 + 22);
    EXPECT_TRUE(lines.first().startsWith(QStringLiteral("section,key,unit,baseline_name,baseline,")));
    EXPECT_TRUE(lines[1].startsWith(QStringLiteral("compute,fp32 avx512 all threads,GFLOP/s,fp32 avx512 x2,230,")));
    EXPECT_TRUE(lines[1].endsWith(QStringLiteral(",regression,5"))) << lines[1].toStdString();
    EXPECT_EQ(control<QLabel>(*dialog, "compareStatus")->text(), QStringLiteral("Exported 22 rows to comparison.csv"));
    dialog->close();
}

TEST(UiCompareDialog, AnOpenOverlayIsComparedWithoutAFileDialog)
{
    CompareFixture f;
    auto* menu = f.window.findChild<QMenu*>(QStringLiteral("compareOpenMenu"));
    ASSERT_NE(menu, nullptr);
    EXPECT_FALSE(menu->isEnabled());  // one session open: nothing to compare with yet
    ASSERT_TRUE(f.window.addOverlay(f.after));
    ASSERT_TRUE(menu->isEnabled());
    ASSERT_EQ(menu->actions().size(), 1);
    EXPECT_EQ(menu->actions().first()->text(), QStringLiteral("after.json"));
    menu->actions().first()->trigger();
    CompareDialog* dialog = fixtures::openDialog<CompareDialog>("CompareDialog");
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(control<QLabel>(*dialog, "compareSummary")->text(),
              QStringLiteral("1 regression, 1 improvement, 20 unchanged at 5 % threshold"));
    EXPECT_EQ(f.window.sessionModel()->rowCount(), 2);
    dialog->close();
}

TEST(UiCompareDialog, ABadFileIsNamedWithItsReasonAndChangesNothing)
{
    CompareFixture f;
    const int kernels = f.window.chart()->kernelPointCount();
    QSignalSpy errors(&f.window, &MainWindow::errorReported);
    const QString broken = f.writeRaw(QStringLiteral("broken.json"),
                                      "{ \"format\": \"ridgeline-session\", \"schema_version\": 2, \"kernels\": [ ");
    const QString notSession = f.writeRaw(QStringLiteral("notes.json"), "{ \"hello\": 1 }");
    int expected = 0;
    for (const QString& path : {broken, notSession}) {
        EXPECT_EQ(compareByMenu(f.window, path), nullptr) << path.toStdString();
        ASSERT_EQ(errors.count(), ++expected);
        const QString message = errors.last().at(1).toString();
        EXPECT_TRUE(message.contains(QFileInfo(path).fileName())) << message.toStdString();
        EXPECT_GT(message.size(), QFileInfo(path).filePath().size() + 20) << message.toStdString();  // and a reason
        EXPECT_EQ(f.window.findChildren<QMessageBox*>().size(), 1);
        closeMessageBoxes(f.window);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    EXPECT_EQ(f.window.currentPath(), QFileInfo(f.before).absoluteFilePath());
    EXPECT_EQ(f.window.sessionModel()->rowCount(), 1);
    EXPECT_EQ(f.window.chart()->kernelPointCount(), kernels);
    EXPECT_FALSE(f.window.isWindowModified());

    // With no session open there is no "before": the action waits for one.
    MainWindow empty;
    EXPECT_FALSE(empty.findChild<QAction*>(QStringLiteral("compareWithAction"))->isEnabled());
}
