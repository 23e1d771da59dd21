#include "ui/chart/annotated_chart.h"

#include "ui/chart/chart_description.h"
#include "ui/widgets/accessible_text.h"

#include "ui/chart/chart_overlay.h"
#include "ui/chart/item_cache.h"

#include <QFontMetricsF>
#include <QLegend>
#include <QLogValueAxis>
#include <QPainter>
#include <QXYSeries>

#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr double kAnnotationZ = 4.5;  // over the series (4), under the legend (5)

}  // namespace

AnnotatedChart::AnnotatedChart(QMargins margins, QSize minimumSize, QWidget* parent)
    : QChartView(new QChart, parent), m_theme(ChartTheme::make(ThemeKind::Light))
{
    setRenderHint(QPainter::Antialiasing, true);
    setCacheMode(QGraphicsView::CacheBackground);
    setMinimumSize(minimumSize);
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setDropShadowEnabled(false);
    c->setMargins(margins);
    c->legend()->setAlignment(Qt::AlignBottom);
    m_fixed = new ChartOverlay(c);
    m_fixed->setZValue(kAnnotationZ);
    m_moving = new ChartOverlay(c);
    m_moving->setZValue(kAnnotationZ);
}

AnnotatedChart::~AnnotatedChart() = default;

void AnnotatedChart::relayoutOn(std::initializer_list<QAbstractAxis*> axes)
{
    connect(chart(), &QChart::plotAreaChanged, this, [this] { relayout(); });
    for (QAbstractAxis* axis : axes)
        if (auto* log = qobject_cast<QLogValueAxis*>(axis))
            connect(log, &QLogValueAxis::rangeChanged, this, [this] { relayout(); });
}

void AnnotatedChart::setGridAxes(std::initializer_list<QLogValueAxis*> axes)
{
    m_gridAxes.assign(axes.begin(), axes.end());
    // The cached background holds the grid: redrawn when the plot area or a range moves it.
    connect(chart(), &QChart::plotAreaChanged, this, [this] { resetCachedContent(); });
    for (QLogValueAxis* axis : m_gridAxes)
        connect(axis, &QLogValueAxis::rangeChanged, this, [this] { resetCachedContent(); });
    resetCachedContent();
}

void AnnotatedChart::drawBackground(QPainter* painter, const QRectF& rect)
{
    painter->fillRect(rect, m_theme.background);
    const QRectF plot = chart()->mapRectToScene(chart()->plotArea());
    if (plot.isEmpty())
        return;
    painter->fillRect(plot, m_theme.plotBackground);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, false);  // crisp one-pixel lines
    painter->setClipRect(plot);
    const QList<QAbstractAxis*> horizontal = chart()->axes(Qt::Horizontal);
    // Minor lines first, so that the majors are drawn over them.
    for (const bool major : {false, true}) {
        painter->setPen(QPen(major ? m_theme.grid : m_theme.minorGrid, 1.0));
        for (const QLogValueAxis* axis : m_gridAxes) {
            const bool across = horizontal.contains(axis);
            const PlotMapping map{
                plot, {axis->min(), axis->max(), axis->min(), axis->max()}, axis->base(), axis->base()};
            for (const LogGridLine& line : logGridLines(axis->min(), axis->max(), axis->base())) {
                if (line.major != major)
                    continue;
                const QPointF at = map.toPixel({line.value, line.value});
                if (across)
                    painter->drawLine(QLineF(std::round(at.x()), plot.top(), std::round(at.x()), plot.bottom()));
                else
                    painter->drawLine(QLineF(plot.left(), std::round(at.y()), plot.right(), std::round(at.y())));
            }
        }
    }
    painter->restore();
}

