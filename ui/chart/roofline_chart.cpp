#include "ui/chart/roofline_chart.h"

#include "core/model/session_roof.h"
#include "core/model/units.h"

#include "ui/chart/chart_annotations.h"
#include "ui/models/label_layout.h"
#include "ui/models/point_explanation.h"

#include <QAreaSeries>
#include <QCursor>
#include <QFontMetricsF>
#include <QHash>
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
#include <array>
#include <cmath>
#include <limits>
#include <map>

namespace ridgeline::ui {

namespace {

// How far past the visible range roofs are drawn, so zooming out and panning never show a line's end.
constexpr double kOverdraw = 1e4;
// Qt Charts draws series at z 4 (SeriesZValue) and the legend at 5: error bars go just under the dots,
// labels just over them.
constexpr double kUnderSeriesZ = 3.5;
constexpr double kOverSeriesZ = 4.5;
// Labelling thousands of dots is both slow and unreadable; past this only the dots are drawn.
constexpr int kMaxKernelLabels = 150;
// Before/after arrows drawn at most; more pairs than this get a hint to filter instead.
constexpr int kMaxArrows = 40;
// Imported kernels get colours of their own only while a colour names at most two of them.
constexpr qsizetype kMaxOwnColours = 12;

double decadeFloor(double v)
{
    return std::pow(10.0, std::floor(std::log10(v)));
}

double decadeCeil(double v)
{
    return std::pow(10.0, std::ceil(std::log10(v)));
}

// A decode sweep labels every point; after the first, "B=16" says all the "decode B=16" would.
QString kernelLabel(const KernelResult& kernel, bool firstOfKind)
{
    if (kernel.kind == QLatin1String("decode") && kernel.batch > 0 && !firstOfKind)
        return QStringLiteral("B=%1").arg(kernel.batch);
    return kernel.name;
}

QColor blend(const QColor& a, const QColor& b, double towardsB)
{
    auto mix = [towardsB](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * towardsB)); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
}

QScatterSeries::MarkerShape markerShapeFor(const QString& kind)
{
    if (kind == QLatin1String("dgemm"))
        return QScatterSeries::MarkerShapeRotatedRectangle;
    if (kind == QLatin1String("add"))
        return QScatterSeries::MarkerShapeRectangle;
    if (kind == QLatin1String("decode"))
        return QScatterSeries::MarkerShapeTriangle;
    if (kind.startsWith(QLatin1String("fusion")))
        return QScatterSeries::MarkerShapePentagon;
    return QScatterSeries::MarkerShapeCircle;
}

QString sessionLabel(const Session& session)
{
    QString label = session.title.isEmpty() ? session.machine.cpuModel : session.title;
    if (label.isEmpty())
        label = session.machine.hostname;
    if (label.isEmpty())
        label = QObject::tr("Unnamed machine");
    return label;
}

struct GflopsRange {
    double low = 0.0;
    double high = 0.0;
};

// Dots sized by time share: area in proportion to the share, from a readable minimum to a size that still
// leaves the roofs visible.
constexpr double kMinShareMarker = 7.0;
constexpr double kMaxShareMarker = 46.0;

bool isImported(const KernelResult& k)
{
    return k.kind == QLatin1String("imported");
}

// Imported kernels, one colour each: dark, saturated, and away from the measured kinds' Okabe-Ito hues and the
// roof blues (the first is the "imported" legend colour).
QColor importedKernelColor(ThemeKind kind, int n)
{
    static const std::array<QColor, 6> kLight = {QColor(0x22, 0x22, 0x22), QColor(0x00, 0x7c, 0x86),
                                                 QColor(0x8d, 0x55, 0x24), QColor(0x6a, 0x1b, 0x9a),
                                                 QColor(0xb7, 0x1c, 0x1c), QColor(0x55, 0x6b, 0x2f)};
    static const std::array<QColor, 6> kDark = {QColor(0xf0, 0xf0, 0xf0), QColor(0x4d, 0xd0, 0xe1),
                                                QColor(0xd7, 0xa2, 0x6c), QColor(0xce, 0x93, 0xd8),
                                                QColor(0xff, 0x8a, 0x80), QColor(0xb5, 0xcf, 0x7a)};
    const std::size_t i = static_cast<std::size_t>(n < 0 ? 0 : n) % kLight.size();
    return kind == ThemeKind::Light ? kLight[i] : kDark[i];
}

// A kernel's spread is in seconds; the error bar is in GFLOP/s (slowest run to fastest run).
GflopsRange gflopsRange(const KernelResult& k)
{
    if (k.flops <= 0.0 || k.spread.min <= 0.0 || k.spread.max <= 0.0)
        return {};
    return {k.flops / k.spread.max / 1e9, k.flops / k.spread.min / 1e9};
}

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

    m_under = new ChartAnnotations(c);
    m_under->setZValue(kUnderSeriesZ);
    m_over = new ChartAnnotations(c);
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
    return m_kernelFilter.isEmpty() || kernel.name.contains(m_kernelFilter, Qt::CaseInsensitive) ||
           kernel.fullName.contains(m_kernelFilter, Qt::CaseInsensitive);
}

void RooflineChart::computeDefaultRanges()
{
    std::vector<double> xs;
    std::vector<double> ys;
    for (const Session& s : m_sessions) {
        const ComputeCeiling* best = bestComputeCeiling(s);
        const double peak = best ? best->gflops : 0.0;
        for (const KernelResult& k : s.kernels) {
            if (k.intensity <= 0.0 || k.gflops <= 0.0)
                continue;
            xs.push_back(k.intensity);
            ys.push_back(k.gflops);
            for (const LevelPoint& level : k.levels)
                if (level.intensity > 0.0)
                    xs.push_back(level.intensity);
            const GflopsRange range = gflopsRange(k);
            if (range.low > 0.0)
                ys.push_back(range.low);
        }
        for (const ComputeCeiling& c : s.computeCeilings)
            if (c.gflops > 0.0)
                ys.push_back(c.gflops);
        for (const BandwidthCeiling& b : s.bandwidthCeilings)
            if (b.gbps > 0.0 && peak > 0.0)
                xs.push_back(peak / b.gbps);
    }
    for (const NamedRoof& r : m_extraRoofs) {
        if (r.roof.peakGflops <= 0.0 || r.roof.bandwidthGbps <= 0.0)
            continue;
        xs.push_back(ridgeIntensity(r.roof));
        ys.push_back(r.roof.peakGflops);
    }
    if (xs.empty())
        xs = {0.1, 100.0};
    if (ys.empty())
        ys = {1.0, 1000.0};
    const auto [xLow, xHigh] = std::minmax_element(xs.begin(), xs.end());
    const auto [yLow, yHigh] = std::minmax_element(ys.begin(), ys.end());
    // Tight, not decade-aligned: a slide has no room for an empty decade. Room on the right for the
    // ceiling labels, above the highest ceiling for its label, below the slowest kernel for its error bar.
    double x0 = *xLow / 2.5;
    double x1 = *xHigh * 5.0;
    double y0 = *yLow / 2.0;
    double y1 = *yHigh * 2.2;
    // At least one labelled decade tick on each axis, and a few decades in all.
    if (decadeCeil(x0) > decadeFloor(x1) || x1 / x0 < 1e3)
        x0 = std::min(x0, decadeFloor(x0));
    if (x1 / x0 < 1e3)
        x1 = x0 * 1e3;
    if (decadeCeil(y0) > decadeFloor(y1) || y1 / y0 < 30.0)
        y0 = std::min(y0, decadeFloor(y0));
    if (y1 / y0 < 30.0)
        y0 = y1 / 30.0;
    m_defaultX = QPointF(x0, x1);
    m_defaultY = QPointF(y0, y1);
}

