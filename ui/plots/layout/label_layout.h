#pragma once
// Greedy placement of point labels that must not overlap each other, the markers or fixed obstacles.
// Each label tries positions around its point, nearest ring first; beyond the first ring it gets a leader
// line back to its point. Pure geometry, so it is tested without a chart.

#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSizeF>

#include <functional>
#include <optional>
#include <vector>

namespace ridgeline::ui {

struct LabelRequest {
    QPointF anchor;       // the point being labelled, in pixels
    QSizeF size;          // the label's text box
    double radius = 0.0;  // this marker's radius when it differs from markerRadius (dots sized by time)
    int priority = 0;     // higher goes first, whatever the crowding: a kernel's name before a sweep's "B=16"
};

struct LabelPlacement {
    bool placed = false;  // false when no free position was found: the label is not drawn
    QRectF rect;
    bool needsLeader = false;
    QLineF leader;         // from the marker's edge to the label box
    bool crowded = false;  // placeForced found no spot clear of its hard boxes: the text would cover another
};

struct LabelLayoutInput {
    std::vector<LabelRequest> labels;
    QRectF bounds;                  // labels stay inside
    std::vector<QRectF> obstacles;  // fixed boxes: other text, legend ...
    std::vector<QLineF> lines;      // lines a label should rather not cross (roofs)
    double markerRadius = 6.0;      // every anchor is also an obstacle of this radius
    int rings = 9;
    // The score of crossing `lines`: a line through a label counts 3 times this, a leader across one once; a ring
    // further out costs 2. Charts crossed by many lines (a roofline with a GPU's roofs beside a CPU's) lower it, so a
    // label crosses a line behind its halo rather than wandering far from its point.
    double lineCost = 8.0;
};

std::vector<LabelPlacement> placeLabels(const LabelLayoutInput& input);

// A label that must be drawn although placeLabels found it no place: the spot of a grid over `bounds` that covers
// the least (a `hard` box weighs a million times a `soft` one, such as a label that may give way; each of `lines`
// through the box a tenth of a hard box: struck through is worse than covering a label that gives way), the
// nearest to its point among equals, with a leader from the marker's edge (the label's radius, else
// `markerRadius`) to the nearest point of the box, never through the text.
LabelPlacement placeForced(const QRectF& bounds, const LabelRequest& label, const std::vector<QRectF>& hard,
                           const std::vector<QRectF>& soft, const std::vector<QLineF>& lines = {},
                           double markerRadius = 0.0);

// placeLabels, then every label it found no place for forced in (placeForced) clear of `keepClear`, the obstacles
// and the labels placed before it: none is dropped, but for those `mayGiveWay` names (left unplaced). With
// `avoidLines`, a forced label also keeps off the input's lines where the plot has room.
std::vector<LabelPlacement> placeEveryLabel(const LabelLayoutInput& input, const std::vector<QRectF>& keepClear,
                                            bool avoidLines,
                                            const std::function<bool(std::size_t)>& mayGiveWay = nullptr);

// A place of last resort for a label that found none near its point: the first row inside `bounds`, from
// the top, flush left, flush right or between, whose box meets none of `taken` (and, with avoidLines, crosses
// none of `lines`). Empty when there is no such row.
std::optional<QRectF> freeRow(const QRectF& bounds, QSizeF size, const std::vector<QRectF>& taken,
                              const std::vector<QLineF>& lines, bool avoidLines);

// A vertical line from `top` to `bottom` at `x`, broken where it would run through one of `boxes` (with `gap`
// pixels of air above and below each): a marker line passes behind a label instead of striking it through.
std::vector<QLineF> verticalLineAround(double x, double top, double bottom, const std::vector<QRectF>& boxes,
                                       double gap = 2.0);

// True when the segment crosses or touches the rectangle.
bool segmentIntersectsRect(const QLineF& segment, const QRectF& rect);

}  // namespace ridgeline::ui
