#include "ui/plots/roofline/roof_labels.h"

#include "core/model/units.h"
#include "ui/plots/layout/label_layout.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RooflineChart", text);
}

QSizeF textSize(const QFont& font, const QString& text)
{
    const QFontMetricsF metrics(font);
    return {metrics.horizontalAdvance(text) + 2.0, metrics.height()};
}

bool segmentCrossesPolygon(const QLineF& segment, const QPolygonF& polygon)
{
    if (polygon.containsPoint(segment.p1(), Qt::OddEvenFill) || polygon.containsPoint(segment.p2(), Qt::OddEvenFill))
        return true;
    for (qsizetype i = 0; i < polygon.size(); ++i) {
        const QLineF edge(polygon[i], polygon[(i + 1) % polygon.size()]);
        if (segment.intersects(edge, nullptr) == QLineF::BoundedIntersection)
            return true;
    }
    return false;
}

QPolygonF polygonOf(const QRectF& r)
{
    return QPolygonF({r.topLeft(), r.topRight(), r.bottomRight(), r.bottomLeft()});
}

}  // namespace

std::vector<QLineF> roofPixelSegments(const PlotRoof& roof, const PlotMapping& mapping)
{
    std::vector<QLineF> segments;
    for (std::size_t i = 1; i < roof.vertices.size(); ++i)
        segments.emplace_back(mapping.toPixel(roof.vertices[i - 1]), mapping.toPixel(roof.vertices[i]));
    return segments;
}

bool roofInView(const PlotRoof& roof, const PlotMapping& mapping)
{
    if (!mapping.range.valid())
        return false;
    const QRectF inside = mapping.plot.adjusted(1.0, 1.0, -1.0, -1.0);
    const std::vector<QLineF> segments = roofPixelSegments(roof, mapping);
    return std::any_of(segments.begin(), segments.end(),
                       [&](const QLineF& s) { return segmentIntersectsRect(s, inside); });
}

QString shortCeilingName(QString name)
{
    return name.remove(QStringLiteral(" threads")).trimmed();
}

RoofLabelPlacer::RoofLabelPlacer(const RooflineView& view, const ChartTheme& theme, std::vector<QRectF> markerBoxes,
                                 std::vector<QRectF> reserved)
    : m_view(view),
      m_theme(theme),
      m_inner(view.mapping.plot.adjusted(4, 4, -4, -4)),
      m_markers(markerBoxes, view.mapping.plot.adjusted(-100, -100, 100, 100)),
      m_taken(std::move(reserved))
{
    for (const PlotRoof& roof : m_view.plot->roofs)
        m_segments.push_back(roofPixelSegments(roof, m_view.mapping));
}

bool RoofLabelPlacer::isFree(const QRectF& box) const
{
    if (!m_inner.contains(box))
        return false;
    auto hits = [&](const QRectF& other) { return other.intersects(box); };
    return std::none_of(m_taken.begin(), m_taken.end(), hits) && !m_markers.anyIntersects(box);
}

bool RoofLabelPlacer::crossesAny(const QPolygonF& box, const std::vector<std::size_t>& roofs) const
{
    for (const std::size_t r : roofs)
        for (const QLineF& segment : m_segments[r])
            if (segmentCrossesPolygon(segment, box))
                return true;
    return false;
}

bool RoofLabelPlacer::crossesOthers(const QPolygonF& box, const std::vector<std::size_t>& own) const
{
    std::vector<std::size_t> others;
    for (std::size_t r = 0; r < m_segments.size(); ++r)
        if (std::find(own.begin(), own.end(), r) == own.end())
            others.push_back(r);
    return crossesAny(box, others);
}

bool RoofLabelPlacer::hasText(const QString& text) const
{
    return std::any_of(m_texts.begin(), m_texts.end(), [&](const AnnotationText& t) { return t.text == text; });
}

