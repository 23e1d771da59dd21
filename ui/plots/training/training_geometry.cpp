#include "ui/plots/training/training_geometry.h"

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr double kRowBar = 14.0;
constexpr double kRowGap = 10.0;
constexpr double kNodeGap = 22.0;  // room for the network link between two nodes
constexpr double kGpuGap = 6.0;
constexpr double kGpuSide = 32.0;

double nodeHeight(double lineHeight)
{
    return lineHeight + 6.0 + kGpuSide + 18.0;  // label, GPUs, interconnect
}

// The line a collective's bar and its numbers share.
double barLine(double lineHeight)
{
    return std::max(kRowBar, lineHeight);
}

double finiteOrZero(double value)
{
    return std::isfinite(value) && value > 0 ? value : 0.0;
}

}  // namespace

QColor trainingPartColor(TrainingPart part, const ChartTheme& theme)
{
    // Weights and activations in the batching memory bar's colours (weights, KV cache), so the two tabs read alike.
    switch (part) {
        case TrainingPart::Weights:
            return theme.sessionColor(0);
        case TrainingPart::Gradients:
            return theme.sessionColor(4);
        case TrainingPart::Optimizer:
            return theme.sessionColor(2);
        case TrainingPart::Activations:
            return theme.sessionColor(3);
        case TrainingPart::Temporary:
            return theme.grid;
        case TrainingPart::Runtime:
            return theme.mutedText;
        case TrainingPart::Compute:
            return theme.kernelColor(QStringLiteral("sgemm"));
        case TrainingPart::Recompute:  // compute again: the compute colour, lighter
            return theme.kernelColor(QStringLiteral("sgemm")).lighter(theme.kind == ThemeKind::Light ? 145 : 70);
        case TrainingPart::Communication:
            return theme.sessionColor(1);
        case TrainingPart::Bubble:
            return theme.grid;
    }
    return theme.mutedText;
}

QColor trainingLinkColor(bool crossesNodes, const ChartTheme& theme)
{
    return crossesNodes ? theme.sessionColor(1) : theme.sessionColor(2);
}

QColor trainingOverColor(const ChartTheme& theme)
{
    return theme.kind == ThemeKind::Light ? QColor(0xc0, 0x10, 0x10) : QColor(0xff, 0x5c, 0x5c);
}

QColor trainingFitColor(const ChartTheme& theme)
{
    return theme.kind == ThemeKind::Light ? QColor(0x1e, 0x7a, 0x3c) : QColor(0x5c, 0xd6, 0x8a);
}

QColor trainingLabelColor(const QColor& fill)
{
    const QColor white(Qt::white), black(Qt::black);
    return contrastRatio(white, fill) >= contrastRatio(black, fill) ? white : black;
}

StackBarGeometry layoutStackBar(const StackBarData& data, const QRectF& bar)
{
    StackBarGeometry g;
    double total = 0;
    for (const StackPart& p : data.parts)
        total += finiteOrZero(p.value);
    const double capacity = finiteOrZero(data.capacity);
    const double scale = std::max({capacity, total, finiteOrZero(data.scale)});
    auto xOf = [&](double value) { return bar.left() + (scale > 0 ? value / scale : 0.0) * bar.width(); };
    double at = 0;
    for (const StackPart& p : data.parts) {
        const double value = finiteOrZero(p.value);
        g.parts.push_back(value > 0 ? QRectF(QPointF(xOf(at), bar.top()), QPointF(xOf(at + value), bar.bottom()))
                                    : QRectF());
        at += value;
    }
    g.hasCapacity = capacity > 0;
    g.capacity = g.hasCapacity ? QRectF(QPointF(bar.left(), bar.top()), QPointF(xOf(capacity), bar.bottom())) : bar;
    if (g.hasCapacity && total > capacity)
        g.over = QRectF(QPointF(xOf(capacity), bar.top()), QPointF(xOf(total), bar.bottom()));
    return g;
}

