#include "ui/widgets/accessible_text.h"

#include <QAbstractButton>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QWidget>

namespace ridgeline::ui {
namespace {

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

QString fieldLabel(const QWidget& field)
{
    const QList<QLabel*> labels = field.window()->findChildren<QLabel*>();
    for (const QWidget* part : {&field, static_cast<const QWidget*>(field.parentWidget())}) {
        if (!part || part == field.window())
            break;
        for (const QLabel* label : labels)
            if (label->buddy() == part)
                return withoutMnemonic(label->text());
    }
    return {};
}

}  // namespace ridgeline::ui
