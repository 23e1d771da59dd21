// Numbers typed out of a spin box's range, as a person types them: every digit stays in the field while typing (Qt's
// own boxes dropped the key that went past the range, so 5000 in a box of 1 to 4,096 became 500), and when the edit
// ends the box keeps its value and says why, beside the box and in the status bar, naming the range and its unit.

#include "core/session/format/bundled_session.h"
#include "tests/ui/batching_input_util.h"
#include "tests/ui/batching_tab_support.h"
#include "tests/ui/ui_test_util.h"
#include "ui/panels/training_controls.h"
#include "ui/panels/training_panel.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/log_slider.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <QToolTip>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

Session shippedSession()
{
    const Result<Session> loaded = bundledSession();
    EXPECT_TRUE(loaded.ok());
    return loaded.ok() ? loaded.value() : Session{};
}

// Click into the box, select all, type: no Return yet.
QLineEdit* typeWithoutEnter(QAbstractSpinBox* spin, const QString& text)
{
    QLineEdit* edit = spin->findChild<QLineEdit*>();
    QTest::mouseClick(edit, Qt::LeftButton, Qt::NoModifier, edit->rect().center());
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, text);
    return edit;
}

// The tooltip beside the box, once the event loop has shown it.
bool tooltipSays(const QString& text)
{
    return QTest::qWaitFor([&] { return QToolTip::isVisible() && QToolTip::text() == text; }, 2000);
}

}  // namespace

TEST(UiSpinBoxInput, FiveThousandInTheBatchBoxKeepsTheValueAndNamesTheRange)
{
    fixtures::BatchingWindow tab(QSize(1600, 1000), shippedSession());
    CheckedSpinBox* batch = tab.panel->batchSlider()->spinBox();
    const int before = batch->value();
    const std::int64_t sliderBefore = tab.panel->batchSlider()->value();
    QSignalSpy refused(batch, &CheckedSpinBox::refused);
    QLineEdit* edit = typeWithoutEnter(batch, QStringLiteral("5000"));
    EXPECT_EQ(edit->text(), QStringLiteral("5000"));  // every digit typed is there to see
    EXPECT_EQ(batch->value(), before);
    QTest::keyClick(edit, Qt::Key_Return);
    EXPECT_EQ(batch->value(), before);
    EXPECT_EQ(tab.panel->batchSlider()->value(), sliderBefore);
    EXPECT_EQ(edit->text().remove(u','), QString::number(before));  // the kept value is back in the field
    const QString expected = QStringLiteral("Batch must be 1 to 4,096 sequences; kept %1").arg(before);
    ASSERT_EQ(refused.size(), 1);
    EXPECT_EQ(refused.first().first().toString(), expected);
    EXPECT_EQ(batch->lastRefusal(), expected);
    EXPECT_TRUE(tooltipSays(expected)) << QToolTip::text().toStdString();
    EXPECT_EQ(tab.window.statusBar()->currentMessage(), expected);
    EXPECT_EQ(batch->accessibleDescription(), expected);
    fixtures::grabImage(tab.window).save(fixtures::outputPath(QStringLiteral("spin_box_refused.png")));

    // A number in range goes through as before, and says nothing.
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, QStringLiteral("300"));
    QTest::keyClick(edit, Qt::Key_Return);
    EXPECT_EQ(batch->value(), 300);
    EXPECT_EQ(tab.panel->batchSlider()->value(), 300);
    EXPECT_EQ(refused.size(), 1);
}

// Leaving the box with Tab ends the edit too: the same refusal, and the focus still moves on.
TEST(UiSpinBoxInput, TabbingAwayFromANumberBelowTheRangeRefusesItToo)
{
    MainWindow window;
    window.show();
    window.tabs()->setCurrentIndex(2);
    fixtures::layoutNow(window, QSize(1600, 1000));
    window.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&window));  // the focus moves within an active window only
    QSpinBox* nodes = window.trainingPanel()->controls()->nodes();
    const int before = nodes->value();
    QLineEdit* edit = typeWithoutEnter(nodes, QStringLiteral("0"));
    EXPECT_EQ(edit->text(), QStringLiteral("0"));
    QTest::keyClick(edit, Qt::Key_Tab);
    EXPECT_FALSE(nodes->hasFocus());
    EXPECT_EQ(nodes->value(), before);
    const QString expected = QStringLiteral("Nodes must be 1 to 100,000; kept %1").arg(before);
    EXPECT_EQ(window.statusBar()->currentMessage(), expected);
    EXPECT_TRUE(tooltipSays(expected)) << QToolTip::text().toStdString();
}

// In a dialog, Return on a refused number does not press the default button: the dialog stays for the fix.
TEST(UiSpinBoxInput, ReturnOnARefusedNumberLeavesTheDialogOpen)
{
    QDialog dialog;
    auto* form = new QFormLayout(&dialog);
    auto* peak = new CheckedDoubleSpinBox(&dialog);
    peak->setRange(0.001, 100000.0);
    peak->setDecimals(3);
    peak->setValue(300.0);
    peak->setSuffix(QStringLiteral(" TFLOP/s"));
    form->addRow(QStringLiteral("Dense peak:"), peak);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    form->addRow(buttons);
    dialog.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dialog));
    QSignalSpy accepted(&dialog, &QDialog::accepted);
    QLineEdit* edit = typeWithoutEnter(peak, QStringLiteral("250000.5"));
    EXPECT_EQ(edit->text(), QStringLiteral("250000.5 TFLOP/s"));  // the suffix stays; every digit is there
    EXPECT_DOUBLE_EQ(peak->value(), 25000.0);  // a box that follows the keys took the prefix in range on the way
    QTest::keyClick(edit, Qt::Key_Return);
    EXPECT_TRUE(dialog.isVisible());
    EXPECT_EQ(accepted.size(), 0);
    EXPECT_DOUBLE_EQ(peak->value(), 300.0);
    EXPECT_EQ(peak->lastRefusal(), QStringLiteral("Dense peak must be 0.001 to 100,000 TFLOP/s; kept 300"));
    // A fourth decimal in a box of three is dropped as it is typed, as before: the range is not what is wrong.
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, QStringLiteral("1.2345"));
    EXPECT_TRUE(edit->text().startsWith(QStringLiteral("1.234 "))) << edit->text().toStdString();
    // A number in range and Return: accepted as before.
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, QStringLiteral("250"));
    QTest::keyClick(edit, Qt::Key_Return);
    EXPECT_DOUBLE_EQ(peak->value(), 250.0);
    EXPECT_EQ(accepted.size(), 1);
}
