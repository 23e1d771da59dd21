#include "ui/chart/frontier_chart.h"

#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/item_cache.h"
#include "ui/chart/log_axis.h"

#include <QAreaSeries>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
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
    // No series of its own: its range is the left axis's, as cost (updateCostAxis).
    m_axisCost = makeLogAxis(c, tr("$ per million output tokens"));
    m_axisCost->setLabelFormat(QStringLiteral("$%.4g"));
    m_axisCost->setReverse(true);
    c->addAxis(m_axisCost, Qt::AlignRight);
    m_axisCost->setVisible(false);
    // Under the curve: the region too slow for each user, bounded by the ITL target.
    m_itlUpper = new QLineSeries(this);
    m_itlLower = new QLineSeries(this);
    m_itlShade = new QAreaSeries(m_itlUpper, m_itlLower);
    c->addSeries(m_itlShade);
    m_itlShade->attachAxis(m_axisX);
    m_itlShade->attachAxis(m_axisY);
    m_itlShade->setVisible(false);
    m_line = new QLineSeries;
    m_dots = new QScatterSeries;
    m_meeting = new QScatterSeries;
    m_current = new QScatterSeries;
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_line, m_dots, m_meeting, m_current}) {
        c->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    c->legend()->setVisible(false);
    relayoutOn({m_axisX, m_axisY});
    connect(m_axisY, &QLogValueAxis::rangeChanged, this, &FrontierChart::updateCostAxis);  // zoom and pan too
    setGridAxes({m_axisX, m_axisY});
    cacheSeriesPaint();
    applyTheme();
    setData(FrontierChartData{});
}

void FrontierChart::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    applyTheme();
    setNote(m_priceNote);  // in the new theme's colour
    relayout();
}

void FrontierChart::applyTheme()
{
    applyBatchingTheme(this, m_theme, {m_axisX, m_axisY, m_axisCost});
    const QColor color = m_theme.kernelColor(QStringLiteral("decode"));
    QPen line(color, 3.0);
    line.setCapStyle(Qt::RoundCap);
    m_line->setPen(line);
    m_dots->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_dots->setMarkerSize(9.0);
    m_dots->setColor(color);
    m_dots->setBorderColor(m_theme.background);
    m_meeting->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_meeting->setMarkerSize(11.0);
    m_meeting->setColor(m_theme.improvement);
    m_meeting->setBorderColor(m_theme.background);
    QColor shade = m_theme.regression;
    shade.setAlpha(m_theme.kind == ThemeKind::Light ? 28 : 40);
    m_itlShade->setPen(Qt::NoPen);
    m_itlShade->setBrush(shade);
    m_current->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_current->setMarkerSize(14.0);
    m_current->setColor(m_theme.highlight);
    m_current->setBorderColor(m_theme.background);
}

void FrontierChart::setData(const FrontierChartData& data)
{
    const bool sameCurve = data.valid && m_data.valid && data.points == m_data.points;
    const bool sameTargets = sameCurve && data.meets == m_data.meets && data.settings == m_data.settings;
    m_data = data;
    const QString lengths = tr("%1 in, %2 out")
                                .arg(formatGrouped(std::max<std::int64_t>(data.prompt, 0)),
                                     formatGrouped(std::max<std::int64_t>(data.output, 0)));
    setTitles({tr("Throughput against interactivity, %1 tokens").arg(lengths),
               tr("Per GPU against per user, %1").arg(lengths), tr("Per GPU against per user")});
    // Under the axes, whole at any width: a batch step leaves it as it is.
    if (const QString price = frontierPriceNote(data); price != m_priceNote) {
        m_priceNote = price;
        setNote(price);
    }
    if (!data.valid) {
        m_line->clear();
        m_dots->clear();
        m_current->clear();
        m_meeting->clear();
        m_itlShade->setVisible(false);
        m_axisCost->setVisible(false);
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
    updateCostAxis();
    if (!sameTargets)
        updateTargets();
    m_current->replace(QList<QPointF>{data.current});
    relayout();
}

// The points within both targets (none drawn apart without targets) and the ITL target's region.
void FrontierChart::updateTargets()
{
    QList<QPointF> meeting;
    if (m_data.hasTargets())
        for (std::size_t i = 0; i < m_data.points.size() && i < m_data.meets.size(); ++i)
            if (m_data.meets[i])
                meeting.push_back(m_data.points[i]);
    m_meeting->replace(meeting);
    const std::optional<double> itl = m_data.settings.targets.itlSeconds;
    m_itlShade->setVisible(itl.has_value());
    if (itl) {
        // Far past the axes: the range stays as the curve set it (the area is not a series that ranges them).
        const double left = m_axisX->min() / 100.0, right = 1.0 / *itl;
        const double top = m_axisY->max() * 100.0, bottom = m_axisY->min() / 100.0;
        m_itlUpper->replace({QPointF(left, top), QPointF(right, top)});
        m_itlLower->replace({QPointF(left, bottom), QPointF(right, bottom)});
    }
    dropItemCaches(scene());
}

// The tokens/s per GPU axis read as cost: the same pixels, each labelled with what a million output tokens cost
// there at the price. A chart narrower than kCostAxisMinWidth keeps that width for the curve and its words (the
// ringed and the best point still say their cost).
void FrontierChart::updateCostAxis()
{
    constexpr int kCostAxisMinWidth = 600;
    const std::optional<std::pair<double, double>> range = costAxisRange(m_data, m_axisY->min(), m_axisY->max());
    m_axisCost->setVisible(range.has_value() && width() >= kCostAxisMinWidth);
    if (range)
        setLogAxisRange(m_axisCost, range->first, range->second);
}

void FrontierChart::mousePressEvent(QMouseEvent* event)
{
    if (m_data.valid && event->button() == Qt::LeftButton) {
        std::vector<QPointF> pixels;
        for (const QPointF& p : m_data.points)
            pixels.emplace_back(viewportPosition(p));
        if (const std::optional<std::size_t> hit = frontierPointAt(pixels, event->position(), 12.0)) {
            emit batchClicked(m_data.batches[*hit]);
            event->accept();
            return;
        }
    }
    AnnotatedChart::mousePressEvent(event);
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
    updateCostAxis();  // the width may have changed
    if (!m_data.valid) {
        showContent(plotMessage(chart()->plotArea(), m_data.reason, m_theme));
        return;
    }
    OverlayLayers layers = layoutFrontierLabels(m_data, mapping(m_axisX, m_axisY), m_theme);
    boxTextsCrossedBy(layers.fixed.texts, segmentsOf({m_line}));
    showLayers(std::move(layers));
}

}  // namespace ridgeline::ui
