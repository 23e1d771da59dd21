#include "ui/plots/roofline/roofline_decorations.h"

#include "core/model/units.h"
#include "core/session/decode_series.h"
#include "core/session/mixed_precision.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <optional>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RooflineChart", text);
}

// Two short strokes at the arrow's head.
void addArrowHead(const QLineF& arrow, const QPen& pen, std::vector<AnnotationLine>& lines)
{
    const QLineF back(arrow.p2(), arrow.p1());
    for (const double angle : {25.0, -25.0}) {
        QLineF head = back;
        head.setLength(12.0);
        head.setAngle(back.angle() + angle);
        lines.push_back({head, pen});
    }
}

// Error bar, selection ring and the rings at other memory levels of one shown kernel.
void decorateKernel(const RooflineView& view, const ChartTheme& theme, const KernelGroup& group, KernelRef ref,
                    RooflineDecorations& out)
{
    const double markerRadius = baseMarkerRadius(theme);
    const KernelResult& k = view.kernel(ref);
    const QPointF centre = view.mapping.toPixel(QPointF(k.intensity, k.gflops));
    const auto [low, high] = gflopsRange(k);
    // No spread (an imported kernel, one run): no bar, and no logarithm of zero asked of the mapping.
    if (view.options.errorBars && low > 0.0 && high > 0.0) {
        const QPointF bottom = view.mapping.toPixel(QPointF(k.intensity, low));
        const QPointF top = view.mapping.toPixel(QPointF(k.intensity, high));
        // A spread the marker already covers is not worth a bar.
        if (bottom.y() - top.y() > 3.0 * markerRadius) {
            QPen pen(group.color, 2.0);
            pen.setCapStyle(Qt::FlatCap);
            out.under.push_back({QLineF(bottom, top), pen});
            out.under.push_back({QLineF(bottom.x() - 5, bottom.y(), bottom.x() + 5, bottom.y()), pen});
            out.under.push_back({QLineF(top.x() - 5, top.y(), top.x() + 5, top.y()), pen});
        }
    }
    const double radius = std::max(markerRadius, view.plot->markerSize(ref, theme.markerSize) / 2.0 + 1.0);
    if (ref == view.selected)
        out.rings.push_back({centre, radius + 5.0, QPen(theme.highlight, 3.0)});
    if (k.levels.empty())
        return;
    // A kernel measured at several memory levels (hierarchical roofline): the same FLOP/s at each level's
    // intensity, joined by a thin line; the other levels as open rings tagged with their name, or, for a GPU kernel,
    // as markers of their level's shape (the legend names them).
    const bool levelMarkers = !group.level.isEmpty();
    const QColor own = kernelColorOf(*view.plot, *view.sessions, theme, ref);
    QColor joinColor = own;
    joinColor.setAlphaF(0.7f);
    double left = centre.x();
    double right = centre.x();
    for (const LevelPoint& level : k.levels) {
        if (level.intensity <= 0.0)
            continue;
        const QPointF at = view.mapping.toPixel(QPointF(level.intensity, k.gflops));
        // A level under the filled dot (streaming: every level moves the same bytes) is named in the kernel's
        // label instead: a ring and a tag there would only hide the dot.
        if (std::abs(at.x() - centre.x()) < 2.0 * markerRadius)
            continue;
        left = std::min(left, at.x());
        right = std::max(right, at.x());
        if (levelMarkers)
            continue;
        out.rings.push_back({at, markerRadius - 2.0, QPen(own, 2.5)});
        out.levelTags.push_back({at, level.level, own, ref});
    }
    const QLineF join(QPointF(left, centre.y()), QPointF(right, centre.y()));
    out.under.push_back({join, QPen(joinColor, 1.5)});
    out.lines.push_back(join);
}

