#include "ui/chart/bandwidth_chart.h"

#include "ui/widgets/accessible_text.h"

#include "ui/chart/chart_overlay.h"
#include "ui/chart/log_axis.h"
#include "ui/plots/layout/label_layout.h"

#include <QCategoryAxis>
#include <QFontMetricsF>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace ridgeline::ui {

namespace {

// How far from a point's centre the mouse still hovers or clicks it, in pixels.
constexpr double kPointReach = 12.0;

void setCategories(QCategoryAxis* axis, double min, double max, const std::vector<StaircaseTick>& ticks)
{
    for (const QString& label : axis->categoriesLabels())
        axis->remove(label);
    axis->setRange(min, max);
    for (const StaircaseTick& tick : ticks)
        axis->append(tick.label, tick.position);
}

}  // namespace

BandwidthChart::BandwidthChart(QWidget* parent) : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumSize(360, 160);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setMargins(QMargins(8, 8, 16, 8));
    c->legend()->setVisible(false);

    m_axisX = new QValueAxis(c);
    m_axisX->setVisible(false);
    m_axisXLabels = new QCategoryAxis(c);
    m_axisXLabels->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_axisXLabels->setTitleText(tr("Working set (bytes, log scale)"));
    m_axisY = new QLogValueAxis(c);
    m_axisY->setBase(10.0);
    m_axisY->setVisible(false);
    m_axisYLabels = new QCategoryAxis(c);
    m_axisYLabels->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_axisYLabels->setTitleText(tr("GB/s (log scale)"));
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisXLabels, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    c->addAxis(m_axisYLabels, Qt::AlignLeft);

    m_annotations = new ChartOverlay(c);
    m_annotations->setZValue(4.5);
    connect(c, &QChart::plotAreaChanged, this, [this] { relayout(); });

    m_theme = ChartTheme::make(ThemeKind::Light);
    rebuild();
}

void BandwidthChart::setSession(const Session& session)
{
    m_session = session;
    rebuild();
}

void BandwidthChart::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    rebuild();
}

void BandwidthChart::setSelectedLevel(const QString& level)
{
    if (level == m_selectedLevel)
        return;
    m_selectedLevel = level;
    rebuild();
}

int BandwidthChart::curvePointCount() const
{
    return m_curve ? static_cast<int>(m_curve->count()) : 0;
}

QStringList BandwidthChart::cacheLabels() const
{
    QStringList labels;
    for (const CacheMarker& marker : m_staircase.caches)
        labels << marker.label;
    return labels;
}

QStringList BandwidthChart::overlayTexts() const
{
    QStringList texts;
    for (const AnnotationText& text : m_annotations->texts())
        texts << text.text;
    return texts;
}

std::vector<QRectF> BandwidthChart::overlayTextRects() const
{
    return m_annotations->textRects();
}

QStringList BandwidthChart::xTickLabels() const
{
    return m_axisXLabels->categoriesLabels();
}

QStringList BandwidthChart::yTickLabels() const
{
    return m_axisYLabels->categoriesLabels();
}

void BandwidthChart::rebuild()
{
    chart()->removeAllSeries();
    m_curve = nullptr;
    m_hoverText.clear();
    m_staircase = buildStaircase(m_session);
    setAxes();
    addCacheMarkers();
    addCurveAndPoints();
    applyTheme();
    relayout();
}

void BandwidthChart::setAxes()
{
    const BandwidthStaircase& s = m_staircase;
    m_axisX->setRange(s.xMin, s.xMax);
    setLogAxisRange(m_axisY, s.yMin, s.yMax);
    setCategories(m_axisXLabels, s.xMin, s.xMax, s.xTicks);
    // The labels' axis is linear in log10(GB/s), so its positions fall where the hidden log axis puts the data.
    setCategories(m_axisYLabels, std::log10(s.yMin), std::log10(s.yMax), s.yTicks);
}

void BandwidthChart::addCacheMarkers()
{
    for (const CacheMarker& cache : m_staircase.caches) {
        auto* marker = new QLineSeries;
        marker->append(cache.log2Bytes, m_staircase.yMin);
        marker->append(cache.log2Bytes, m_staircase.yMax);
        chart()->addSeries(marker);
        marker->attachAxis(m_axisX);
        marker->attachAxis(m_axisY);
        marker->setPen(QPen(m_theme.mutedText, 2.0, Qt::DashLine));
    }
}

