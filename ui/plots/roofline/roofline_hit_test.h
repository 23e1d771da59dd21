#pragma once
// What is under the mouse on the roofline chart, for one plot mapping: the kernel dot nearest the cursor, the roof
// line nearest it, and a readout of where the cursor is (intensity, performance, the roof above it). Distances are
// in pixels, not in data: a dot that sits on a roof line is as easy to hit as any other, whatever the zoom, and the
// dot wins over the line it sits on.

#include "ui/plots/roofline/roofline_decorations.h"

#include <QPointF>
#include <QString>

#include <optional>
#include <vector>

namespace ridgeline::ui {

// How far (px) from a dot's edge a click or a hover still counts as on the dot, and from a roof line as on the line.
inline constexpr double kHitSlack = 5.0;

struct KernelHit {
    KernelRef ref;
    double distance = 0.0;  // px from the dot's centre
};

// The shown kernel whose dot is nearest `pixel`, if the cursor is within its radius plus `slack`.
std::optional<KernelHit> kernelHitAt(const RooflineView& view, const ChartTheme& theme, QPointF pixel,
                                     double slack = kHitSlack);

// The roof line (index into view.plot->roofs) nearest `pixel` within `radius` px, iso-efficiency lines excluded;
// only roofs of `kind` when given.
std::optional<std::size_t> roofHitAt(const RooflineView& view, QPointF pixel, double radius = kHitSlack,
                                     std::optional<RoofKind> kind = std::nullopt);

struct PointerReadout {
    double intensity = 0.0;   // FLOP/byte under the cursor
    double gflops = 0.0;      // GFLOP/s under the cursor
    double roofGflops = 0.0;  // what the roof allows at that intensity; 0 when there is no roof
    QString roofName;         // the roof line under the cursor, else the primary roof's binding ceiling
    QString where;            // "0.20 FLOP/byte, 12 GFLOP/s"
    QString roof;             // "roof here 7.4 GFLOP/s (DRAM triad 37 GB/s)"; empty without a roof
    QString text() const;     // both, on one line
};

// The readout at `pixel`; nullopt outside the plot area.
std::optional<PointerReadout> pointerReadout(const RooflineView& view, QPointF pixel);

// The readout's lines on the chart: in the band above the plot, right-aligned with it, where they fit beside the
// title (`title`: its box); else boxed inside the plot, in the top corner away from the cursor.
std::vector<AnnotationText> placeReadout(const PointerReadout& readout, const QRectF& plot, const QRectF& title,
                                         QPointF cursor, const ChartTheme& theme);

}  // namespace ridgeline::ui
