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

QList<QPointF> scaled(const std::vector<QPointF>& points, double yUnit)
{
    QList<QPointF> out;
    out.reserve(static_cast<qsizetype>(points.size()));
    for (const QPointF& p : points)
        out.append(QPointF(p.x(), p.y() / yUnit));
    return out;
}

}  // namespace

QLineSeries* makeLineSeries(const std::vector<QPointF>& points, const QPen& pen, const QString& name, double yUnit)
{
    auto* series = new QLineSeries;
    series->setName(name);
    series->replace(scaled(points, yUnit));
    series->setPen(pen);
    return series;
}

QAreaSeries* makeRegionSeries(const PlotRegion& region, double yUnit)
{
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    for (const QPointF& p : region.upper) {
        upper->append(p.x(), p.y() / yUnit);
        lower->append(p.x(), region.floor / yUnit);
    }
    auto* area = new QAreaSeries(upper, lower);
    upper->setParent(area);
    lower->setParent(area);
    area->setName(region.name);
    area->setPen(Qt::NoPen);
    area->setBrush(region.color);
    return area;
}

QScatterSeries* makeKernelSeries(const KernelGroup& group, double yUnit)
{
    auto* series = new QScatterSeries;
    series->setName(group.name);
    series->setMarkerShape(qtMarkerShape(group.shape));
    series->setMarkerSize(group.markerSize);
    series->setColor(group.color);
    series->setBorderColor(group.border);
    series->replace(scaled(group.points, yUnit));
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