void BandwidthChart::addCurveAndPoints()
{
    QChart* c = chart();
    const auto attach = [&](QXYSeries* series) {
        c->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
    };
    m_curve = new QLineSeries;
    std::map<QString, QList<QPointF>> byLevel;
    QList<QPointF> selected;
    for (const StaircasePoint& p : m_staircase.points) {
        const QPointF point(p.log2Bytes, p.gbps);
        m_curve->append(point);
        byLevel[p.level] << point;
        if (!m_selectedLevel.isEmpty() && p.level == m_selectedLevel)
            selected << point;
    }
    attach(m_curve);
    m_curve->setPen(QPen(m_theme.mutedText, 2.5));

    // The points in their level's roofline colour, so the staircase and the roofs read as one picture.
    for (const auto& [level, points] : byLevel) {
        auto* series = new QScatterSeries;
        series->setMarkerSize(11.0);
        series->setColor(level.isEmpty() ? m_theme.mutedText : m_theme.bandwidthColor(level));
        series->setBorderColor(m_theme.background);
        series->replace(points);
        attach(series);
    }
    auto* ring = new QScatterSeries;
    ring->replace(selected);
    ring->setMarkerSize(16.0);
    ring->setColor(m_theme.highlight);
    ring->setBorderColor(m_theme.background);
    attach(ring);
}

void BandwidthChart::applyTheme()
{
    QChart* c = chart();
    m_title = m_session.bandwidthCurve.empty() ? tr("No bandwidth curve in this session")
                                               : tr("Bandwidth vs working set (%1)").arg(m_staircase.mix);
    fitTitles();
    c->setBackgroundBrush(m_theme.background);
    c->setPlotAreaBackgroundBrush(m_theme.plotBackground);
    c->setPlotAreaBackgroundVisible(true);
    c->setTitleBrush(m_theme.text);
    QFont title = m_theme.axisTitleFont;
    title.setBold(true);
    c->setTitleFont(title);
    setBackgroundBrush(m_theme.background);
    for (QAbstractAxis* axis :
         {static_cast<QAbstractAxis*>(m_axisXLabels), static_cast<QAbstractAxis*>(m_axisYLabels)}) {
        axis->setLabelsFont(m_theme.axisLabelFont);
        axis->setLabelsBrush(m_theme.text);
        axis->setTitleFont(m_theme.axisTitleFont);
        axis->setTitleBrush(m_theme.text);
        axis->setGridLinePen(QPen(m_theme.grid, 1.0));
        axis->setLinePen(QPen(m_theme.mutedText, 1.5));
    }
}

void BandwidthChart::relayout()
{
    const QRectF plot = chart()->plotArea();
    m_annotations->setClipRect(plot);
    if (!m_curve || plot.width() < 10 || m_staircase.points.empty()) {
        m_annotations->clear();
        setAccessibleText(*this, tr("Bandwidth against working set"), {tr("no bandwidth sweep to show")});
        return;
    }
    std::vector<AnnotationText> texts;
    std::vector<AnnotationLine> lines;
    LabelLayoutInput layout;
    layout.bounds = plot.adjusted(4, 4, -4, -4);
    layout.markerRadius = 7.0;
    // Cache sizes written along their marker line, just left of it, at the end of the line the staircase leaves
    // free: the bottom where the curve runs high (the fast levels on the left), else the top.
    const QFontMetricsF small(m_theme.kernelLabelFont);
    for (const CacheMarker& cache : m_staircase.caches) {
        const QPointF top = chart()->mapToPosition(QPointF(cache.log2Bytes, m_axisY->max()), m_curve);
        const double width = small.horizontalAdvance(cache.label);
        const bool curveHigh = curveYAt(cache.log2Bytes) < plot.center().y();
        const double bottom = curveHigh ? plot.bottom() - 6.0 : plot.top() + 6.0 + width;
        const QPointF origin(top.x() - small.height() - 2.0, bottom);
        texts.push_back({cache.label, origin, -90.0, m_theme.mutedText, m_theme.kernelLabelFont, m_theme.background});
        layout.obstacles.push_back(QRectF(origin.x(), origin.y() - width, small.height(), width));
    }
    for (int i = 1; i < static_cast<int>(m_staircase.points.size()); ++i) {
        const StaircasePoint& a = m_staircase.points[static_cast<std::size_t>(i - 1)];
        const StaircasePoint& b = m_staircase.points[static_cast<std::size_t>(i)];
        layout.lines.emplace_back(chart()->mapToPosition(QPointF(a.log2Bytes, a.gbps), m_curve),
                                  chart()->mapToPosition(QPointF(b.log2Bytes, b.gbps), m_curve));
    }
    // Each plateau's value beside it, where nothing else is written.
    const QFontMetricsF metrics(m_theme.ceilingLabelFont);
    for (const StaircasePlateau& plateau : m_staircase.plateaus)
        layout.labels.push_back({chart()->mapToPosition(QPointF(plateau.log2Bytes, plateau.gbps), m_curve),
                                 QSizeF(metrics.horizontalAdvance(plateau.text) + 4.0, metrics.height())});
    const std::vector<LabelPlacement> placed = placeLabels(layout);
    for (std::size_t i = 0; i < placed.size(); ++i) {
        const StaircasePlateau& plateau = m_staircase.plateaus[i];
        const LabelPlacement where = placed[i].placed ? placed[i]
                                                      : placeForced(layout.bounds, layout.labels[i], layout.obstacles,
                                                                    {}, {}, layout.markerRadius);
        const QColor color = readableOn(m_theme.bandwidthColor(plateau.level), m_theme.background);
        texts.push_back({plateau.text, where.rect.topLeft() + QPointF(2.0, 0.0), 0.0, color, m_theme.ceilingLabelFont,
                         m_theme.background});
        if (where.needsLeader)
            lines.push_back({where.leader, QPen(color, 1.5)});
    }
    QStringList parts{tr("read bandwidth in GB/s against the working set in bytes, log scales")};
    for (const AnnotationText& text : texts)
        parts << text.text;
    setAccessibleText(*this, chart()->title().isEmpty() ? tr("Bandwidth against working set") : chart()->title(),
                      parts);
    m_annotations->setContent(std::move(lines), std::move(texts), {});
}

