#include "ui/chart/roofline_chart.h"

#include "ui/chart/chart_description.h"
#include "ui/chart/chart_overlay.h"
#include "ui/chart/kernel_dots.h"
#include "ui/chart/log_axis.h"
#include "ui/chart/roofline_series.h"
#include "ui/plots/roofline/roofline_hit_test.h"
#include "ui/plots/roofline/roofline_labels.h"
#include "ui/widgets/accessible_text.h"

#include <QAreaSeries>
#include <QFontMetricsF>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QResizeEvent>
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
constexpr double kDotsZ = 4.2;  // a large group's dots (KernelDots): over the series, under the labels
constexpr double kOverSeriesZ = 4.5;
constexpr double kPointerZ = 6.0;  // the readout, over the legend too

}  // namespace

RooflineChart::RooflineChart(QWidget* parent) : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing, true);
    m_navigator = std::make_unique<ChartNavigator>(this);
    setMouseTracking(true);
    viewport()->setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(480, 320);

    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setDropShadowEnabled(false);
    c->setMargins(QMargins(12, 8, 20, 8));
    c->legend()->setVisible(false);  // the chart's own key (ChartLegend) wraps its rows

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
    m_dots = new KernelDots(c);
    m_dots->setZValue(kDotsZ);
    m_over = new ChartOverlay(c);
    m_over->setZValue(kOverSeriesZ);
    m_pointer = new ChartOverlay(c);
    m_pointer->setZValue(kPointerZ);
    m_strip = new ChartOverlay(c);
    m_strip->setZValue(kOverSeriesZ);
    m_legend = new ChartLegend(c);
    m_legend->setZValue(kOverSeriesZ);
    connect(m_legend, &ChartLegend::entryClicked, this, [this](int index) { onLegendClick(index); });
    connect(m_legend, &ChartLegend::foldClicked, this, [this] { onFoldClick(); });

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

QLineSeries* RooflineChart::addLine(const std::vector<QPointF>& points, const QPen& pen, const QString& name)
{
    QLineSeries* series = makeLineSeries(points, pen, name, m_yUnit);
    attach(series);
    return series;
}

void RooflineChart::attach(QAbstractSeries* series)
{
    chart()->addSeries(series);
    series->attachAxis(m_axisX);
    series->attachAxis(m_axisY);
}

void RooflineChart::addRoof(std::size_t index)
{
    const PlotRoof& roof = m_plot.roofs[index];
    QLineSeries* series = addLine(roof.vertices, roof.pen, roof.inLegend ? roof.legendName : roof.name);
    m_roofSeries[index] = series;
    if (roof.inLegend)
        addLegendEntry({roof.legendName, roof.pen, Qt::NoBrush}, {-1, {}, roof.precisionEntry});
    if (roof.kind == RoofKind::Compute || roof.kind == RoofKind::Bandwidth)
        m_ceilingSeries << series;
    else if (roof.kind == RoofKind::Extra)
        m_extraSeries << series;
}

void RooflineChart::addGroup(std::size_t index)
{
    const KernelGroup& group = m_plot.groups[index];
    QScatterSeries* series = nullptr;
    if (group.points.size() > kManyDots) {
        // One item draws the dots; the series, without points, keeps the legend entry and the visibility.
        KernelGroup legendOnly = group;
        legendOnly.points.clear();
        legendOnly.pointColors.clear();
        series = makeKernelSeries(legendOnly, m_yUnit);
        m_dots->add(group, series);
    } else {
        series = makeKernelSeries(group, m_yUnit);
    }
    attach(series);
    m_groupSeries[index] = series;
    if (group.legendVisible) {
        // Clicking the entry of a kind's first group hides or shows that kind; the entry stays, dimmed.
        const bool toggles = !group.dimmed && group.carriesLegend;
        addLegendEntry({group.name, QPen(group.border, 1.0), QBrush(group.color), group.shape, group.markerSize},
                       {toggles ? group.session : -1, toggles ? group.kind : QString(), {}});
    }
    if (group.dimmed) {
        m_dimmedSeries << series;
        return;
    }
    m_kernelSeries << series;
}

