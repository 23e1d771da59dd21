#include "ui/models/roofline_labels.h"

#include "core/model/units.h"
#include "ui/models/label_layout.h"

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

// A decode sweep labels every point; after the first, "B=16" says all the "decode B=16" would.
QString kernelLabel(const KernelResult& kernel, bool firstOfKind)
{
    if (kernel.kind == QLatin1String("decode") && kernel.batch > 0 && !firstOfKind)
        return QStringLiteral("B=%1").arg(kernel.batch);
    return kernel.name;
}

QSizeF textSize(const QFont& font, const QString& text)
{
    const QFontMetricsF metrics(font);
    return {metrics.horizontalAdvance(text) + 2.0, metrics.height()};
}

// A note as lines no wider than `width`, broken between words.
QStringList wrapText(const QString& text, const QFont& font, double width)
{
    QStringList lines;
    QString line;
    for (const QString& word : text.split(u' ', Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + u' ' + word;
        if (!line.isEmpty() && textSize(font, longer).width() > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines;
}

// The text placed so far and what it must keep clear of: the obstacles of one layout pass.
class RoofLabelPlacer {
public:
    // `taken`: text already placed (the hints and notes at the top).
    RoofLabelPlacer(const RooflineView& view, const ChartTheme& theme, std::vector<QRectF> markerBoxes,
                    std::vector<QLineF> roofSegments, std::vector<QRectF> taken)
        : m_view(view),
          m_theme(theme),
          m_inner(view.mapping.plot.adjusted(4, 4, -4, -4)),
          m_markers(std::move(markerBoxes)),
          m_segments(std::move(roofSegments)),
          m_taken(std::move(taken))
    {
    }

    void placeComputeLabels();
    void placeExtraRoofLabels();
    void placeBandwidthLabels();
    void placeIsoLabels();
    void placeRidge(std::vector<AnnotationLine>& under);

    std::vector<AnnotationText>& texts() { return m_texts; }
    const std::vector<QRectF>& taken() const { return m_taken; }

private:
    QPointF px(double x, double y) const { return m_view.mapping.toPixel(QPointF(x, y)); }
    bool isFree(const QRectF& box) const;
    bool hasText(const QString& text) const;
    void placeFlatLabel(const QString& text, double gflops, double startIntensity, const QColor& color);

    const RooflineView& m_view;
    const ChartTheme& m_theme;
    const QRectF m_inner;
    const std::vector<QRectF> m_markers;
    const std::vector<QLineF> m_segments;
    std::vector<AnnotationText> m_texts;
    std::vector<QRectF> m_taken;
};

bool RoofLabelPlacer::isFree(const QRectF& box) const
{
    if (!m_inner.contains(box))
        return false;
    auto hits = [&](const QRectF& other) { return other.intersects(box); };
    return std::none_of(m_taken.begin(), m_taken.end(), hits) && std::none_of(m_markers.begin(), m_markers.end(), hits);
}

bool RoofLabelPlacer::hasText(const QString& text) const
{
    return std::any_of(m_texts.begin(), m_texts.end(), [&](const AnnotationText& t) { return t.text == text; });
}

// Labels for flat roofs sit on their line: right-aligned at the right end, or from the left end of the flat part,
// or anywhere between, wherever the fewest kernel dots are near (their labels need that room).
void RoofLabelPlacer::placeFlatLabel(const QString& text, double gflops, double startIntensity, const QColor& color)
{
    const PlotRange& r = m_view.mapping.range;
    if (gflops <= r.yMin || gflops >= r.yMax)
        return;
    const QFont& font = m_theme.ceilingLabelFont;
    const QSizeF size = textSize(font, text);
    const double y = px(r.xMax, gflops).y();
    const double leftmost = std::max(m_inner.left() + 4.0, px(std::max(startIntensity, r.xMin), gflops).x() + 8.0);
    std::vector<double> lefts;
    for (int step = 0; step < 16; ++step)
        lefts.push_back(m_inner.right() - 4.0 - size.width() - step * size.width() * 0.5);
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
                for (const QRectF& marker : m_markers)
                    crowding += neighbourhood.intersects(marker) ? 1.0 : 0.0;
                for (const QLineF& segment : m_segments)  // a box over the diagonals hides them
                    crowding += segmentIntersectsRect(segment, box) ? 1.5 : 0.0;
                if (crowding < bestCrowding) {
                    bestCrowding = crowding;
                    best = box;
                }
            }
        }
    };
    // First only over the flat part; a label wider than the flat part (a GPU's ridge sits far right) may then
    // reach left over its own diagonal, which lies below it.
    consider(true);
    if (bestCrowding == std::numeric_limits<double>::max())
        consider(false);
    if (bestCrowding == std::numeric_limits<double>::max())
        return;
    m_texts.push_back({text, best.topLeft(), 0.0, color, font, m_theme.background, true});
    m_taken.push_back(best);
}

