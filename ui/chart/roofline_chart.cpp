#include "ui/chart/roofline_chart.h"

#include "ui/chart/chart_overlay.h"
#include "ui/chart/roofline_series.h"
#include "ui/models/roofline_labels.h"

#include <QAreaSeries>
#include <QCursor>
#include <QKeyEvent>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QScatterSeries>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

namespace {

// Qt Charts draws series at z 4 (SeriesZValue) and the legend at 5: error bars go just under the dots,
// labels just over them.
constexpr double kUnderSeriesZ = 3.5;
constexpr double kOverSeriesZ = 4.5;

}  // namespace

RooflineChart::RooflineChart(QWidget* parent) : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing, true);
    setRubberBand(QChartView::RectangleRubberBand);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(480, 320);

    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setDropShadowEnabled(false);
    c->setMargins(QMargins(12, 8, 20, 8));
    c->legend()->setAlignment(Qt::AlignBottom);

    m_axisX = new QLogValueAxis(c);
    m_axisX->setBase(10.0);
    m_axisX->setLabelFormat(QStringLiteral("%.10g"));
    m_axisX->setTitleText(tr("Arithmetic intensity (FLOP/byte)"));
    m_axisX->setMinorTickCount(-1);
    m_axisY = new QLogValueAxis(c);
    m_axisY->setBase(10.0);
    m_axisY->setLabelFormat(QStringLiteral("%.10g"));
    m_axisY->setTitleText(tr("Performance (GFLOP/s)"));
    m_axisY->setMinorTickCount(-1);
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);

    m_under = new ChartOverlay(c);
    m_under->setZValue(kUnderSeriesZ);
    m_over = new ChartOverlay(c);
    m_over->setZValue(kOverSeriesZ);

    connect(c, &QChart::plotAreaChanged, this, [this] { relayout(); });
    connect(m_axisX, &QLogValueAxis::rangeChanged, this, [this] {
        relayout();
        emit viewChanged();
    });
    connect(m_axisY, &QLogValueAxis::rangeChanged, this, [this] {
        relayout();
        emit viewChanged();
    });

    m_theme = ChartTheme::make(m_options.theme);
    rebuild();
}

RooflineChart::~RooflineChart() = default;

void RooflineChart::setSessions(std::vector<Session> sessions)
{
    m_sessions = std::move(sessions);
    m_selected = {};
    m_hiddenKinds.clear();
    rebuild();
}

void RooflineChart::setExtraRoofs(std::vector<NamedRoof> roofs)
{
    m_extraRoofs = std::move(roofs);
    rebuild();
}

void RooflineChart::setOptions(const ChartOptions& options)
{
    m_options = options;
    m_theme = ChartTheme::make(options.theme);
    rebuild(View::Keep);
}

void RooflineChart::setHighlightedLevel(const QString& level)
{
    if (level == m_highlightedLevel)
        return;
    m_highlightedLevel = level;
    rebuild(View::Keep);
}

void RooflineChart::setSelectedKernel(int session, int kernel)
{
    m_selected = {session, kernel};
    relayout();
}

void RooflineChart::setKernelFilter(const QString& text)
{
    if (text == m_kernelFilter)
        return;
    m_kernelFilter = text;
    rebuild(View::Keep);
}

bool RooflineChart::matchesKernelFilter(const KernelResult& kernel) const
{
    return ui::matchesKernelFilter(kernel, m_kernelFilter);
}

QLineSeries* RooflineChart::addLine(const std::vector<QPointF>& points, const QPen& pen, const QString& name,
                                    bool inLegend)
{
    QLineSeries* series = makeLineSeries(points, pen, name);
    attach(series, inLegend);
    return series;
}

void RooflineChart::attach(QAbstractSeries* series, bool inLegend)
{
    chart()->addSeries(series);
    series->attachAxis(m_axisX);
    series->attachAxis(m_axisY);
    for (QLegendMarker* marker : chart()->legend()->markers(series))
        marker->setVisible(inLegend);
}

void RooflineChart::addRoof(std::size_t index)
{
    const PlotRoof& roof = m_plot.roofs[index];
    QLineSeries* series = addLine(roof.vertices, roof.pen, roof.inLegend ? roof.legendName : roof.name, roof.inLegend);
    m_roofSeries[index] = series;
    if (roof.kind == RoofKind::Compute || roof.kind == RoofKind::Bandwidth)
        m_ceilingSeries << series;
    else if (roof.kind == RoofKind::Extra)
        m_extraSeries << series;
    if (!roof.precisionEntry.isEmpty())
        connectPrecisionEntry(series, roof.precisionEntry);
    if (roof.kind != RoofKind::Bandwidth)
        return;
    // Clicking a roof highlights it here and its plateau in the staircase. Queued: the highlight rebuilds the
    // chart, which deletes this series, and a sender must not die inside its own signal.
    const QString level = roof.level;
    connect(series, &QLineSeries::clicked, this, [this, level] {
        QMetaObject::invokeMethod(
            this,
            [this, level] {
                setHighlightedLevel(level == m_highlightedLevel ? QString() : level);
                emit levelClicked(m_highlightedLevel);
            },
            Qt::QueuedConnection);
    });
}

