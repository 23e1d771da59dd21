// Every control and chart a person can reach in the window has an accessible name, and every chart a description,
// as a screen reader asks for them through Qt's accessibility interfaces (not the widgets' own properties).

#include "core/session/format/session_json.h"
#include "tests/ui/ui_test_util.h"
#include "tests/ui_models/test_session.h"
#include "ui/calibrate_dialog.h"
#include "ui/compare_dialog.h"
#include "ui/mainwindow.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QComboBox>
#include <QDialog>
#include <QDir>
#include <QGraphicsView>
#include <QLabel>
#include <QLineEdit>
#include <QTabBar>
#include <QTabWidget>
#include <QTest>
#include <QToolButton>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

bool isControl(const QWidget* widget)
{
    return qobject_cast<const QAbstractButton*>(widget) || qobject_cast<const QComboBox*>(widget) ||
           qobject_cast<const QAbstractSpinBox*>(widget) || qobject_cast<const QAbstractSlider*>(widget) ||
           qobject_cast<const QLineEdit*>(widget) || qobject_cast<const QAbstractItemView*>(widget) ||
           qobject_cast<const QGraphicsView*>(widget);
}

// Parts of compound widgets that Qt names itself or that the reader skips: a spin box's line edit, a combo
// box's line edit and popup list, a scroll bar.
bool isInnerPart(const QWidget* widget)
{
    for (const QWidget* up = widget->parentWidget(); up; up = up->parentWidget())
        if (qobject_cast<const QAbstractSpinBox*>(up) || qobject_cast<const QComboBox*>(up))
            return true;
    return widget->inherits("QScrollBar") || widget->inherits("QTabBar") || widget->inherits("QHeaderView") ||
           widget->inherits("QDockWidgetTitleButton") || widget->inherits("QToolBarExtension");
}

// A name the program gave: set explicitly, a label's buddy, or a button's own text. Qt's fallbacks (a combo box's
// current item, the enclosing group box's title) do not count: they name the value or the group, not the field.
bool hasOwnName(const QWidget* widget)
{
    if (!widget->accessibleName().trimmed().isEmpty())
        return true;
    if (const auto* button = qobject_cast<const QAbstractButton*>(widget); button && !button->text().isEmpty())
        return true;
    const QWidget* parent = widget->parentWidget();
    for (const QLabel* label : parent ? parent->findChildren<QLabel*>(Qt::FindDirectChildrenOnly) : QList<QLabel*>())
        if (label->buddy() == widget && !label->text().isEmpty())
            return true;
    return false;
}

QString accessibleText(QWidget* widget, QAccessible::Text which)
{
    QAccessibleInterface* face = QAccessible::queryAccessibleInterface(widget);
    return face ? face->text(which).trimmed() : QString();
}

QString describe(const QWidget* widget)
{
    QStringList path;
    for (const QWidget* up = widget; up; up = up->parentWidget())
        path.prepend(QString::fromLatin1(up->metaObject()->className()) + QLatin1Char('(') + up->objectName() +
                     QLatin1Char(')'));
    return path.join(QLatin1Char('/'));
}

// The visible controls of the window's current tab without a name a screen reader can read.
QStringList unnamedControls(QWidget& window)
{
    QStringList missing;
    for (QWidget* widget : window.findChildren<QWidget*>()) {
        if (!widget->isVisible() || !isControl(widget) || isInnerPart(widget))
            continue;
        if (!hasOwnName(widget) || accessibleText(widget, QAccessible::Name).isEmpty())
            missing << describe(widget);
        if (qobject_cast<QGraphicsView*>(widget) && accessibleText(widget, QAccessible::Description).isEmpty())
            missing << describe(widget) + QStringLiteral(" (no description)");
    }
    return missing;
}

}  // namespace

TEST(UiAccessibility, EveryControlAndChartOnEveryTabHasANameAndEveryChartADescription)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    fixtures::layoutNow(window, QSize(1600, 1000));
    QTabBar* tabs = window.tabs()->tabBar();
    for (int tab = 0; tab < window.tabs()->count(); ++tab) {
        QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(tab).center());
        QCoreApplication::processEvents();
        const QStringList missing = unnamedControls(window);
        EXPECT_TRUE(missing.isEmpty()) << window.tabs()->tabText(tab).toStdString() << ": "
                                       << missing.join(QStringLiteral("\n")).toStdString();
    }

    // The batching tab's folded Advanced group and the frontier in the throughput chart's place.
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(1).center());
    auto* toggle = window.findChild<QToolButton*>(QStringLiteral("batchingAdvancedToggle"));
    auto* chartSwitch = window.findChild<QTabBar*>(QStringLiteral("batchingChartSwitch"));
    ASSERT_TRUE(toggle && chartSwitch);
    QTest::mouseClick(toggle, Qt::LeftButton, {}, toggle->rect().center());
    QTest::mouseClick(chartSwitch, Qt::LeftButton, {}, chartSwitch->tabRect(chartSwitch->count() - 1).center());
    QCoreApplication::processEvents();
    ASSERT_TRUE(window.findChild<QWidget*>(QStringLiteral("batchingAdvanced"))->isVisible());
    EXPECT_TRUE(unnamedControls(window).isEmpty()) << unnamedControls(window).join(QStringLiteral("\n")).toStdString();
}

TEST(UiAccessibility, AChartsDescriptionSaysWhatItDrawsAndFollowsItsData)
{
    MainWindow window;
    window.setSession(fixtures::zen4Session());
    fixtures::layoutNow(window, QSize(1600, 1000));
    const QString name = accessibleText(window.chart(), QAccessible::Name);
    const QString description = accessibleText(window.chart(), QAccessible::Description);
    EXPECT_FALSE(name.isEmpty());
    // The axes with their ranges, and the roofs' labels as drawn.
    EXPECT_TRUE(description.contains(QLatin1String("Arithmetic intensity"))) << description.toStdString();
    EXPECT_TRUE(description.contains(QLatin1String("log scale"))) << description.toStdString();
    for (const QString& label : window.chart()->visibleLabels())
        EXPECT_TRUE(description.contains(label)) << label.toStdString();

    // A new session is described anew.
    Result<Session> xeon = loadSession(QStringLiteral(":/examples/xeon-amx-2vcpu.json"));
    ASSERT_TRUE(xeon.ok()) << xeon.error().message.toStdString();
    window.setSession(xeon.value());
    QCoreApplication::processEvents();
    EXPECT_NE(accessibleText(window.chart(), QAccessible::Description), description);
    EXPECT_TRUE(accessibleText(window.chart(), QAccessible::Description).contains(QLatin1String("amx")));
}

TEST(UiAccessibility, TheDialogsFieldsHaveNamesToo)
{
    CompareDialog compare;
    CalibrateDialog calibrate(
        QDir::tempPath(), [](Calibration) {}, nullptr);
    for (QDialog* dialog : std::initializer_list<QDialog*>{&compare, &calibrate}) {
        fixtures::layoutNow(*dialog, QSize(1000, 700));
        const QStringList missing = unnamedControls(*dialog);
        EXPECT_TRUE(missing.isEmpty()) << missing.join(QStringLiteral("\n")).toStdString();
    }
}
