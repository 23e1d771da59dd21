#include "ui/plots/roofline/roofline_labels.h"

#include "core/model/units.h"
#include "core/session/decode_series.h"
#include "ui/plots/layout/label_layout.h"
#include "ui/plots/roofline/kernel_names.h"
#include "ui/plots/roofline/roof_labels.h"
#include "ui/plots/roofline/roof_legend.h"
#include "ui/plots/roofline/side_strip.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace ridgeline::ui {

namespace {

// A decode sweep labels every point; after the first ("decode int8 B=1"), "B=16" says all the "decode int8 B=16"
// would: the dot's colour and shape and the line through the sweep tell which sweep it is.
bool labelledByBatch(const KernelResult& kernel, bool firstOfKind)
{
    return isDecodeKind(kernel.kind) && kernel.batch > 0 && !firstOfKind;
}

QString kernelLabel(const KernelResult& kernel, bool firstOfKind)
{
    if (labelledByBatch(kernel, firstOfKind))
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
    QString owner{};  // the kernel it names; empty for an arrow's percentage
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
        // A sweep's later steps ("B=16") give way to kernels' names: they are the most and say the least.
        layout.labels.push_back(
            {centre, textSize(theme.kernelLabelFont, text), radius, labelledByBatch(k, i == 0) ? 0 : 1});
        labelTexts.push_back({text, theme.text, false, kernelMarkId(ref)});
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
            texts.push_back(
                {tag.level, box.topLeft(), 0.0, tag.color, tagFont, theme.background, false, kernelMarkId(tag.ref)});
            layout.obstacles.push_back(box);
            break;
        }
    }
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
            texts.push_back({line, box.topLeft(), 0.0, theme.mutedText, theme.kernelLabelFont, theme.background, true,
                             QString(), TextRole::Note});
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
        const std::vector<QLineF> own = roofPixelSegments(roof, view.mapping);
        segments.insert(segments.end(), own.begin(), own.end());
    }
    return segments;
}