// Before/after: an arrow from each kernel's earlier point to its later one, with the change in GFLOP/s. Past a
// few dozen pairs the arrows are a thicket: say so, and let the name filter bring them back.
void decorateChanges(const RooflineView& view, const ChartTheme& theme, RooflineDecorations& out)
{
    const std::vector<Session>& sessions = *view.sessions;
    std::vector<std::vector<bool>> shown(sessions.size());
    for (std::size_t si = 0; si < sessions.size(); ++si)
        shown[si].assign(sessions[si].kernels.size(), false);
    view.forEachShownKernel([&](const KernelGroup&, std::size_t, KernelRef r) {
        shown[static_cast<std::size_t>(r.session)][static_cast<std::size_t>(r.kernel)] = true;
    });
    auto drawnInFull = [&](int session, int kernel) {
        return shown[static_cast<std::size_t>(session)][static_cast<std::size_t>(kernel)];
    };
    int shownChanges = 0;
    for (int si = 0; si < static_cast<int>(sessions.size()); ++si)
        for (const KernelChange& change : view.plot->changes[static_cast<std::size_t>(si)])
            shownChanges += drawnInFull(si, change.before) && drawnInFull(si, change.after) ? 1 : 0;
    if (shownChanges > kMaxArrows) {
        out.arrowHint = tr("%1 before/after pairs: filter kernels by name to see their arrows").arg(shownChanges);
        return;
    }
    const QColor better = theme.kind == ThemeKind::Light ? QColor(0x00, 0x87, 0x62) : QColor(0x3d, 0xd6, 0xa3);
    const QColor worse = theme.kind == ThemeKind::Light ? QColor(0xc4, 0x4e, 0x00) : QColor(0xff, 0x8a, 0x3d);
    for (int si = 0; si < static_cast<int>(sessions.size()); ++si) {
        const Session& s = sessions[static_cast<std::size_t>(si)];
        for (const KernelChange& change : view.plot->changes[static_cast<std::size_t>(si)]) {
            if (!drawnInFull(si, change.before) || !drawnInFull(si, change.after))
                continue;
            const KernelResult& from = s.kernels[static_cast<std::size_t>(change.before)];
            const KernelResult& to = s.kernels[static_cast<std::size_t>(change.after)];
            QLineF arrow(view.mapping.toPixel(QPointF(from.intensity, from.gflops)),
                         view.mapping.toPixel(QPointF(to.intensity, to.gflops)));
            const double length = arrow.length();
            const double fromRadius = view.plot->markerSize({si, change.before}, theme.markerSize) / 2.0 + 3.0;
            const double toRadius = view.plot->markerSize({si, change.after}, theme.markerSize) / 2.0 + 4.0;
            if (length <= fromRadius + toRadius + 6.0)
                continue;  // the points (nearly) coincide: the label alone would hide them
            arrow = QLineF(arrow.pointAt(fromRadius / length), arrow.pointAt(1.0 - toRadius / length));
            QPen pen(change.percentGflops >= 0.0 ? better : worse, 2.5);
            pen.setCapStyle(Qt::RoundCap);
            out.over.push_back({arrow, pen});
            out.lines.push_back(arrow);
            addArrowHead(arrow, pen, out.over);
            out.arrowLabels.push_back({arrow.pointAt(0.5), formatPercentChange(change.percentGflops), pen.color()});
            ++out.drawnArrows;
        }
    }
}

// An arrow from one kernel's dot to another's (a story the essay tells: fused after unfused, bf16 after fp32), its
// ends kept off the dots; none when the dots (nearly) touch. Returns the arrow drawn.
std::optional<QLineF> addStoryArrow(const RooflineView& view, const ChartTheme& theme, const KernelResult& from,
                                    const KernelResult& to, const QColor& color, RooflineDecorations& out)
{
    const double markerRadius = baseMarkerRadius(theme);
    QLineF arrow(view.mapping.toPixel(QPointF(from.intensity, from.gflops)),
                 view.mapping.toPixel(QPointF(to.intensity, to.gflops)));
    const double length = arrow.length();
    if (length <= 4.0 * markerRadius)
        return std::nullopt;
    arrow = QLineF(arrow.pointAt(markerRadius * 1.6 / length), arrow.pointAt(1.0 - markerRadius * 1.8 / length));
    QPen pen(color, 2.5);
    pen.setCapStyle(Qt::RoundCap);
    out.over.push_back({arrow, pen});
    out.lines.push_back(arrow);
    addArrowHead(arrow, pen, out.over);
    return arrow;
}

// Stories the essay tells, drawn faintly under the dots: the batch sweep as one path (intensity rises with the
// batch), and an arrow from the unfused chain to the fused kernel.
void decorateStories(const RooflineView& view, const ChartTheme& theme, RooflineDecorations& out)
{
    const std::vector<Session>& sessions = *view.sessions;
    const bool overlay = sessions.size() > 1;
    for (int si = 0; si < static_cast<int>(sessions.size()); ++si) {
        const Session& s = sessions[static_cast<std::size_t>(si)];
        const KernelResult* unfused = nullptr;
        const KernelResult* fused = nullptr;
        for (const KernelResult& k : s.kernels) {
            if (k.kind == QLatin1String("fusion-unfused") && k.intensity > 0.0 && k.gflops > 0.0)
                unfused = &k;
            else if (k.kind == QLatin1String("fusion-fused") && k.intensity > 0.0 && k.gflops > 0.0)
                fused = &k;
        }
        // Each precision's batch sweep (decode, decode-bf16, decode-int8) as its own path.
        for (std::size_t g = 0; g < view.plot->groups.size(); ++g) {
            const KernelGroup& group = view.plot->groups[g];
            if (group.dimmed || group.session != si || !group.carriesLegend || !isDecodeKind(group.kind) ||
                !view.shown(g))
                continue;
            std::vector<const KernelResult*> decode;
            for (const KernelResult& k : s.kernels)
                if (k.kind == group.kind && k.batch > 0 && k.intensity > 0.0 && k.gflops > 0.0)
                    decode.push_back(&k);
            std::sort(decode.begin(), decode.end(),
                      [](const KernelResult* a, const KernelResult* b) { return a->batch < b->batch; });
            if (decode.size() < 2 || decode.size() > static_cast<std::size_t>(kMaxKernelLabels))
                continue;
            QColor color = overlay ? theme.sessionColor(si) : theme.kernelColor(group.kind);
            color.setAlphaF(0.55f);
            const QPen pen(color, 2.0, Qt::DashLine);
            for (std::size_t i = 1; i < decode.size(); ++i) {
                const QLineF segment(view.mapping.toPixel(QPointF(decode[i - 1]->intensity, decode[i - 1]->gflops)),
                                     view.mapping.toPixel(QPointF(decode[i]->intensity, decode[i]->gflops)));
                out.under.push_back({segment, pen, LineRole::Path, pathMarkId(si, group.kind)});
                out.lines.push_back(segment);
            }
        }
        if (unfused && fused)
            addStoryArrow(view, theme, *unfused, *fused, theme.kernelColor(QStringLiteral("fusion-fused")), out);
    }
}

