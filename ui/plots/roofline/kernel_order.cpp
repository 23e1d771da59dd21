#include "ui/plots/roofline/kernel_order.h"

#include <algorithm>
#include <tuple>

namespace ridgeline::ui {
namespace {

struct PlacedKernel {
    QPointF at;  // intensity, GFLOP/s
    KernelRef ref;
};

bool before(const PlacedKernel& a, const PlacedKernel& b)
{
    return std::tuple(a.at.x(), a.at.y(), a.ref.session, a.ref.kernel) <
           std::tuple(b.at.x(), b.at.y(), b.ref.session, b.ref.kernel);
}

bool inView(const PlotRange& range, QPointF at)
{
    return at.x() >= range.xMin && at.x() <= range.xMax && at.y() >= range.yMin && at.y() <= range.yMax;
}

std::vector<PlacedKernel> placedInOrder(const RooflineView& view)
{
    std::vector<PlacedKernel> placed;
    if (!view.plot || !view.mapping.range.valid())
        return placed;
    view.forEachShownKernel([&](const KernelGroup& group, std::size_t i, KernelRef ref) {
        if (inView(view.mapping.range, group.points[i]))
            placed.push_back({group.points[i], ref});
    });
    std::sort(placed.begin(), placed.end(), before);
    return placed;
}

// Where `ref`'s own dot is drawn, shown or not (a kernel scrolled out of view still has its place in the order).
std::optional<PlacedKernel> placeOf(const RooflineView& view, KernelRef ref)
{
    for (const KernelGroup& group : view.plot->groups) {
        if (!group.primary)
            continue;
        for (std::size_t i = 0; i < group.refs.size(); ++i)
            if (group.refs[i] == ref)
                return PlacedKernel{group.points[i], ref};
    }
    return std::nullopt;
}

}  // namespace

std::vector<KernelRef> kernelsInKeyOrder(const RooflineView& view)
{
    std::vector<KernelRef> refs;
    for (const PlacedKernel& placed : placedInOrder(view))
        refs.push_back(placed.ref);
    return refs;
}

std::optional<KernelRef> steppedKernel(const RooflineView& view, KernelRef from, int step)
{
    const std::vector<PlacedKernel> placed = placedInOrder(view);
    if (placed.empty() || step == 0)
        return std::nullopt;
    const std::optional<PlacedKernel> start = from.kernel >= 0 ? placeOf(view, from) : std::nullopt;
    std::ptrdiff_t index = 0;
    if (!start) {
        index = step > 0 ? step - 1 : static_cast<std::ptrdiff_t>(placed.size()) + step;
    } else {
        // Kernels before the start's place, then (when it is in view) the start itself: keys are unique, so a
        // start in view is found exactly and steps from its own index, one out of view from the gap it falls in.
        const auto at = std::lower_bound(placed.begin(), placed.end(), *start, before);
        const bool listed = at != placed.end() && at->ref == from;
        const std::ptrdiff_t gap = at - placed.begin();
        index = step > 0 ? gap + step - (listed ? 0 : 1) : gap + step;
    }
    if (index < 0 || index >= static_cast<std::ptrdiff_t>(placed.size()))
        return std::nullopt;
    return placed[static_cast<std::size_t>(index)].ref;
}

}  // namespace ridgeline::ui
