#pragma once
// The roofs' own labels, for one plot mapping: compute ceilings on their flat line (ceilings within 10 % of each other
// share one label, shortened step by step until it fits), GPU roofs on theirs, bandwidth roofs along their diagonal on
// whichever side is free; the ridges of the primary roof and of every GPU as a dotted drop line with its intensity;
// iso-efficiency labels. No label covers a dot or other text or lies on a line of its own roof, and no diagonal's label
// is crossed by another roof. A roof in view that finds no place is reported, for the roof legend (roof_legend.h).

#include "ui/plots/layout/annotation.h"
#include "ui/plots/layout/rect_grid.h"
#include "ui/plots/roofline/roofline_decorations.h"

#include <QPolygonF>

#include <vector>

namespace ridgeline::ui {

// Where one roof is named: by a label on the chart (shared by ceilings that tie), or in the roof legend.
struct RoofLabel {
    std::size_t roof = 0;  // index into the plot's roofs
    QPolygonF box;         // the label's outline in chart pixels (rotated along a diagonal); empty in the legend
    bool inLegend = false;
};

// A roof (or ceilings that tie) without a place on the chart: a row of the roof legend.
struct RoofLegendEntry {
    std::vector<std::size_t> roofs;
    QString text;  // the label it would have had: "fp32 avx512 x1: 117 GFLOP/s  (≈ ...)"
    QPen pen;      // its line
};

// "fp32 avx512 x2 threads" -> "fp32 avx512 x2": a roof label has to fit beside the dots.
QString shortCeilingName(QString name);

// Whether any part of the roof's line is inside the plot under this mapping (a roof out of view needs no label).
bool roofInView(const PlotRoof& roof, const PlotMapping& mapping);

// Every segment of one roof's line, in pixels.
std::vector<QLineF> roofPixelSegments(const PlotRoof& roof, const PlotMapping& mapping);

class RoofLabelPlacer {
public:
    // `reserved`: boxes no label may take (the roof legend's place).
    RoofLabelPlacer(const RooflineView& view, const ChartTheme& theme, std::vector<QRectF> markerBoxes,
                    std::vector<QRectF> reserved);

    void placeRoofLabels();  // compute, GPU and bandwidth roofs, then the iso-efficiency lines
    void placeRidges(std::vector<AnnotationLine>& under);

    std::vector<AnnotationText>& texts() { return m_texts; }
    const std::vector<QRectF>& taken() const { return m_taken; }
    const std::vector<RoofLabel>& labels() const { return m_labels; }
    // Roofs in view (iso lines aside) that have no label on the chart.
    std::vector<std::size_t> unlabelled() const;
    // The same, as legend rows: ceilings that tie share one, an overlay's identical roofs too.
    std::vector<RoofLegendEntry> legendEntries() const;

private:
    QPointF px(double x, double y) const { return m_view.mapping.toPixel(QPointF(x, y)); }
    bool isFree(const QRectF& box) const;
    bool crossesAny(const QPolygonF& box, const std::vector<std::size_t>& roofs) const;
    // With the legend beside the plot, no roof label lies on another roof's line: those roofs are keyed there.
    bool outside() const { return !m_view.strip.isEmpty(); }
    bool crossesOthers(const QPolygonF& box, const std::vector<std::size_t>& own) const;
    bool hasText(const QString& text) const;
    bool placeFlatLabel(const QString& text, const std::vector<std::size_t>& roofs, double startIntensity,
                        const QColor& color);
    void placeComputeLabels();
    void placeExtraRoofLabels();
    bool placeDiagonalLabel(std::size_t roofIndex, const QString& text);
    void placeBandwidthLabels();
    void placeIsoLabels();
    void placeRidge(const RidgeMarker& ridge, const QColor& color, std::vector<AnnotationLine>& under);

    const RooflineView& m_view;
    const ChartTheme& m_theme;
    const QRectF m_inner;
    const RectGrid m_markers;                     // the kernel dots' boxes (every label keeps off them)
    std::vector<std::vector<QLineF>> m_segments;  // per roof, in pixels
    std::vector<AnnotationText> m_texts;
    std::vector<QRectF> m_taken;
    std::vector<RoofLabel> m_labels;
    std::vector<RoofLegendEntry> m_named;  // every roof's (or tie's) full label, in placing order
};

}  // namespace ridgeline::ui