std::vector<std::size_t> RoofLabelPlacer::unlabelled() const
{
    std::vector<std::size_t> out;
    for (std::size_t r = 0; r < m_view.plot->roofs.size(); ++r) {
        if (m_view.plot->roofs[r].kind == RoofKind::Iso || !roofInView(m_view.plot->roofs[r], m_view.mapping))
            continue;
        if (std::none_of(m_labels.begin(), m_labels.end(), [r](const RoofLabel& l) { return l.roof == r; }))
            out.push_back(r);
    }
    return out;
}

std::vector<RoofLegendEntry> RoofLabelPlacer::legendEntries() const
{
    const std::vector<std::size_t> missing = unlabelled();
    std::vector<RoofLegendEntry> out;
    for (const RoofLegendEntry& named : m_named) {
        const bool anyMissing = std::any_of(named.roofs.begin(), named.roofs.end(), [&](std::size_t r) {
            return std::find(missing.begin(), missing.end(), r) != missing.end();
        });
        const bool listed =
            std::any_of(out.begin(), out.end(), [&](const RoofLegendEntry& e) { return e.text == named.text; });
        if (anyMissing && !listed)
            out.push_back(named);
    }
    return out;
}

// Labels for flat roofs sit on their line: right-aligned at the right end, or from the left end of the flat part,
// or anywhere between, wherever the fewest kernel dots are near (their labels need that room). Never on a line of
// the roofs it names.
bool RoofLabelPlacer::placeFlatLabel(const QString& text, const std::vector<std::size_t>& roofs, double startIntensity,
                                     const QColor& color)
{
    const PlotRoof& lead = m_view.plot->roofs[roofs.front()];
    const PlotRange& r = m_view.mapping.range;
    if (lead.value <= r.yMin || lead.value >= r.yMax)
        return false;
    const QFont& font = m_theme.ceilingLabelFont;
    const QSizeF size = textSize(font, text);
    const double y = px(r.xMax, lead.value).y();
    const double leftmost = std::max(m_inner.left() + 4.0, px(std::max(startIntensity, r.xMin), lead.value).x() + 8.0);
    std::vector<double> lefts;
    for (int step = 0; step < 24; ++step)
        lefts.push_back(m_inner.right() - 4.0 - size.width() - step * size.width() * 0.35);
    lefts.insert(lefts.begin() + 1, leftmost);
    const double gap = 4.0 + lead.pen.widthF() / 2.0;
    double bestCrowding = std::numeric_limits<double>::max();
    QRectF best;
    auto consider = [&](bool flatOnly) {
        for (const bool under : {false, true}) {
            for (std::size_t i = 0; i < lefts.size(); ++i) {
                if (flatOnly && lefts[i] < leftmost - 1e-6)
                    continue;
                const QRectF box(lefts[i], under ? y + gap : y - gap - size.height(), size.width(), size.height());
                if (!isFree(box) || crossesAny(polygonOf(box), roofs) ||
                    (outside() && crossesOthers(polygonOf(box), roofs)))
                    continue;
                const QRectF neighbourhood = box.adjusted(-30.0, -60.0, 30.0, 60.0);
                double crowding = (under ? 0.5 : 0.0) + static_cast<double>(i) * 0.01;
                crowding += m_markers.countIntersecting(neighbourhood);
                for (const std::vector<QLineF>& segments : m_segments)  // a box over other roofs hides them
                    for (const QLineF& segment : segments)
                        crowding += segmentIntersectsRect(segment, box) ? 1.5 : 0.0;
                if (crowding < bestCrowding) {
                    bestCrowding = crowding;
                    best = box;
                }
            }
        }
    };
    // First only over the flat part; a label wider than the flat part (a GPU's ridge sits far right) may then
    // reach left, over its own diagonal, which lies below it.
    consider(true);
    if (bestCrowding == std::numeric_limits<double>::max())
        consider(false);
    if (bestCrowding == std::numeric_limits<double>::max())
        return false;
    m_texts.push_back({text, best.topLeft(), 0.0, color, font, m_theme.background, true, roofMarkId(roofs.front())});
    m_taken.push_back(best);
    for (const std::size_t roof : roofs)
        m_labels.push_back({roof, polygonOf(best), false});
    return true;
}

