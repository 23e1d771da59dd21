#include "ui/plots/roofline/roofline_hit_test.h"

#include "core/model/units.h"
#include "core/session/session_roof.h"
#include "ui/plots/roofline/roofline_labels.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLineF>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RooflineChart", text);
}

double distanceToSegment(QPointF p, const QLineF& segment)
{
    const QPointF d = segment.p2() - segment.p1();
    const double lengthSquared = QPointF::dotProduct(d, d);
    const double t =
        lengthSquared > 0.0 ? std::clamp(QPointF::dotProduct(p - segment.p1(), d) / lengthSquared, 0.0, 1.0) : 0.0;
    return QLineF(p, segment.p1() + t * d).length();
}

// A roof's name and number as its label says them: "DRAM triad 37 GB/s", "fp32 avx512 x2 232 GFLOP/s".
QString roofText(const PlotRoof& roof)
{
    switch (roof.kind) {
        case RoofKind::Bandwidth:
        case RoofKind::DeviceBandwidth:
            return QStringLiteral("%1 %2 GB/s").arg(roof.name, formatCompact(roof.value));
        case RoofKind::Compute:
        case RoofKind::DeviceCompute:
            return QStringLiteral("%1 %2").arg(shortCeilingName(roof.name),
                                               formatFlopRate(roof.value, roof.countsOperations));
        case RoofKind::Extra:
            return roof.name;
        case RoofKind::Iso:
            break;
    }
    return roof.name;
}

// What a roof line allows at an intensity: its own height there (a bandwidth roof's diagonal, a GPU's whole roof).
double roofValueAt(const PlotRoof& roof, double intensity)
{
    switch (roof.kind) {
        case RoofKind::Bandwidth:
        case RoofKind::DeviceBandwidth:
            return roof.value * intensity;
        case RoofKind::Extra:
            return std::min(roof.value, roof.bandwidthGbps * intensity);
        case RoofKind::Compute:
        case RoofKind::DeviceCompute:
        case RoofKind::Iso:
            break;
    }
    return roof.value;
}

}  // namespace

std::optional<KernelHit> kernelHitAt(const RooflineView& view, const ChartTheme& theme, QPointF pixel, double slack)
{
    if (!view.plot || !view.mapping.range.valid())
        return std::nullopt;
    std::optional<KernelHit> best;
    // Past its own reach, a dot still loses to one whose edge is nearer: distance minus radius decides.
    double bestGap = std::numeric_limits<double>::max();
    view.forEachShownKernel([&](const KernelGroup& group, std::size_t i, KernelRef ref) {
        const QPointF centre = view.mapping.toPixel(group.points[i]);
        const double radius = std::max(baseMarkerRadius(theme), view.plot->markerSize(ref, theme.markerSize) / 2.0);
        const double distance = QLineF(centre, pixel).length();
        const double gap = distance - radius;
        if (gap <= slack && gap < bestGap) {
            bestGap = gap;
            best = KernelHit{ref, distance};
        }
    });
    return best;
}

std::optional<std::size_t> roofHitAt(const RooflineView& view, QPointF pixel, double radius,
                                     std::optional<RoofKind> kind)
{
    if (!view.plot || !view.mapping.range.valid())
        return std::nullopt;
    std::optional<std::size_t> best;
    double bestDistance = std::numeric_limits<double>::max();
    for (std::size_t r = 0; r < view.plot->roofs.size(); ++r) {
        const PlotRoof& roof = view.plot->roofs[r];
        if (roof.kind == RoofKind::Iso || (kind && roof.kind != *kind))
            continue;
        const double reach = radius + roof.pen.widthF() / 2.0;
        for (std::size_t i = 1; i < roof.vertices.size(); ++i) {
            const QLineF segment(view.mapping.toPixel(roof.vertices[i - 1]), view.mapping.toPixel(roof.vertices[i]));
            const double distance = distanceToSegment(pixel, segment);
            if (distance <= reach && distance < bestDistance) {
                bestDistance = distance;
                best = r;
            }
        }
    }
    return best;
}

std::optional<PointerReadout> pointerReadout(const RooflineView& view, QPointF pixel)
{
    if (!view.plot || !view.mapping.range.valid() || !view.mapping.plot.contains(pixel))
        return std::nullopt;
    PointerReadout out;
    const QPointF value = view.mapping.toValue(pixel);
    out.intensity = value.x();
    out.gflops = value.y();
    if (const std::optional<std::size_t> near = roofHitAt(view, pixel)) {
        // On a roof line: that roof's height here.
        const PlotRoof& roof = view.plot->roofs[*near];
        out.roofGflops = roofValueAt(roof, out.intensity);
        out.roofName = roofText(roof);
    } else if (view.sessions && !view.sessions->empty()) {
        // Anywhere else: the primary session's roof, and which of its ceilings binds at this intensity.
        if (const std::optional<SessionRoof> roof = primaryRoof(view.sessions->front())) {
            const bool memoryBound = out.intensity < ridgeIntensity(roof->roof());
            out.roofGflops = attainableGflops(roof->roof(), out.intensity);
            out.roofName =
                memoryBound ? QStringLiteral("%1 %2 GB/s").arg(roof->memory->level, formatCompact(roof->memory->gbps))
                            : QStringLiteral("%1 %2").arg(shortCeilingName(roof->compute->name),
                                                          formatFlopRate(roof->compute->gflops));
        }
    }
    out.where = tr("%1 FLOP/byte, %2").arg(formatCompact(out.intensity), formatFlopRate(out.gflops));
    if (out.roofGflops > 0.0)
        out.roof = tr("roof here %1 (%2)").arg(formatFlopRate(out.roofGflops), out.roofName);
    return out;
}

QString PointerReadout::text() const
{
    return roof.isEmpty() ? where : QStringLiteral("%1; %2").arg(where, roof);
}

std::vector<AnnotationText> placeReadout(const PointerReadout& readout, const QRectF& plot, const QRectF& title,
                                         QPointF cursor, const ChartTheme& theme)
{
    const QFont& font = theme.kernelLabelFont;
    const QFontMetricsF metrics(font);
    QStringList lines{readout.where};
    if (!readout.roof.isEmpty())
        lines << readout.roof;
    double width = 0.0;
    for (const QString& line : lines)
        width = std::max(width, metrics.horizontalAdvance(line));
    const double height = metrics.height() * static_cast<double>(lines.size());
    QRectF box(plot.right() - width, plot.top() - 4.0 - height, width, height);
    bool boxed = false;
    if (box.top() < 0.0 || box.intersects(title.adjusted(-12.0, 0.0, 12.0, 0.0))) {
        // Inside the plot, away from what the cursor points at.
        const bool cursorLeft = cursor.x() < plot.center().x();
        box.moveTopLeft(QPointF(cursorLeft ? plot.right() - 8.0 - width : plot.left() + 8.0, plot.top() + 6.0));
        boxed = true;
    }
    std::vector<AnnotationText> texts;
    for (int i = 0; i < lines.size(); ++i) {
        const double left = boxed ? box.left() : box.right() - metrics.horizontalAdvance(lines[i]);
        texts.push_back({lines[i], QPointF(left, box.top() + i * metrics.height()), 0.0, theme.mutedText, font,
                         theme.background, boxed});
    }
    return texts;
}

}  // namespace ridgeline::ui
