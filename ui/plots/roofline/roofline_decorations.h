#pragma once
// The roofline chart's marks around its dots, in pixels for one plot mapping: error bars, the selection ring,
// a kernel's rings at other memory levels with their joining line, before/after arrows, and the stories the
// essay tells (the decode batch path, the unfused -> fused arrow). No text: roofline_labels.h places it.

#include "ui/plots/layout/annotation.h"
#include "ui/plots/roofline/roofline_plot.h"

#include <QLineF>
#include <QRectF>

#include <vector>

namespace ridgeline::ui {

struct RooflineView {
    const RooflinePlot* plot = nullptr;
    const std::vector<Session>* sessions = nullptr;
    const std::vector<NamedRoof>* extraRoofs = nullptr;
    PlotMapping mapping;
    ChartOptions options;
    std::vector<bool> groupShown;  // per plot group: its series visible (a legend click hides a kind)
    KernelRef selected;            // ringed; {-1, -1}: none
    // Beside the plot, in chart pixels: the roof legend and the notes go there, never over the data. Empty: both go
    // inside the plot, in its least crowded corner (a small chart on a page of its own).
    QRectF strip;

    bool shown(std::size_t group) const { return group < groupShown.size() && groupShown[group]; }
    // Every kernel dot drawn in full, in group and point order (a GPU kernel's markers at its other levels are not
    // the kernel's own dot).
    template <typename F>
    void forEachShownKernel(F&& f) const
    {
        for (std::size_t g = 0; g < plot->groups.size(); ++g) {
            const KernelGroup& group = plot->groups[g];
            if (group.dimmed || !group.primary || !shown(g))
                continue;
            for (std::size_t i = 0; i < group.refs.size(); ++i)
                f(group, i, group.refs[i]);
        }
    }
    const KernelResult& kernel(KernelRef ref) const
    {
        return (*sessions)[static_cast<std::size_t>(ref.session)].kernels[static_cast<std::size_t>(ref.kernel)];
    }
};

// A name tag for a kernel's ring at another memory level: it sits right over (or under) the ring or not at all.
struct LevelTag {
    QPointF at;
    QString level;
    QColor color;
    KernelRef ref{};  // the kernel whose ring it names
};

// The "+150 %" of a drawn before/after arrow, to be placed like a kernel label at the arrow's middle.
struct ArrowLabel {
    QPointF anchor;
    QString text;
    QColor color;
};

struct RooflineDecorations {
    std::vector<AnnotationLine> under;  // error bars, level joins, the decode path: under the dots
    std::vector<AnnotationLine> over;   // before/after and fusion arrows
    std::vector<AnnotationRing> rings;  // the selected kernel, rings at other levels
    std::vector<LevelTag> levelTags;
    std::vector<ArrowLabel> arrowLabels;
    std::vector<QLineF> lines;  // what labels should rather not cross: joins, arrows, the decode path
    QString arrowHint;          // set when there are too many before/after pairs to draw
    int drawnArrows = 0;
};

// The ids the layout report (ui/chart/chart_layout.h) gives what a label may name: a kernel's dot ("kernel:0:3"),
// a roof's line ("roof:2", its index in the plot), a sweep's path through its dots ("path:0:decode").
QString kernelMarkId(KernelRef ref);
QString roofMarkId(std::size_t roof);
QString pathMarkId(int session, const QString& kind);

// The radius every dot is at least treated as, for obstacles and arrow ends.
double baseMarkerRadius(const ChartTheme& theme);

// Every shown dot and its rings at other levels, as boxes that text must not cover.
std::vector<QRectF> kernelMarkerBoxes(const RooflineView& view, const ChartTheme& theme);

RooflineDecorations decorateRoofline(const RooflineView& view, const ChartTheme& theme);

}  // namespace ridgeline::ui