// Compute ceilings within 10 % of each other share one label (avx512 and avx2 often tie): two labels stacked a
// few pixels apart read as one smudge on a projector. A long list of ties shortens to a count before it gives up.
void RoofLabelPlacer::placeComputeLabels()
{
    const std::vector<PlotRoof>& roofs = m_view.plot->roofs;
    std::vector<std::size_t> compute;
    for (std::size_t i = 0; i < roofs.size(); ++i)
        if (roofs[i].kind == RoofKind::Compute || roofs[i].kind == RoofKind::DeviceCompute)
            compute.push_back(i);
    std::sort(compute.begin(), compute.end(),
              [&](std::size_t a, std::size_t b) { return roofs[a].value > roofs[b].value; });
    for (std::size_t i = 0; i < compute.size();) {
        const PlotRoof& lead = roofs[compute[i]];
        const QString head = QStringLiteral("%1: %2").arg(shortCeilingName(lead.name),
                                                          formatFlopRate(lead.value, lead.countsOperations));
        std::vector<std::size_t> group{compute[i]};
        QStringList others;
        std::size_t j = i + 1;
        // With the lower roofs keyed beside the plot, a binding roof is named alone, and only it on its line.
        const bool keyedBeside = outside() && !lead.binding;
        while (j < compute.size() && roofs[compute[j]].value > lead.value / 1.1 &&
               roofs[compute[j]].session == lead.session && roofs[compute[j]].device == lead.device &&
               (!outside() || (!lead.binding && !roofs[compute[j]].binding))) {
            others << QStringLiteral("%1 %2").arg(shortCeilingName(roofs[compute[j]].name),
                                                  formatCompact(roofs[compute[j]].value));
            group.push_back(compute[j]);
            ++j;
        }
        i = j;
        QStringList variants{head};
        m_named.push_back(
            {group, others.isEmpty() ? head : QStringLiteral("%1  (≈ %2)").arg(head, others.join(QStringLiteral(", "))),
             lead.pen});
        if (!others.isEmpty())
            variants = QStringList{QStringLiteral("%1  (≈ %2)").arg(head, others.join(QStringLiteral(", "))),
                                   tr("%1  (+%2 within 10 %)").arg(head).arg(others.size())};
        for (const QString& text : variants) {
            if (keyedBeside)
                break;
            if (hasText(text)) {  // an overlay's identical ceiling: named by the label already there
                const auto same = std::find_if(m_texts.begin(), m_texts.end(),
                                               [&](const AnnotationText& t) { return t.text == text; });
                const QRectF box(same->origin, textSize(same->font, same->text));
                for (const std::size_t roof : group)
                    m_labels.push_back({roof, polygonOf(box), false});
                break;
            }
            if (placeFlatLabel(text, group, lead.vertices.front().x(), lead.pen.color()))
                break;
        }
    }
}

void RoofLabelPlacer::placeExtraRoofLabels()
{
    const std::vector<PlotRoof>& roofs = m_view.plot->roofs;
    for (std::size_t i = 0; i < roofs.size(); ++i) {
        const PlotRoof& roof = roofs[i];
        if (roof.kind != RoofKind::Extra)
            continue;
        const QString text =
            QStringLiteral("%1: %2 TFLOP/s, %3 TB/s")
                .arg(roof.name, formatCompact(roof.value / 1000.0), formatCompact(roof.bandwidthGbps / 1000.0));
        m_named.push_back({{i}, text, roof.pen});
        placeFlatLabel(text, {i}, ridgeIntensity(Roof{roof.value, roof.bandwidthGbps}), roof.pen.color());
    }
}

