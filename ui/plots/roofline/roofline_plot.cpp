#include "ui/plots/roofline/roofline_plot.h"

#include "core/model/units.h"
#include "core/session/session_roof.h"
#include "ui/plots/roofline/point_explanation.h"
#include "ui/plots/roofline/roofline_devices.h"

#include <QCoreApplication>
#include <QHash>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RooflineChart", text);
}

// How far past the default range roofs are drawn, so zooming out and panning never show a line's end.
constexpr double kOverdraw = 1e4;
// Imported kernels get colours of their own only while a colour names at most two of them.
constexpr qsizetype kMaxOwnColours = 12;
// Dots sized by time share: area in proportion to the share, from a readable minimum to a size that still
// leaves the roofs visible.
constexpr double kMinShareMarker = 7.0;
constexpr double kMaxShareMarker = 46.0;
// The pen of a roof that does not bind (a lower compute roof, a cache level's bandwidth): thin, behind the rest.
constexpr double kLowerRoofWidth = 1.5;

QColor blend(const QColor& a, const QColor& b, double towardsB)
{
    auto mix = [towardsB](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * towardsB)); };
    return QColor(mix(a.red(), b.red()), mix(a.green(), b.green()), mix(a.blue(), b.blue()));
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

// Tight, not decade-aligned: a slide has no room for an empty decade. Room on the right for the ceiling
// labels, above the highest ceiling for its label, below the slowest kernel for its error bar.
PlotRange defaultRangeOf(const std::vector<Session>& sessions, const std::vector<NamedRoof>& extraRoofs)
{
    std::vector<double> xs;
    std::vector<double> ys;
    for (const Session& s : sessions) {
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
            const double low = gflopsRange(k).first;
            if (low > 0.0)
                ys.push_back(low);
        }
        for (const ComputeCeiling& c : s.computeCeilings)
            if (c.gflops > 0.0)
                ys.push_back(c.gflops);
        for (const BandwidthCeiling& b : s.bandwidthCeilings)
            if (b.gbps > 0.0 && peak > 0.0)
                xs.push_back(peak / b.gbps);
        addDeviceExtents(s, xs, ys);  // the roofs of the GPUs its kernels ran on
    }
    for (const NamedRoof& r : extraRoofs) {
        if (r.roof.peakGflops <= 0.0 || r.roof.bandwidthGbps <= 0.0)
            continue;
        xs.push_back(ridgeIntensity(r.roof));
        ys.push_back(r.roof.peakGflops);
    }
    // An overflowed ridge (a roof built in code, past the loaders' physical rule) would stretch the axes to infinity.
    const auto notFinite = [](double v) { return !std::isfinite(v) || !(v > 0.0); };
    xs.erase(std::remove_if(xs.begin(), xs.end(), notFinite), xs.end());
    ys.erase(std::remove_if(ys.begin(), ys.end(), notFinite), ys.end());
    if (xs.empty())
        xs = {0.1, 100.0};
    if (ys.empty())
        ys = {1.0, 1000.0};
    const auto [xLow, xHigh] = std::minmax_element(xs.begin(), xs.end());
    const auto [yLow, yHigh] = std::minmax_element(ys.begin(), ys.end());
    double x0 = *xLow / 2.5;
    double x1 = *xHigh * 5.0;
    double y0 = *yLow / 2.0;
    double y1 = *yHigh * 2.2;
    // At least one labelled decade tick on each axis, and a few decades in all.
    if (decadeAbove(x0) > decadeBelow(x1) || x1 / x0 < 1e3)
        x0 = std::min(x0, decadeBelow(x0));
    if (x1 / x0 < 1e3)
        x1 = x0 * 1e3;
    if (decadeAbove(y0) > decadeBelow(y1) || y1 / y0 < 30.0)
        y0 = std::min(y0, decadeBelow(y0));
    if (y1 / y0 < 30.0)
        y0 = y1 / 30.0;
    const LogAxisRange x = safeLogAxisRange(x0, x1);
    const LogAxisRange y = safeLogAxisRange(y0, y1);
    return {x.low, x.high, y.low, y.high};
}

