#include "ui/plots/roofline/kernel_names.h"

#include "core/session/decode_series.h"
#include "ui/plots/roofline/kernel_presentation.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace ridgeline::ui {

namespace {

enum class TextKind { Step, Name, Series, Arrow };

struct Request {
    QString text;
    QString owner;  // the id of the dot or path it names; empty for an arrow's percentage
    QFont font;
    QColor color;
    TextKind kind = TextKind::Name;
};

QSizeF textSize(const QFont& font, const QString& text)
{
    const QFontMetricsF metrics(font);
    return {metrics.horizontalAdvance(text) + 2.0, metrics.height()};
}

// A measured kernel's size at the end of its name ("sgemm 4096", "bf16 gemm 512", "add 8192"); -1 without one.
qsizetype sizeStart(const KernelResult& k)
{
    if (isImported(k))
        return -1;
    const qsizetype space = k.name.lastIndexOf(u' ');
    if (space <= 0 || space + 1 >= k.name.size())
        return -1;
    for (qsizetype i = space + 1; i < k.name.size(); ++i)
        if (!k.name[i].isDigit())
            return -1;
    return space + 1;
}

// A kernel that is one step of a sweep: a decode step of some batch, a kernel of some size (gemm, add).
bool isSweepStep(const KernelResult& k)
{
    return (isDecodeKind(k.kind) && k.batch > 0) || (!isDecodeKind(k.kind) && sizeStart(k) > 0);
}

QString stepText(const KernelResult& k)
{
    return isDecodeKind(k.kind) ? QStringLiteral("B=%1").arg(k.batch) : k.name.mid(sizeStart(k));
}

// "decode fp32", "decode int8", "sgemm fp32", "bf16 gemm": what the sweep is, with its precision. The OpenBLAS
// batching sweep ("decode") is told from the precision experiment's fp32 one ("decode-fp32").
QString sweepName(const KernelResult& k)
{
    if (isDecodeKind(k.kind)) {
        const QString name = QStringLiteral("decode %1").arg(k.precision).trimmed();
        return k.kind == QLatin1String("decode") ? name + QStringLiteral(" (OpenBLAS)") : name;
    }
    const QString what = k.name.left(sizeStart(k)).trimmed();
    return k.precision.isEmpty() || what.contains(k.precision) ? what : QStringLiteral("%1 %2").arg(what, k.precision);
}

// A kernel's name, with the levels under its dot (their rings are not drawn).
QString kernelName(const RooflineView& view, const KernelResult& k, double markerRadius)
{
    QString text = k.name;
    if (k.levels.empty() || k.level.isEmpty())
        return text;
    const QPointF centre = view.mapping.toPixel(QPointF(k.intensity, k.gflops));
    QStringList here{k.level};
    for (const LevelPoint& level : k.levels)
        if (level.intensity > 0.0 &&
            std::abs(view.mapping.toPixel(QPointF(level.intensity, k.gflops)).x() - centre.x()) < 2.0 * markerRadius)
            here << level.level;
    return text + QStringLiteral(" (%1)").arg(here.join(QStringLiteral(", ")));
}

// How many names a plot of this size holds readably: one per 30,000 square pixels, 4 to 24.
int nameBudget(const RooflineView& view)
{
    if (view.options.allKernelNames)
        return std::numeric_limits<int>::max();
    const double area = view.mapping.plot.width() * view.mapping.plot.height();
    return std::clamp(static_cast<int>(area / 30000.0), 4, 24);
}

// The kernels that keep their names when not all can: the selected one, the extremes of each axis, then the largest
// by work (FLOPs), up to the budget.
std::set<std::pair<int, int>> keyKernels(const RooflineView& view, const std::vector<KernelRef>& names, int budget)
{
    std::set<std::pair<int, int>> key;
    auto add = [&](KernelRef ref) { key.insert({ref.session, ref.kernel}); };
    if (static_cast<int>(names.size()) <= budget) {
        for (const KernelRef ref : names)
            add(ref);
        return key;
    }
    for (const KernelRef ref : names)
        if (ref == view.selected)
            add(ref);
    auto extreme = [&](auto value, bool largest) {
        const auto it = std::max_element(names.begin(), names.end(), [&](KernelRef a, KernelRef b) {
            return largest ? value(view.kernel(a)) < value(view.kernel(b))
                           : value(view.kernel(a)) > value(view.kernel(b));
        });
        if (it != names.end())
            add(*it);
    };
    extreme([](const KernelResult& k) { return k.gflops; }, true);
    extreme([](const KernelResult& k) { return k.gflops; }, false);
    extreme([](const KernelResult& k) { return k.intensity; }, true);
    extreme([](const KernelResult& k) { return k.intensity; }, false);
    std::vector<KernelRef> byWork = names;
    std::stable_sort(byWork.begin(), byWork.end(),
                     [&](KernelRef a, KernelRef b) { return view.kernel(a).flops > view.kernel(b).flops; });
    for (const KernelRef ref : byWork) {
        if (static_cast<int>(key.size()) >= budget)
            break;
        add(ref);
    }
    return key;
}

// A step of a sweep is named by its step ("B=8", "2048") beside its dot; the selected one in full and first, as a
// kernel of its own, so that a click or a key always says which kernel it chose.
Request stepRequest(const RooflineView& view, KernelRef ref, const QFont& stepFont, const ChartTheme& theme)
{
    const KernelResult& k = view.kernel(ref);
    if (ref == view.selected)
        return {k.name, kernelMarkId(ref), theme.kernelLabelFont, theme.text, TextKind::Name};
    return {stepText(k), kernelMarkId(ref), stepFont, theme.mutedText, TextKind::Step};
}

bool crossesForeignLine(const QRectF& box, const QString& owner, const std::vector<NamedSegment>& lines)
{
    return std::any_of(lines.begin(), lines.end(), [&](const NamedSegment& s) {
        return (owner.isEmpty() || s.id != owner) && segmentIntersectsRect(s.line, box);
    });
}

bool leaderCrossesDot(const QLineF& leader, QPointF anchor, const std::vector<QRectF>& markerBoxes)
{
    return std::any_of(markerBoxes.begin(), markerBoxes.end(),
                       [&](const QRectF& box) { return !box.contains(anchor) && segmentIntersectsRect(leader, box); });
}

}  // namespace