// Compute ceilings within 10 % of each other share one label (avx512 and avx2 often tie): two labels stacked a
// few pixels apart read as one smudge on a projector.
void RoofLabelPlacer::placeComputeLabels()
{
    std::vector<const PlotRoof*> compute;
    for (const PlotRoof& roof : m_view.plot->roofs)
        if (roof.kind == RoofKind::Compute || roof.kind == RoofKind::DeviceCompute)
            compute.push_back(&roof);
    std::sort(compute.begin(), compute.end(), [](const PlotRoof* a, const PlotRoof* b) { return a->value > b->value; });
    for (std::size_t i = 0; i < compute.size();) {
        const PlotRoof* lead = compute[i];
        QString text = QStringLiteral("%1: %2 GFLOP/s").arg(shortCeilingName(lead->name), formatCompact(lead->value));
        std::size_t j = i + 1;
        QStringList others;
        while (j < compute.size() && compute[j]->value > lead->value / 1.1 && compute[j]->session == lead->session &&
               compute[j]->device == lead->device) {
            others << QStringLiteral("%1 %2").arg(shortCeilingName(compute[j]->name), formatCompact(compute[j]->value));
            ++j;
        }
        if (!others.isEmpty())
            text += QStringLiteral("  (≈ %1)").arg(others.join(QStringLiteral(", ")));
        if (!hasText(text))
            placeFlatLabel(text, lead->value, lead->vertices.front().x(), lead->pen.color());
        i = j;
    }
}

void RoofLabelPlacer::placeExtraRoofLabels()
{
    for (const PlotRoof& roof : m_view.plot->roofs) {
        if (roof.kind != RoofKind::Extra)
            continue;
        const QString text =
            QStringLiteral("%1: %2 TFLOP/s, %3 TB/s")
                .arg(roof.name, formatCompact(roof.value / 1000.0), formatCompact(roof.bandwidthGbps / 1000.0));
        placeFlatLabel(text, roof.value, ridgeIntensity(Roof{roof.value, roof.bandwidthGbps}), roof.pen.color());
    }
}

// Bandwidth labels run along their diagonal, above it, where the line is inside the plot and left of the ridge;
// several positions are tried so they clear the dots and each other.
void RoofLabelPlacer::placeBandwidthLabels()
{
    const PlotRange& r = m_view.mapping.range;
    for (const PlotRoof& roof : m_view.plot->roofs) {
        if ((roof.kind != RoofKind::Bandwidth && roof.kind != RoofKind::DeviceBandwidth) || roof.vertices.size() < 2)
            continue;
        const double gbps = roof.value;
        const double lo = std::max(r.xMin, r.yMin / gbps);
        const double hi = std::min({r.xMax, roof.vertices.back().x(), r.yMax / gbps});
        if (!(lo < hi))
            continue;
        // Overlays: the colour says which machine; a roof another session already labelled is not repeated.
        const QString text = QStringLiteral("%1  %2 GB/s").arg(roof.name, formatCompact(gbps));
        if (hasText(text))
            continue;
        const QFont& font = m_theme.ceilingLabelFont;
        const QFontMetricsF metrics(font);
        const double width = metrics.horizontalAdvance(text) + 2.0;
        const double height = metrics.height();
        const QPointF pLo = px(lo, lo * gbps);
        const QPointF pHi = px(hi, hi * gbps);
        const QLineF visible(pLo, pHi);
        if (visible.length() < width + 8.0)
            continue;
        const QPointF dir = (pHi - pLo) / visible.length();
        const QPointF normal(dir.y(), -dir.x());  // points up-left for a rising line
        const double angle = std::atan2(dir.y(), dir.x()) * 180.0 / M_PI;
        for (const double t : {0.08, 0.2, 0.32, 0.44, 0.56, 0.68}) {
            const QPointF onLine = pLo + dir * (t * (visible.length() - width));
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
            m_texts.push_back(
                {text, onLine + normal * (height + 3.0), angle, roof.pen.color(), font, m_theme.background});
            m_taken.insert(m_taken.end(), boxes.begin(), boxes.end());
            break;
        }
    }
}