// The roofs' labels and the roof legend together: the legend takes the corner it covers least of, the labels are
// placed again around it, and a roof that then finds no place joins the legend (a few rounds at most).
RoofLabelPlacer placeRoofText(const RooflineView& view, const ChartTheme& theme, const std::vector<QRectF>& markerBoxes,
                              const std::vector<QLineF>& segments, const std::vector<QRectF>& hints,
                              RooflineAnnotations& out)
{
    const QRectF inner = view.mapping.plot.adjusted(8, 8, -8, -8);
    const double row = QFontMetricsF(theme.kernelLabelFont).height();
    std::vector<QRectF> reserved;
    std::optional<LegendSpot> spot;
    for (int round = 0;; ++round) {
        std::vector<QRectF> taken = hints;  // hints and notes first: they must be read
        taken.insert(taken.end(), reserved.begin(), reserved.end());
        RoofLabelPlacer placer(view, theme, markerBoxes, std::move(taken));
        placer.placeRoofLabels();
        const std::vector<RoofLegendRow> rows =
            roofLegendClearOfDots(roofLegendRows(view, theme, placer.legendEntries()), theme, inner, markerBoxes);
        const QSizeF size = roofLegendSize(rows, theme);
        const bool fits = !reserved.empty() && reserved.front().width() >= size.width() - 0.5 &&
                          reserved.front().height() >= size.height() - 0.5;
        if (rows.empty() || fits || round == 3) {
            out.roofLabels = placer.labels();
            for (const RoofLegendRow& shown : rows)
                for (const std::size_t roof : shown.roofs)
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

// The longest leader from a kernel's name to its dot, as a share of the plot's diagonal.
constexpr double kLongestLeader = 0.2;

// How many kernel names the plot had no room for, in a free spot of it (else at its top left, boxed), wrapped to its
// width: a small chart of many kernels says what it leaves out and where to read it.
void noteCrowdedOut(int count, const ChartTheme& theme, const std::vector<QRectF>& markerBoxes,
                    const LabelLayoutInput& layout, RooflineAnnotations& out)
{
    const QString note =
        count == 1
            ? QCoreApplication::translate("RooflineChart", "1 kernel name had no room: point at its dot")
            : QCoreApplication::translate("RooflineChart", "%1 kernel names had no room: point at a dot").arg(count);
    const QFont& font = theme.kernelLabelFont;
    const QStringList lines = wrapText(note, font, layout.bounds.width() - 8.0);
    QSizeF size(0.0, 0.0);
    for (const QString& line : lines)
        size =
            QSizeF(std::max(size.width(), textSize(font, line).width()), size.height() + textSize(font, line).height());
    // Clear of every text and dot; else of every text (a dot under a boxed note beats text under text).
    std::vector<QRectF> texts = layout.obstacles;
    texts.insert(texts.end(), out.kernelLabelRects.begin(), out.kernelLabelRects.end());
    if (!out.roofLegend.isEmpty())
        texts.push_back(out.roofLegend);
    std::vector<QRectF> taken = texts;
    taken.insert(taken.end(), markerBoxes.begin(), markerBoxes.end());
    std::optional<QRectF> free = freeRow(layout.bounds, size, taken, {}, false);
    if (!free)
        free = freeRow(layout.bounds, size, texts, {}, false);
    const QRectF box = free.value_or(QRectF(layout.bounds.topLeft(), size));
    double top = box.top();
    for (const QString& line : lines) {
        out.texts.push_back({line, QPointF(box.left(), top), 0.0, theme.mutedText, font, theme.background, true,
                             QString(), TextRole::Note});
        top += textSize(font, line).height();
    }
    out.kernelLabelRects.push_back(box);
}

// The kernels' labels, level tags and percentages, around everything placed before them.
void placeKernelText(const RooflineView& view, const ChartTheme& theme, const RooflineDecorations& marks,
                     const std::vector<QRectF>& markerBoxes, LabelLayoutInput& layout, RooflineAnnotations& out)
{
    std::vector<LabelText> labelTexts;
    requestKernelLabels(view, theme, marks, layout, labelTexts);
    placeLevelTags(marks.levelTags, layout.bounds, markerBoxes, theme, layout, out.texts);
    // A kernel's name that found no place near its dot goes to the least covered spot of the plot with a leader
    // back to it (a crowded chart with a GPU's roofs beside a CPU's); only where even that spot would cover another
    // text or a dot (a small window) is it left out, and counted in a note. Arrow percentages may give way; a
    // label whose dot is off the plot has nothing to name.
    const std::vector<LabelPlacement> placements = placeEveryLabel(layout, markerBoxes, false, [&](std::size_t i) {
        return labelTexts[i].bold || !layout.bounds.contains(layout.labels[i].anchor);
    });
    int crowdedOut = 0;
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const LabelPlacement& p = placements[i];
        if (!p.placed)
            continue;
        // Over another text or a dot a name is read as neither, and a leader longer than this is followed back to
        // the wrong dot among many: such a name is counted in a note instead.
        const double longestLeader = kLongestLeader * std::hypot(layout.bounds.width(), layout.bounds.height());
        if (!labelTexts[i].bold && (p.crowded || (p.needsLeader && p.leader.length() > longestLeader))) {
            ++crowdedOut;
            continue;
        }
        if (p.needsLeader)
            out.over.push_back({p.leader, QPen(theme.mutedText, 1.5), LineRole::Leader, labelTexts[i].owner});
        // Percent changes are bold in their arrow's colour; kernel names in the text colour.
        QFont font = theme.kernelLabelFont;
        font.setBold(labelTexts[i].bold);
        out.texts.push_back({labelTexts[i].text, p.rect.topLeft(), 0.0, labelTexts[i].color, font, theme.background,
                             false, labelTexts[i].owner});
        out.kernelLabelRects.push_back(p.rect);
    }
    if (crowdedOut > 0)
        noteCrowdedOut(crowdedOut, theme, markerBoxes, layout, out);
}

// Every roof segment and sweep path with the id of its line: a text may lie only on the line it names.
std::vector<NamedSegment> namedSegments(const RooflineView& view, const RooflineDecorations& marks)
{
    std::vector<NamedSegment> out;
    for (std::size_t r = 0; r < view.plot->roofs.size(); ++r)
        for (const QLineF& segment : roofPixelSegments(view.plot->roofs[r], view.mapping))
            out.push_back({segment, roofMarkId(r)});
    for (const AnnotationLine& line : marks.under)
        if (line.role == LineRole::Path)
            out.push_back({line.line, line.id});
    return out;
}

// The rows on line styles first, then the compute roofs from the highest down, then the bandwidths: every
// machine's together, so that the strip reads as one ranking.
std::vector<RoofLegendRow> byValue(std::vector<RoofLegendRow> rows, const RooflineView& view)
{
    const std::vector<PlotRoof>& roofs = view.plot->roofs;
    auto key = [&](const RoofLegendRow& row) {
        if (row.roofs.empty())
            return std::pair(0, 0.0);
        const PlotRoof& roof = roofs[row.roofs.front()];
        const bool bandwidth = roof.kind == RoofKind::Bandwidth || roof.kind == RoofKind::DeviceBandwidth;
        return std::pair(bandwidth ? 2 : 1, -roof.value);
    };
    std::stable_sort(rows.begin(), rows.end(),
                     [&](const RoofLegendRow& a, const RoofLegendRow& b) { return key(a) < key(b); });
    return rows;
}

// The chart with its legend and notes in the strip beside the plot: only the binding roofs are named on their
// lines, the lower ones keyed in the strip; the kernels' text is placeKernelNames'.
RooflineAnnotations annotateBesideStrip(const RooflineView& view, const ChartTheme& theme)
{
    RooflineAnnotations out;
    const std::vector<QRectF> markerBoxes = kernelMarkerBoxes(view, theme);
    RooflineDecorations marks = decorateRoofline(view, theme);
    QStringList notes = view.plot->notes;
    if (!marks.arrowHint.isEmpty())
        notes.prepend(marks.arrowHint);
    RoofLabelPlacer roofs(view, theme, markerBoxes, {});
    roofs.placeRoofLabels();
    const std::vector<RoofLegendRow> rows = byValue(roofLegendRows(view, theme, roofs.legendEntries(), false), view);
    out.roofLabels = roofs.labels();
    roofs.placeRidges(out.under);
    out.texts = roofs.texts();
    out.under.insert(out.under.end(), marks.under.begin(), marks.under.end());
    out.over = marks.over;
    out.rings = marks.rings;
    out.drawnArrows = marks.drawnArrows;

    LabelLayoutInput layout;
    layout.bounds = view.mapping.plot.adjusted(4, 4, -4, -4);
    layout.obstacles = roofs.taken();
    layout.obstacles.insert(layout.obstacles.end(), markerBoxes.begin(), markerBoxes.end());
    layout.lines = roofSegments(view);
    layout.lines.insert(layout.lines.end(), marks.lines.begin(), marks.lines.end());
    layout.markerRadius = baseMarkerRadius(theme);
    layout.lineCost = 40.0;  // a text on a line it does not name is left out: look for a spot off the lines
    if (view.options.kernelLabels) {
        KernelText names;
        const int hidden = placeKernelNames(view, theme, marks, markerBoxes, namedSegments(view, marks), layout, names);
        out.texts.insert(out.texts.end(), names.texts.begin(), names.texts.end());
        out.over.insert(out.over.end(), names.leaders.begin(), names.leaders.end());
        out.kernelLabelRects = std::move(names.rects);
        if (hidden > 0 && view.options.allKernelNames)
            notes << QCoreApplication::translate(
                "RooflineChart", "%n kernel name(s) had no room: point at a dot to read one, or zoom in", nullptr,
                hidden);
        else if (hidden > 0)
            notes << QCoreApplication::translate("RooflineChart",
                                                 "%n kernel name(s) not shown: point at a dot, filter by name "
                                                 "(Ctrl+F) or name them all (Ctrl+Shift+N)",
                                                 nullptr, hidden);
    }
    const SideStrip strip = layOutSideStrip(view.strip, rows, notes, theme);
    out.stripTexts = strip.texts;
    out.stripLines = strip.lines;
    out.roofLegend = strip.legend;
    for (const std::size_t roof : strip.roofsShown)
        out.roofLabels.push_back({roof, {}, true});
    return out;
}

}  // namespace

RooflineAnnotations annotateRoofline(const RooflineView& view, const ChartTheme& theme)
{
    RooflineAnnotations out;
    const QRectF& plot = view.mapping.plot;
    if (plot.width() < 10 || plot.height() < 10 || !view.mapping.range.valid())
        return out;
    if (!view.strip.isEmpty())
        return annotateBesideStrip(view, theme);
    const std::vector<QRectF> markerBoxes = kernelMarkerBoxes(view, theme);
    const std::vector<QLineF> segments = roofSegments(view);

    RooflineDecorations marks = decorateRoofline(view, theme);
    std::vector<AnnotationText> hints;
    const std::vector<QRectF> hintBoxes = placeHints(view, theme, marks.arrowHint, hints);
    RoofLabelPlacer roofs = placeRoofText(view, theme, markerBoxes, segments, hintBoxes, out);
    roofs.placeRidges(out.under);
    out.texts.insert(out.texts.begin(), roofs.texts().begin(), roofs.texts().end());
    out.texts.insert(out.texts.end(), hints.begin(), hints.end());

    out.under.insert(out.under.end(), marks.under.begin(), marks.under.end());
    out.over = std::move(marks.over);
    out.rings = std::move(marks.rings);
    out.drawnArrows = marks.drawnArrows;

    LabelLayoutInput layout;
    layout.bounds = plot.adjusted(4, 4, -4, -4);
    layout.obstacles = roofs.taken();  // the hints' boxes among them
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
    if (view.options.kernelLabels && shownKernels <= kMaxKernelLabels)
        placeKernelText(view, theme, marks, markerBoxes, layout, out);
    // The roof legend last: over arrows and leaders (no label is placed on it).
    out.over.insert(out.over.end(), out.legendLines.begin(), out.legendLines.end());
    return out;
}

}  // namespace ridgeline::ui