// The source text's "mixed precision roughly doubles matrix multiply throughput", measured: an arrow from
// the largest sgemm to the bf16 product of the same n, labelled with the ratio. One arrow per session: every size's
// would cross each other at the top of the chart.
void decorateMixedPrecision(const RooflineView& view, const ChartTheme& theme, RooflineDecorations& out)
{
    const std::vector<Session>& sessions = *view.sessions;
    for (int si = 0; si < static_cast<int>(sessions.size()); ++si) {
        std::vector<bool> shownKinds(2, false);  // sgemm, bf16-gemm
        for (std::size_t g = 0; g < view.plot->groups.size(); ++g) {
            const KernelGroup& group = view.plot->groups[g];
            if (group.dimmed || group.session != si || !view.shown(g))
                continue;
            shownKinds[0] = shownKinds[0] || group.kind == QLatin1String("sgemm");
            shownKinds[1] = shownKinds[1] || group.kind == QLatin1String("bf16-gemm");
        }
        if (!shownKinds[0] || !shownKinds[1])
            continue;
        const std::vector<MixedPrecisionPair> pairs = mixedPrecisionPairs(sessions[static_cast<std::size_t>(si)]);
        const auto largest = std::max_element(
            pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.bf16->flops < b.bf16->flops; });
        if (largest == pairs.end() || largest->sgemm->intensity <= 0.0 || largest->bf16->intensity <= 0.0)
            continue;
        const QColor color = theme.kernelColor(QStringLiteral("bf16-gemm"));
        if (const std::optional<QLineF> arrow = addStoryArrow(view, theme, *largest->sgemm, *largest->bf16, color, out))
            out.arrowLabels.push_back({arrow->pointAt(0.5),
                                       QStringLiteral("bf16 \u00d7%1").arg(formatSignificant(largest->speedup(), 2)),
                                       color});
    }
}

}  // namespace

QString kernelMarkId(KernelRef ref)
{
    return QStringLiteral("kernel:%1:%2").arg(ref.session).arg(ref.kernel);
}

QString roofMarkId(std::size_t roof)
{
    return QStringLiteral("roof:%1").arg(roof);
}

QString pathMarkId(int session, const QString& kind)
{
    return QStringLiteral("path:%1:%2").arg(session).arg(kind);
}

double baseMarkerRadius(const ChartTheme& theme)
{
    return theme.markerSize / 2.0 + 1.0;
}

std::vector<QRectF> kernelMarkerBoxes(const RooflineView& view, const ChartTheme& theme)
{
    const double markerRadius = baseMarkerRadius(theme);
    std::vector<QRectF> boxes;
    view.forEachShownKernel([&](const KernelGroup& group, std::size_t i, KernelRef ref) {
        const QPointF c = view.mapping.toPixel(group.points[i]);
        const double r = std::max(markerRadius, view.plot->markerSize(ref, theme.markerSize) / 2.0 + 1.0);
        boxes.emplace_back(c.x() - r, c.y() - r, 2 * r, 2 * r);
        // The kernel's points at other memory levels (drawn as rings) are in the way too.
        const KernelResult& k = view.kernel(ref);
        for (const LevelPoint& level : k.levels) {
            if (level.intensity <= 0.0)
                continue;
            const QPointF at = view.mapping.toPixel(QPointF(level.intensity, k.gflops));
            boxes.emplace_back(at.x() - markerRadius, at.y() - markerRadius, 2 * markerRadius, 2 * markerRadius);
        }
    });
    return boxes;
}

RooflineDecorations decorateRoofline(const RooflineView& view, const ChartTheme& theme)
{
    RooflineDecorations out;
    view.forEachShownKernel(
        [&](const KernelGroup& group, std::size_t, KernelRef ref) { decorateKernel(view, theme, group, ref, out); });
    decorateChanges(view, theme, out);
    decorateStories(view, theme, out);
    decorateMixedPrecision(view, theme, out);
    return out;
}

}  // namespace ridgeline::ui