// Iso-efficiency lines: a small label at the right end, under the line.
void RoofLabelPlacer::placeIsoLabels()
{
    for (const PlotRoof& roof : m_view.plot->roofs) {
        if (roof.kind != RoofKind::Iso || roof.vertices.empty())
            continue;
        const QString text = tr("%1 %").arg(roof.value * 100.0);
        const QFont& font = m_theme.kernelLabelFont;
        const QSizeF size = textSize(font, text);
        const double y = px(m_view.mapping.range.xMax, roof.vertices.back().y()).y();
        const QRectF box(m_inner.right() - (size.width() - 2.0) - 6.0, y + 2.0, size.width(), size.height());
        if (isFree(box)) {
            m_texts.push_back({text, box.topLeft(), 0.0, m_theme.mutedText, font, m_theme.background});
            m_taken.push_back(box);
        }
    }
}

// The ridge of the primary roof: "everything below the hardware's number is memory-bound".
void RoofLabelPlacer::placeRidge(std::vector<AnnotationLine>& under)
{
    const std::optional<RidgeMarker>& ridge = m_view.plot->ridge;
    const PlotRange& r = m_view.mapping.range;
    if (!ridge || !(ridge->intensity > r.xMin && ridge->intensity < r.xMax && ridge->peakGflops < r.yMax))
        return;
    const QRectF& plot = m_view.mapping.plot;
    const QPointF top = px(ridge->intensity, ridge->peakGflops);
    under.push_back({QLineF(top, QPointF(top.x(), plot.bottom())), QPen(m_theme.mutedText, 1.5, Qt::DotLine)});
    const QString text = tr("ridge %1 FLOP/byte").arg(formatCompact(ridge->intensity));
    const QFont& font = m_theme.kernelLabelFont;
    const QSizeF size = textSize(font, text);
    // Along the dotted line, near the bottom, whichever side is free.
    for (const double fraction : {0.92, 0.8, 0.65, 0.5}) {
        const double y = plot.top() + (plot.bottom() - plot.top()) * fraction - size.height();
        const QRectF right(QPointF(top.x() + 5.0, y), size);
        const QRectF left(QPointF(top.x() - 5.0 - size.width(), y), size);
        const QRectF* chosen = isFree(right) ? &right : isFree(left) ? &left : nullptr;
        if (chosen) {
            m_texts.push_back({text, chosen->topLeft(), 0.0, m_theme.mutedText, font, m_theme.background});
            m_taken.push_back(*chosen);
            return;
        }
    }
}

struct LabelText {
    QString text;
    QColor color;
    bool bold = false;
};

// The kernels' own labels (overlays label the primary session only; the "before" end of an arrow goes unlabelled:
// the arrow and the "after" label name it), then the percentages of the arrows.
void requestKernelLabels(const RooflineView& view, const ChartTheme& theme, const RooflineDecorations& marks,
                         LabelLayoutInput& layout, std::vector<LabelText>& labelTexts)
{
    const double markerRadius = baseMarkerRadius(theme);
    const bool overlay = view.sessions->size() > 1;
    view.forEachShownKernel([&](const KernelGroup&, std::size_t i, KernelRef ref) {
        if ((overlay && ref.session != 0) || view.plot->beforeKernel(ref))
            return;
        const KernelResult& k = view.kernel(ref);
        const QPointF centre = view.mapping.toPixel(QPointF(k.intensity, k.gflops));
        QString text = kernelLabel(k, i == 0);
        if (!k.levels.empty() && !k.level.isEmpty()) {
            // The levels under the dot itself (their rings are not drawn) are named in the label.
            QStringList here{k.level};
            for (const LevelPoint& level : k.levels)
                if (level.intensity > 0.0 && std::abs(view.mapping.toPixel(QPointF(level.intensity, k.gflops)).x() -
                                                      centre.x()) < 2.0 * markerRadius)
                    here << level.level;
            text += QStringLiteral(" (%1)").arg(here.join(QStringLiteral(", ")));
        }
        const double radius = std::max(markerRadius, view.plot->markerSize(ref, theme.markerSize) / 2.0 + 1.0);
        layout.labels.push_back({centre, textSize(theme.kernelLabelFont, text), radius});
        labelTexts.push_back({text, theme.text, false});
    });
    QFont bold = theme.kernelLabelFont;
    bold.setBold(true);
    for (const ArrowLabel& label : marks.arrowLabels) {
        layout.labels.push_back({label.anchor, textSize(bold, label.text), 1.0});
        labelTexts.push_back({label.text, label.color, true});
    }
}