QLineSeries* RooflineChart::addLine(const std::vector<QPointF>& points, const QPen& pen, const QString& name,
                                    bool inLegend)
{
    auto* series = new QLineSeries;
    series->setName(name);
    series->replace(QList<QPointF>(points.begin(), points.end()));
    chart()->addSeries(series);
    series->attachAxis(m_axisX);
    series->attachAxis(m_axisY);
    series->setPen(pen);
    const auto markers = chart()->legend()->markers(series);
    for (QLegendMarker* marker : markers)
        marker->setVisible(inLegend);
    return series;
}

void RooflineChart::rebuild(View view)
{
    const QPointF keptX(m_axisX->min(), m_axisX->max());
    const QPointF keptY(m_axisY->min(), m_axisY->max());
    const bool keep = view == View::Keep && !m_defaultX.isNull();
    m_rebuilding = true;
    QChart* c = chart();
    c->removeAllSeries();
    m_ceilingSeries.clear();
    m_kernelSeries.clear();
    m_dimmedSeries.clear();
    m_extraSeries.clear();
    m_kernelRefs.clear();
    m_anchor = nullptr;

    computeDefaultRanges();
    computeKernelStyles();
    // A theme or highlight change keeps the user's zoom; new data starts from the default view.
    m_axisX->setRange(keep ? keptX.x() : m_defaultX.x(), keep ? keptX.y() : m_defaultX.y());
    m_axisY->setRange(keep ? keptY.x() : m_defaultY.x(), keep ? keptY.y() : m_defaultY.y());

    m_anchor = addLine({}, QPen(Qt::transparent), QString(), false);

    if (m_options.shadeRegions || m_options.isoEfficiency)
        addShadingAndIsoLines();
    for (int i = 0; i < static_cast<int>(m_sessions.size()); ++i)
        addSessionSeries(i);
    addExtraRoofSeries();

    QStringList titles;
    for (const Session& s : m_sessions)
        titles << sessionLabel(s);
    c->setTitle(titles.join(QStringLiteral("  vs  ")));
    c->legend()->setVisible(!m_kernelSeries.isEmpty() || m_sessions.size() > 1);

    applyThemeToChart();
    m_rebuilding = false;
    relayout();
}

void RooflineChart::computeKernelStyles()
{
    m_markerSizes.assign(m_sessions.size(), {});
    m_kernelColors.assign(m_sessions.size(), {});
    m_changes.assign(m_sessions.size(), {});
    m_isBefore.assign(m_sessions.size(), {});
    for (std::size_t si = 0; si < m_sessions.size(); ++si) {
        const Session& s = m_sessions[si];
        m_changes[si] = beforeAfterChanges(s);
        // Imported kernels each get a colour of their own (by name, so a before and an after share it): their
        // level rings and joining lines then say whose they are where two kernels run at the same FLOP/s.
        // Overlays keep one colour per session instead.
        std::vector<QColor>& colors = m_kernelColors[si];
        colors.assign(s.kernels.size(), QColor());
        QHash<QString, int> names;  // a profile can hold thousands of launches
        for (std::size_t i = 0; i < s.kernels.size() && m_sessions.size() == 1; ++i) {
            const KernelResult& k = s.kernels[i];
            if (!isImported(k))
                continue;
            const QString name = k.fullName.isEmpty() ? k.name : k.fullName;
            const int n = names.value(name, static_cast<int>(names.size()));
            names.insert(name, n);
            colors[i] = importedKernelColor(m_theme.kind, n);
        }
        if (names.size() > kMaxOwnColours)  // confetti: colours repeat too often to say anything
            colors.assign(s.kernels.size(), QColor());
        m_isBefore[si].assign(s.kernels.size(), false);
        for (const KernelChange& change : m_changes[si])
            m_isBefore[si][static_cast<std::size_t>(change.before)] = true;
        std::vector<double>& sizes = m_markerSizes[si];
        sizes.assign(s.kernels.size(), m_theme.markerSize);
        if (!m_options.sizeByTimeShare)
            continue;
        // Shares within one import (or group): a before and an after run are alternatives, not one program.
        QHash<QString, double> totals;
        for (const KernelResult& k : s.kernels)
            if (isImported(k) && k.seconds > 0.0)
                totals[comparisonGroup(k)] += k.seconds;
        for (std::size_t i = 0; i < s.kernels.size(); ++i) {
            const KernelResult& k = s.kernels[i];
            const double total = totals.value(comparisonGroup(k));
            if (!isImported(k) || k.seconds <= 0.0 || total <= 0.0)
                continue;
            sizes[i] = std::clamp(kMaxShareMarker * std::sqrt(k.seconds / total), kMinShareMarker, kMaxShareMarker);
        }
    }
}

bool RooflineChart::isBeforeKernel(int session, int kernel) const
{
    if (session < 0 || session >= static_cast<int>(m_isBefore.size()))
        return false;
    const std::vector<bool>& before = m_isBefore[static_cast<std::size_t>(session)];
    return kernel >= 0 && kernel < static_cast<int>(before.size()) && before[static_cast<std::size_t>(kernel)];
}

QColor RooflineChart::kernelColor(int session, int kernel) const
{
    const bool overlay = m_sessions.size() > 1;
    if (session < 0 || session >= static_cast<int>(m_sessions.size()))
        return m_theme.text;
    const Session& s = m_sessions[static_cast<std::size_t>(session)];
    if (kernel < 0 || kernel >= static_cast<int>(s.kernels.size()))
        return m_theme.text;
    const std::vector<QColor>& colors = m_kernelColors[static_cast<std::size_t>(session)];
    const QColor own = colors[static_cast<std::size_t>(kernel)];
    if (own.isValid())
        return own;
    return overlay ? m_theme.sessionColor(session)
                   : m_theme.kernelColor(s.kernels[static_cast<std::size_t>(kernel)].kind);
}

double RooflineChart::kernelMarkerSize(int session, int kernel) const
{
    if (session < 0 || session >= static_cast<int>(m_markerSizes.size()))
        return m_theme.markerSize;
    const std::vector<double>& sizes = m_markerSizes[static_cast<std::size_t>(session)];
    return kernel >= 0 && kernel < static_cast<int>(sizes.size()) ? sizes[static_cast<std::size_t>(kernel)]
                                                                  : m_theme.markerSize;
}

QString RooflineChart::kernelTooltip(int session, int kernel) const
{
    if (session < 0 || session >= static_cast<int>(m_sessions.size()))
        return {};
    const Session& s = m_sessions[static_cast<std::size_t>(session)];
    if (kernel < 0 || kernel >= static_cast<int>(s.kernels.size()))
        return {};
    const KernelResult& k = s.kernels[static_cast<std::size_t>(kernel)];
    QString html = kernelTooltipHtml(s, k);
    if (!isImported(k))
        return html;
    // A profiler's name is often a page of template arguments: the label shows the short one, this the rest.
    if (!k.fullName.isEmpty() && k.fullName != k.name)
        html += QStringLiteral("<br><span style=\"font-family:monospace\">%1</span>").arg(k.fullName.toHtmlEscaped());
    QStringList facts;
    facts << tr("%1 per run").arg(formatSeconds(k.seconds));
    if (!k.level.isEmpty())
        facts << tr("bytes at %1").arg(k.level.toHtmlEscaped());
    for (const LevelPoint& level : k.levels)
        facts << tr("%1: %2 FLOP/byte").arg(level.level.toHtmlEscaped(), formatCompact(level.intensity));
    if (!k.precision.isEmpty())
        facts << k.precision.toHtmlEscaped();
    if (k.tensorFlopsCounted)
        facts << tr("tensor FLOPs counted");
    html += QStringLiteral("<br>") + facts.join(QStringLiteral(", "));
    QString from = tr("from %1").arg(k.source.toHtmlEscaped());
    if (!k.group.isEmpty())
        from += tr(", group %1").arg(k.group.toHtmlEscaped());
    html += QStringLiteral("<br><i>%1</i>").arg(from);
    return html;
}