// Dot sizes, own colours and before/after pairs of one session's kernels.
void styleKernels(const Session& s, bool overlay, const ChartOptions& options, const ChartTheme& theme,
                  RooflinePlot& plot)
{
    plot.changes.push_back(beforeAfterChanges(s));
    // Imported kernels each get a colour of their own (by name, so a before and an after share it): their level
    // rings and joining lines then say whose they are where two kernels run at the same FLOP/s. Overlays keep
    // one colour per session instead, but for GPU kernels: a session's colour may be a CPU kind's, and a GPU kernel
    // in it would read as that kind (their markers' shapes say the level, the roofs' colour the GPU).
    std::vector<QColor> colors(s.kernels.size());
    QHash<QString, int> names;  // a profile can hold thousands of launches
    for (std::size_t i = 0; i < s.kernels.size(); ++i) {
        const KernelResult& k = s.kernels[i];
        if (!isImported(k) || (overlay && !drawnAsGpuKernel(k)))
            continue;
        const QString name = k.fullName.isEmpty() ? k.name : k.fullName;
        const int n = names.value(name, static_cast<int>(names.size()));
        names.insert(name, n);
        colors[i] = importedKernelColor(theme.kind, n);
    }
    if (names.size() > kMaxOwnColours)  // confetti: colours repeat too often to say anything
        colors.assign(s.kernels.size(), QColor());
    plot.kernelColors.push_back(std::move(colors));
    std::vector<bool> before(s.kernels.size(), false);
    for (const KernelChange& change : plot.changes.back())
        before[static_cast<std::size_t>(change.before)] = true;
    plot.isBefore.push_back(std::move(before));
    std::vector<double> sizes(s.kernels.size(), theme.markerSize);
    if (options.sizeByTimeShare) {
        // Shares within one import (or group): a before and an after run are alternatives, not one program.
        const std::vector<std::optional<double>> shares = timeShares(s);
        for (std::size_t i = 0; i < s.kernels.size(); ++i) {
            if (!isImported(s.kernels[i]) || !shares[i])
                continue;
            sizes[i] = std::clamp(kMaxShareMarker * std::sqrt(*shares[i]), kMinShareMarker, kMaxShareMarker);
        }
    }
    plot.markerSizes.push_back(std::move(sizes));
}

// The best compute ceiling of the precisions the user has not hidden (all of them by default).
const ComputeCeiling* bestShownCeiling(const Session& s, const QStringList& hidden)
{
    return bestComputeCeilingWithout(s, {}, hidden);
}

// The precisions of the session's compute ceilings, in the order they come.
QStringList precisionsOf(const Session& s)
{
    QStringList out;
    for (const ComputeCeiling& c : s.computeCeilings)
        if (c.gflops > 0.0 && !c.precision.isEmpty() && !out.contains(c.precision))
            out << c.precision;
    return out;
}

// The roof the ridge marker, the shading and the iso lines follow: the primary session's, or, for a session of GPU
// kernels alone, their GPU's.
std::optional<Roof> chartRoof(const Session& primary, const QStringList& hiddenPrecisions)
{
    if (const std::optional<SessionRoof> roof = primaryRoof(primary)) {
        const ComputeCeiling* shown = bestShownCeiling(primary, hiddenPrecisions);
        if (!shown)
            return std::nullopt;
        return Roof{shown->gflops, roof->memory ? roof->memory->gbps : roof->roof().bandwidthGbps};
    }
    return soleDeviceRoof(primary);
}

