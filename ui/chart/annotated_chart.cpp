#include "ui/chart/annotated_chart.h"

#include "ui/chart/chart_description.h"
#include "ui/widgets/accessible_text.h"

#include "ui/chart/chart_overlay.h"
#include "ui/chart/item_cache.h"
#include "ui/plots/layout/note_strip.h"
#include "ui/plots/layout/text_metrics.h"

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
    m_minimumSize = minimumSize;
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setDropShadowEnabled(false);
    c->setMargins(margins);
    m_margins = margins;
    c->legend()->setAlignment(Qt::AlignBottom);
    m_fixed = new ChartOverlay(c);
    m_fixed->setZValue(kAnnotationZ);
    m_moving = new ChartOverlay(c);
    m_moving->setZValue(kAnnotationZ);
    m_note = new ChartOverlay(c);
    m_note->setZValue(kAnnotationZ);
}

AnnotatedChart::~AnnotatedChart() = default;

void AnnotatedChart::relayoutOn(std::initializer_list<QAbstractAxis*> axes)
{
    connect(chart(), &QChart::plotAreaChanged, this, [this] {
        layoutNote();  // the corner beside the legend moves with the plot
        relayout();
    });
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

namespace {

// The series' paths and their point markers; Qt Charts makes a marker item per point as points come, so new ones
// are cached whenever the chart shows new data (showLayers). A moved marker is a cached image moved, not an
// antialiased shape filled again.
void cacheSeriesItems(QGraphicsScene* scene)
{
    cacheItemsNamed(
        scene, {"LineChartItem", "AreaChartItem", "ChartMarker", "TriangleMarker", "StarMarker", "PentagonMarker"});
}

}  // namespace

void AnnotatedChart::cacheSeriesPaint()
{
    m_cachesSeries = true;
    cacheSeriesItems(scene());
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
    if (m_cachesSeries)
        cacheSeriesItems(scene());
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
    for (const ChartOverlay* overlay : {m_fixed, m_moving, m_note})
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
    return textRectsOf({m_fixed, m_moving, m_note});
}

QRectF AnnotatedChart::noteRect() const
{
    QRectF united;
    for (const QRectF& rect : m_note->textRects())
        united = united.united(rect);
    return united;
}

void AnnotatedChart::setNote(const QString& note)
{
    m_noteText = note;  // laid out again even when unchanged: the theme may have changed its colour
    layoutNote();
}

// Beside a legend at the right, the corner under it (right of the x axis's labels and title) is free: a note that
// fits there whole sits there and costs the plot nothing. Otherwise the strip spans the chart's width inside its side
// margins on its bottom edge, and the chart grows by it. Margins and the minimum height are set only when they change,
// since QChart lays itself out again (and relayout() runs) on every setMargins.
void AnnotatedChart::layoutNote()
{
    const QSizeF size = chart()->size();
    NoteStrip strip;
    QPointF topLeft;
    const QLegend* legend = chart()->legend();
    const QRectF plot = chart()->plotArea();
    if (!m_noteText.isEmpty() && legend->isVisible() && legend->alignment() == Qt::AlignRight && !plot.isEmpty()) {
        // Where the plot's bottom edge is without a strip under it.
        const double plotBottom = plot.bottom() + (chart()->margins().bottom() - m_margins.bottom());
        const QRectF corner(QPointF(plot.right() + 12.0, plotBottom + 4.0),
                            QPointF(size.width() - m_margins.right(), size.height() - m_margins.bottom()));
        const NoteStrip beside = layoutNoteStrip(m_noteText, corner.width(), m_theme, 3);
        if (beside.whole && beside.height <= corner.height()) {
            strip = beside;
            topLeft = QPointF(corner.left(), corner.bottom() - beside.height);
        }
    }
    const bool inCorner = !strip.texts.empty();
    if (!inCorner) {
        strip = layoutNoteStrip(m_noteText, size.width() - m_margins.left() - m_margins.right(), m_theme);
        topLeft = QPointF(m_margins.left(), size.height() - m_margins.bottom() - strip.height);
    }
    const int grow = inCorner ? 0 : int(std::ceil(strip.height));
    QMargins margins = m_margins;
    margins.setBottom(m_margins.bottom() + grow);
    if (chart()->margins() != margins)
        chart()->setMargins(margins);
    if (m_minimumSize.height() + grow != minimumSize().height())
        setMinimumHeight(m_minimumSize.height() + grow);
    m_note->setClipRect(QRectF(QPointF(0.0, 0.0), size));
    m_note->setContent({}, placedAt(strip.texts, topLeft), {});
    describe();
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
    QStringList parts = chartParts(*chart()) + m_drawnTexts;
    for (const AnnotationText& text : m_note->texts())
        parts << text.text;
    setAccessibleText(*this, m_titles.isEmpty() ? chart()->title() : m_titles.front(), parts);
}

void AnnotatedChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    fitTitle();
    layoutNote();
}

void AnnotatedChart::fitTitle()
{
    if (m_titles.isEmpty())
        return;
    const TextMetrics metrics(chart()->titleFont());
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