void RooflineChart::rebuild(View view)
{
    const PlotRange kept = visibleRange();
    const bool keep = view == View::Keep && m_hasView;
    m_rebuilding = true;
    chart()->removeAllSeries();
    m_dots->clear();
    m_ceilingSeries.clear();
    m_kernelSeries.clear();
    m_dimmedSeries.clear();
    m_extraSeries.clear();
    m_anchor = nullptr;
    m_legendEntries.clear();
    m_legendToggles.clear();
    if (!keep) {  // new sessions show every kind and precision again, from a history of their own
        m_hiddenKinds.clear();
        m_options.hiddenPrecisions.clear();
        m_history.clear();
        m_wheelRun.reset();
        emit historyChanged();
    }

    m_plot = buildRooflinePlot({&m_sessions, &m_extraRoofs, m_options, m_highlightedLevel, m_kernelFilter}, m_theme);
    m_roofSeries.assign(m_plot.roofs.size(), nullptr);
    m_groupSeries.assign(m_plot.groups.size(), nullptr);
    // A theme or highlight change keeps the user's zoom; new data starts from the default view.
    const PlotRange& range = keep ? kept : m_plot.defaultRange;
    // GFLOP/s on the axis for a CPU, TFLOP/s or PFLOP/s once GPU roofs reach that high: the series and the axis
    // hold performance in that unit, everything else (the plot, the layouts, visibleRange) in GFLOP/s.
    m_yUnit = m_plot.yUnit.gflops;
    m_axisY->setTitleText(tr("Performance (%1)").arg(m_plot.yUnit.name));
    setLogAxisRange(m_axisX, range.xMin, range.xMax);
    setLogAxisRange(m_axisY, range.yMin / m_yUnit, range.yMax / m_yUnit);
    m_hasView = true;

    m_anchor = addLine({}, QPen(Qt::transparent), QString());
    // The order series are added is the order they are painted in: regions, iso lines, each session's roofs
    // and dots, the extra roofs on top.
    for (const PlotRegion& region : m_plot.regions)
        attach(makeRegionSeries(region, m_yUnit));
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
    addHiddenPrecisionEntries();
    if (!m_plot.legendVisible) {
        m_legendEntries.clear();
        m_legendToggles.clear();
    }
    m_legend->setEntries(std::move(m_legendEntries), m_theme.legendFont, m_theme.text);
    m_legendEntries.clear();
    applyThemeToChart();
    applyKindVisibility();  // dims the key's entries of hidden kinds
    fitMargins(chart()->size());
    m_rebuilding = false;
    relayout();
}

PlotRange RooflineChart::visibleRange() const
{
    return {m_axisX->min(), m_axisX->max(), m_axisY->min() * m_yUnit, m_axisY->max() * m_yUnit};
}

void RooflineChart::setVisibleRange(const PlotRange& range)
{
    if (isLogRange(range.xMin, range.xMax))
        setLogAxisRange(m_axisX, range.xMin, range.xMax);
    if (isLogRange(range.yMin, range.yMax))
        setLogAxisRange(m_axisY, range.yMin / m_yUnit, range.yMax / m_yUnit);
}

void RooflineChart::applyThemeToChart()
{
    styleRooflineChart(chart(), {m_axisX, m_axisY}, m_theme);
    setBackgroundBrush(m_theme.background);
}

QPoint RooflineChart::viewportPosition(QPointF value) const
{
    return mapFromScene(chart()->mapToScene(plotPosition(value)));
}

QPointF RooflineChart::plotPosition(QPointF value) const
{
    return chart()->mapToPosition(QPointF(value.x(), value.y() / m_yUnit), m_anchor);
}

