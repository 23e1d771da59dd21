#pragma once
// Setting a series' points only when they change. Qt Charts repaints a series' whole bounds on every replace, even
// with the same points: a roof drawn past the axes has bounds that reach every label and legend entry of its chart,
// which a slider step would then repaint for nothing.

#include <QList>
#include <QPointF>

class QXYSeries;

namespace ridgeline::ui {

void replaceIfChanged(QXYSeries* series, const QList<QPointF>& points);

}  // namespace ridgeline::ui
