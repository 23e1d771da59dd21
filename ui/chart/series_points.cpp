#include "ui/chart/series_points.h"

#include <QXYSeries>

namespace ridgeline::ui {

void replaceIfChanged(QXYSeries* series, const QList<QPointF>& points)
{
    if (series->points() != points)
        series->replace(points);
}

}  // namespace ridgeline::ui