void RooflineChart::addGroup(std::size_t index)
{
    const KernelGroup& group = m_plot.groups[index];
    QScatterSeries* series = makeKernelSeries(group);
    attach(series, group.legendVisible);
    m_groupSeries[index] = series;
    if (group.dimmed) {
        m_dimmedSeries << series;
        return;
    }
    for (QLegendMarker* marker : chart()->legend()->markers(series)) {
        if (!group.carriesLegend)
            continue;
        // Clicking a legend entry hides or shows that kind; the entry stays, dimmed.
        const int session = group.session;
        const QString kind = group.kind;
        connect(marker, &QLegendMarker::clicked, this, [this, session, kind] {
            const QPair<int, QString> key(session, kind);
            if (!m_hiddenKinds.remove(key))
                m_hiddenKinds.insert(key);
            applyKindVisibility();
            relayout();
        });
    }
    connect(series, &QScatterSeries::hovered, this,
            [this, series](const QPointF& point, bool state) { onKernelHovered(series, point, state); });
    connect(series, &QScatterSeries::clicked, this,
            [this, series](const QPointF& point) { onKernelClicked(series, point); });
    m_kernelSeries << series;
}

void RooflineChart::rebuild(View view)
{
    const PlotRange kept = visibleRange();
    const bool keep = view == View::Keep && m_hasView;
    m_rebuilding = true;
    chart()->removeAllSeries();
    m_ceilingSeries.clear();
    m_kernelSeries.clear();
    m_dimmedSeries.clear();
    m_extraSeries.clear();
    m_anchor = nullptr;
    if (!keep) {  // new sessions show every kind and precision again
        m_hiddenKinds.clear();
        m_options.hiddenPrecisions.clear();
    }

    m_plot = buildRooflinePlot({&m_sessions, &m_extraRoofs, m_options, m_highlightedLevel, m_kernelFilter}, m_theme);
    m_roofSeries.assign(m_plot.roofs.size(), nullptr);
    m_groupSeries.assign(m_plot.groups.size(), nullptr);
    // A theme or highlight change keeps the user's zoom; new data starts from the default view.
    const PlotRange& range = keep ? kept : m_plot.defaultRange;
    m_axisX->setRange(range.xMin, range.xMax);
    m_axisY->setRange(range.yMin, range.yMax);
    m_hasView = true;

    m_anchor = addLine({}, QPen(Qt::transparent), QString(), false);
    // The order series are added is the order they are painted in: regions, iso lines, each session's roofs
    // and dots, the extra roofs on top.
    for (const PlotRegion& region : m_plot.regions)
        attach(makeRegionSeries(region), false);
    for (std::size_t i = 0; i < m_plot.roofs.size(); ++i)
        if (m_plot.roofs[i].kind == RoofKind::Iso)
            addRoof(i);
    for (int session = 0; session < static_cast<int>(m_sessions.size()); ++session) {
        for (std::size_t i = 0; i < m_plot.roofs.size(); ++i)
            if (m_plot.roofs[i].session == session)
                addRoof(i);
        for (std::size_t i = 0; i < m_plot.groups.size(); ++i)
            if (m_plot.groups[i].session == session)
                addGroup(i);
    }
    for (std::size_t i = 0; i < m_plot.roofs.size(); ++i)
        if (m_plot.roofs[i].kind == RoofKind::Extra)
            addRoof(i);
    chart()->setTitle(m_plot.title);
    chart()->legend()->setVisible(m_plot.legendVisible);
    applyThemeToChart();
    applyKindVisibility();  // after the theme: it dims the legend entries of hidden kinds
    addHiddenPrecisionEntries();
    m_rebuilding = false;
    relayout();
}

PlotRange RooflineChart::visibleRange() const
{
    return {m_axisX->min(), m_axisX->max(), m_axisY->min(), m_axisY->max()};
}

void RooflineChart::setVisibleRange(const PlotRange& range)
{
    if (isLogRange(range.xMin, range.xMax))
        m_axisX->setRange(range.xMin, range.xMax);
    if (isLogRange(range.yMin, range.yMax))
        m_axisY->setRange(range.yMin, range.yMax);
}

