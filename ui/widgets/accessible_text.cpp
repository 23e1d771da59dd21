#include "ui/widgets/accessible_text.h"

#include "core/model/units.h"

#include <QAbstractAxis>
#include <QAbstractButton>
#include <QAbstractSeries>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QChart>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLogValueAxis>
#include <QRegularExpression>
#include <QValueAxis>
#include <QWidget>

namespace ridgeline::ui {
namespace {

QString axisRange(const QAbstractAxis& axis)
{
    if (const auto* log = qobject_cast<const QLogValueAxis*>(&axis))
        return QObject::tr("%1 to %2, log scale")
            .arg(formatSignificant(log->min(), 3), formatSignificant(log->max(), 3));
    if (const auto* value = qobject_cast<const QValueAxis*>(&axis))
        return QObject::tr("%1 to %2").arg(formatSignificant(value->min(), 3), formatSignificant(value->max(), 3));
    return {};
}

QString withoutMnemonic(QString text)
{
    text.remove(QRegularExpression(QStringLiteral("&(?=[^&])")));
    return text.trimmed().remove(QRegularExpression(QStringLiteral(":$")));
}

bool isField(const QWidget* widget)
{
    return qobject_cast<const QAbstractSlider*>(widget) || qobject_cast<const QAbstractSpinBox*>(widget) ||
           qobject_cast<const QComboBox*>(widget) || qobject_cast<const QLineEdit*>(widget) ||
           qobject_cast<const QAbstractButton*>(widget);
}

void nameIfUnnamed(QWidget* field, const QString& name)
{
    if (field && field->accessibleName().isEmpty())
        field->setAccessibleName(name);
}

}  // namespace

void setAccessibleText(QWidget& widget, const QString& name, const QStringList& parts)
{
    QStringList kept;
    for (const QString& part : parts)
        if (!part.trimmed().isEmpty() && part.trimmed() != name)
            kept << part.trimmed();
    const QString description = kept.join(QStringLiteral("; "));
    if (widget.accessibleName() == name && widget.accessibleDescription() == description)
        return;
    widget.setAccessibleName(name);
    widget.setAccessibleDescription(description);
    if (QAccessible::isActive()) {
        QAccessibleEvent changed(&widget, QAccessible::DescriptionChanged);
        QAccessible::updateAccessibility(&changed);
    }
}

QStringList chartParts(const QChart& chart)
{
    QStringList parts;
    for (const QAbstractAxis* axis : chart.axes()) {
        if (!axis->isVisible())
            continue;
        const QString title = axis->titleText().isEmpty() ? QObject::tr("axis") : axis->titleText();
        const QString range = axisRange(*axis);
        parts << (range.isEmpty() ? title : QObject::tr("%1: %2").arg(title, range));
    }
    QStringList series;
    for (const QAbstractSeries* s : chart.series())
        if (s->isVisible() && !s->name().trimmed().isEmpty() && !series.contains(s->name()))
            series << s->name();
    if (!series.isEmpty())
        parts << QObject::tr("shows %1").arg(series.join(QStringLiteral(", ")));
    return parts;
}

void nameFieldsAfterTheirLabels(QWidget& root)
{
    for (const QFormLayout* form : root.findChildren<QFormLayout*>()) {
        for (int row = 0; row < form->rowCount(); ++row) {
            const QLayoutItem* labelItem = form->itemAt(row, QFormLayout::LabelRole);
            const QLayoutItem* fieldItem = form->itemAt(row, QFormLayout::FieldRole);
            auto* label = labelItem ? qobject_cast<QLabel*>(labelItem->widget()) : nullptr;
            QWidget* field = fieldItem ? fieldItem->widget() : nullptr;
            const QString name = label ? withoutMnemonic(label->text()) : QString();
            if (!field || name.isEmpty())
                continue;
            if (!label->buddy())
                label->setBuddy(field);  // the label's mnemonic and a click on it go to the field too
            if (isField(field)) {
                nameIfUnnamed(field, name);
                continue;
            }
            const QList<QAbstractSlider*> sliders = field->findChildren<QAbstractSlider*>();
            for (QAbstractSlider* slider : sliders)
                nameIfUnnamed(slider, name);
            for (QAbstractSpinBox* spin : field->findChildren<QAbstractSpinBox*>())
                nameIfUnnamed(spin, sliders.isEmpty() ? name : QObject::tr("%1, exact value").arg(name));
            for (QComboBox* box : field->findChildren<QComboBox*>())
                nameIfUnnamed(box, name);
            for (QLineEdit* edit : field->findChildren<QLineEdit*>())
                if (!qobject_cast<QAbstractSpinBox*>(edit->parentWidget()) &&
                    !qobject_cast<QComboBox*>(edit->parentWidget()))
                    nameIfUnnamed(edit, name);
        }
    }
}

}  // namespace ridgeline::ui