double BandwidthChart::curveYAt(double log2Bytes) const
{
    // The staircase's pixel height at a working set: its nearest measured point's.
    const auto nearest = std::min_element(
        m_staircase.points.begin(), m_staircase.points.end(), [&](const StaircasePoint& a, const StaircasePoint& b) {
            return std::abs(a.log2Bytes - log2Bytes) < std::abs(b.log2Bytes - log2Bytes);
        });
    return chart()->mapToPosition(QPointF(nearest->log2Bytes, nearest->gbps), m_curve).y();
}

QPoint BandwidthChart::pointPosition(int index) const
{
    if (!m_curve || index < 0 || index >= static_cast<int>(m_staircase.points.size()))
        return {};
    const StaircasePoint& p = m_staircase.points[static_cast<std::size_t>(index)];
    return mapFromScene(chart()->mapToPosition(QPointF(p.log2Bytes, p.gbps), m_curve));
}

std::optional<int> BandwidthChart::pointAt(QPoint pixel) const
{
    std::optional<int> nearest;
    double best = kPointReach;
    for (int i = 0; i < static_cast<int>(m_staircase.points.size()); ++i) {
        const QPointF d = QPointF(pointPosition(i) - pixel);
        const double distance = std::hypot(d.x(), d.y());
        if (distance <= best) {
            best = distance;
            nearest = i;
        }
    }
    return nearest;
}

void BandwidthChart::mouseMoveEvent(QMouseEvent* event)
{
    const std::optional<int> index = pointAt(event->position().toPoint());
    const QString text = index ? staircasePointText(m_staircase.points[static_cast<std::size_t>(*index)]) : QString();
    if (text != m_hoverText) {
        m_hoverText = text;
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(event->globalPosition().toPoint(), text, this);
    }
    QChartView::mouseMoveEvent(event);
}

void BandwidthChart::leaveEvent(QEvent* event)
{
    m_hoverText.clear();
    QChartView::leaveEvent(event);
}

void BandwidthChart::mousePressEvent(QMouseEvent* event)
{
    const std::optional<int> index = pointAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && index) {
        selectLevelOf(*index);
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void BandwidthChart::selectLevelOf(int index)
{
    const QString level = m_staircase.points[static_cast<std::size_t>(index)].level;
    if (level.isEmpty())
        return;  // a transition between levels belongs to none
    setSelectedLevel(level == m_selectedLevel ? QString() : level);
    emit levelSelected(m_selectedLevel);
}

void BandwidthChart::resizeEvent(QResizeEvent* event)
{
    QChartView::resizeEvent(event);
    fitTitles();
}

// In a short dock (its default height in the window, about 160 px) the titles leave the ticks no room and Qt Charts
// cuts every label to "...": the chart's title and the axis titles give way (the dock's tab names the chart), unless
// the title is the message that there is no curve.
void BandwidthChart::fitTitles()
{
    constexpr int kTitledHeight = 230;
    const bool roomy = height() >= kTitledHeight || m_session.bandwidthCurve.empty();
    const QString title = roomy ? m_title : QString();
    if (chart()->title() != title)
        chart()->setTitle(title);
    m_axisXLabels->setTitleVisible(roomy);
    m_axisYLabels->setTitleVisible(roomy);
    // Nor is there room for a GB/s tick every 2x or 2.5x: the decades (10, 100, 1000) when there are two, else
    // every other tick, three at most.
    std::vector<StaircaseTick> yTicks = m_staircase.yTicks;
    if (!roomy) {
        std::vector<StaircaseTick> fewer;
        for (const StaircaseTick& tick : yTicks)
            if (tick.major)
                fewer.push_back(tick);
        if (fewer.size() < 2) {
            fewer.clear();
            const std::size_t stride = (yTicks.size() + 2) / 3;
            for (std::size_t i = 0; i < yTicks.size(); i += std::max<std::size_t>(stride, 1))
                fewer.push_back(yTicks[i]);
        }
        yTicks = std::move(fewer);
    }
    if (m_axisYLabels->categoriesLabels().size() != qsizetype(yTicks.size()))
        setCategories(m_axisYLabels, std::log10(m_staircase.yMin), std::log10(m_staircase.yMax), yTicks);
}

}  // namespace ridgeline::ui