void RooflineChart::addShadingAndIsoLines()
{
    if (m_sessions.empty())
        return;
    const std::optional<SessionRoof> primary = primaryRoof(m_sessions.front());
    if (!primary)
        return;
    const Roof roof = primary->roof();
    const double peak = roof.peakGflops;
    const double bandwidth = roof.bandwidthGbps;
    const double ridge = ridgeIntensity(roof);
    const double xLow = m_defaultX.x() / kOverdraw;
    const double xHigh = m_defaultX.y() * kOverdraw;
    const double floor = m_defaultY.x() / kOverdraw;

    if (m_options.shadeRegions) {
        auto region = [&](double from, double to, const QColor& color, const QString& name) {
            auto* upper = new QLineSeries;
            auto* lower = new QLineSeries;
            for (const QPointF& p : roofVertices(roof, from, to)) {
                upper->append(p);
                lower->append(p.x(), floor);
            }
            auto* area = new QAreaSeries(upper, lower);
            upper->setParent(area);
            lower->setParent(area);
            area->setName(name);
            chart()->addSeries(area);
            area->attachAxis(m_axisX);
            area->attachAxis(m_axisY);
            area->setPen(Qt::NoPen);
            area->setBrush(color);
            for (QLegendMarker* marker : chart()->legend()->markers(area))
                marker->setVisible(false);
        };
        region(xLow, ridge, m_theme.memoryRegion, tr("memory-bound"));
        region(ridge, xHigh, m_theme.computeRegion, tr("compute-bound"));
    }
    if (m_options.isoEfficiency) {
        for (const double fraction : {0.5, 0.8}) {
            QPen pen(m_theme.isoEfficiency, 2.0, Qt::DotLine);
            pen.setCapStyle(Qt::FlatCap);
            auto* line = addLine(roofVertices(Roof{peak * fraction, bandwidth * fraction}, xLow, xHigh), pen,
                                 tr("%1 % of roof").arg(fraction * 100.0), false);
            line->setProperty("ridgeline.iso", fraction);
        }
    }
}

