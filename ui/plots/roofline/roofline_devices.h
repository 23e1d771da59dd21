#pragma once
// GPU kernels on their GPU's roofline, the part of the roofline plot data (roofline_plot.h) that is not
// the session's own machine: per session, the catalog GPUs its GPU kernels ran on (KernelResult::device), each
// drawn as its own roofs (the compute ceilings some kernel of it is held to, by core/session/session_roof.h
// kernelRoof, and one bandwidth roof per memory level the catalog has: DRAM, L2, L1), and the GPU kernels as one
// marker per memory level whose shape says the level (DRAM ●, L2 ■, L1 ▲), named in the legend. Widget-free.

#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/roofline/roofline_plot_data.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace ridgeline::ui {

// "NVIDIA A100 40GB SXM4" -> "A100 40GB SXM4": a roof label has to fit beside the dots.
QString shortGpuName(QString name);

// The marker of a memory level: DRAM (and any other) a circle, L2 a square, L1 a triangle.
MarkerShape levelMarkerShape(const QString& level);

// Intensities (ridges) and GFLOP/s (peaks) of the GPU roofs a session's kernels bring, for the default range.
void addDeviceExtents(const Session& session, std::vector<double>& xs, std::vector<double>& ys);

// The roofs of every catalog GPU session `index`'s kernels ran on. `mixed`: the chart also shows another machine
// (the session's own ceilings, or a second GPU), so each GPU's roofs take a colour of their own and the levels
// differ by line style; otherwise they look like a measured roofline (level colours).
void addDeviceRoofs(const Session& session, int index, bool mixed, double xLow, double xHigh, const ChartTheme& theme,
                    RooflinePlot& plot);

// Whether a kernel is drawn as GPU level markers (and so left out of its kind's group).
bool drawnAsGpuKernel(const KernelResult& kernel);

// The GPU kernels of session `index` that pass the filter, one group per memory level (their own points first,
// then their other levels, not primary). Colours per kernel come from kernelColorOf.
void addGpuKernelGroups(const RooflineInput& in, int index, const ChartTheme& theme, RooflinePlot& plot);

// What the chart must say about its machines: several on one chart (each kernel is held to its own machine's roof),
// GPU kernels that have no roof, and the kernels of a session without ceilings (likwid's of a CPU the table of known
// CPUs lacks), alone or beside others. The one home of these notes: the window's chart and `ridgeline render` both
// draw them from here (buildRooflinePlot). Empty when there is nothing to say.
QStringList deviceNotes(const std::vector<Session>& sessions);

// Whether a session's roofs and kernels come from more than one machine (its own ceilings and a GPU, or two GPUs).
bool mixesMachines(const Session& session);

// The roof a ridge marker stands for when the session has no ceilings of its own and its GPU kernels ran on one
// catalog GPU: that GPU's best floating-point peak over its DRAM. nullopt otherwise.
std::optional<Roof> soleDeviceRoof(const Session& session);

}  // namespace ridgeline::ui