// The primary roof's ridge and, for a session alone on the chart with roofs of several precisions, each other shown
// precision's ridge over the same memory roof.
void addRidges(const std::vector<Session>& sessions, const QStringList& hidden, RooflinePlot& plot)
{
    const Session& primary = sessions.front();
    const std::optional<Roof> roof = chartRoof(primary, hidden);
    if (!roof)
        return;
    plot.ridge = RidgeMarker{ridgeIntensity(*roof), roof->peakGflops, QString()};
    const QStringList precisions = sessions.size() > 1 ? QStringList() : precisionsOf(primary);
    const ComputeCeiling* best = bestShownCeiling(primary, hidden);
    if (precisions.size() < 2 || !best || !primaryRoof(primary))
        return;
    plot.ridge->precision = best->precision;
    for (const QString& precision : precisions) {
        const ComputeCeiling* ceiling = bestComputeCeiling(primary, precision);
        if (precision == best->precision || hidden.contains(precision) || !ceiling || !(ceiling->gflops > 0.0))
            continue;
        const Roof own{ceiling->gflops, roof->bandwidthGbps};
        plot.precisionRidges.push_back({ridgeIntensity(own), own.peakGflops, precision});
    }
}

void addShadingAndIsoLines(const Session& primary, const ChartOptions& options, const ChartTheme& theme,
                           RooflinePlot& plot)
{
    const std::optional<Roof> primaryRoofLine = chartRoof(primary, options.hiddenPrecisions);
    if (!primaryRoofLine)
        return;
    const Roof roof = *primaryRoofLine;
    const double ridge = ridgeIntensity(roof);
    const double xLow = plot.defaultRange.xMin / kOverdraw;
    const double xHigh = plot.defaultRange.xMax * kOverdraw;
    const double floor = plot.defaultRange.yMin / kOverdraw;
    if (options.shadeRegions) {
        plot.regions.push_back({roofVertices(roof, xLow, ridge), floor, theme.memoryRegion, tr("memory-bound")});
        plot.regions.push_back({roofVertices(roof, ridge, xHigh), floor, theme.computeRegion, tr("compute-bound")});
    }
    if (options.isoEfficiency) {
        for (const double fraction : {0.5, 0.8}) {
            PlotRoof line;
            line.kind = RoofKind::Iso;
            line.value = fraction;
            line.name = tr("%1 % of roof").arg(fraction * 100.0);
            line.vertices = roofVertices(Roof{roof.peakGflops * fraction, roof.bandwidthGbps * fraction}, xLow, xHigh);
            line.pen = QPen(theme.isoEfficiency, 2.0, Qt::DotLine);
            line.pen.setCapStyle(Qt::FlatCap);
            plot.roofs.push_back(std::move(line));
        }
    }
}

// Compute ceilings: flat from where the fastest bandwidth roof meets them; the best one bold and solid, the
// lower ones recede (lighter, dashed) so the roof that matters reads first on a slide.
void addComputeRoofs(const RooflineInput& in, int index, const ChartTheme& theme, RooflinePlot& plot, bool& legendTaken)
{
    const Session& s = (*in.sessions)[static_cast<std::size_t>(index)];
    const bool overlay = in.sessions->size() > 1;
    const QStringList& hidden = in.options.hiddenPrecisions;
    const ComputeCeiling* best = bestShownCeiling(s, hidden);
    const QStringList precisions = overlay ? QStringList() : precisionsOf(s);
    const BandwidthCeiling* fastestCeiling = fastestBandwidthCeiling(s);
    const double fastest = fastestCeiling ? fastestCeiling->gbps : 0.0;
    const double xLow = plot.defaultRange.xMin / kOverdraw;
    const double xHigh = plot.defaultRange.xMax * kOverdraw;
    for (const ComputeCeiling& ceiling : s.computeCeilings) {
        if (ceiling.gflops <= 0.0 || hidden.contains(ceiling.precision))
            continue;
        const bool isBest = &ceiling == best;
        const double start = fastest > 0.0 ? std::max(xLow, ceiling.gflops / fastest) : xLow;
        const QColor base = overlay ? theme.sessionColor(index) : theme.computeRoof;
        PlotRoof roof;
        roof.kind = RoofKind::Compute;
        roof.session = index;
        roof.name = ceiling.name;
        roof.value = ceiling.gflops;
        roof.countsOperations = countsOperations(ceiling.precision);
        roof.vertices = {QPointF(start, ceiling.gflops), QPointF(xHigh, ceiling.gflops)};
        roof.binding = isBest || (precisions.size() > 1 && &ceiling == bestComputeCeiling(s, ceiling.precision));
        // Lower roofs thin and faint: the roof that binds reads first, on a slide too.
        roof.pen = QPen(roof.binding ? base : blend(base, theme.background, 0.4),
                        isBest         ? theme.boldRoofWidth
                        : roof.binding ? theme.roofWidth
                                       : kLowerRoofWidth,
                        roof.binding ? Qt::SolidLine : Qt::DashLine);
        roof.pen.setCapStyle(Qt::FlatCap);
        roof.inLegend = overlay && isBest && !legendTaken;
        roof.legendName = roof.inLegend ? sessionLabel(s) : QString();
        legendTaken = legendTaken || roof.inLegend;
        if (precisions.size() > 1 && &ceiling == bestComputeCeiling(s, ceiling.precision)) {
            roof.precisionEntry = ceiling.precision;
            roof.inLegend = true;
            roof.legendName = tr("%1 roofs").arg(ceiling.precision);
        }
        plot.roofs.push_back(std::move(roof));
    }
    // The entries of hidden precisions stay in the legend, dimmed, to be clicked back on.
    for (const QString& precision : precisions)
        if (hidden.contains(precision))
            plot.hiddenPrecisionEntries << precision;
}

