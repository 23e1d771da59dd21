#pragma once
// The order the keyboard walks the roofline's dots in: the kernels drawn in full (not faded by the filter, not of a
// hidden kind) whose dots lie in the view, left to right by intensity, bottom to top by performance where two share
// an intensity, then by session and kernel so that dots on the same spot keep a fixed order. Only what is in view:
// a step never selects a dot the person cannot see.

#include "ui/plots/roofline/roofline_decorations.h"

#include <optional>
#include <vector>

namespace ridgeline::ui {

std::vector<KernelRef> kernelsInKeyOrder(const RooflineView& view);

// The kernel `step` kernels on from `from` in that order (+1 the next, -1 the previous). From no kernel, +1 gives the
// first and -1 the last; from one out of view, the nearest past where its dot would be. nullopt past either end.
std::optional<KernelRef> steppedKernel(const RooflineView& view, KernelRef from, int step);

}  // namespace ridgeline::ui
