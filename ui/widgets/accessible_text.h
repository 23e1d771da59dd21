#pragma once
// What a screen reader says for the window's charts and fields: one home for accessible names and descriptions.
// A chart's name is its title; its description says what it draws in words (axes with their ranges, the named
// series, then the texts drawn on it), so a person who cannot see the plot reads what a sighted one would.

#include <QStringList>

class QWidget;

namespace ridgeline::ui {

// Sets `widget`'s accessible name and description, and tells assistive technology when they changed.
void setAccessibleText(QWidget& widget, const QString& name, const QStringList& parts);

// Every field of the form layouts under `root` takes its row's label as its accessible name (QFormLayout makes a
// label the buddy only when it makes the label itself; without a name Qt reads a combo box's current text or the
// group box's title). A composite field (a slider with its spin box or its value label) names its parts: the
// slider after the label, the spin box of a pair as its exact value. Fields named already keep their names.
void nameFieldsAfterTheirLabels(QWidget& root);

// The text of the label whose buddy is `field`, or the composite field it is part of (a slider's spin box), without
// its mnemonic and colon: "Batch", "Dense peak". Empty when no label in its window names it.
QString fieldLabel(const QWidget& field);

}  // namespace ridgeline::ui