// Level tags sit right over their ring (or under it), never away from it with a leader: a tag next to another
// kernel's ring would name the wrong point. No free spot, no tag: the ring's colour still tells.
void placeLevelTags(const std::vector<LevelTag>& tags, const QRectF& inner, const std::vector<QRectF>& markerBoxes,
                    const ChartTheme& theme, LabelLayoutInput& layout, std::vector<AnnotationText>& texts)
{
    const double markerRadius = baseMarkerRadius(theme);
    const QFont& tagFont = theme.ceilingLabelFont;
    std::vector<QRectF> anchors;
    for (const LabelRequest& label : layout.labels) {
        const double r = label.radius > 0.0 ? label.radius : markerRadius;
        anchors.emplace_back(label.anchor.x() - r, label.anchor.y() - r, 2 * r, 2 * r);
    }
    auto clear = [](const std::vector<QRectF>& boxes, const QRectF& box) {
        return std::none_of(boxes.begin(), boxes.end(), [&](const QRectF& o) { return o.intersects(box); });
    };
    for (const LevelTag& tag : tags) {
        const QSizeF size = textSize(tagFont, tag.level);
        for (const double dy : {-(markerRadius + 1.0 + size.height()), markerRadius + 1.0}) {
            const QRectF box(QPointF(tag.at.x() - size.width() / 2.0, tag.at.y() + dy), size);
            if (!inner.contains(box) || !clear(layout.obstacles, box) || !clear(anchors, box) ||
                !clear(markerBoxes, box))
                continue;
            texts.push_back({tag.level, box.topLeft(), 0.0, tag.color, tagFont, theme.background});
            layout.obstacles.push_back(box);
            break;
        }
    }
}

// The labels placed near their points; a kernel's name that found no place there goes to the least covered spot of
// the plot with a leader back to its dot: never dropped (a crowded chart with a GPU's roofs beside a CPU's).
std::vector<LabelPlacement> placedOrForced(const LabelLayoutInput& layout, const std::vector<LabelText>& texts,
                                           const std::vector<QRectF>& markerBoxes)
{
    std::vector<LabelPlacement> placements = placeLabels(layout);
    std::vector<QRectF> hard = markerBoxes;
    hard.insert(hard.end(), layout.obstacles.begin(), layout.obstacles.end());
    for (const LabelPlacement& p : placements)
        if (p.placed)
            hard.push_back(p.rect);
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const LabelRequest& label = layout.labels[i];
        if (placements[i].placed || texts[i].bold || !layout.bounds.contains(label.anchor))
            continue;  // arrow percentages may give way; a label whose dot is off the plot has nothing to name
        LabelPlacement forced = placeForced(layout.bounds, label, hard, {});
        const QRectF& rect = forced.rect;
        QLineF leader(label.anchor, QPointF(std::clamp(label.anchor.x(), rect.left(), rect.right()),
                                            std::clamp(label.anchor.y(), rect.top(), rect.bottom())));
        const double radius = label.radius > 0.0 ? label.radius : layout.markerRadius;
        if (leader.length() > radius)
            leader.setP1(leader.pointAt(radius / leader.length()));
        forced.leader = leader;
        hard.push_back(rect);
        placements[i] = forced;
    }
    return placements;
}

// Hints and notes (before/after thicket, machines mixed, GPU kernels without a roof): flush left at the top of the
// plot, one under the other, wrapped to its width. Returns their boxes.
std::vector<QRectF> placeHints(const RooflineView& view, const ChartTheme& theme, const QString& arrowHint,
                               std::vector<AnnotationText>& texts)
{
    const QRectF bounds = view.mapping.plot.adjusted(4, 4, -4, -4);
    QStringList hints = view.plot->notes;
    if (!arrowHint.isEmpty())
        hints.prepend(arrowHint);
    std::vector<QRectF> boxes;
    double top = bounds.top() + 4.0;
    for (const QString& hint : std::as_const(hints))
        for (const QString& line : wrapText(hint, theme.kernelLabelFont, bounds.width() - 16.0)) {
            const QRectF box(QPointF(bounds.left() + 8.0, top), textSize(theme.kernelLabelFont, line));
            texts.push_back({line, box.topLeft(), 0.0, theme.mutedText, theme.kernelLabelFont, theme.background, true});
            boxes.push_back(box);
            top = box.bottom() + 2.0;
        }
    return boxes;
}

