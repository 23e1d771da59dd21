#pragma once
// A sentence set in lines of at most a width, broken between words, for text drawn over a chart (a reason, a note):
// an elided sentence says nothing, a wrapped one says all it can in the lines it is given.

#include "ui/plots/layout/text_metrics.h"

#include <QString>
#include <QStringList>

namespace ridgeline::ui {

// At most `maxLines` lines, each at most `width` pixels in `metrics`' font; what does not fit in the last is elided
// there (as is a single word wider than the width). Empty text: no lines.
QStringList wrapWords(const QString& text, const TextMetrics& metrics, double width, int maxLines);

}  // namespace ridgeline::ui
