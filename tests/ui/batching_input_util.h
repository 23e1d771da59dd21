#pragma once
// Real input for the batching tab's tests: mouse clicks at a widget's pixels and typed keys, never a setter or an
// emitted signal; and a scan of every text a batching chart draws, for what Qt cut short.

#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QLineEdit>
#include <QSpinBox>
#include <QStringList>
#include <QTest>
#include <QWidget>

namespace ridgeline::fixtures {

// A click in the middle of a widget (a combo box or spin box takes the focus with it, as a person's click does).
inline void clickCentre(QWidget* widget)
{
    QTest::mouseClick(widget, Qt::LeftButton, Qt::NoModifier, widget->rect().center());
}

// Click into a spin box's text, select all, type, Return: what a person does to enter a value.
inline void typeInto(QAbstractSpinBox* spin, const QString& text)
{
    QLineEdit* edit = spin->findChild<QLineEdit*>();
    QTest::mouseClick(edit, Qt::LeftButton, Qt::NoModifier, edit->rect().center());
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(edit, text);
    QTest::keyClick(edit, Qt::Key_Return);
}

// The combo box's item with `data` by keyboard: focus it with a click on its edge's label side (the popup
// it opens is closed with Escape), then arrow keys, which emit activated() as a person's choice does.
inline bool chooseByKeys(QComboBox* combo, const QVariant& data)
{
    const int target = combo->findData(data);
    if (target < 0)
        return false;
    combo->setFocus(Qt::MouseFocusReason);
    for (int guard = 0; combo->currentIndex() != target && guard < 2 * combo->count(); ++guard)
        QTest::keyClick(combo, combo->currentIndex() < target ? Qt::Key_Down : Qt::Key_Up);
    return combo->currentIndex() == target;
}

// The combo box's item with `data` by mouse: a click opens the popup, a click on the item's row chooses it.
inline bool chooseByMouse(QComboBox* combo, const QVariant& data)
{
    const int target = combo->findData(data);
    if (target < 0)
        return false;
    QTest::mouseClick(combo, Qt::LeftButton, Qt::NoModifier, combo->rect().center());
    // The popup ignores a release within a double-click interval of opening (the opening click's own release).
    QTest::qWait(QApplication::doubleClickInterval() + 50);
    QAbstractItemView* list = combo->view();
    if (!list->isVisible())
        return false;
    const QModelIndex item = list->model()->index(target, combo->modelColumn(), list->rootIndex());
    list->scrollTo(item);
    const QPoint at = list->visualRect(item).center();
    // The popup takes the press and chooses on the release, as on a person's click.
    QTest::mousePress(list->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QTest::mouseRelease(list->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QApplication::processEvents();
    return combo->currentIndex() == target;
}

// Every text a chart view's scene shows (axis titles, tick labels, legend entries, chart title).
inline QStringList sceneTexts(const QChartView* view)
{
    QStringList texts;
    for (const QGraphicsItem* item : view->scene()->items()) {
        if (!item->isVisible())
            continue;
        if (const auto* text = dynamic_cast<const QGraphicsTextItem*>(item))
            texts << text->toPlainText();
        else if (const auto* simple = dynamic_cast<const QGraphicsSimpleTextItem*>(item))
            texts << simple->text();
    }
    return texts;
}

// What Qt Charts writes when it cuts a label to its room: "..." or the ellipsis character.
inline QStringList truncated(const QStringList& texts)
{
    QStringList cut;
    for (const QString& t : texts)
        if (t.contains(QLatin1String("...")) || t.contains(QChar(0x2026)))
            cut << t;
    return cut;
}

}  // namespace ridgeline::fixtures