// Every roof segment in pixels (not the iso lines): labels avoid crossing them.
std::vector<QLineF> roofSegments(const RooflineView& view)
{
    std::vector<QLineF> segments;
    for (const PlotRoof& roof : view.plot->roofs) {
        if (roof.kind == RoofKind::Iso)
            continue;
        for (std::size_t i = 1; i < roof.vertices.size(); ++i)
            segments.emplace_back(view.mapping.toPixel(roof.vertices[i - 1]), view.mapping.toPixel(roof.vertices[i]));
    }
    return segments;
}

}  // namespace

QString shortCeilingName(QString name)
{
    return name.remove(QStringLiteral(" threads")).trimmed();
}

RooflineAnnotations annotateRoofline(const RooflineView& view, const ChartTheme& theme)
{
    RooflineAnnotations out;
    const QRectF& plot = view.mapping.plot;
    if (plot.width() < 10 || plot.height() < 10 || !view.mapping.range.valid())
        return out;
    const std::vector<QRectF> markerBoxes = kernelMarkerBoxes(view, theme);
    const std::vector<QLineF> segments = roofSegments(view);

    RooflineDecorations marks = decorateRoofline(view, theme);
    // Hints and notes first: they must be read, and roof labels find another place.
    std::vector<AnnotationText> hints;
    std::vector<QRectF> hintBoxes = placeHints(view, theme, marks.arrowHint, hints);
    RoofLabelPlacer roofs(view, theme, markerBoxes, segments, std::move(hintBoxes));
    roofs.placeComputeLabels();
    roofs.placeExtraRoofLabels();
    roofs.placeBandwidthLabels();
    roofs.placeIsoLabels();
    roofs.placeRidge(out.under);
    out.texts = std::move(roofs.texts());
    out.texts.insert(out.texts.end(), hints.begin(), hints.end());

    out.under.insert(out.under.end(), marks.under.begin(), marks.under.end());
    out.over = std::move(marks.over);
    out.rings = std::move(marks.rings);
    out.drawnArrows = marks.drawnArrows;

    LabelLayoutInput layout;
    layout.bounds = plot.adjusted(4, 4, -4, -4);
    layout.obstacles = roofs.taken();
    layout.lines = segments;
    layout.lines.insert(layout.lines.end(), marks.lines.begin(), marks.lines.end());
    layout.markerRadius = baseMarkerRadius(theme);
    // Every label has a halo: with many roofs about (a GPU's beside this machine's), crossing one beats a long leader.
    layout.lineCost = 2.0;
    // A kernel's points at its other levels (rings, a GPU kernel's level markers) are in every label's way; its own
    // dot is its label's anchor already. A level under the dot itself is the dot.
    view.forEachShownKernel([&](const KernelGroup&, std::size_t, KernelRef ref) {
        const KernelResult& k = view.kernel(ref);
        const QPointF dot = view.mapping.toPixel(QPointF(k.intensity, k.gflops));
        for (const LevelPoint& level : k.levels) {
            const QPointF at = view.mapping.toPixel(QPointF(level.intensity, k.gflops));
            if (level.intensity > 0.0 && std::abs(at.x() - dot.x()) >= 2.0 * layout.markerRadius)
                layout.obstacles.emplace_back(at.x() - layout.markerRadius, at.y() - layout.markerRadius,
                                              2.0 * layout.markerRadius, 2.0 * layout.markerRadius);
        }
    });
    int shownKernels = 0;
    view.forEachShownKernel([&](const KernelGroup&, std::size_t, KernelRef) { ++shownKernels; });
    if (!view.options.kernelLabels || shownKernels > kMaxKernelLabels)
        return out;

    std::vector<LabelText> labelTexts;
    requestKernelLabels(view, theme, marks, layout, labelTexts);
    placeLevelTags(marks.levelTags, layout.bounds, markerBoxes, theme, layout, out.texts);
    const std::vector<LabelPlacement> placements = placedOrForced(layout, labelTexts, markerBoxes);
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const LabelPlacement& p = placements[i];
        if (!p.placed)
            continue;
        if (p.needsLeader)
            out.over.push_back({p.leader, QPen(theme.mutedText, 1.5)});
        // Percent changes are bold in their arrow's colour; kernel names in the text colour.
        QFont font = theme.kernelLabelFont;
        font.setBold(labelTexts[i].bold);
        out.texts.push_back({labelTexts[i].text, p.rect.topLeft(), 0.0, labelTexts[i].color, font, theme.background});
        out.kernelLabelRects.push_back(p.rect);
    }
    return out;
}

}  // namespace ridgeline::ui