double hierarchyHeight(const HierarchyData& data, double lineHeight)
{
    const int shownNodes = std::clamp(data.nodes, 1, kShownNodes);
    const double machine = shownNodes * nodeHeight(lineHeight) + (shownNodes - 1) * kNodeGap + lineHeight;
    const double rows = 2.0 * lineHeight + kRowGap +
                        static_cast<double>(std::max<std::size_t>(1, data.rows.size())) *
                            (lineHeight + 2.0 + barLine(lineHeight) + kRowGap);
    return std::max(machine, rows);
}

HierarchyGeometry layoutHierarchy(const HierarchyData& data, const QRectF& area, double lineHeight, double barShare)
{
    HierarchyGeometry g;
    const int nodes = std::max(1, data.nodes);
    const int perNode = std::max(1, data.gpusPerNode);
    const int shownNodes = std::min(nodes, kShownNodes);
    const int shownGpus = std::min(perNode, kShownGpusPerNode);
    g.hiddenNodes = nodes - shownNodes;
    g.hiddenGpusPerNode = perNode - shownGpus;

    // The machine: a column of nodes, each a box with a row of GPUs over its interconnect.
    const double fitsGpus = 16.0 + shownGpus * kGpuSide + (shownGpus - 1) * kGpuGap;
    const double machineWidth = std::min(std::clamp(area.width() * 0.28, 200.0, 420.0), std::max(260.0, fitsGpus));
    const double gpuSide = std::min(kGpuSide, (machineWidth - 16.0 - (shownGpus - 1) * kGpuGap) / shownGpus);
    double y = area.top();
    for (int n = 0; n < shownNodes; ++n) {
        const QRectF node(area.left(), y, machineWidth, nodeHeight(lineHeight));
        g.nodes.push_back(node);
        std::vector<QRectF> gpus;
        const double gpuTop = node.top() + lineHeight + 6.0;
        for (int i = 0; i < shownGpus; ++i)
            gpus.emplace_back(node.left() + 8.0 + i * (gpuSide + kGpuGap), gpuTop, gpuSide, gpuSide);
        const double busY = gpuTop + gpuSide + 8.0;
        if (perNode > 1)
            g.insideLinks.emplace_back(gpus.front().center().x(), busY, gpus.back().center().x(), busY);
        g.gpus.push_back(std::move(gpus));
        if (n > 0)
            g.acrossLinks.emplace_back(node.left() + machineWidth / 2.0, g.nodes[n - 1].bottom(),
                                       node.left() + machineWidth / 2.0, node.top());
        y = node.bottom() + kNodeGap;
    }

    // The collectives: a line of words over a bar as long as the collective's share of the step.
    const double left = area.left() + machineWidth + 24.0;
    g.rows = QRectF(QPointF(left, area.top()), QPointF(area.right(), area.bottom()));
    double longest = finiteOrZero(data.stepSeconds);
    for (const CollectiveRow& row : data.rows)
        longest = std::max(longest, finiteOrZero(row.seconds));
    y = area.top() + 2.0 * lineHeight + kRowGap;  // under the two links' legend lines
    for (const CollectiveRow& row : data.rows) {
        g.rowText.emplace_back(left, y, g.rows.width(), lineHeight);
        const double share = longest > 0 ? finiteOrZero(row.seconds) / longest : 0.0;
        const double barTop = y + lineHeight + 2.0 + (barLine(lineHeight) - kRowBar) / 2.0;
        const QRectF bar(left, barTop, std::max(3.0, share * barShare * g.rows.width()), kRowBar);
        g.rowBars.push_back(bar);
        g.rowNumbers.emplace_back(bar.right() + 8.0, bar.center().y());
        y += lineHeight + 2.0 + barLine(lineHeight) + kRowGap;
    }
    return g;
}

}  // namespace ridgeline::ui
