#include "ui/chart/roofline_series.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
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

void styleRooflineChart(QChart* chart, std::initializer_list<QLogValueAxis*> axes, const ChartTheme& theme)
{
    chart->setBackgroundBrush(theme.background);
    chart->setPlotAreaBackgroundBrush(theme.plotBackground);
    chart->setPlotAreaBackgroundVisible(true);
    chart->setTitleBrush(theme.text);
    chart->setTitleFont(theme.titleFont);
    for (QLogValueAxis* axis : axes) {
        axis->setLabelsFont(theme.axisLabelFont);
        axis->setLabelsBrush(theme.text);
        axis->setTitleFont(theme.axisTitleFont);
        axis->setTitleBrush(theme.text);
        axis->setGridLinePen(QPen(theme.grid, 1.0));
        axis->setMinorGridLinePen(QPen(theme.minorGrid, 1.0));
        axis->setLinePen(QPen(theme.mutedText, 1.5));
    }
    QLegend* legend = chart->legend();
    legend->setFont(theme.legendFont);
    legend->setLabelBrush(theme.text);
    legend->setBrush(Qt::NoBrush);
    legend->setPen(Qt::NoPen);
    legend->setMarkerShape(QLegend::MarkerShapeFromSeries);
}

}  // namespace ridgeline::ui
