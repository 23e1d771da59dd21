#include "ui/models/roofline_labels.h"

#include "core/model/units.h"
#include "ui/models/label_layout.h"
#include "ui/models/roof_labels.h"
#include "ui/models/roof_legend.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

namespace {

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

// Every roof segment in pixels (not the iso lines): labels avoid crossing them.
std::vector<QLineF> roofSegments(const RooflineView& view)
{
    std::vector<QLineF> segments;
    for (const PlotRoof& roof : view.plot->roofs) {
        if (roof.kind == RoofKind::Iso)
            continue;
        const std::vector<QLineF> own = roofPixelSegments(roof, view.mapping);
        segments.insert(segments.end(), own.begin(), own.end());
    }
    return segments;
}

// The roofs' labels and the roof legend together: the legend takes the corner it covers least of, the labels are
// placed again around it, and a roof that then finds no place joins the legend (a few rounds at most).
RoofLabelPlacer placeRoofText(const RooflineView& view, const ChartTheme& theme, const std::vector<QRectF>& markerBoxes,
                              const std::vector<QLineF>& segments, RooflineAnnotations& out)
{
    const QRectF inner = view.mapping.plot.adjusted(8, 8, -8, -8);
    const double row = QFontMetricsF(theme.kernelLabelFont).height();
    std::vector<QRectF> reserved;
    std::optional<LegendSpot> spot;
    for (int round = 0;; ++round) {
        RoofLabelPlacer placer(view, theme, markerBoxes, reserved);
        placer.placeRoofLabels();
        const std::vector<RoofLegendEntry> entries = placer.legendEntries();
        const std::vector<RoofLegendRow> rows = roofLegendRows(view, theme, entries);
        const QSizeF size = roofLegendSize(rows, theme);
        const bool fits = !reserved.empty() && reserved.front().width() >= size.width() - 0.5 &&
                          reserved.front().height() >= size.height() - 0.5;
        if (rows.empty() || fits || round == 3) {
            out.roofLabels = placer.labels();
            for (const RoofLegendEntry& entry : entries)
                for (const std::size_t roof : entry.roofs)
                    out.roofLabels.push_back({roof, {}, true});
            if (!rows.empty()) {
                out.roofLegend = spot ? anchoredAt(*spot, size, inner) : QRectF();
                drawRoofLegend(rows, out.roofLegend, theme, out.legendLines, out.texts);
            }
            return placer;
        }
        // Room for the legend as it is now and two more rows, in its best corner.
        spot = placeRoofLegend(size, inner, markerBoxes, placer.taken(), segments);
        reserved = {anchoredAt(*spot, QSizeF(size.width(), size.height() + 2.0 * row), inner)};
    }
}

// The kernels' labels, level tags and percentages, around everything placed before them.
void placeKernelText(const RooflineView& view, const ChartTheme& theme, const RooflineDecorations& marks,
                     const std::vector<QRectF>& markerBoxes, LabelLayoutInput& layout, RooflineAnnotations& out)
{
    std::vector<LabelText> labelTexts;
    requestKernelLabels(view, theme, marks, layout, labelTexts);
    placeLevelTags(marks.levelTags, layout.bounds, markerBoxes, theme, layout, out.texts);
    const std::vector<LabelPlacement> placements = placeLabels(layout);
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

    RoofLabelPlacer roofs = placeRoofText(view, theme, markerBoxes, segments, out);
    roofs.placeRidges(out.under);
    out.texts.insert(out.texts.begin(), roofs.texts().begin(), roofs.texts().end());

    RooflineDecorations marks = decorateRoofline(view, theme);
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
    if (!marks.arrowHint.isEmpty()) {
        const QRectF box(QPointF(layout.bounds.left() + 8.0, layout.bounds.top() + 4.0),
                         textSize(theme.kernelLabelFont, marks.arrowHint));
        out.texts.push_back(
            {marks.arrowHint, box.topLeft(), 0.0, theme.mutedText, theme.kernelLabelFont, theme.background, true});
        layout.obstacles.push_back(box);
    }
    int shownKernels = 0;
    view.forEachShownKernel([&](const KernelGroup&, std::size_t, KernelRef) { ++shownKernels; });
    if (view.options.kernelLabels && shownKernels <= kMaxKernelLabels)
        placeKernelText(view, theme, marks, markerBoxes, layout, out);
    // The roof legend last: over arrows and leaders (no label is placed on it).
    out.over.insert(out.over.end(), out.legendLines.begin(), out.legendLines.end());
    return out;
}

}  // namespace ridgeline::ui
