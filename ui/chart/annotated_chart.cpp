#include "ui/chart/annotated_chart.h"

#include "ui/chart/chart_overlay.h"

#include <QLegend>
#include <QLogValueAxis>
#include <QXYSeries>

namespace ridgeline::ui {

namespace {

constexpr double kAnnotationZ = 4.5;  // over the series (4), under the legend (5)

}  // namespace

AnnotatedChart::AnnotatedChart(QMargins margins, QSize minimumSize, QWidget* parent)
    : QChartView(new QChart, parent), m_theme(ChartTheme::make(ThemeKind::Light))
{
    setRenderHint(QPainter::Antialiasing, true);
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

void AnnotatedChart::showLayers(OverlayLayers layers)
{
    const QRectF plot = chart()->plotArea();
    m_fixed->setClipRect(plot);
    m_moving->setClipRect(plot);
    m_fixed->setContent(std::move(layers.fixed.lines), std::move(layers.fixed.texts), std::move(layers.fixed.rings));
    m_moving->setContent(std::move(layers.moving.lines), std::move(layers.moving.texts),
                         std::move(layers.moving.rings));
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

QStringList AnnotatedChart::texts() const
{
    QStringList list{chart()->title()};
    for (const ChartOverlay* overlay : {m_fixed, m_moving})
        for (const AnnotationText& t : overlay->texts())
            list << t.text;
    return list;
}

std::vector<QRectF> AnnotatedChart::textRects() const
{
    return textRectsOf({m_fixed, m_moving});
}

}  // namespace ridgeline::ui