// Bandwidth ceilings: the exact roof up to the ridge with the best compute ceiling, where it turns flat. The
// memory roof of session_roof.h is bold; a highlighted level is wider still and the others fade.
void addBandwidthRoofs(const RooflineInput& in, int index, const ChartTheme& theme, RooflinePlot& plot,
                       bool& legendTaken)
{
    const Session& s = (*in.sessions)[static_cast<std::size_t>(index)];
    const bool overlay = in.sessions->size() > 1;
    const ComputeCeiling* best = bestShownCeiling(s, in.options.hiddenPrecisions);
    const double peak = best ? best->gflops : 0.0;
    const std::optional<SessionRoof> primary = primaryRoof(s);
    const BandwidthCeiling* memoryRoof = primary ? primary->memory : slowestBandwidthCeiling(s);
    const double xLow = plot.defaultRange.xMin / kOverdraw;
    const double xHigh = plot.defaultRange.xMax * kOverdraw;
    for (const BandwidthCeiling& ceiling : s.bandwidthCeilings) {
        if (ceiling.gbps <= 0.0)
            continue;
        const double top = peak > 0.0 ? peak : plot.defaultRange.yMax * kOverdraw;
        const Roof line{top, ceiling.gbps};
        std::vector<QPointF> points = roofVertices(line, xLow, xHigh);
        const double ridge = ridgeIntensity(line);
        points.erase(std::remove_if(points.begin(), points.end(),
                                    [ridge](const QPointF& p) { return p.x() > ridge * (1.0 + 1e-12); }),
                     points.end());
        const bool highlighted = !in.highlightedLevel.isEmpty() && ceiling.level == in.highlightedLevel;
        QColor color = overlay ? theme.sessionColor(index) : theme.bandwidthColor(ceiling.level);
        if (!in.highlightedLevel.isEmpty() && !highlighted)
            color.setAlphaF(0.35f);
        double width = &ceiling == memoryRoof ? theme.boldRoofWidth : kLowerRoofWidth;
        if (highlighted)
            width += 2.5;
        PlotRoof roof;
        roof.kind = RoofKind::Bandwidth;
        roof.session = index;
        roof.level = ceiling.level;
        roof.name = ceiling.mix == QLatin1String("read") || ceiling.mix.isEmpty()
                        ? ceiling.level
                        : QStringLiteral("%1 %2").arg(ceiling.level, ceiling.mix);
        roof.value = ceiling.gbps;
        roof.vertices = std::move(points);
        roof.pen = QPen(color, width, ceiling.mix == QLatin1String("triad") ? Qt::DashLine : Qt::SolidLine);
        roof.pen.setCapStyle(Qt::FlatCap);
        roof.binding = &ceiling == memoryRoof;
        roof.inLegend = overlay && !legendTaken;
        roof.legendName = roof.inLegend ? sessionLabel(s) : QString();
        legendTaken = legendTaken || roof.inLegend;
        plot.roofs.push_back(std::move(roof));
    }
}

