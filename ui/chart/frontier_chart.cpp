#include "ui/chart/frontier_chart.h"

#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/log_axis.h"

#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <limits>

namespace ridgeline::ui {

FrontierChart::FrontierChart(QWidget* parent) : AnnotatedChart(QMargins(8, 4, 16, 4), QSize(420, 240), parent)
{
    QChart* c = chart();
    m_axisX = makeLogAxis(c, tr("Tokens/s per user (1 / ITL)"));
    m_axisY = makeLogAxis(c, tr("Tokens/s per GPU"));
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    m_axisX->setRange(1.0, 1000.0);
    m_axisY->setRange(10.0, 1e5);
    m_line = new QLineSeries;
    m_dots = new QScatterSeries;
    m_current = new QScatterSeries;
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_line, m_dots, m_current}) {
        c->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    c->legend()->setVisible(false);
    relayoutOn({m_axisX, m_axisY});
    setGridAxes({m_axisX, m_axisY});
    cacheSeriesPaint();
    applyTheme();
    setData(FrontierChartData{});
}

void FrontierChart::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    applyTheme();
    relayout();
}

void FrontierChart::applyTheme()
{
    applyBatchingTheme(this, m_theme, {m_axisX, m_axisY});
    const QColor color = m_theme.kernelColor(QStringLiteral("decode"));
    QPen line(color, 3.0);
    line.setCapStyle(Qt::RoundCap);
    m_line->setPen(line);
    m_dots->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_dots->setMarkerSize(9.0);
    m_dots->setColor(color);
    m_dots->setBorderColor(m_theme.background);
    m_current->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_current->setMarkerSize(14.0);
    m_current->setColor(m_theme.highlight);
    m_current->setBorderColor(m_theme.background);
}

void FrontierChart::setData(const FrontierChartData& data)
{
    const bool sameCurve = data.valid && m_data.valid && data.points == m_data.points;
    m_data = data;
    const QString lengths = tr("%1 in, %2 out")
                                .arg(formatGrouped(std::max<std::int64_t>(data.prompt, 0)),
                                     formatGrouped(std::max<std::int64_t>(data.output, 0)));
    setTitles({tr("Throughput against interactivity, %1 tokens").arg(lengths),
               tr("Per GPU against per user, %1").arg(lengths), tr("Per GPU against per user")});
    if (!data.valid) {
        m_line->clear();
        m_dots->clear();
        m_current->clear();
        relayout();
        return;
    }
    if (!sameCurve) {
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
        // Room above for the current point's numbers, and beside the ends for their batches.
        setLogAxisRange(m_axisX, xLow / 2.0, xHigh * 2.0);
        setLogAxisRange(m_axisY, yLow / 2.0, yHigh * 4.0);
    }
    m_current->replace(QList<QPointF>{data.current});
    relayout();
}

void FrontierChart::showMessage(const QString& message)
{
    FrontierChartData none = m_data;
    none.valid = false;
    none.reason = message;
    setData(none);
}

QPoint FrontierChart::viewportPosition(QPointF value) const
{
    return viewportPositionOf(value, m_line);
}

void FrontierChart::relayout()
{
    if (!m_data.valid) {
        showContent(plotMessage(chart()->plotArea(), m_data.reason, m_theme));
        return;
    }
    OverlayLayers layers = layoutFrontierLabels(m_data, mapping(m_axisX, m_axisY), m_theme);
    boxTextsCrossedBy(layers.fixed.texts, segmentsOf({m_line}));
    showLayers(std::move(layers));
}

}  // namespace ridgeline::ui