void AnnotatedChart::cacheSeriesPaint()
{
    cacheItemsNamed(scene(), {"LineChartItem", "AreaChartItem"});
    // Drawn afresh when the plot area or any axis's range moves them (see dropItemCaches).
    connect(chart(), &QChart::plotAreaChanged, this, [this] { dropItemCaches(scene()); });
    for (QAbstractAxis* axis : chart()->axes())
        if (auto* log = qobject_cast<QLogValueAxis*>(axis))
            connect(log, &QLogValueAxis::rangeChanged, this, [this] { dropItemCaches(scene()); });
}

void AnnotatedChart::showLayers(OverlayLayers layers)
{
    const QRectF plot = chart()->plotArea();
    m_fixed->setClipRect(plot);
    m_moving->setClipRect(plot);
    m_drawnTexts.clear();
    for (const OverlayContent* content : {&layers.fixed, &layers.moving})
        for (const AnnotationText& text : content->texts)
            m_drawnTexts << text.text;
    m_fixed->setContent(std::move(layers.fixed.lines), std::move(layers.fixed.texts), std::move(layers.fixed.rings));
    m_moving->setContent(std::move(layers.moving.lines), std::move(layers.moving.texts),
                         std::move(layers.moving.rings));
    describe();
}

void AnnotatedChart::showContent(OverlayContent fixed)
{
    showLayers({std::move(fixed), {}});
}

PlotMapping AnnotatedChart::mapping(const QLogValueAxis* x, const QLogValueAxis* y) const
{
    return {chart()->plotArea(), {x->min(), x->max(), y->min(), y->max()}, x->base(), y->base()};
}

std::vector<QLineF> AnnotatedChart::segmentsOf(std::initializer_list<QXYSeries*> series) const
{
    std::vector<QLineF> segments;
    for (QXYSeries* s : series) {
        const QList<QPointF> points = s->points();
        for (qsizetype i = 1; i < points.size(); ++i)
            segments.emplace_back(chart()->mapToPosition(points[i - 1], s), chart()->mapToPosition(points[i], s));
    }
    return segments;
}

QPoint AnnotatedChart::viewportPositionOf(QPointF value, QAbstractSeries* series) const
{
    return mapFromScene(chart()->mapToScene(chart()->mapToPosition(value, series)));
}

QRectF AnnotatedChart::plotRect() const
{
    return chart()->plotArea();
}

QStringList AnnotatedChart::texts() const
{
    QStringList list{chart()->title()};
    for (const ChartOverlay* overlay : {m_fixed, m_moving})
        for (const AnnotationText& t : overlay->texts())
            list << t.text;
    return list;
}

std::vector<QLineF> AnnotatedChart::overlayLines() const
{
    std::vector<QLineF> lines;
    for (const ChartOverlay* overlay : {m_fixed, m_moving})
        for (const AnnotationLine& l : overlay->lines())
            lines.push_back(l.line);
    return lines;
}

std::vector<QRectF> AnnotatedChart::textRects() const
{
    return textRectsOf({m_fixed, m_moving});
}

void AnnotatedChart::setTitles(QStringList titles)
{
    m_titles = std::move(titles);
    fitTitle();
    describe();
}

// The longest title names the chart whatever the width drew; the axes, series and drawn texts describe it.
void AnnotatedChart::describe()
{
    setAccessibleText(*this, m_titles.isEmpty() ? chart()->title() : m_titles.front(),
                      chartParts(*chart()) + m_drawnTexts);
}

void AnnotatedChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    fitTitle();
}

void AnnotatedChart::fitTitle()
{
    if (m_titles.isEmpty())
        return;
    const QFontMetricsF metrics(chart()->titleFont());
    const double room = chart()->size().width() - chart()->margins().left() - chart()->margins().right() - 8.0;
    QString title = m_titles.back();
    for (const QString& candidate : std::as_const(m_titles))
        if (metrics.horizontalAdvance(candidate) <= room) {
            title = candidate;
            break;
        }
    if (chart()->title() != title)  // QChart relays itself out on every setTitle
        chart()->setTitle(title);
}

}  // namespace ridgeline::ui