// Kernels: one group per kind, in order of first appearance, and per whole-pixel dot size (Qt 6.4 drops points
// given a size of their own); kernels the filter fades out go first, faint and out of the legend.
void addKernelGroups(const RooflineInput& in, int index, const ChartTheme& theme, RooflinePlot& plot)
{
    const Session& s = (*in.sessions)[static_cast<std::size_t>(index)];
    const bool overlay = in.sessions->size() > 1;
    QStringList kinds;  // GPU kernels are drawn by level instead (roofline_devices.h)
    for (const KernelResult& k : s.kernels)
        if (!kinds.contains(k.kind) && !drawnAsGpuKernel(k) && !in.options.hiddenPrecisions.contains(k.precision))
            kinds << k.kind;
    KernelGroup faded;
    for (const KernelResult& kernel : s.kernels)
        if (!matchesKernelFilter(kernel, in.kernelFilter) && kernel.intensity > 0.0 && kernel.gflops > 0.0 &&
            !in.options.hiddenPrecisions.contains(kernel.precision))
            faded.points.emplace_back(kernel.intensity, kernel.gflops);
    if (!faded.points.empty()) {
        faded.session = index;
        faded.dimmed = true;
        faded.name = tr("not matching \"%1\"").arg(in.kernelFilter);
        faded.markerSize = theme.markerSize * 0.6;
        faded.color = theme.mutedText;
        faded.color.setAlphaF(0.35f);
        faded.border = Qt::transparent;
        plot.groups.push_back(std::move(faded));
    }
    for (const QString& kind : kinds) {
        std::map<long, std::vector<int>> buckets;  // diameter (0 = the theme's) -> kernel indices
        buckets[0];
        for (int k = 0; k < static_cast<int>(s.kernels.size()); ++k) {
            const KernelResult& kernel = s.kernels[static_cast<std::size_t>(k)];
            if (kernel.kind != kind || kernel.intensity <= 0.0 || kernel.gflops <= 0.0 ||
                !matchesKernelFilter(kernel, in.kernelFilter) || drawnAsGpuKernel(kernel) ||
                in.options.hiddenPrecisions.contains(kernel.precision))
                continue;
            const double size = plot.markerSize({index, k}, theme.markerSize);
            buckets[size == theme.markerSize ? 0L : std::max(1L, std::lround(size))].push_back(k);
        }
        const QColor kindColor = overlay ? theme.sessionColor(index) : theme.kernelColor(kind);
        bool first = true;
        for (const auto& [diameter, kernels] : buckets) {
            if (diameter != 0 && kernels.empty())
                continue;
            KernelGroup group;
            group.session = index;
            group.kind = kind;
            group.name = overlay ? QStringLiteral("%1 (%2)").arg(kind, sessionLabel(s)) : kind;
            group.shape = kernelMarkerShape(kind);
            group.markerSize = diameter == 0 ? theme.markerSize : static_cast<double>(diameter);
            group.color = kindColor;
            group.border = theme.background;
            for (const int k : kernels) {
                const KernelResult& kernel = s.kernels[static_cast<std::size_t>(k)];
                group.points.emplace_back(kernel.intensity, kernel.gflops);
                group.refs.push_back({index, k});
                // Imported kernels each in their own colour, and the "before" end of a before/after arrow faded
                // so the eye lands on where the kernel is now.
                QColor color = kernelColorOf(plot, *in.sessions, theme, {index, k});
                if (plot.beforeKernel({index, k}))
                    color.setAlphaF(0.4f);
                if (color != kindColor)
                    group.pointColors.emplace_back(static_cast<int>(group.points.size()) - 1, color);
            }
            group.carriesLegend = first;
            group.legendVisible = first && !overlay;
            first = false;
            plot.groups.push_back(std::move(group));
        }
    }
}