// A diagonal's label runs along it, on whichever side is free, where the line is inside the plot and left of its
// ridge: it clears the dots, the other labels and every roof line (a line through text reads as struck through).
bool RoofLabelPlacer::placeDiagonalLabel(std::size_t roofIndex, const QString& text)
{
    const PlotRoof& roof = m_view.plot->roofs[roofIndex];
    const PlotRange& r = m_view.mapping.range;
    const double gbps = roof.value;
    const double lo = std::max({r.xMin, r.yMin / gbps, roof.vertices.front().x()});
    const double hi = std::min({r.xMax, roof.vertices.back().x(), r.yMax / gbps});
    if (!(lo < hi))
        return false;
    const QFont& font = m_theme.ceilingLabelFont;
    const QFontMetricsF metrics(font);
    const double width = metrics.horizontalAdvance(text) + 2.0;
    const double height = metrics.height();
    const QLineF visible(px(lo, lo * gbps), px(hi, hi * gbps));
    if (visible.length() < width + 8.0)
        return false;
    const QPointF dir = (visible.p2() - visible.p1()) / visible.length();
    const QPointF normal(dir.y(), -dir.x());  // points up-left for a rising line
    const double angle = std::atan2(dir.y(), dir.x()) * 180.0 / M_PI;
    const double gap = 2.0 + roof.pen.widthF() / 2.0;
    std::vector<std::size_t> allRoofs;
    for (std::size_t i = 0; i < m_view.plot->roofs.size(); ++i)
        if (m_view.plot->roofs[i].kind != RoofKind::Iso)
            allRoofs.push_back(i);
    for (const double side : {1.0, -1.0}) {
        for (int step = 0; step <= 14; ++step) {
            const QPointF onLine = visible.p1() + dir * ((0.04 + step * 0.066) * (visible.length() - width));
            // The text's top-left corner: its top edge runs along -normal from there.
            const QPointF origin = onLine + normal * (side > 0.0 ? height + gap : -gap);
            const QPolygonF box(
                {origin, origin + dir * width, origin + dir * width - normal * height, origin - normal * height});
            // Boxes along the text approximate the rotated label for the dot and text tests; a little air around
            // each, since two roofs' labels end to end read as one line of text.
            std::vector<QRectF> boxes;
            for (double along = 0.0; along < width; along += height * 0.8) {
                const QPointF centre = origin + dir * (along + height * 0.4) - normal * (height / 2.0);
                boxes.emplace_back(centre.x() - height * 0.4, centre.y() - height * 0.4, height * 0.8, height * 0.8);
            }
            if (!std::all_of(boxes.begin(), boxes.end(),
                             [&](const QRectF& b) { return isFree(b.adjusted(-6, -2, 6, 2)); }) ||
                crossesAny(box, allRoofs))
                continue;
            m_texts.push_back(
                {text, origin, angle, roof.pen.color(), font, m_theme.background, false, roofMarkId(roofIndex)});
            m_taken.insert(m_taken.end(), boxes.begin(), boxes.end());
            m_labels.push_back({roofIndex, box, false});
            return true;
        }
    }
    return false;
}

void RoofLabelPlacer::placeBandwidthLabels()
{
    const std::vector<PlotRoof>& roofs = m_view.plot->roofs;
    for (std::size_t i = 0; i < roofs.size(); ++i) {
        const PlotRoof& roof = roofs[i];
        if ((roof.kind != RoofKind::Bandwidth && roof.kind != RoofKind::DeviceBandwidth) || roof.vertices.size() < 2)
            continue;
        // Overlays: the colour says which machine; a roof another session already labelled is not repeated.
        const QString text = QStringLiteral("%1  %2 GB/s").arg(roof.name, formatCompact(roof.value));
        m_named.push_back({{i}, text, roof.pen});
        if (outside() && !roof.binding)
            continue;
        const auto same =
            std::find_if(m_texts.begin(), m_texts.end(), [&](const AnnotationText& t) { return t.text == text; });
        if (same != m_texts.end()) {
            const auto label = std::find_if(m_labels.begin(), m_labels.end(), [&](const RoofLabel& l) {
                return m_view.plot->roofs[l.roof].kind == roof.kind && m_view.plot->roofs[l.roof].name == roof.name &&
                       m_view.plot->roofs[l.roof].value == roof.value;
            });
            if (label != m_labels.end())
                m_labels.push_back({i, label->box, false});
            continue;
        }
        placeDiagonalLabel(i, text);
    }
}

