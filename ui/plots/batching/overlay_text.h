#pragma once
// The parts every batching chart's labels are made of (batching_labels.cpp, cpu_batching_labels.cpp): a label in the
// charts' label font on a halo of the background, the padding from the plot's edges, and the plot too small for any.

#include "ui/plots/layout/annotation.h"
#include "ui/plots/layout/chart_theme.h"

#include <QCoreApplication>
#include <QRectF>

namespace ridgeline::ui::overlay {

inline constexpr double kPad = 6.0;

// The charts' texts are translated in their chart's context ("ridgeline::ui::CpuBatchingChart"), not this file's.
inline QString tr(const char* context, const char* text)
{
    return QCoreApplication::translate(context, text);
}

inline AnnotationText label(const QString& text, QPointF topLeft, const QColor& color, const ChartTheme& theme)
{
    return {text, topLeft, 0.0, color, theme.kernelLabelFont, theme.background};
}

inline bool tooSmall(const QRectF& plot)
{
    return plot.width() < 20 || plot.height() < 20;
}

}  // namespace ridgeline::ui::overlay