void addExtraRoofs(const std::vector<NamedRoof>& extraRoofs, const ChartTheme& theme, RooflinePlot& plot)
{
    const double xLow = plot.defaultRange.xMin / kOverdraw;
    const double xHigh = plot.defaultRange.xMax * kOverdraw;
    for (int i = 0; i < static_cast<int>(extraRoofs.size()); ++i) {
        const NamedRoof& r = extraRoofs[static_cast<std::size_t>(i)];
        if (r.roof.peakGflops <= 0.0 || r.roof.bandwidthGbps <= 0.0)
            continue;
        PlotRoof roof;
        roof.kind = RoofKind::Extra;
        roof.extra = i;
        roof.name = r.name;
        roof.value = r.roof.peakGflops;
        roof.bandwidthGbps = r.roof.bandwidthGbps;
        roof.vertices = roofVertices(r.roof, xLow, xHigh);
        roof.pen = QPen(theme.extraRoofColor(i), theme.boldRoofWidth, Qt::SolidLine);
        roof.pen.setCapStyle(Qt::FlatCap);
        roof.pen.setJoinStyle(Qt::MiterJoin);
        plot.roofs.push_back(std::move(roof));
    }
}

}  // namespace

RooflinePlot buildRooflinePlot(const RooflineInput& in, const ChartTheme& theme)
{
    static const std::vector<Session> noSessions;
    static const std::vector<NamedRoof> noRoofs;
    RooflineInput input = in;
    if (!input.sessions)
        input.sessions = &noSessions;
    if (!input.extraRoofs)
        input.extraRoofs = &noRoofs;
    const std::vector<Session>& sessions = *input.sessions;
    const bool overlay = sessions.size() > 1;

    RooflinePlot plot;
    plot.defaultRange = defaultRangeOf(sessions, *input.extraRoofs);
    plot.yUnit = flopRateUnitFor(plot.defaultRange.yMin, plot.defaultRange.yMax);
    for (const Session& s : sessions)
        styleKernels(s, overlay, input.options, theme, plot);
    if (!sessions.empty() && (input.options.shadeRegions || input.options.isoEfficiency))
        addShadingAndIsoLines(sessions.front(), input.options, theme, plot);
    for (int i = 0; i < static_cast<int>(sessions.size()); ++i) {
        const Session& s = sessions[static_cast<std::size_t>(i)];
        bool legendTaken = false;
        addComputeRoofs(input, i, theme, plot, legendTaken);
        addBandwidthRoofs(input, i, theme, plot, legendTaken);
        addDeviceRoofs(s, i, overlay || mixesMachines(s), plot.defaultRange.xMin / kOverdraw,
                       plot.defaultRange.xMax * kOverdraw, theme, plot);
        addKernelGroups(input, i, theme, plot);
        addGpuKernelGroups(input, i, theme, plot);
    }
    plot.notes = deviceNotes(sessions);
    addExtraRoofs(*input.extraRoofs, theme, plot);

    QStringList titles;
    for (const Session& s : sessions)
        titles << sessionLabel(s);
    plot.title = titles.join(QStringLiteral("  vs  "));
    plot.legendVisible =
        overlay || std::any_of(plot.groups.begin(), plot.groups.end(), [](const KernelGroup& g) { return !g.dimmed; });
    if (!sessions.empty() && input.options.ridgeMarker)
        addRidges(sessions, input.options.hiddenPrecisions, plot);
    return plot;
}

MarkerShape kernelMarkerShape(const QString& kind)
{
    if (kind == QLatin1String("dgemm"))
        return MarkerShape::RotatedRectangle;
    if (kind == QLatin1String("add"))
        return MarkerShape::Rectangle;
    if (kind == QLatin1String("decode") || kind.startsWith(QLatin1String("decode-")))
        return MarkerShape::Triangle;  // every precision's decode: one shape, told apart by colour
    if (kind.startsWith(QLatin1String("fusion")))
        return MarkerShape::Pentagon;
    return MarkerShape::Circle;
}

}  // namespace ridgeline::ui