void RooflineChart::relayout()
{
    if (m_rebuilding || !m_anchor)
        return;
    placeLegend();
    const QRectF plotArea = chart()->plotArea();
    m_under->setClipRect(plotArea);
    m_over->setClipRect(plotArea);
    m_strip->setClipRect(stripRect());
    const RooflineView view = currentView();
    m_dots->relayout(view.mapping);
    RooflineAnnotations annotations = annotateRoofline(view, m_theme);
    m_strip->setContent(std::move(annotations.stripLines), std::move(annotations.stripTexts), {});
    m_kernelLabelRects = std::move(annotations.kernelLabelRects);
    m_roofLabels = std::move(annotations.roofLabels);
    m_roofLegend = annotations.roofLegend;
    m_drawnArrows = annotations.drawnArrows;
    m_under->setContent(std::move(annotations.under), {}, {});
    m_over->setContent(std::move(annotations.over), std::move(annotations.texts), std::move(annotations.rings));
    setAccessibleText(*this, m_plot.title.isEmpty() ? tr("Roofline chart") : m_plot.title,
                      selectionDescription() + chartParts(*chart()) + visibleLabels());
}

QStringList RooflineChart::visibleLabels() const
{
    QStringList labels;
    for (const ChartOverlay* overlay : {m_over, m_strip})
        for (const AnnotationText& text : overlay->texts())
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
            count += static_cast<int>(m_plot.groups[i].points.size());  // a large group's are KernelDots'
    return count;
}

int RooflineChart::dimmedKernelPointCount() const
{
    int count = 0;
    for (std::size_t i = 0; i < m_groupSeries.size(); ++i)
        if (m_groupSeries[i] && m_plot.groups[i].dimmed)
            count += static_cast<int>(m_plot.groups[i].points.size());
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

RooflineView RooflineChart::currentView() const
{
    RooflineView view;
    view.plot = &m_plot;
    view.sessions = &m_sessions;
    view.extraRoofs = &m_extraRoofs;
    view.mapping = {chart()->plotArea(), visibleRange()};
    view.options = m_options;
    view.selected = m_selected;
    view.strip = stripRect();
    view.groupShown.reserve(m_groupSeries.size());
    for (const QScatterSeries* series : m_groupSeries)
        view.groupShown.push_back(series && series->isVisible());
    return view;
}

QPointF RooflineChart::chartPosition(QPoint viewportPosition) const
{
    return chart()->mapFromScene(mapToScene(viewportPosition));
}

// A click selects and explains the dot under it; on no dot, a click on a bandwidth roof highlights its level here
// and its plateau in the staircase (a second click clears it).
void RooflineChart::onClick(QPoint viewportPosition)
{
    const RooflineView view = currentView();
    const QPointF at = chartPosition(viewportPosition);
    if (const std::optional<KernelHit> hit = kernelHitAt(view, m_theme, at)) {
        setSelectedKernel(hit->ref.session, hit->ref.kernel);
        emit kernelClicked(hit->ref.session, hit->ref.kernel);
        return;
    }
    if (const std::optional<std::size_t> roof = roofHitAt(view, at, kHitSlack, RoofKind::Bandwidth)) {
        const QString level = m_plot.roofs[*roof].level;
        setHighlightedLevel(level == m_highlightedLevel ? QString() : level);
        emit levelClicked(m_highlightedLevel);
    }
}

void RooflineChart::resetView()
{
    leaveView(visibleRange());
    setVisibleRange(m_plot.defaultRange);
}

// A view the chart left for another goes on the history, unless nothing moved.
void RooflineChart::leaveView(const PlotRange& left)
{
    if (sameView(left, visibleRange()))
        return;
    m_wheelRun.reset();
    m_history.leave(left);
    emit historyChanged();
}

void RooflineChart::zoomBack()
{
    m_wheelRun.reset();
    if (const std::optional<PlotRange> to = m_history.back(visibleRange())) {
        setVisibleRange(*to);
        emit historyChanged();
    }
}

void RooflineChart::zoomForward()
{
    m_wheelRun.reset();
    if (const std::optional<PlotRange> to = m_history.forward(visibleRange())) {
        setVisibleRange(*to);
        emit historyChanged();
    }
}

bool RooflineChart::handled(ChartNavigator::Outcome outcome, QPoint position)
{
    switch (outcome) {
        case ChartNavigator::Outcome::Ignored:
            return false;
        case ChartNavigator::Outcome::Handled:
            break;
        case ChartNavigator::Outcome::Click:
            onClick(position);
            break;
        case ChartNavigator::Outcome::Reset:
            resetView();
            break;
    }
    return true;
}

void RooflineChart::wheelEvent(QWheelEvent* event)
{
    const PlotRange before = visibleRange();
    const QPointF at = event->position();
    const bool sameRun = m_wheelRun && QLineF(*m_wheelRun, at).length() <= 2.0;
    if (handled(m_navigator->wheel(*event), {})) {
        event->accept();
        if (!sameRun)
            leaveView(before);
        m_wheelRun = at;
    } else {
        QChartView::wheelEvent(event);
    }
}

void RooflineChart::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::BackButton || event->button() == Qt::ForwardButton) {
        event->button() == Qt::BackButton ? zoomBack() : zoomForward();
        event->accept();
        return;
    }
    m_panStart = visibleRange();
    showKeyFocus(false);
    if (handled(m_navigator->press(*event), {}))
        event->accept();
    else
        QChartView::mousePressEvent(event);
}

