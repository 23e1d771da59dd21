#include "ui/chart/serving_scene_chart.h"

#include "ui/chart/batching_chart_style.h"
#include "ui/chart/log_axis.h"

#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <limits>

namespace ridgeline::ui {

ServingSceneChart::ServingSceneChart(QWidget* parent) : AnnotatedChart(QMargins(8, 4, 16, 4), QSize(420, 240), parent)
{
    QChart* c = chart();
    m_axisX = makeLogAxis(c, QString());
    m_axisY = makeLogAxis(c, QString());
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    m_line = new QLineSeries;
    m_dots = new QScatterSeries;
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_line, m_dots}) {
        c->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    c->legend()->setVisible(false);
    relayoutOn({m_axisX, m_axisY});
    setGridAxes({m_axisX, m_axisY});
    cacheSeriesPaint();
    applyTheme();
}

void ServingSceneChart::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    applyTheme();
    relayout();
}

void ServingSceneChart::applyTheme()
{
    applyBatchingTheme(this, m_theme, {m_axisX, m_axisY});
    const QColor color = m_theme.kernelColor(QStringLiteral("decode"));
    QPen line(color, 3.0);
    line.setCapStyle(Qt::RoundCap);
    m_line->setPen(line);
    m_dots->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_dots->setMarkerSize(11.0);
    m_dots->setColor(color);
    m_dots->setBorderColor(m_theme.background);
}

void ServingSceneChart::setData(const ServingSceneChartData& data)
{
    m_data = data;
    setTitles(data.titles);
    m_axisX->setTitleText(data.xTitle);
    m_axisY->setTitleText(data.yTitle);
    m_axisX->setBase(data.xBase);
    const QList<QPointF> points(data.points.begin(), data.points.end());
    m_line->replace(points);
    m_dots->replace(points);
    double xLow = std::numeric_limits<double>::max(), xHigh = 0, yLow = xLow, yHigh = 0;
    for (const QPointF& p : data.points) {
        xLow = std::min(xLow, p.x());
        xHigh = std::max(xHigh, p.x());
        yLow = std::min(yLow, p.y());
        yHigh = std::max(yHigh, p.y());
    }
    // Room beside the ends for the names, above the curve for the names over their points.
    if (!data.points.empty()) {
        setLogAxisRange(m_axisX, xLow / (data.xBase == 2.0 ? 2.0 : 3.0), xHigh * (data.xBase == 2.0 ? 2.0 : 3.0));
        setLogAxisRange(m_axisY, yLow / 2.0, yHigh * 3.0);
    }
    relayout();
}

QPoint ServingSceneChart::viewportPosition(QPointF value) const
{
    return viewportPositionOf(value, m_line);
}

void ServingSceneChart::relayout()
{
    if (!m_data.valid) {
        showContent(plotMessage(chart()->plotArea(), m_data.reason, m_theme));
        return;
    }
    OverlayContent content = layoutServingSceneLabels(m_data, mapping(m_axisX, m_axisY), m_theme);
    boxTextsCrossedBy(content.texts, segmentsOf({m_line}));
    showContent(std::move(content));
}

}  // namespace ridgeline::ui
