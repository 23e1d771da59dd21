#pragma once
// A sentence about the whole chart (where a figure comes from, or why there is none) set in a strip along the
// chart's bottom edge, under the axes: outside the plot, so it never covers a curve or a label there.

#include "ui/plots/layout/annotation.h"
#include "ui/plots/layout/chart_theme.h"

#include <QRectF>
#include <QString>

#include <vector>

namespace ridgeline::ui {

struct NoteStrip {
    std::vector<AnnotationText> texts;  // one per line, role Note
    double height = 0.0;                // what the strip needs under the axes; 0 without a note
    bool whole = true;                  // every word is there (nothing elided)
};

// `note` wrapped to `width` pixels in at most `maxLines` lines (the rest elided: the report says all), each line's
// origin relative to the strip's top-left corner.
NoteStrip layoutNoteStrip(const QString& note, double width, const ChartTheme& theme, int maxLines = 2);

// The same texts moved to a strip whose top-left corner is `topLeft`, in chart coordinates.
std::vector<AnnotationText> placedAt(std::vector<AnnotationText> texts, QPointF topLeft);

}  // namespace ridgeline::ui