void RooflineChart::mouseMoveEvent(QMouseEvent* event)
{
    if (handled(m_navigator->move(*event), {})) {
        event->accept();
        return;
    }
    hover(event->position().toPoint());
    QChartView::mouseMoveEvent(event);
}

// The tooltip of the dot under the cursor (nearest in pixels, so a dot on a roof line too) and the readout of
// where the cursor is: every move, not Qt's per-item hover events, which missed most dots.
void RooflineChart::hover(QPoint position)
{
    const RooflineView view = currentView();
    const QPointF at = chartPosition(position);
    if (const std::optional<KernelHit> hit = kernelHitAt(view, m_theme, at)) {
        const KernelResult& kernel = view.kernel(hit->ref);
        const QPoint dot = viewportPosition(QPointF(kernel.intensity, kernel.gflops));
        QToolTip::showText(viewport()->mapToGlobal(dot + QPoint(8, 8)),
                           kernelTooltip(hit->ref.session, hit->ref.kernel), viewport());
    } else if (QToolTip::isVisible()) {
        QToolTip::hideText();
    }
    const std::optional<PointerReadout> readout = pointerReadout(view, at);
    m_readout = readout ? readout->text() : QString();
    if (!readout) {
        m_pointer->clear();
        return;
    }
    const QFontMetricsF titleMetrics(m_theme.titleFont);
    const double titleWidth = titleMetrics.horizontalAdvance(chart()->title());
    const QRectF title((width() - titleWidth) / 2.0, 0.0, titleWidth, titleMetrics.height() + 12.0);
    m_pointer->setContent({}, placeReadout(*readout, chart()->plotArea(), title, at, m_theme), {});
}

bool RooflineChart::viewportEvent(QEvent* event)
{
    if (event->type() == QEvent::Show)
        fitMargins(chart()->size());  // on screen the key may fold (fitMargins)
    if (event->type() == QEvent::Leave) {
        m_readout.clear();
        m_pointer->clear();
        QToolTip::hideText();
    }
    return QChartView::viewportEvent(event);
}

void RooflineChart::mouseReleaseEvent(QMouseEvent* event)
{
    // A pan moved the view on every step of its drag: the view it left is the one its press found.
    const PlotRange before = event->button() == Qt::MiddleButton ? m_panStart : visibleRange();
    if (handled(m_navigator->release(*event), m_navigator->clickPosition())) {
        event->accept();
        leaveView(before);
    } else {
        QChartView::mouseReleaseEvent(event);
    }
}

QRectF RooflineChart::stripRect() const
{
    if (m_stripWidth <= 0.0)
        return {};
    // From just right of the plot (Qt Charts keeps some room there beyond the margin) to the chart's edge.
    const QRectF plot = chart()->plotArea();
    const double left = plot.right() + 12.0;
    return QRectF(left, plot.top(), std::max(0.0, chart()->size().width() - 12.0 - left), plot.height());
}

void RooflineChart::resizeEvent(QResizeEvent* event)
{
    fitMargins(event->size());
    QChartView::resizeEvent(event);
}

}  // namespace ridgeline::ui
