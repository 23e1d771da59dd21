#pragma once
// A Qt chart in words, for its accessible description: each axis with its range ("Batch (sequences): 1 to 1,024,
// log scale") and each visible, named series.

#include <QStringList>

class QChart;

namespace ridgeline::ui {

QStringList chartParts(const QChart& chart);

}  // namespace ridgeline::ui
