#include "ui/chart/bandwidth_chart.h"

#include "core/model/units.h"
#include "ui/chart/chart_overlay.h"
#include "ui/models/point_explanation.h"

#include <QCategoryAxis>
#include <QFontMetricsF>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <map>

namespace ridgeline::ui {

BandwidthChart::BandwidthChart(QWidget* parent) : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumSize(360, 220);
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setMargins(QMargins(8, 8, 16, 8));
    c->legend()->setVisible(false);

    m_axisX = new QValueAxis(c);
    m_axisX->setVisible(false);
    m_axisXLabels = new QCategoryAxis(c);
    m_axisXLabels->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    m_axisXLabels->setTitleText(tr("Working set"));
    m_axisY = new QLogValueAxis(c);
    m_axisY->setBase(10.0);
    m_axisY->setLabelFormat(QStringLiteral("%.10g"));
    m_axisY->setTitleText(tr("Bandwidth (GB/s)"));
    m_axisY->setMinorTickCount(-1);
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisXLabels, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);

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
    for (const auto& [position, label] : m_cacheSizes)
        labels << label;
    return labels;
}

void BandwidthChart::rebuild()
{
    QChart* c = chart();
    c->removeAllSeries();
    m_curve = nullptr;
    m_points = nullptr;
    m_selectedPoints = nullptr;
    m_cacheMarkers = 0;
    m_cacheSizes.clear();

    // One mix only: "read" when present (the roofline's ceilings are read bandwidth), else the first.
    QString mix;
    for (const BandwidthPoint& p : m_session.bandwidthCurve)
        if (mix.isEmpty() || p.mix == QLatin1String("read"))
            mix = p.mix;
    QList<QPointF> curve;
    QList<QPointF> selected;
    for (const BandwidthPoint& p : m_session.bandwidthCurve) {
        if (p.mix != mix || p.workingSetBytes <= 0 || p.gbps <= 0.0)
            continue;
        const QPointF point(std::log2(double(p.workingSetBytes)), p.gbps);
        curve << point;
        if (!m_selectedLevel.isEmpty() && p.level == m_selectedLevel)
            selected << point;
    }
    std::sort(curve.begin(), curve.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });

    const auto [yMin, yMax] = fitAxes(curve);
    addCacheMarkers(yMin, yMax);

    m_curve = new QLineSeries;
    m_curve->replace(curve);
    c->addSeries(m_curve);
    m_curve->attachAxis(m_axisX);
    m_curve->attachAxis(m_axisY);
    m_curve->setPen(QPen(m_theme.mutedText, 2.5));

    // The points in their level's roofline colour, so the staircase and the roofs read as one picture.
    std::map<QString, QList<QPointF>> byLevel;
    for (const BandwidthPoint& p : m_session.bandwidthCurve)
        if (p.mix == mix && p.workingSetBytes > 0 && p.gbps > 0.0)
            byLevel[p.level] << QPointF(std::log2(double(p.workingSetBytes)), p.gbps);
    for (const auto& [level, points] : byLevel) {
        auto* series = new QScatterSeries;
        series->setMarkerSize(11.0);
        series->setColor(level.isEmpty() ? m_theme.mutedText : m_theme.bandwidthColor(level));
        series->setBorderColor(m_theme.background);
        series->replace(points);
        c->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
        connect(series, &QScatterSeries::clicked, this, &BandwidthChart::onPointClicked);
        if (!m_points)
            m_points = series;
    }
    connect(m_curve, &QLineSeries::clicked, this, &BandwidthChart::onPointClicked);

    m_selectedPoints = new QScatterSeries;
    m_selectedPoints->replace(selected);
    c->addSeries(m_selectedPoints);
    m_selectedPoints->attachAxis(m_axisX);
    m_selectedPoints->attachAxis(m_axisY);
    m_selectedPoints->setMarkerSize(16.0);
    m_selectedPoints->setColor(m_theme.highlight);
    m_selectedPoints->setBorderColor(m_theme.background);
    connect(m_selectedPoints, &QScatterSeries::clicked, this, &BandwidthChart::onPointClicked);

    styleChart(mix);
    relayout();
}

// The axes around the curve (a default span without one), with size labels every other power of two; returns the
// y range the cache markers span.
std::pair<double, double> BandwidthChart::fitAxes(const QList<QPointF>& curve)
{
    double xMin = 12.0;
    double xMax = 30.0;
    double yMin = 1.0;
    double yMax = 1000.0;
    if (!curve.isEmpty()) {
        xMin = std::floor(curve.first().x()) - 0.5;
        xMax = std::ceil(curve.last().x()) + 0.5;
        const auto [low, high] = std::minmax_element(curve.begin(), curve.end(),
                                                     [](const QPointF& a, const QPointF& b) { return a.y() < b.y(); });
        yMin = low->y() / 2.0;
        yMax = high->y() * 2.0;
    }
    m_axisX->setRange(xMin, xMax);
    m_axisY->setRange(yMin, yMax);

    // Tick labels every other power of two, as sizes people say out loud.
    for (const QString& label : m_axisXLabels->categoriesLabels())
        m_axisXLabels->remove(label);
    m_axisXLabels->setRange(xMin, xMax);
    for (int e = static_cast<int>(std::ceil(xMin)); e <= static_cast<int>(std::floor(xMax)); ++e)
        if (e % 2 == 0)
            m_axisXLabels->append(formatBinaryBytes(std::exp2(e)), e);
    return {yMin, yMax};
}