void RooflineChart::applyThemeToChart()
{
    QChart* c = chart();
    c->setBackgroundBrush(m_theme.background);
    c->setPlotAreaBackgroundBrush(m_theme.plotBackground);
    c->setPlotAreaBackgroundVisible(true);
    c->setTitleBrush(m_theme.text);
    c->setTitleFont(m_theme.titleFont);
    setBackgroundBrush(m_theme.background);
    for (QLogValueAxis* axis : {m_axisX, m_axisY}) {
        axis->setLabelsFont(m_theme.axisLabelFont);
        axis->setLabelsBrush(m_theme.text);
        axis->setTitleFont(m_theme.axisTitleFont);
        axis->setTitleBrush(m_theme.text);
        axis->setGridLinePen(QPen(m_theme.grid, 1.0));
        axis->setMinorGridLinePen(QPen(m_theme.minorGrid, 1.0));
        axis->setLinePen(QPen(m_theme.mutedText, 1.5));
    }
    QLegend* legend = c->legend();
    legend->setFont(m_theme.legendFont);
    legend->setLabelBrush(m_theme.text);
    legend->setBrush(Qt::NoBrush);
    legend->setPen(Qt::NoPen);
    legend->setMarkerShape(QLegend::MarkerShapeFromSeries);
}

QPoint RooflineChart::viewportPosition(QPointF value) const
{
    return mapFromScene(chart()->mapToScene(chart()->mapToPosition(value, m_anchor)));
}

void RooflineChart::relayout()
{
    if (m_rebuilding || !m_anchor)
        return;
    fitLegend();
    const QRectF plotArea = chart()->plotArea();
    m_under->setClipRect(plotArea);
    m_over->setClipRect(plotArea);
    RooflineView view;
    view.plot = &m_plot;
    view.sessions = &m_sessions;
    view.extraRoofs = &m_extraRoofs;
    view.mapping = {plotArea, visibleRange()};
    view.options = m_options;
    view.selected = m_selected;
    view.groupShown.reserve(m_groupSeries.size());
    for (const QScatterSeries* series : m_groupSeries)
        view.groupShown.push_back(series && series->isVisible());
    RooflineAnnotations annotations = annotateRoofline(view, m_theme);
    m_kernelLabelRects = std::move(annotations.kernelLabelRects);
    m_drawnArrows = annotations.drawnArrows;
    m_under->setContent(std::move(annotations.under), {}, {});
    m_over->setContent(std::move(annotations.over), std::move(annotations.texts), std::move(annotations.rings));
}

QStringList RooflineChart::visibleLabels() const
{
    QStringList labels;
    for (const AnnotationText& text : m_over->texts())
        labels << text.text;
    return labels;
}

QList<QLineSeries*> RooflineChart::ceilingSeries() const
{
    return m_ceilingSeries;
}

QList<QScatterSeries*> RooflineChart::kernelSeries() const
{
    return m_kernelSeries;
}

QList<QLineSeries*> RooflineChart::extraRoofSeries() const
{
    return m_extraSeries;
}

QLineSeries* RooflineChart::ceilingSeries(int session, const QString& kind, const QString& name) const
{
    const RoofKind wanted = kind == QLatin1String("compute") ? RoofKind::Compute : RoofKind::Bandwidth;
    if (kind != QLatin1String("compute") && kind != QLatin1String("bandwidth"))
        return nullptr;
    for (std::size_t i = 0; i < m_plot.roofs.size(); ++i) {
        const PlotRoof& roof = m_plot.roofs[i];
        if (roof.kind == wanted && roof.session == session && roof.name == name)
            return m_roofSeries[i];
    }
    return nullptr;
}

int RooflineChart::kernelPointCount() const
{
    int count = 0;
    for (std::size_t i = 0; i < m_groupSeries.size(); ++i)  // a GPU kernel's markers at other levels are no kernels
        if (m_groupSeries[i] && !m_plot.groups[i].dimmed && m_plot.groups[i].primary)
            count += static_cast<int>(m_groupSeries[i]->count());
    return count;
}

int RooflineChart::dimmedKernelPointCount() const
{
    int count = 0;
    for (QScatterSeries* series : m_dimmedSeries)
        count += static_cast<int>(series->count());
    return count;
}

QString RooflineChart::kernelTooltip(int session, int kernel) const
{
    if (session < 0 || session >= static_cast<int>(m_sessions.size()))
        return {};
    const Session& s = m_sessions[static_cast<std::size_t>(session)];
    if (kernel < 0 || kernel >= static_cast<int>(s.kernels.size()))
        return {};
    return ui::kernelTooltip(s, s.kernels[static_cast<std::size_t>(kernel)]);
}