void RooflineChart::addSessionSeries(int index)
{
    const Session& s = m_sessions[static_cast<std::size_t>(index)];
    const bool overlay = m_sessions.size() > 1;
    const QColor sessionColor = m_theme.sessionColor(index);
    const ComputeCeiling* best = bestComputeCeiling(s);
    const double peak = best ? best->gflops : 0.0;
    const std::optional<SessionRoof> primary = primaryRoof(s);
    const BandwidthCeiling* memoryRoof = primary ? primary->memory : slowestBandwidthCeiling(s);
    const BandwidthCeiling* fastestCeiling = fastestBandwidthCeiling(s);
    const double fastest = fastestCeiling ? fastestCeiling->gbps : 0.0;
    const double xLow = m_defaultX.x() / kOverdraw;
    const double xHigh = m_defaultX.y() * kOverdraw;
    bool legendTaken = false;

    // Compute ceilings: flat from where the fastest bandwidth roof meets them; the best one bold and solid.
    for (const ComputeCeiling& ceiling : s.computeCeilings) {
        if (ceiling.gflops <= 0.0)
            continue;
        const bool isBest = &ceiling == best;
        const double start = fastest > 0.0 ? std::max(xLow, ceiling.gflops / fastest) : xLow;
        // The lower ceilings recede (lighter, dashed) so the roof that matters reads first on a slide.
        const QColor base = overlay ? sessionColor : m_theme.computeRoof;
        QPen pen(isBest ? base : blend(base, m_theme.background, 0.4),
                 isBest ? m_theme.boldRoofWidth : m_theme.roofWidth, isBest ? Qt::SolidLine : Qt::DashLine);
        pen.setCapStyle(Qt::FlatCap);
        const bool inLegend = overlay && isBest && !legendTaken;
        QLineSeries* series = addLine({QPointF(start, ceiling.gflops), QPointF(xHigh, ceiling.gflops)}, pen,
                                      inLegend ? sessionLabel(s) : ceiling.name, inLegend);
        legendTaken = legendTaken || inLegend;
        series->setProperty("ridgeline.session", index);
        series->setProperty("ridgeline.kind", QStringLiteral("compute"));
        series->setProperty("ridgeline.name", ceiling.name);
        series->setProperty("ridgeline.value", ceiling.gflops);
        m_ceilingSeries << series;
    }

    // Bandwidth ceilings: the exact roof up to the ridge with the best compute ceiling, where it turns flat.
    for (const BandwidthCeiling& ceiling : s.bandwidthCeilings) {
        if (ceiling.gbps <= 0.0)
            continue;
        const double top = peak > 0.0 ? peak : m_defaultY.y() * kOverdraw;
        const Roof roof{top, ceiling.gbps};
        std::vector<QPointF> points = roofVertices(roof, xLow, xHigh);
        const double ridge = ridgeIntensity(roof);
        points.erase(std::remove_if(points.begin(), points.end(),
                                    [ridge](const QPointF& p) { return p.x() > ridge * (1.0 + 1e-12); }),
                     points.end());
        const bool isSlowest = &ceiling == memoryRoof;
        const bool highlighted = !m_highlightedLevel.isEmpty() && ceiling.level == m_highlightedLevel;
        QColor color = overlay ? sessionColor : m_theme.bandwidthColor(ceiling.level);
        if (!m_highlightedLevel.isEmpty() && !highlighted)
            color.setAlphaF(0.35f);
        double width = isSlowest ? m_theme.boldRoofWidth : m_theme.roofWidth + 0.5;
        if (highlighted)
            width += 2.5;
        QPen pen(color, width, ceiling.mix == QLatin1String("triad") ? Qt::DashLine : Qt::SolidLine);
        pen.setCapStyle(Qt::FlatCap);
        const QString name = ceiling.mix == QLatin1String("read") || ceiling.mix.isEmpty()
                                 ? ceiling.level
                                 : QStringLiteral("%1 %2").arg(ceiling.level, ceiling.mix);
        const bool inLegend = overlay && !legendTaken;
        QLineSeries* series = addLine(points, pen, inLegend ? sessionLabel(s) : name, inLegend);
        legendTaken = legendTaken || inLegend;
        series->setProperty("ridgeline.session", index);
        series->setProperty("ridgeline.kind", QStringLiteral("bandwidth"));
        series->setProperty("ridgeline.name", name);
        series->setProperty("ridgeline.level", ceiling.level);
        series->setProperty("ridgeline.value", ceiling.gbps);
        // Clicking a roof highlights it here and its plateau in the staircase. Queued: the highlight
        // rebuilds the chart, which deletes this series, and a sender must not die inside its own signal.
        const QString level = ceiling.level;
        connect(series, &QLineSeries::clicked, this, [this, level] {
            QMetaObject::invokeMethod(
                this,
                [this, level] {
                    setHighlightedLevel(level == m_highlightedLevel ? QString() : level);
                    emit levelClicked(m_highlightedLevel);
                },
                Qt::QueuedConnection);
        });
        m_ceilingSeries << series;
    }

    // Kernels: one scatter series per kind, in order of first appearance.
    QStringList kinds;
    for (const KernelResult& k : s.kernels)
        if (!kinds.contains(k.kind))
            kinds << k.kind;
    QList<QPointF> dimmed;
    for (const KernelResult& kernel : s.kernels)
        if (!matchesKernelFilter(kernel) && kernel.intensity > 0.0 && kernel.gflops > 0.0)
            dimmed << QPointF(kernel.intensity, kernel.gflops);
    if (!dimmed.isEmpty()) {
        // Under the matching kernels (added first), faint, and out of the legend: context, not content.
        auto* series = new QScatterSeries;
        series->setName(tr("not matching \"%1\"").arg(m_kernelFilter));
        series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        series->setMarkerSize(m_theme.markerSize * 0.6);
        QColor faint = m_theme.mutedText;
        faint.setAlphaF(0.35f);
        series->setColor(faint);
        series->setBorderColor(Qt::transparent);
        series->replace(dimmed);
        chart()->addSeries(series);
        series->attachAxis(m_axisX);
        series->attachAxis(m_axisY);
        series->setProperty("ridgeline.session", index);
        series->setProperty("ridgeline.kind", QStringLiteral("dimmed"));
        for (QLegendMarker* marker : chart()->legend()->markers(series))
            marker->setVisible(false);
        m_dimmedSeries << series;
    }
    // Dots sized by time share go into one series per whole-pixel size (Qt 6.4 drops points given a size of
    // their own); the first series of a kind carries the legend entry and stands for all of them.
    for (const QString& kind : kinds) {
        std::map<long, std::vector<int>> buckets;  // diameter (0 = the theme's) -> kernel indices
        buckets[0];
        for (int k = 0; k < static_cast<int>(s.kernels.size()); ++k) {
            const KernelResult& kernel = s.kernels[static_cast<std::size_t>(k)];
            if (kernel.kind != kind || kernel.intensity <= 0.0 || kernel.gflops <= 0.0 || !matchesKernelFilter(kernel))
                continue;
            const double size = kernelMarkerSize(index, k);
            buckets[size == m_theme.markerSize ? 0L : std::max(1L, std::lround(size))].push_back(k);
        }
        const QColor kindColor = overlay ? sessionColor : m_theme.kernelColor(kind);
        QScatterSeries* first = nullptr;
        for (const auto& [diameter, kernels] : buckets) {
            if (diameter != 0 && kernels.empty())
                continue;
            auto* series = new QScatterSeries;
            series->setName(overlay ? QStringLiteral("%1 (%2)").arg(kind, sessionLabel(s)) : kind);
            QList<QPointF> points;
            std::vector<KernelRef> refs;
            for (const int k : kernels) {
                const KernelResult& kernel = s.kernels[static_cast<std::size_t>(k)];
                points << QPointF(kernel.intensity, kernel.gflops);
                refs.push_back({index, k});
            }
            // Style first, then points, then add: every style setter on a scatter series already in a chart
            // walks all its marker items (ScatterChartItem::setBrush), which made 10,000 kernels take seconds.
            series->setMarkerShape(markerShapeFor(kind));
            series->setMarkerSize(diameter == 0 ? m_theme.markerSize : static_cast<double>(diameter));
            series->setColor(kindColor);
            series->setBorderColor(m_theme.background);
            series->replace(points);
            // Per-point colours only where needed (each one costs): imported kernels each in their own colour,
            // and the "before" end of a before/after arrow faded so the eye lands on where the kernel is now.
            for (std::size_t j = 0; j < refs.size(); ++j) {
                const int kernelIndex = refs[j].kernel;
                QColor color = kernelColor(index, kernelIndex);
                if (isBeforeKernel(index, kernelIndex))
                    color.setAlphaF(0.4f);
                if (color != kindColor)
                    series->setPointConfiguration(static_cast<int>(j), QXYSeries::PointConfiguration::Color, color);
            }
            chart()->addSeries(series);
            series->attachAxis(m_axisX);
            series->attachAxis(m_axisY);
            series->setProperty("ridgeline.session", index);
            series->setProperty("ridgeline.kind", kind);
            if (!first) {
                first = series;
                series->setProperty("ridgeline.legend", !overlay);
                for (QLegendMarker* marker : chart()->legend()->markers(series)) {
                    marker->setVisible(!overlay);
                    // Clicking a legend entry hides or shows that kind; the entry stays, dimmed.
                    connect(marker, &QLegendMarker::clicked, this, [this, series, index, kind] {
                        applyKindVisibility(index, kind, !series->isVisible());
                        relayout();
                    });
                }
            } else {
                for (QLegendMarker* marker : chart()->legend()->markers(series))
                    marker->setVisible(false);
            }
            connect(series, &QScatterSeries::hovered, this,
                    [this, series](const QPointF& point, bool state) { onKernelHovered(series, point, state); });
            connect(series, &QScatterSeries::clicked, this,
                    [this, series](const QPointF& point) { onKernelClicked(series, point); });
            m_kernelSeries << series;
            m_kernelRefs.push_back(std::move(refs));
        }
    }
}

void RooflineChart::applyKindVisibility(int session, const QString& kind, bool visible)
{
    for (QScatterSeries* series : std::as_const(m_kernelSeries)) {
        if (series->property("ridgeline.session").toInt() != session ||
            series->property("ridgeline.kind").toString() != kind)
            continue;
        series->setVisible(visible);
        if (!series->property("ridgeline.legend").toBool())
            continue;
        // Hiding a series hides its legend entry too: bring it back, dimmed, so it can be clicked on again.
        for (QLegendMarker* marker : chart()->legend()->markers(series)) {
            marker->setVisible(true);
            QColor label = m_theme.text;
            label.setAlphaF(visible ? 1.0f : 0.4f);
            marker->setLabelBrush(label);
            QColor fill = series->color();
            fill.setAlphaF(visible ? 1.0f : 0.3f);
            marker->setBrush(fill);
        }
    }
}

void RooflineChart::setKernelKindVisible(const QString& kind, bool visible)
{
    for (int session = 0; session < static_cast<int>(m_sessions.size()); ++session)
        applyKindVisibility(session, kind, visible);
    relayout();
}

QStringList RooflineChart::hiddenKernelKinds() const
{
    QStringList hidden;
    for (const QScatterSeries* series : m_kernelSeries) {
        const QString kind = series->property("ridgeline.kind").toString();
        if (series->property("ridgeline.session").toInt() == 0 && !series->isVisible() && !hidden.contains(kind))
            hidden << kind;
    }
    return hidden;
}