// Iso-efficiency lines: a small label at the right end, under the line.
void RoofLabelPlacer::placeIsoLabels()
{
    for (std::size_t i = 0; i < m_view.plot->roofs.size(); ++i) {
        const PlotRoof& roof = m_view.plot->roofs[i];
        if (roof.kind != RoofKind::Iso || roof.vertices.empty())
            continue;
        const QString text = tr("%1 %").arg(roof.value * 100.0);
        const QFont& font = m_theme.kernelLabelFont;
        const QSizeF size = textSize(font, text);
        const double y = px(m_view.mapping.range.xMax, roof.vertices.back().y()).y();
        const QRectF box(m_inner.right() - (size.width() - 2.0) - 6.0, y + 2.0, size.width(), size.height());
        if (isFree(box) && !(outside() && crossesOthers(polygonOf(box), {i}))) {
            m_texts.push_back(
                {text, box.topLeft(), 0.0, m_theme.mutedText, font, m_theme.background, false, roofMarkId(i)});
            m_taken.push_back(box);
        }
    }
}

void RoofLabelPlacer::placeRoofLabels()
{
    placeComputeLabels();
    placeExtraRoofLabels();
    placeBandwidthLabels();
    placeIsoLabels();
}

// A ridge: "everything left of this intensity is memory-bound", a dotted line down from the roof's corner.
void RoofLabelPlacer::placeRidge(const RidgeMarker& ridge, const QColor& color, std::vector<AnnotationLine>& under)
{
    const double intensity = ridge.intensity;
    const double peakGflops = ridge.peakGflops;
    const PlotRange& r = m_view.mapping.range;
    if (!(intensity > r.xMin && intensity < r.xMax && peakGflops < r.yMax && peakGflops > r.yMin))
        return;
    const QRectF& plot = m_view.mapping.plot;
    const QPointF top = px(intensity, peakGflops);
    under.push_back({QLineF(top, QPointF(top.x(), plot.bottom())), QPen(color, 1.5, Qt::DotLine)});
    const QString text = ridge.precision.isEmpty() ? tr("ridge %1 FLOP/byte").arg(formatCompact(intensity))
                         : countsOperations(ridge.precision)
                             ? tr("%1 ridge %2 OP/byte").arg(ridge.precision, formatCompact(intensity))
                             : tr("%1 ridge %2 FLOP/byte").arg(ridge.precision, formatCompact(intensity));
    const QFont& font = m_theme.kernelLabelFont;
    const QSizeF size = textSize(font, text);
    // Along the dotted line, near the bottom, whichever side is free.
    for (const double fraction : {0.92, 0.8, 0.65, 0.5}) {
        const double y = plot.top() + (plot.bottom() - plot.top()) * fraction - size.height();
        const QRectF right(QPointF(top.x() + 5.0, y), size);
        const QRectF left(QPointF(top.x() - 5.0 - size.width(), y), size);
        auto clear = [&](const QRectF& box) {
            return isFree(box) && !(outside() && crossesOthers(polygonOf(box), {}));
        };
        const QRectF* chosen = clear(right) ? &right : clear(left) ? &left : nullptr;
        if (chosen) {
            m_texts.push_back({text, chosen->topLeft(), 0.0, color, font, m_theme.background});
            m_taken.push_back(*chosen);
            return;
        }
    }
}

// The primary roof's ridge in the muted text colour, other precisions' fainter, each GPU's in its roof's colour.
void RoofLabelPlacer::placeRidges(std::vector<AnnotationLine>& under)
{
    if (const std::optional<RidgeMarker>& ridge = m_view.plot->ridge)
        placeRidge(*ridge, m_theme.mutedText, under);
    QColor faint = m_theme.mutedText;
    faint.setAlphaF(0.7f);
    for (const RidgeMarker& ridge : m_view.plot->precisionRidges)
        placeRidge(ridge, faint, under);
    for (const PlotRoof& roof : m_view.plot->roofs)
        if (roof.kind == RoofKind::Extra && m_view.options.ridgeMarker)
            placeRidge({ridgeIntensity(Roof{roof.value, roof.bandwidthGbps}), roof.value, QString()}, roof.pen.color(),
                       under);
}

}  // namespace ridgeline::ui