// Cache capacities: the total this process can use, per data/unified level, as dashed lines.
void BandwidthChart::addCacheMarkers(double yMin, double yMax)
{
    QChart* c = chart();
    std::map<int, double> capacity;
    const int cpus = std::max(1, m_session.machine.cores);
    for (const CacheInfo& cache : m_session.machine.caches) {
        if (cache.type == QLatin1String("Instruction") || cache.sizeBytes <= 0)
            continue;
        const int instances = std::max(1, cpus / std::max(1, cache.sharedByCpus));
        capacity[cache.level] = std::max(capacity[cache.level], double(cache.sizeBytes) * instances);
    }
    for (const auto& [level, bytes] : capacity) {
        const double x = std::log2(bytes);
        auto* marker = new QLineSeries;
        marker->append(x, yMin);
        marker->append(x, yMax);
        c->addSeries(marker);
        marker->attachAxis(m_axisX);
        marker->attachAxis(m_axisY);
        QPen pen(m_theme.mutedText, 2.0, Qt::DashLine);
        marker->setPen(pen);
        m_cacheSizes.emplace_back(x, QStringLiteral("L%1 %2").arg(level).arg(formatBinaryBytes(bytes)));
        ++m_cacheMarkers;
    }
}

void BandwidthChart::styleChart(const QString& mix)
{
    QChart* c = chart();
    c->setTitle(m_session.bandwidthCurve.empty() ? tr("No bandwidth curve in this session")
                                                 : tr("Bandwidth vs working set (%1)").arg(mix));
    c->setBackgroundBrush(m_theme.background);
    c->setPlotAreaBackgroundBrush(m_theme.plotBackground);
    c->setPlotAreaBackgroundVisible(true);
    c->setTitleBrush(m_theme.text);
    QFont title = m_theme.axisTitleFont;
    title.setBold(true);
    c->setTitleFont(title);
    setBackgroundBrush(m_theme.background);
    for (QAbstractAxis* axis : {static_cast<QAbstractAxis*>(m_axisXLabels), static_cast<QAbstractAxis*>(m_axisY)}) {
        axis->setLabelsFont(m_theme.axisLabelFont);
        axis->setLabelsBrush(m_theme.text);
        axis->setTitleFont(m_theme.axisTitleFont);
        axis->setTitleBrush(m_theme.text);
        axis->setGridLinePen(QPen(m_theme.grid, 1.0));
        axis->setLinePen(QPen(m_theme.mutedText, 1.5));
    }
    m_axisY->setMinorGridLinePen(QPen(m_theme.minorGrid, 1.0));
}

void BandwidthChart::relayout()
{
    const QRectF plot = chart()->plotArea();
    m_annotations->setClipRect(plot);
    if (!m_curve || plot.width() < 10) {
        m_annotations->clear();
        return;
    }
    std::vector<AnnotationText> texts;
    const QFontMetricsF metrics(m_theme.kernelLabelFont);
    for (const auto& [x, label] : m_cacheSizes) {
        const QPointF top = chart()->mapToPosition(QPointF(x, m_axisY->max()), m_curve);
        // Written upward along the marker line, just left of it, from the top of the plot.
        const double width = metrics.horizontalAdvance(label);
        texts.push_back({label, QPointF(top.x() - metrics.height() - 2.0, plot.top() + 6.0 + width), -90.0,
                         m_theme.mutedText, m_theme.kernelLabelFont, m_theme.background});
    }
    m_annotations->setContent({}, std::move(texts), {});
}

void BandwidthChart::onPointClicked(const QPointF& point)
{
    // The nearest measured working set decides the level.
    const BandwidthPoint* nearest = nullptr;
    double best = 1e300;
    for (const BandwidthPoint& p : m_session.bandwidthCurve) {
        if (p.workingSetBytes <= 0)
            continue;
        const double d = std::abs(std::log2(double(p.workingSetBytes)) - point.x());
        if (d < best) {
            best = d;
            nearest = &p;
        }
    }
    if (!nearest || nearest->level.isEmpty())
        return;
    setSelectedLevel(nearest->level == m_selectedLevel ? QString() : nearest->level);
    emit levelSelected(m_selectedLevel);
}

}  // namespace ridgeline::ui
