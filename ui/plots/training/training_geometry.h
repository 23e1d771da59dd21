#pragma once
// The Training tab's pictures in pixels, without widgets: where each part of a stacked bar goes, and the hierarchy
// view's nodes, GPUs, links and collective bars; plus the colours that tie the parts and the links together.

#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/training/training_view.h"

#include <QColor>
#include <QLineF>
#include <QRectF>

#include <vector>

namespace ridgeline::ui {

QColor trainingPartColor(TrainingPart part, const ChartTheme& theme);
// A collective inside a node, or one that crosses the network between nodes.
QColor trainingLinkColor(bool crossesNodes, const ChartTheme& theme);
// What does not fit: hatched past the capacity line.
QColor trainingOverColor(const ChartTheme& theme);
QColor trainingFitColor(const ChartTheme& theme);
// White or black, whichever reads better on `fill` (a name written inside a part).
QColor trainingLabelColor(const QColor& fill);

struct StackBarGeometry {
    std::vector<QRectF> parts;  // one per part, in the data's order; empty when the part is zero
    QRectF capacity;            // the card's outline (the whole bar when there is no capacity)
    bool hasCapacity = false;
    QRectF over;  // past the capacity, empty when everything fits
};

// The parts side by side from the bar's left, on one scale: the capacity or the parts' sum, whichever is larger.
StackBarGeometry layoutStackBar(const StackBarData& data, const QRectF& bar);

// At most this many nodes and GPUs per node are drawn; the rest is said in words.
inline constexpr int kShownNodes = 4;
inline constexpr int kShownGpusPerNode = 8;

struct HierarchyGeometry {
    std::vector<QRectF> nodes;              // shown nodes, top to bottom
    std::vector<std::vector<QRectF>> gpus;  // the GPUs drawn in each shown node
    std::vector<QLineF> insideLinks;        // each node's interconnect, under its GPUs
    std::vector<QLineF> acrossLinks;        // the network between consecutive nodes
    int hiddenNodes = 0;                    // nodes not drawn
    int hiddenGpusPerNode = 0;              // GPUs per node not drawn
    QRectF rows;                            // where the collectives are listed
    std::vector<QRectF> rowText;            // one line of words per collective: what, over which link
    std::vector<QRectF> rowBars;            // its time, on the step's scale
    std::vector<QPointF> rowNumbers;        // where its numbers start, right of its bar (a text baseline's left)
};

// The height the view needs: the taller of the machine (its nodes and the line saying how many are not drawn) and
// the links' legend with the collectives.
double hierarchyHeight(const HierarchyData& data, double lineHeight);

// `lineHeight`: one line of the chart's text. The machine on the left, the collectives on the right; a bar as long as
// the step is `barShare` of the collectives' width, and the numbers follow the bar's end.
HierarchyGeometry layoutHierarchy(const HierarchyData& data, const QRectF& area, double lineHeight,
                                  double barShare = 0.55);

}  // namespace ridgeline::ui
