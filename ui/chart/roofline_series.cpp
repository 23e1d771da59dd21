#include "ui/chart/roofline_series.h"

#include <QAreaSeries>
#include <QLineSeries>
#include <QScatterSeries>

namespace ridgeline::ui {

namespace {

QScatterSeries::MarkerShape qtMarkerShape(MarkerShape shape)
{
    switch (shape) {
        case MarkerShape::Rectangle:
            return QScatterSeries::MarkerShapeRectangle;
        case MarkerShape::RotatedRectangle:
            return QScatterSeries::MarkerShapeRotatedRectangle;
        case MarkerShape::Triangle:
            return QScatterSeries::MarkerShapeTriangle;
        case MarkerShape::Pentagon:
            return QScatterSeries::MarkerShapePentagon;
        case MarkerShape::Circle:
            break;
    }
    return QScatterSeries::MarkerShapeCircle;
}

}  // namespace

QLineSeries* makeLineSeries(const std::vector<QPointF>& points, const QPen& pen, const QString& name)
{
    auto* series = new QLineSeries;
    series->setName(name);
    series->replace(QList<QPointF>(points.begin(), points.end()));
    series->setPen(pen);
    return series;
}

QAreaSeries* makeRegionSeries(const PlotRegion& region)
{
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    for (const QPointF& p : region.upper) {
        upper->append(p);
        lower->append(p.x(), region.floor);
    }
    auto* area = new QAreaSeries(upper, lower);
    upper->setParent(area);
    lower->setParent(area);
    area->setName(region.name);
    area->setPen(Qt::NoPen);
    area->setBrush(region.color);
    return area;
}

QScatterSeries* makeKernelSeries(const KernelGroup& group)
{
    auto* series = new QScatterSeries;
    series->setName(group.name);
    series->setMarkerShape(qtMarkerShape(group.shape));
    series->setMarkerSize(group.markerSize);
    series->setColor(group.color);
    series->setBorderColor(group.border);
    series->replace(QList<QPointF>(group.points.begin(), group.points.end()));
    // Per-point colours only where needed: each one costs.
    for (const auto& [point, color] : group.pointColors)
        series->setPointConfiguration(point, QXYSeries::PointConfiguration::Color, color);
    return series;
}

}  // namespace ridgeline::ui
