#pragma once
// The layout report of a drawn roofline: where the plot, every text, dot, line, leader, legend and note are, in
// pixels of the rendered picture, read off what the chart draws (its series, its overlays), never recomputed.
// `ridgeline render --layout-json FILE` writes it; the layout test checks it for text over text or over dots.

#include <QByteArray>
#include <QPolygonF>
#include <QRectF>
#include <QString>
#include <QTransform>

#include <vector>

namespace ridgeline::ui {

struct LayoutText {
    QRectF rect;        // the bounding box (of the rotated text, for a label along a diagonal)
    QPolygonF outline;  // the text's own four corners; for an upright text, `rect`'s
    QString text;
    QString owner;  // the id of the marker or line it labels; empty: none (a note, a legend row)
};

struct LayoutMarker {
    QRectF rect;
    QString id;  // "kernel:SESSION:KERNEL"; "faded" for a dot the name filter fades out
};

struct LayoutPath {
    QString id;                   // "roof:I", "path:SESSION:KIND"; a leader's: its text's owner
    std::vector<QPointF> points;  // a polyline, cut to the plot
};

struct ChartLayout {
    QRectF plot;
    std::vector<LayoutText> texts;
    std::vector<LayoutMarker> markers;
    std::vector<LayoutPath> lines;
    std::vector<LayoutPath> leaders;
    std::vector<QRectF> legends;
    std::vector<QRectF> notes;

    // The same layout in another picture's pixels (a chart inside a slide, scaled).
    ChartLayout mapped(const QTransform& transform) const;
};

// The parts of a polyline inside `rect` (each a polyline of its own).
std::vector<std::vector<QPointF>> clipPolyline(const std::vector<QPointF>& points, const QRectF& rect);

// {"plot": R, "texts": [{"rect": R, "text", "owner"}], "markers": [{"rect": R, "id"}], "lines": [{"id",
// "points"}], "leaders": [{"owner", "points"}], "legends": [R], "notes": [R]}, R = [x, y, width, height]. A plot of
// null (a slide without a roofline) has empty lists.
QByteArray chartLayoutJson(const ChartLayout* layout);

}  // namespace ridgeline::ui
