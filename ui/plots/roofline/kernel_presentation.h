#pragma once
// How one kernel and one session are named and coloured wherever the roofline shows them: the filter, the dot's
// colour, the hover text, the session's label and the spread of its runs.

#include "core/session/session.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/roofline/roofline_plot_data.h"

#include <QColor>
#include <QString>

#include <utility>
#include <vector>

namespace ridgeline::ui {

// Whether the filter lets the kernel through: its short or full name contains the text (any case); empty: all.
bool matchesKernelFilter(const KernelResult& kernel, const QString& filter);

// A kernel's colour: its own (imported kernels, one each), else its kind's, or its session's in an overlay.
QColor kernelColorOf(const RooflinePlot& plot, const std::vector<Session>& sessions, const ChartTheme& theme,
                     KernelRef ref);

// The hover text of a kernel: name, numbers, bound; for imported kernels also the full name, file, level, time.
QString kernelTooltip(const Session& session, const KernelResult& kernel);

// The session's name for titles and legends: its title, else its CPU, else its host.
QString sessionLabel(const Session& session);

// A kernel's spread (seconds over repetitions) as GFLOP/s, slowest run to fastest, around the rate it is drawn at;
// {0, 0} without a spread.
std::pair<double, double> gflopsRange(const KernelResult& kernel);

bool isImported(const KernelResult& kernel);

}  // namespace ridgeline::ui