int placeKernelNames(const RooflineView& view, const ChartTheme& theme, const RooflineDecorations& marks,
                     const std::vector<QRectF>& markerBoxes, const std::vector<NamedSegment>& lines,
                     LabelLayoutInput& layout, KernelText& out)
{
    const double markerRadius = baseMarkerRadius(theme);
    const bool overlay = view.sessions->size() > 1;
    std::vector<KernelRef> shown;
    view.forEachShownKernel([&](const KernelGroup&, std::size_t, KernelRef ref) {
        if (!(overlay && ref.session != 0) && !view.plot->beforeKernel(ref))
            shown.push_back(ref);
    });
    // Thousands of dots: placing even a few names among them costs a zoom step more than it tells.
    if (static_cast<int>(shown.size()) > kMaxKernelLabels)
        return static_cast<int>(shown.size());
    // Sweeps of two steps or more; every other kernel is named on its own.
    std::map<std::pair<int, QString>, std::vector<KernelRef>> sweeps;
    for (const KernelRef ref : shown)
        if (isSweepStep(view.kernel(ref)))
            sweeps[{ref.session, view.kernel(ref).kind}].push_back(ref);
    std::vector<KernelRef> names;
    for (const KernelRef ref : shown) {
        const auto sweep = sweeps.find({ref.session, view.kernel(ref).kind});
        if (!isSweepStep(view.kernel(ref)) || sweep == sweeps.end() || sweep->second.size() < 2)
            names.push_back(ref);
    }
    const std::set<std::pair<int, int>> key = keyKernels(view, names, nameBudget(view));
    int hidden = static_cast<int>(names.size() - key.size());

    QFont stepFont = theme.kernelLabelFont;
    stepFont.setPixelSize(std::max(9, static_cast<int>(std::lround(stepFont.pixelSize() * 0.78))));
    QFont seriesFont = theme.kernelLabelFont;
    seriesFont.setBold(true);
    std::vector<Request> requests;
    auto request = [&](QPointF anchor, double radius, Request r, int priority) {
        layout.labels.push_back({anchor, textSize(r.font, r.text), radius, priority});
        requests.push_back(std::move(r));
    };
    auto dot = [&](KernelRef ref) {
        const KernelResult& k = view.kernel(ref);
        return view.mapping.toPixel(QPointF(k.intensity, k.gflops));
    };
    auto radiusOf = [&](KernelRef ref) {
        return std::max(markerRadius, view.plot->markerSize(ref, theme.markerSize) / 2.0 + 1.0);
    };
    for (auto& [id, refs] : sweeps) {
        if (refs.size() < 2)
            continue;
        std::stable_sort(refs.begin(), refs.end(), [&](KernelRef a, KernelRef b) {
            const KernelResult& x = view.kernel(a);
            const KernelResult& y = view.kernel(b);
            return isDecodeKind(x.kind) ? x.batch < y.batch : x.flops < y.flops;
        });
        const KernelRef end = refs.back();
        const KernelResult& last = view.kernel(end);
        const QString owner = isDecodeKind(last.kind) ? pathMarkId(end.session, last.kind) : kernelMarkId(end);
        request(dot(end), radiusOf(end), {sweepName(last), owner, seriesFont, theme.text, TextKind::Series}, 3);
        for (const KernelRef ref : refs)
            request(dot(ref), radiusOf(ref), stepRequest(view, ref, stepFont, theme), ref == view.selected ? 4 : 0);
    }
    for (const KernelRef ref : names)
        if (key.count({ref.session, ref.kernel}))
            request(dot(ref), radiusOf(ref),
                    {kernelName(view, view.kernel(ref), markerRadius), kernelMarkId(ref), theme.kernelLabelFont,
                     theme.text, TextKind::Name},
                    ref == view.selected ? 4 : 2);
    QFont bold = theme.kernelLabelFont;
    bold.setBold(true);
    for (const ArrowLabel& label : marks.arrowLabels)
        request(label.anchor, 1.0, {label.text, QString(), bold, label.color, TextKind::Arrow}, 5);

    std::vector<LabelPlacement> placements = placeLabels(layout);
    // A kernel's name that found no place near its dot may sit further off with a short leader that crosses no other
    // dot; a sweep's name, a step or a percentage only beside its point (a sweep's name at the end of its path).
    std::vector<QRectF> taken = layout.obstacles;
    for (const LabelPlacement& p : placements)
        if (p.placed)
            taken.push_back(p.rect);
    const double longestLeader = 0.15 * std::hypot(layout.bounds.width(), layout.bounds.height());
    for (std::size_t i = 0; i < placements.size(); ++i) {
        const Request& r = requests[i];
        LabelPlacement& p = placements[i];
        const bool named = r.kind == TextKind::Name || r.kind == TextKind::Series;
        const bool mayLead = r.kind == TextKind::Name;
        if (!p.placed && mayLead && layout.bounds.contains(layout.labels[i].anchor)) {
            p = placeForced(layout.bounds, layout.labels[i], taken, {}, {}, markerRadius);
            if (p.placed && !p.crowded)
                taken.push_back(p.rect);
        }
        const bool ok = p.placed && !p.crowded && !crossesForeignLine(p.rect, r.owner, lines) &&
                        (!p.needsLeader || (mayLead && p.leader.length() <= longestLeader &&
                                            !leaderCrossesDot(p.leader, layout.labels[i].anchor, markerBoxes)));
        if (!ok) {
            hidden += named ? 1 : 0;
            continue;
        }
        if (p.needsLeader)
            out.leaders.push_back({p.leader, QPen(theme.mutedText, 1.2), LineRole::Leader, r.owner});
        out.texts.push_back({r.text, p.rect.topLeft(), 0.0, r.color, r.font, theme.background, false, r.owner});
        out.rects.push_back(p.rect);
    }
    return hidden;
}

}  // namespace ridgeline::ui