void RooflineChart::addExtraRoofSeries()
{
    const double xLow = m_defaultX.x() / kOverdraw;
    const double xHigh = m_defaultX.y() * kOverdraw;
    for (int i = 0; i < static_cast<int>(m_extraRoofs.size()); ++i) {
        const NamedRoof& r = m_extraRoofs[static_cast<std::size_t>(i)];
        if (r.roof.peakGflops <= 0.0 || r.roof.bandwidthGbps <= 0.0)
            continue;
        QPen pen(m_theme.extraRoofColor(i), m_theme.boldRoofWidth, Qt::SolidLine);
        pen.setCapStyle(Qt::FlatCap);
        pen.setJoinStyle(Qt::MiterJoin);
        QLineSeries* series = addLine(roofVertices(r.roof, xLow, xHigh), pen, r.name, false);
        series->setProperty("ridgeline.kind", QStringLiteral("extra"));
        series->setProperty("ridgeline.name", r.name);
        m_extraSeries << series;
    }
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

QPointF RooflineChart::toChart(QPointF value) const
{
    return chart()->mapToPosition(value, m_anchor);
}

QPoint RooflineChart::viewportPosition(QPointF value) const
{
    return mapFromScene(chart()->mapToScene(toChart(value)));
}

void RooflineChart::relayout()
{
    if (m_rebuilding || !m_anchor)
        return;
    const QRectF plot = chart()->plotArea();
    m_under->setClipRect(plot);
    m_over->setClipRect(plot);
    m_kernelLabelRects.clear();
    if (plot.width() < 10 || plot.height() < 10) {
        m_under->clear();
        m_over->clear();
        return;
    }
    const double xMin = m_axisX->min();
    const double xMax = m_axisX->max();
    const double yMin = m_axisY->min();
    const double yMax = m_axisY->max();
    const QRectF inner = plot.adjusted(4, 4, -4, -4);
    const bool overlay = m_sessions.size() > 1;

    std::vector<AnnotationLine> underLines;
    std::vector<AnnotationLine> overLines;
    std::vector<AnnotationText> texts;
    std::vector<AnnotationRing> rings;
    std::vector<QRectF> taken;
    std::vector<QLineF> roofSegments;

    // Every visible roof segment, in pixels: labels avoid crossing them.
    auto collectSegments = [&](const QList<QLineSeries*>& list) {
        for (QLineSeries* series : list) {
            if (!series->isVisible())
                continue;
            const QList<QPointF> points = series->points();
            for (qsizetype i = 1; i < points.size(); ++i)
                roofSegments.emplace_back(toChart(points[i - 1]), toChart(points[i]));
        }
    };
    collectSegments(m_ceilingSeries);
    collectSegments(m_extraSeries);

    // Kernel markers are obstacles for the ceiling labels too.
    const double markerRadius = m_theme.markerSize / 2.0 + 1.0;
    std::vector<QRectF> markerBoxes;
    for (qsizetype si = 0; si < m_kernelSeries.size(); ++si) {
        QScatterSeries* series = m_kernelSeries[si];
        if (!series->isVisible())
            continue;
        const QList<QPointF> points = series->points();
        const std::vector<KernelRef>& refs = m_kernelRefs[static_cast<std::size_t>(si)];
        for (qsizetype i = 0; i < points.size(); ++i) {
            const QPointF c = toChart(points[i]);
            const KernelRef ref =
                i < static_cast<qsizetype>(refs.size()) ? refs[static_cast<std::size_t>(i)] : KernelRef{};
            const double r = std::max(markerRadius, kernelMarkerSize(ref.session, ref.kernel) / 2.0 + 1.0);
            markerBoxes.emplace_back(c.x() - r, c.y() - r, 2 * r, 2 * r);
            if (ref.session < 0)
                continue;
            // The kernel's points at other memory levels (drawn as rings below) are in the way too.
            const KernelResult& k =
                m_sessions[static_cast<std::size_t>(ref.session)].kernels[static_cast<std::size_t>(ref.kernel)];
            for (const LevelPoint& level : k.levels) {
                if (level.intensity <= 0.0)
                    continue;
                const QPointF at = toChart(QPointF(level.intensity, k.gflops));
                markerBoxes.emplace_back(at.x() - markerRadius, at.y() - markerRadius, 2 * markerRadius,
                                         2 * markerRadius);
            }
        }
    }
    auto isFree = [&](const QRectF& box) {
        if (!inner.contains(box))
            return false;
        auto hits = [&](const QRectF& other) { return other.intersects(box); };
        return std::none_of(taken.begin(), taken.end(), hits) &&
               std::none_of(markerBoxes.begin(), markerBoxes.end(), hits);
    };

    // Labels for flat roofs sit above their line, right-aligned; they slide left when something is in the way.
    // Labels for flat roofs sit on their line: right-aligned at the right end, or from the left end of the
    // flat part, or anywhere between, wherever the fewest kernel dots are near (their labels need that room).
    auto placeFlatLabel = [&](const QString& text, double gflops, double startIntensity, const QColor& color) {
        if (gflops <= yMin || gflops >= yMax)
            return;
        const QFont& font = m_theme.ceilingLabelFont;
        const QFontMetricsF metrics(font);
        const QSizeF size(metrics.horizontalAdvance(text) + 2.0, metrics.height());
        const double y = toChart(QPointF(xMax, gflops)).y();
        const double leftmost =
            std::max(inner.left() + 4.0, toChart(QPointF(std::max(startIntensity, xMin), gflops)).x() + 8.0);
        std::vector<double> lefts;
        for (int step = 0; step < 16; ++step)
            lefts.push_back(inner.right() - 4.0 - size.width() - step * size.width() * 0.5);
        lefts.insert(lefts.begin() + 1, leftmost);
        double bestCrowding = std::numeric_limits<double>::max();
        QRectF best;
        auto consider = [&](bool flatOnly) {
            for (const bool under : {false, true}) {
                for (std::size_t i = 0; i < lefts.size(); ++i) {
                    if (flatOnly && lefts[i] < leftmost - 1e-6)
                        continue;
                    const QRectF box(lefts[i], under ? y + 4.0 : y - 4.0 - size.height(), size.width(), size.height());
                    if (!isFree(box))
                        continue;
                    const QRectF neighbourhood = box.adjusted(-30.0, -60.0, 30.0, 60.0);
                    double crowding = (under ? 0.5 : 0.0) + static_cast<double>(i) * 0.01;
                    for (const QRectF& marker : markerBoxes)
                        crowding += neighbourhood.intersects(marker) ? 1.0 : 0.0;
                    for (const QLineF& segment : roofSegments)  // a box over the diagonals hides them
                        crowding += segmentIntersectsRect(segment, box) ? 1.5 : 0.0;
                    if (crowding < bestCrowding) {
                        bestCrowding = crowding;
                        best = box;
                    }
                }
            }
        };
        // First only over the flat part; a label wider than the flat part (a GPU's ridge sits far right)
        // may then reach left over its own diagonal, which lies below it.
        consider(true);
        if (bestCrowding == std::numeric_limits<double>::max())
            consider(false);
        if (bestCrowding == std::numeric_limits<double>::max())
            return;
        texts.push_back({text, best.topLeft(), 0.0, color, font, m_theme.background, true});
        taken.push_back(best);
    };

    // Compute ceilings within 10 % of each other share one label (avx512 and avx2 often tie): two labels
    // stacked a few pixels apart read as one smudge on a projector.
    std::vector<QLineSeries*> computeSeries;
    for (QLineSeries* series : m_ceilingSeries)
        if (series->isVisible() && series->property("ridgeline.kind").toString() == QLatin1String("compute"))
            computeSeries.push_back(series);
    std::sort(computeSeries.begin(), computeSeries.end(), [](QLineSeries* a, QLineSeries* b) {
        return a->property("ridgeline.value").toDouble() > b->property("ridgeline.value").toDouble();
    });
    // "fp32 avx512 x2 threads" -> "fp32 avx512 x2": the label has to fit beside the dots.
    auto shortName = [](QString name) { return name.remove(QStringLiteral(" threads")).trimmed(); };
    for (std::size_t i = 0; i < computeSeries.size();) {
        QLineSeries* lead = computeSeries[i];
        const double value = lead->property("ridgeline.value").toDouble();
        QString text = QStringLiteral("%1: %2 GFLOP/s")
                           .arg(shortName(lead->property("ridgeline.name").toString()), formatCompact(value));
        std::size_t j = i + 1;
        QStringList others;
        while (j < computeSeries.size() && computeSeries[j]->property("ridgeline.value").toDouble() > value / 1.1 &&
               computeSeries[j]->property("ridgeline.session") == lead->property("ridgeline.session")) {
            others << QStringLiteral("%1 %2").arg(
                shortName(computeSeries[j]->property("ridgeline.name").toString()),
                formatCompact(computeSeries[j]->property("ridgeline.value").toDouble()));
            ++j;
        }
        if (!others.isEmpty())
            text += QStringLiteral("  (≈ %1)").arg(others.join(QStringLiteral(", ")));
        if (std::none_of(texts.begin(), texts.end(), [&](const AnnotationText& t) { return t.text == text; }))
            placeFlatLabel(text, value, lead->points().value(0).x(), lead->pen().color());
        i = j;
    }
    for (int i = 0; i < static_cast<int>(m_extraSeries.size()); ++i) {
        const NamedRoof& r = m_extraRoofs[static_cast<std::size_t>(i)];
        const QString text =
            QStringLiteral("%1: %2 TFLOP/s, %3 TB/s")
                .arg(r.name, formatCompact(r.roof.peakGflops / 1000.0), formatCompact(r.roof.bandwidthGbps / 1000.0));
        placeFlatLabel(text, r.roof.peakGflops, ridgeIntensity(r.roof), m_extraSeries[i]->pen().color());
    }

    // Bandwidth labels run along their diagonal, above it, where the line is inside the plot and left of
    // the ridge; several positions are tried so they clear the dots and each other.
    for (QLineSeries* series : m_ceilingSeries) {
        if (!series->isVisible() || series->property("ridgeline.kind").toString() != QLatin1String("bandwidth"))
            continue;
        const QList<QPointF> points = series->points();
        if (points.size() < 2)
            continue;
        const double gbps = series->property("ridgeline.value").toDouble();
        const double ridgeX = points.last().x();
        const double lo = std::max(xMin, yMin / gbps);
        const double hi = std::min({xMax, ridgeX, yMax / gbps});
        if (!(lo < hi))
            continue;
        // Overlays: the colour says which machine; a roof another session already labelled is not repeated.
        const QString text =
            QStringLiteral("%1  %2 GB/s").arg(series->property("ridgeline.name").toString(), formatCompact(gbps));
        if (std::any_of(texts.begin(), texts.end(), [&](const AnnotationText& t) { return t.text == text; }))
            continue;
        const QFont& font = m_theme.ceilingLabelFont;
        const QFontMetricsF metrics(font);
        const double width = metrics.horizontalAdvance(text) + 2.0;
        const double height = metrics.height();
        const QPointF pLo = toChart(QPointF(lo, lo * gbps));
        const QPointF pHi = toChart(QPointF(hi, hi * gbps));
        const QLineF visible(pLo, pHi);
        if (visible.length() < width + 8.0)
            continue;
        const QPointF dir = (pHi - pLo) / visible.length();
        const QPointF normal(dir.y(), -dir.x());  // points up-left for a rising line
        const double angle = std::atan2(dir.y(), dir.x()) * 180.0 / M_PI;
        for (const double t : {0.08, 0.2, 0.32, 0.44, 0.56, 0.68}) {
            const double start = t * (visible.length() - width);
            const QPointF onLine = pLo + dir * start;
            // Boxes along the text approximate the rotated label for collision tests.
            std::vector<QRectF> boxes;
            for (double along = 0.0; along < width; along += height * 0.8) {
                const QPointF centre = onLine + dir * (along + height * 0.4) + normal * (height / 2.0 + 3.0);
                boxes.emplace_back(centre.x() - height * 0.4, centre.y() - height * 0.4, height * 0.8, height * 0.8);
            }
            // A little air around each box: two roofs' labels end to end read as one line of text.
            if (!std::all_of(boxes.begin(), boxes.end(),
                             [&](const QRectF& b) { return isFree(b.adjusted(-6, -2, 6, 2)); }))
                continue;
            const QPointF origin = onLine + normal * (height + 3.0);
            texts.push_back({text, origin, angle, series->pen().color(), font, m_theme.background});
            taken.insert(taken.end(), boxes.begin(), boxes.end());
            break;
        }
    }

    // Iso-efficiency lines: a small label at the right end, under the line.
    for (QAbstractSeries* abstract : chart()->series()) {
        const QVariant fraction = abstract->property("ridgeline.iso");
        if (!fraction.isValid())
            continue;
        const QList<QPointF> points = static_cast<QLineSeries*>(abstract)->points();
        if (points.isEmpty())
            continue;
        const QString text = tr("%1 %").arg(fraction.toDouble() * 100.0);
        const QFont& font = m_theme.kernelLabelFont;
        const QFontMetricsF metrics(font);
        const double y = toChart(QPointF(xMax, points.last().y())).y();
        const QRectF box(inner.right() - metrics.horizontalAdvance(text) - 6.0, y + 2.0,
                         metrics.horizontalAdvance(text) + 2.0, metrics.height());
        if (isFree(box)) {
            texts.push_back({text, box.topLeft(), 0.0, m_theme.mutedText, font, m_theme.background});
            taken.push_back(box);
        }
    }

    // The ridge of the primary roof: "everything below the hardware's number is memory-bound".
    if (!m_sessions.empty() && m_options.ridgeMarker) {
        const std::optional<SessionRoof> primary = primaryRoof(m_sessions.front());
        const Roof roof = primary ? primary->roof() : Roof{};
        const double ridge = primary ? ridgeIntensity(roof) : 0.0;
        if (primary && ridge > xMin && ridge < xMax && roof.peakGflops < yMax) {
            const QPointF top = toChart(QPointF(ridge, roof.peakGflops));
            QPen pen(m_theme.mutedText, 1.5, Qt::DotLine);
            underLines.push_back({QLineF(top, QPointF(top.x(), plot.bottom())), pen});
            const QString text = tr("ridge %1 FLOP/byte").arg(formatCompact(ridge));
            const QFont& font = m_theme.kernelLabelFont;
            const QFontMetricsF metrics(font);
            const QSizeF size(metrics.horizontalAdvance(text) + 2.0, metrics.height());
            // Along the dotted line, near the bottom, whichever side is free.
            for (const double fraction : {0.92, 0.8, 0.65, 0.5}) {
                const double y = plot.top() + (plot.bottom() - plot.top()) * fraction - size.height();
                const QRectF right(QPointF(top.x() + 5.0, y), size);
                const QRectF left(QPointF(top.x() - 5.0 - size.width(), y), size);
                const QRectF* chosen = isFree(right) ? &right : isFree(left) ? &left : nullptr;
                if (chosen) {
                    texts.push_back({text, chosen->topLeft(), 0.0, m_theme.mutedText, font, m_theme.background});
                    taken.push_back(*chosen);
                    break;
                }
            }
        }
    }

    // Kernels: error bars under the dots, labels placed greedily around them.
    LabelLayoutInput layout;
    layout.bounds = inner;
    layout.obstacles = taken;
    layout.lines = roofSegments;
    layout.markerRadius = markerRadius;
    struct LabelText {
        QString text;
        QColor color;
        bool bold = false;
    };
    std::vector<LabelText> labelTexts;
    struct LevelTag {
        QPointF at;
        QString level;
        QColor color;
    };
    std::vector<LevelTag> levelTags;
    int totalKernels = 0;
    for (QScatterSeries* series : m_kernelSeries)
        totalKernels += series->isVisible() ? static_cast<int>(series->count()) : 0;
    const bool labelKernels = m_options.kernelLabels && totalKernels <= kMaxKernelLabels;
    const QFontMetricsF kernelMetrics(m_theme.kernelLabelFont);
    for (int si = 0; si < static_cast<int>(m_kernelSeries.size()); ++si) {
        QScatterSeries* series = m_kernelSeries[si];
        if (!series->isVisible())
            continue;
        const std::vector<KernelRef>& refs = m_kernelRefs[static_cast<std::size_t>(si)];
        for (const KernelRef& ref : refs) {
            const Session& s = m_sessions[static_cast<std::size_t>(ref.session)];
            const KernelResult& k = s.kernels[static_cast<std::size_t>(ref.kernel)];
            const QPointF centre = toChart(QPointF(k.intensity, k.gflops));
            const GflopsRange range = gflopsRange(k);
            // No spread (an imported kernel, one run): no bar, and no logarithm of zero asked of the axes.
            if (m_options.errorBars && range.low > 0.0 && range.high > 0.0) {
                const QPointF low = toChart(QPointF(k.intensity, range.low));
                const QPointF high = toChart(QPointF(k.intensity, range.high));
                // A spread the marker already covers is not worth a bar.
                if (range.low > 0.0 && low.y() - high.y() > 3.0 * markerRadius) {
                    QPen pen(series->color(), 2.0);
                    pen.setCapStyle(Qt::FlatCap);
                    underLines.push_back({QLineF(low, high), pen});
                    underLines.push_back({QLineF(low.x() - 5, low.y(), low.x() + 5, low.y()), pen});
                    underLines.push_back({QLineF(high.x() - 5, high.y(), high.x() + 5, high.y()), pen});
                }
            }
            const double radius = std::max(markerRadius, kernelMarkerSize(ref.session, ref.kernel) / 2.0 + 1.0);
            if (ref.session == m_selected.session && ref.kernel == m_selected.kernel)
                rings.push_back({centre, radius + 5.0, QPen(m_theme.highlight, 3.0)});
            // A kernel measured at several memory levels (hierarchical roofline): the same FLOP/s at each
            // level's intensity, joined by a thin line; the other levels as open rings tagged with their name.
            if (!k.levels.empty()) {
                const QColor own = kernelColor(ref.session, ref.kernel);
                QColor joinColor = own;
                joinColor.setAlphaF(0.7f);
                double left = centre.x();
                double right = centre.x();
                for (const LevelPoint& level : k.levels) {
                    if (level.intensity <= 0.0)
                        continue;
                    const QPointF at = toChart(QPointF(level.intensity, k.gflops));
                    // A level under the filled dot (streaming: every level moves the same bytes) is named
                    // in the kernel's label instead: a ring and a tag there would only hide the dot.
                    if (std::abs(at.x() - centre.x()) < 2.0 * markerRadius)
                        continue;
                    left = std::min(left, at.x());
                    right = std::max(right, at.x());
                    rings.push_back({at, markerRadius - 2.0, QPen(own, 2.5)});
                    levelTags.push_back({at, level.level, own});
                }
                const QLineF join(QPointF(left, centre.y()), QPointF(right, centre.y()));
                underLines.push_back({join, QPen(joinColor, 1.5)});
                layout.lines.push_back(join);
            }
            // Overlays label the primary session's kernels only; the others are its before/after twins. The
            // "before" end of a before/after arrow goes unlabelled: the arrow and the "after" label name it.
            if (labelKernels && (!overlay || ref.session == 0) && !isBeforeKernel(ref.session, ref.kernel)) {
                QString text = kernelLabel(k, &ref == &refs.front());
                if (!k.levels.empty() && !k.level.isEmpty()) {
                    QStringList here{k.level};
                    for (const LevelPoint& level : k.levels)
                        if (level.intensity > 0.0 &&
                            std::abs(toChart(QPointF(level.intensity, k.gflops)).x() - centre.x()) < 2.0 * markerRadius)
                            here << level.level;
                    text += QStringLiteral(" (%1)").arg(here.join(QStringLiteral(", ")));
                }
                layout.labels.push_back(
                    {centre, QSizeF(kernelMetrics.horizontalAdvance(text) + 2.0, kernelMetrics.height()), radius});
                labelTexts.push_back({text, m_theme.text, false});
            }
        }
    }
    // Before/after: an arrow from each kernel's earlier point to its later one, with the change in GFLOP/s.
    m_drawnArrows = 0;
    // Kernels drawn in full (their series shown, the filter passing them), looked up once per relayout.
    std::vector<std::vector<bool>> shown(m_sessions.size());
    for (std::size_t si = 0; si < m_sessions.size(); ++si)
        shown[si].assign(m_sessions[si].kernels.size(), false);
    for (int si = 0; si < static_cast<int>(m_kernelSeries.size()); ++si)
        if (m_kernelSeries[si]->isVisible())
            for (const KernelRef& r : m_kernelRefs[static_cast<std::size_t>(si)])
                shown[static_cast<std::size_t>(r.session)][static_cast<std::size_t>(r.kernel)] = true;
    auto drawnInFull = [&](int session, int kernel) {
        return shown[static_cast<std::size_t>(session)][static_cast<std::size_t>(kernel)];
    };
    const QColor better = m_theme.kind == ThemeKind::Light ? QColor(0x00, 0x87, 0x62) : QColor(0x3d, 0xd6, 0xa3);
    const QColor worse = m_theme.kind == ThemeKind::Light ? QColor(0xc4, 0x4e, 0x00) : QColor(0xff, 0x8a, 0x3d);
    // Past a few dozen pairs the arrows are a thicket: say so, and let the name filter bring them back.
    int shownChanges = 0;
    for (int si = 0; si < static_cast<int>(m_sessions.size()); ++si)
        for (const KernelChange& change : m_changes[static_cast<std::size_t>(si)])
            shownChanges += drawnInFull(si, change.before) && drawnInFull(si, change.after) ? 1 : 0;
    if (shownChanges > kMaxArrows) {
        const QString text = tr("%1 before/after pairs: filter kernels by name to see their arrows").arg(shownChanges);
        const QFontMetricsF metrics(m_theme.kernelLabelFont);
        const QRectF box(inner.left() + 8.0, inner.top() + 4.0, metrics.horizontalAdvance(text) + 2.0,
                         metrics.height());
        texts.push_back(
            {text, box.topLeft(), 0.0, m_theme.mutedText, m_theme.kernelLabelFont, m_theme.background, true});
        layout.obstacles.push_back(box);
    }
    for (int si = 0; si < static_cast<int>(m_sessions.size()) && shownChanges <= kMaxArrows; ++si) {
        const Session& s = m_sessions[static_cast<std::size_t>(si)];
        for (const KernelChange& change : m_changes[static_cast<std::size_t>(si)]) {
            if (!drawnInFull(si, change.before) || !drawnInFull(si, change.after))
                continue;
            const KernelResult& from = s.kernels[static_cast<std::size_t>(change.before)];
            const KernelResult& to = s.kernels[static_cast<std::size_t>(change.after)];
            const QPointF a = toChart(QPointF(from.intensity, from.gflops));
            const QPointF b = toChart(QPointF(to.intensity, to.gflops));
            QLineF arrow(a, b);
            const double length = arrow.length();
            const double fromRadius = kernelMarkerSize(si, change.before) / 2.0 + 3.0;
            const double toRadius = kernelMarkerSize(si, change.after) / 2.0 + 4.0;
            if (length <= fromRadius + toRadius + 6.0)
                continue;  // the points (nearly) coincide: the label alone would hide them
            arrow = QLineF(arrow.pointAt(fromRadius / length), arrow.pointAt(1.0 - toRadius / length));
            QPen pen(change.percentGflops >= 0.0 ? better : worse, 2.5);
            pen.setCapStyle(Qt::RoundCap);
            overLines.push_back({arrow, pen});
            layout.lines.push_back(arrow);
            const QLineF back(arrow.p2(), arrow.p1());
            for (const double angle : {25.0, -25.0}) {
                QLineF head = back;
                head.setLength(12.0);
                head.setAngle(back.angle() + angle);
                overLines.push_back({head, pen});
            }
            if (labelKernels) {
                const QString text = formatPercentChange(change.percentGflops);
                QFont font = m_theme.kernelLabelFont;
                font.setBold(true);
                const QFontMetricsF metrics(font);
                layout.labels.push_back(
                    {arrow.pointAt(0.5), QSizeF(metrics.horizontalAdvance(text) + 2.0, metrics.height()), 1.0});
                labelTexts.push_back({text, pen.color(), true});
            }
            ++m_drawnArrows;
        }
    }
    // Stories the essay tells, drawn faintly under the dots: the batch sweep as one path (intensity rises
    // with the batch), and an arrow from the unfused chain to the fused kernel.
    for (int si = 0; si < static_cast<int>(m_sessions.size()); ++si) {
        const Session& s = m_sessions[static_cast<std::size_t>(si)];
        const bool visibleKind = [&](const QString& kind) {
            for (QScatterSeries* series : m_kernelSeries)
                if (series->property("ridgeline.session").toInt() == si &&
                    series->property("ridgeline.kind").toString() == kind)
                    return series->isVisible();
            return false;
        }(QStringLiteral("decode"));
        std::vector<const KernelResult*> decode;
        const KernelResult* unfused = nullptr;
        const KernelResult* fused = nullptr;
        for (const KernelResult& k : s.kernels) {
            if (k.intensity <= 0.0 || k.gflops <= 0.0)
                continue;
            if (k.kind == QLatin1String("decode") && k.batch > 0)
                decode.push_back(&k);
            else if (k.kind == QLatin1String("fusion-unfused"))
                unfused = &k;
            else if (k.kind == QLatin1String("fusion-fused"))
                fused = &k;
        }
        std::sort(decode.begin(), decode.end(),
                  [](const KernelResult* a, const KernelResult* b) { return a->batch < b->batch; });
        if (visibleKind && decode.size() > 1 && decode.size() <= static_cast<std::size_t>(kMaxKernelLabels)) {
            QColor color = overlay ? m_theme.sessionColor(si) : m_theme.kernelColor(QStringLiteral("decode"));
            color.setAlphaF(0.55f);
            QPen pen(color, 2.0, Qt::DashLine);
            for (std::size_t i = 1; i < decode.size(); ++i) {
                const QLineF segment(toChart(QPointF(decode[i - 1]->intensity, decode[i - 1]->gflops)),
                                     toChart(QPointF(decode[i]->intensity, decode[i]->gflops)));
                underLines.push_back({segment, pen});
                layout.lines.push_back(segment);
            }
        }
        if (unfused && fused) {
            const QPointF from = toChart(QPointF(unfused->intensity, unfused->gflops));
            const QPointF to = toChart(QPointF(fused->intensity, fused->gflops));
            QLineF arrow(from, to);
            const double length = arrow.length();
            if (length > 4.0 * markerRadius) {
                arrow = QLineF(arrow.pointAt(markerRadius * 1.6 / length),
                               arrow.pointAt(1.0 - markerRadius * 1.8 / length));
                QColor color = m_theme.kernelColor(QStringLiteral("fusion-fused"));
                QPen pen(color, 2.5);
                pen.setCapStyle(Qt::RoundCap);
                overLines.push_back({arrow, pen});
                layout.lines.push_back(arrow);
                // Arrow head: two short strokes at the fused end.
                const QLineF back(arrow.p2(), arrow.p1());
                for (const double angle : {25.0, -25.0}) {
                    QLineF head = back;
                    head.setLength(12.0);
                    head.setAngle(back.angle() + angle);
                    overLines.push_back({head, pen});
                }
            }
        }
    }

    // Level tags sit right over their ring (or under it), never away from it with a leader: a tag next to
    // another kernel's ring would name the wrong point. No free spot, no tag: the ring's colour still tells.
    if (labelKernels) {
        const QFont tagFont = m_theme.ceilingLabelFont;
        const QFontMetricsF tagMetrics(tagFont);
        std::vector<QRectF> anchors;
        for (const LabelRequest& label : layout.labels) {
            const double r = label.radius > 0.0 ? label.radius : markerRadius;
            anchors.emplace_back(label.anchor.x() - r, label.anchor.y() - r, 2 * r, 2 * r);
        }
        for (const LevelTag& tag : levelTags) {
            const QSizeF size(tagMetrics.horizontalAdvance(tag.level) + 2.0, tagMetrics.height());
            for (const double dy : {-(markerRadius + 1.0 + size.height()), markerRadius + 1.0}) {
                const QRectF box(QPointF(tag.at.x() - size.width() / 2.0, tag.at.y() + dy), size);
                const bool free =
                    inner.contains(box) &&
                    std::none_of(layout.obstacles.begin(), layout.obstacles.end(),
                                 [&](const QRectF& o) { return o.intersects(box); }) &&
                    std::none_of(anchors.begin(), anchors.end(), [&](const QRectF& o) { return o.intersects(box); }) &&
                    std::none_of(markerBoxes.begin(), markerBoxes.end(),
                                 [&](const QRectF& o) { return o.intersects(box); });
                if (!free)
                    continue;
                QColor color = tag.color;
                texts.push_back({tag.level, box.topLeft(), 0.0, color, tagFont, m_theme.background});
                layout.obstacles.push_back(box);
                break;
            }
        }
    }
    const std::vector<LabelPlacement> placements = placeLabels(layout);
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const LabelPlacement& p = placements[i];
        if (!p.placed)
            continue;
        if (p.needsLeader) {
            QPen pen(m_theme.mutedText, 1.5);
            overLines.push_back({p.leader, pen});
        }
        // Percent changes are bold in their arrow's colour; level tags muted; kernel names in the text colour.
        QFont font = m_theme.kernelLabelFont;
        font.setBold(labelTexts[i].bold);
        texts.push_back({labelTexts[i].text, p.rect.topLeft(), 0.0, labelTexts[i].color, font, m_theme.background});
        m_kernelLabelRects.push_back(p.rect);
    }

    m_under->setContent(std::move(underLines), {}, {});
    m_over->setContent(std::move(overLines), std::move(texts), std::move(rings));
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
    for (QLineSeries* series : m_ceilingSeries)
        if (series->property("ridgeline.session").toInt() == session &&
            series->property("ridgeline.kind").toString() == kind &&
            series->property("ridgeline.name").toString() == name)
            return series;
    return nullptr;
}

int RooflineChart::kernelPointCount() const
{
    int count = 0;
    for (QScatterSeries* series : m_kernelSeries)
        count += static_cast<int>(series->count());
    return count;
}

int RooflineChart::dimmedKernelPointCount() const
{
    int count = 0;
    for (QScatterSeries* series : m_dimmedSeries)
        count += static_cast<int>(series->count());
    return count;
}

RooflineChart::KernelRef RooflineChart::kernelAt(QScatterSeries* series, const QPointF& point) const
{
    const qsizetype index = m_kernelSeries.indexOf(series);
    if (index < 0)
        return {};
    const std::vector<KernelRef>& refs = m_kernelRefs[static_cast<std::size_t>(index)];
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
    m_axisX->setRange(m_defaultX.x(), m_defaultX.y());
    m_axisY->setRange(m_defaultY.x(), m_defaultY.y());
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