double RooflineChart::kernelMarkerSize(int session, int kernel) const
{
    return m_plot.markerSize({session, kernel}, m_theme.markerSize);
}

QColor RooflineChart::kernelColor(int session, int kernel) const
{
    return kernelColorOf(m_plot, m_sessions, m_theme, {session, kernel});
}

KernelRef RooflineChart::kernelAt(QScatterSeries* series, const QPointF& point) const
{
    const auto found = std::find(m_groupSeries.begin(), m_groupSeries.end(), series);
    if (found == m_groupSeries.end())
        return {};
    const std::vector<KernelRef>& refs = m_plot.groups[static_cast<std::size_t>(found - m_groupSeries.begin())].refs;
    const QList<QPointF> points = series->points();
    KernelRef best;
    double bestDistance = std::numeric_limits<double>::max();
    for (qsizetype i = 0; i < points.size() && i < static_cast<qsizetype>(refs.size()); ++i) {
        const double dx = std::log10(points[i].x() / point.x());
        const double dy = std::log10(points[i].y() / point.y());
        const double distance = dx * dx + dy * dy;
        if (distance < bestDistance) {
            bestDistance = distance;
            best = refs[static_cast<std::size_t>(i)];
        }
    }
    return best;
}

void RooflineChart::onKernelHovered(QScatterSeries* series, const QPointF& point, bool state)
{
    if (!state) {
        QToolTip::hideText();
        return;
    }
    const KernelRef ref = kernelAt(series, point);
    if (ref.session < 0)
        return;
    QToolTip::showText(QCursor::pos(), kernelTooltip(ref.session, ref.kernel), this);
}

void RooflineChart::onKernelClicked(QScatterSeries* series, const QPointF& point)
{
    const KernelRef ref = kernelAt(series, point);
    if (ref.session < 0)
        return;
    setSelectedKernel(ref.session, ref.kernel);
    emit kernelClicked(ref.session, ref.kernel);
}

void RooflineChart::resetView()
{
    setVisibleRange(m_plot.defaultRange);
}

void RooflineChart::wheelEvent(QWheelEvent* event)
{
    const QPointF pos = chart()->mapFromScene(mapToScene(event->position().toPoint()));
    const QRectF plot = chart()->plotArea();
    if (!plot.contains(pos) || event->angleDelta().y() == 0) {
        QChartView::wheelEvent(event);
        return;
    }
    // Zoom about the cursor: the data point under it stays put.
    const double f = event->angleDelta().y() > 0 ? 1.0 / 1.25 : 1.25;
    const QRectF rect(pos.x() - (pos.x() - plot.left()) * f, pos.y() - (pos.y() - plot.top()) * f, plot.width() * f,
                      plot.height() * f);
    chart()->zoomIn(rect);
    event->accept();
}

void RooflineChart::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::MiddleButton) {
        m_panning = true;
        m_panFrom = event->position().toPoint();
        setCursor(Qt::ClosedHandCursor);
        event->accept();
        return;
    }
    QChartView::mousePressEvent(event);
}

void RooflineChart::mouseMoveEvent(QMouseEvent* event)
{
    if (m_panning) {
        const QPoint now = event->position().toPoint();
        const QPoint delta = now - m_panFrom;
        m_panFrom = now;
        chart()->scroll(-delta.x(), delta.y());
        event->accept();
        return;
    }
    QChartView::mouseMoveEvent(event);
}

void RooflineChart::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_panning && event->button() == Qt::MiddleButton) {
        m_panning = false;
        unsetCursor();
        event->accept();
        return;
    }
    if (event->button() == Qt::RightButton) {
        resetView();  // right click undoes every zoom at once; the rubber band's zoom-out is rarely wanted
        event->accept();
        return;
    }
    QChartView::mouseReleaseEvent(event);
}

void RooflineChart::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
        case Qt::Key_Plus:
        case Qt::Key_Equal:
            chart()->zoom(1.25);
            break;
        case Qt::Key_Minus:
            chart()->zoom(0.8);
            break;
        case Qt::Key_Left:
            chart()->scroll(-30, 0);
            break;
        case Qt::Key_Right:
            chart()->scroll(30, 0);
            break;
        case Qt::Key_Up:
            chart()->scroll(0, 30);
            break;
        case Qt::Key_Down:
            chart()->scroll(0, -30);
            break;
        case Qt::Key_Home:
        case Qt::Key_0:
            resetView();
            break;
        default:
            QChartView::keyPressEvent(event);
            return;
    }
    event->accept();
}

}  // namespace ridgeline::ui
