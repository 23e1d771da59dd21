#pragma once
// What a talk scene puts on its roofline, without widgets: the session's kernels it names (or the two kinds of
// the first scene), the source text's intensity table as a session of its own, and the zoom it saved.

#include "core/scene/deck.h"
#include "core/scene/scene_facts.h"
#include "core/session/session.h"
#include "ui/plots/layout/log_scale.h"

#include <vector>

namespace ridgeline::ui {

// The session's kernels named by the scene; the fusion pair also by kind, as older sessions name it differently.
std::vector<KernelResult> highlightedKernels(const Scene& scene, const Session& session);
// The two kinds of the first scene: matrix multiplications (compute-bound) and adds (memory-bound).
std::vector<KernelResult> twoKindsKernels(const Session& session);
// The intensity table (intensityTableFor) as a session: the GPU is the machine, each row a kernel at what its
// roof allows, labelled with its intensity so the table is on the slide.
Session intensityTableSession(const IntensityTable& table);
// The zoom a scene saved; an axis it does not give is left invalid (the chart keeps its default there).
PlotRange sceneRange(const Scene& scene);

}  // namespace ridgeline::ui
