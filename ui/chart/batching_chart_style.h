#pragma once
// Shared pieces of the batching explorer's charts: themed log axes, the chart frame in the roofline
// chart's look (ChartTheme). Their numbers are formatted by core/model/units.h (never NaN or inf).

#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/layout/log_scale.h"

#include <QString>

#include <initializer_list>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QChartView;
class QLogValueAxis;
class QChart;
QT_END_NAMESPACE

namespace ridgeline::ui {

// A log axis in the house look, labelled "%.10g": plain digits ("1000000", never "1e+06").
QLogValueAxis* makeLogAxis(QChart* chart, const QString& title, double base = 10.0);

// Title, axes and legend of a chart in `theme`; each axis's title keeps its own colour when `keepTitleColors` is
// set (a two-axis chart colours each axis like its series). Qt Charts' backgrounds and grid are hidden: the view
// paints them (AnnotatedChart::drawBackground, AnnotatedChart::setGridAxes).
void applyBatchingTheme(QChartView* view, const ChartTheme& theme, std::initializer_list<QAbstractAxis*> axes,
                        bool keepTitleColors = false);

// QChart relays itself out on every setTitle, even an unchanged one: set it only when it differs.
void setChartTitle(QChart* chart, const QString& title);

}  // namespace ridgeline::ui
