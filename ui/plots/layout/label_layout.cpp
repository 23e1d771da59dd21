#include "ui/plots/layout/label_layout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

namespace {

constexpr double kSideGap = 6.0;         // pixels kept free left and right of a label
constexpr double kMisleadingCost = 3.0;  // a first-ring spot nearer another point: 1.5 rings further out

// Where a box of `size` sits when pushed `distance` away from `anchor` in direction (dx, dy).
QRectF candidateRect(QPointF anchor, QSizeF size, double distance, int dx, int dy)
{
    const double w = size.width();
    const double h = size.height();
    const double diag = distance * 0.75;
    double left = 0.0;
    double top = 0.0;
    if (dx > 0)
        left = anchor.x() + (dy == 0 ? distance : diag);
    else if (dx < 0)
        left = anchor.x() - (dy == 0 ? distance : diag) - w;
    else
        left = anchor.x() - w / 2.0;
    if (dy > 0)
        top = anchor.y() + (dx == 0 ? distance : diag);
    else if (dy < 0)
        top = anchor.y() - (dx == 0 ? distance : diag) - h;
    else
        top = anchor.y() - h / 2.0;
    return {left, top, w, h};
}

QPointF nearestPointOnRect(const QRectF& rect, QPointF p)
{
    return {std::clamp(p.x(), rect.left(), rect.right()), std::clamp(p.y(), rect.top(), rect.bottom())};
}

// The leader from a marker of radius r at `anchor` to the nearest point of `rect`, starting at the marker's edge.
QLineF leaderTo(const QRectF& rect, QPointF anchor, double r)
{
    QLineF leader(anchor, nearestPointOnRect(rect, anchor));
    const double length = leader.length();
    if (length > r)
        leader.setP1(leader.pointAt(r / length));
    return leader;
}

}  // namespace

bool segmentIntersectsRect(const QLineF& segment, const QRectF& rect)
{
    // Liang-Barsky clipping: the segment meets the rectangle when a non-empty part survives. Most segments a label
    // is tested against lie wholly to one side of it, which their bounding box says first.
    const double x0 = segment.x1();
    const double y0 = segment.y1();
    const double dx = segment.dx();
    const double dy = segment.dy();
    if (std::max(x0, x0 + dx) < rect.left() || std::min(x0, x0 + dx) > rect.right() ||
        std::max(y0, y0 + dy) < rect.top() || std::min(y0, y0 + dy) > rect.bottom())
        return false;
    double t0 = 0.0;
    double t1 = 1.0;
    const std::array<double, 4> p = {-dx, dx, -dy, dy};
    const std::array<double, 4> q = {x0 - rect.left(), rect.right() - x0, y0 - rect.top(), rect.bottom() - y0};
    for (std::size_t i = 0; i < 4; ++i) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0)
                return false;
            continue;
        }
        const double r = q[i] / p[i];
        if (p[i] < 0.0)
            t0 = std::max(t0, r);
        else
            t1 = std::min(t1, r);
        if (t0 > t1)
            return false;
    }
    return true;
}

namespace {

// Right, left, above, below first (they read best), then the diagonals.
constexpr std::array<std::array<int, 2>, 8> kDirections = {
    {{1, 0}, {-1, 0}, {1, -1}, {1, 1}, {-1, -1}, {-1, 1}, {0, -1}, {0, 1}}};

struct Spot {
    double score = std::numeric_limits<double>::max();
    QRectF rect;
    int ring = 0;
    bool found() const { return score != std::numeric_limits<double>::max(); }
};

// The best free place for one label: rings around its point, nearest first; `taken` holds the obstacles, every
// marker (its own at ownMarker) and the labels placed so far.
Spot bestSpot(const LabelLayoutInput& input, const LabelRequest& label, double r, const std::vector<QRectF>& taken,
              const QRectF& ownMarker, const std::vector<QLineF>& leaders)
{
    // Every candidate box and its leader lie within reach of the point: lines wholly outside that area can meet
    // neither, and a chart's curves are hundreds of segments of which a label sees a few.
    const double farthest = r + 3.0 + (input.rings - 1) * (label.size.height() * 1.1 + 2.0);
    const QRectF reach(label.anchor.x() - farthest - label.size.width() - 1.0,
                       label.anchor.y() - farthest - label.size.height() - 1.0,
                       2.0 * (farthest + label.size.width() + 1.0), 2.0 * (farthest + label.size.height() + 1.0));
    std::vector<QLineF> lines;
    for (const QLineF& line : input.lines)
        if (std::max(line.x1(), line.x2()) >= reach.left() && std::min(line.x1(), line.x2()) <= reach.right() &&
            std::max(line.y1(), line.y2()) >= reach.top() && std::min(line.y1(), line.y2()) <= reach.bottom())
            lines.push_back(line);
    Spot best;
    for (int ring = 0; ring < input.rings; ++ring) {
        const double distance = r + 3.0 + ring * (label.size.height() * 1.1 + 2.0);
        for (std::size_t d = 0; d < kDirections.size(); ++d) {
            const QRectF rect = candidateRect(label.anchor, label.size, distance, kDirections[d][0], kDirections[d][1]);
            if (!input.bounds.contains(rect))
                continue;
            // Air to the side of everything but its own point: two labels end to end read as one
            // ("sgemm 512 sgemm 1024").
            const QRectF padded = rect.adjusted(-kSideGap, -1, kSideGap, 1);
            const bool blocked = ownMarker.intersects(rect.adjusted(-2, -1, 2, 1)) ||
                                 std::any_of(taken.begin(), taken.end(), [&](const QRectF& other) {
                                     return &other != &ownMarker && other.intersects(padded);
                                 });
            if (blocked)
                continue;
            // Text on a roof is the worst outcome: any clean spot within reach beats it.
            int crossings = 0;
            for (const QLineF& line : lines)
                crossings += segmentIntersectsRect(line, rect) ? 3 : 0;
            if (ring > 0) {
                // A leader must never run through another label or marker.
                const QLineF leader = leaderTo(rect, label.anchor, r);
                const bool cutsSomething = std::any_of(taken.begin(), taken.end(), [&](const QRectF& other) {
                    return !other.contains(label.anchor) && segmentIntersectsRect(leader, other.adjusted(1, 1, -1, -1));
                });
                if (cutsSomething)
                    continue;
                // Nor a roof, nor another leader: crossed leaders are the hardest thing on a slide to read.
                for (const QLineF& line : lines)
                    crossings += leader.intersects(line, nullptr) == QLineF::BoundedIntersection ? 1 : 0;
                for (const QLineF& other : leaders)
                    crossings += leader.intersects(other, nullptr) == QLineF::BoundedIntersection ? 2 : 0;
            }
            // Without a leader, a label nearer another point than its own reads as that point's: worse than a ring
            // further out, whose leader says whose it is.
            const double own = QLineF(label.anchor, nearestPointOnRect(rect, label.anchor)).length();
            const bool misleads =
                ring == 0 && std::any_of(input.labels.begin(), input.labels.end(), [&](const LabelRequest& other) {
                    return &other != &label &&
                           QLineF(other.anchor, nearestPointOnRect(rect, other.anchor)).length() < own;
                });
            const double score = crossings * input.lineCost + ring * 2.0 + (misleads ? kMisleadingCost : 0.0) +
                                 static_cast<double>(d) * 0.05;
            if (score < best.score)
                best = {score, rect, ring};
        }
        if (best.score < 1.0)  // a crossing-free spot in this ring: nothing further out can beat it
            break;
    }
    return best;
}

// The labels' indices, higher priority first, in their own order among equals.
std::vector<std::size_t> byPriority(const std::vector<LabelRequest>& labels)
{
    std::vector<std::size_t> order(labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return labels[a].priority > labels[b].priority; });
    return order;
}

// Higher priority first, then most crowded first: a label with many neighbours has few places to go, an isolated
// one has many.
std::vector<std::size_t> crowdedFirst(const std::vector<LabelRequest>& labels)
{
    std::vector<std::size_t> order(labels.size());
    std::vector<int> neighbours(labels.size(), 0);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        order[i] = i;
        for (std::size_t j = 0; j < labels.size(); ++j) {
            const QPointF d = labels[i].anchor - labels[j].anchor;
            if (i != j && std::abs(d.x()) < 120.0 && std::abs(d.y()) < 40.0)
                ++neighbours[i];
        }
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (labels[a].priority != labels[b].priority)
            return labels[a].priority > labels[b].priority;
        return neighbours[a] > neighbours[b];
    });
    return order;
}

// A box of `size` where `place` was: centred on it, or flush with its left or right edge, at its height.
QRectF inPlaceOf(const QRectF& place, QSizeF size, Qt::Alignment align)
{
    QRectF rect(QPointF(), size);
    rect.moveCenter(place.center());
    if (align == Qt::AlignLeft)
        rect.moveLeft(place.left());
    else if (align == Qt::AlignRight)
        rect.moveRight(place.right());
    return rect;
}

bool crosses(const QLineF& a, const QLineF& b)
{
    return a.intersects(b, nullptr) == QLineF::BoundedIntersection;
}

// Greedy placement can leave two leaders crossed: the first label took the spot the second's leader had to pass.
// Swapping the two labels' places (each centred where the other was, or flush with its left or right edge)
// uncrosses them; it is kept when both boxes
// stay inside, clear of every other box and marker and of each other, and strike no more lines than before.
void uncrossLeaders(const LabelLayoutInput& input, const std::vector<double>& radii,
                    std::vector<LabelPlacement>& result)
{
    const auto linesThrough = [&](const QRectF& rect) {
        return std::count_if(input.lines.begin(), input.lines.end(),
                             [&](const QLineF& line) { return segmentIntersectsRect(line, rect); });
    };
    const auto isClear = [&](const QRectF& rect, std::size_t i, std::size_t j) {
        const QRectF padded = rect.adjusted(-kSideGap, -1, kSideGap, 1);
        if (!input.bounds.contains(rect))
            return false;
        for (const QRectF& o : input.obstacles)
            if (o.intersects(padded))
                return false;
        for (std::size_t k = 0; k < result.size(); ++k) {
            const double r = radii[k];
            const QPointF a = input.labels[k].anchor;
            if (QRectF(a.x() - r, a.y() - r, 2 * r, 2 * r).intersects(k == i ? rect.adjusted(-2, -1, 2, 1) : padded))
                return false;
            if (k != i && k != j && result[k].placed && result[k].rect.intersects(padded))
                return false;
        }
        return true;
    };
    for (std::size_t i = 0; i < result.size(); ++i)
        for (std::size_t j = i + 1; j < result.size(); ++j) {
            LabelPlacement& a = result[i];
            LabelPlacement& b = result[j];
            if (!a.placed || !b.placed || !a.needsLeader || !b.needsLeader || !crosses(a.leader, b.leader))
                continue;
            const auto before = linesThrough(a.rect) + linesThrough(b.rect);
            for (const Qt::Alignment align : {Qt::AlignHCenter, Qt::AlignLeft, Qt::AlignRight}) {
                const QRectF ra = inPlaceOf(b.rect, input.labels[i].size, align);
                const QRectF rb = inPlaceOf(a.rect, input.labels[j].size, align);
                const QLineF la = leaderTo(ra, input.labels[i].anchor, radii[i]);
                const QLineF lb = leaderTo(rb, input.labels[j].anchor, radii[j]);
                if (crosses(la, lb) || ra.intersects(rb.adjusted(-kSideGap, -1, kSideGap, 1)) || !isClear(ra, i, j) ||
                    !isClear(rb, j, i) || linesThrough(ra) + linesThrough(rb) > before)
                    continue;
                a = {true, ra, la.length() > 1.0, la};
                b = {true, rb, lb.length() > 1.0, lb};
                break;
            }
        }
}

}  // namespace

std::vector<LabelPlacement> placeLabels(const LabelLayoutInput& input)
{
    std::vector<QRectF> taken = input.obstacles;
    auto radiusOf = [&](const LabelRequest& label) { return label.radius > 0.0 ? label.radius : input.markerRadius; };
    for (const LabelRequest& label : input.labels) {
        const double r = radiusOf(label);
        taken.emplace_back(label.anchor.x() - r, label.anchor.y() - r, 2 * r, 2 * r);
    }
    // Room for the placed labels up front: `taken` must not move while a spot is searched (its own marker is
    // found by address).
    taken.reserve(taken.size() + input.labels.size());

    std::vector<LabelPlacement> result(input.labels.size());
    std::vector<QLineF> leaders;
    for (const std::size_t i : crowdedFirst(input.labels)) {
        const LabelRequest& label = input.labels[i];
        if (!input.bounds.contains(label.anchor))
            continue;
        const double r = radiusOf(label);
        const Spot spot = bestSpot(input, label, r, taken, taken[input.obstacles.size() + i], leaders);
        if (!spot.found())
            continue;
        LabelPlacement& placement = result[i];
        placement.placed = true;
        placement.rect = spot.rect;
        placement.needsLeader = spot.ring > 0;
        if (placement.needsLeader) {
            placement.leader = leaderTo(spot.rect, label.anchor, r);
            leaders.push_back(placement.leader);
        }
        taken.push_back(spot.rect);
    }
    std::vector<double> radii;
    for (const LabelRequest& label : input.labels)
        radii.push_back(radiusOf(label));
    uncrossLeaders(input, radii, result);
    return result;
}

LabelPlacement placeForced(const QRectF& bounds, const LabelRequest& label, const std::vector<QRectF>& hard,
                           const std::vector<QRectF>& soft, const std::vector<QLineF>& lines, double markerRadius)
{
    constexpr int kGrid = 24;  // fine enough to find a gap between batch marks
    constexpr double kHard = 1e6;
    constexpr double kLine = kHard / 10.0;
    const QSizeF size = label.size;
    QRectF chosen(bounds.topLeft(), size);
    double bestOverlap = std::numeric_limits<double>::max();
    double bestDistance = std::numeric_limits<double>::max();
    bool bestMeetsHard = false;
    std::vector<QLineF> rowLines;
    for (int gy = 0; gy <= kGrid; ++gy) {
        // A row of candidates shares its top and bottom: only the lines that reach its height can cross one.
        const double top = bounds.top() + (bounds.height() - size.height()) * gy / kGrid;
        const double bottom = top + size.height();
        rowLines.clear();
        for (const QLineF& line : lines)
            if (std::max(line.y1(), line.y2()) >= top && std::min(line.y1(), line.y2()) <= bottom)
                rowLines.push_back(line);
        for (int gx = 0; gx <= kGrid; ++gx) {
            const QRectF candidate(bounds.left() + (bounds.width() - size.width()) * gx / kGrid, top, size.width(),
                                   size.height());
            if (candidate.contains(label.anchor))
                continue;
            double overlap = 0.0;
            bool meetsHard = false;
            const QRectF padded = candidate.adjusted(-2, -1, 2, 1);
            const auto addOverlap = [&](const QRectF& o, double weight) {
                const QRectF both = o.intersected(padded);
                overlap += both.isValid() ? weight * (1.0 + both.width() * both.height()) : 0.0;
            };
            for (const QRectF& o : hard) {
                meetsHard = meetsHard || o.intersects(padded);
                addOverlap(o, kHard);
            }
            for (const QRectF& o : soft)
                addOverlap(o, 1.0);
            for (const QLineF& line : rowLines)
                overlap += segmentIntersectsRect(line, candidate) ? kLine : 0.0;
            const double distance = QLineF(candidate.center(), label.anchor).length();
            if (overlap < bestOverlap - 1.0 || (std::fabs(overlap - bestOverlap) <= 1.0 && distance < bestDistance)) {
                bestOverlap = overlap;
                bestDistance = distance;
                bestMeetsHard = meetsHard;
                chosen = candidate;
            }
        }
    }
    LabelPlacement placement;
    placement.placed = true;
    placement.rect = chosen;
    const double radius = label.radius > 0.0 ? label.radius : markerRadius;
    const QLineF leader = leaderTo(chosen, label.anchor, radius);
    placement.leader = leader;
    placement.needsLeader = leader.length() > radius && leader.length() > 1.0;
    placement.crowded = bestMeetsHard;
    return placement;
}

std::vector<LabelPlacement> placeEveryLabel(const LabelLayoutInput& input, const std::vector<QRectF>& keepClear,
                                            bool avoidLines, const std::function<bool(std::size_t)>& mayGiveWay)
{
    std::vector<LabelPlacement> placements = placeLabels(input);
    std::vector<QRectF> hard = keepClear;
    hard.insert(hard.end(), input.obstacles.begin(), input.obstacles.end());
    for (const LabelPlacement& p : placements)
        if (p.placed)
            hard.push_back(p.rect);
    const std::vector<QLineF> noLines;
    for (const std::size_t i : byPriority(input.labels)) {
        if (placements[i].placed || (mayGiveWay && mayGiveWay(i)))
            continue;
        placements[i] = placeForced(input.bounds, input.labels[i], hard, {}, avoidLines ? input.lines : noLines,
                                    input.markerRadius);
        hard.push_back(placements[i].rect);
    }
    return placements;
}

std::optional<QRectF> freeRow(const QRectF& bounds, QSizeF size, const std::vector<QRectF>& taken,
                              const std::vector<QLineF>& lines, bool avoidLines)
{
    if (size.width() > bounds.width() || size.height() > bounds.height())
        return std::nullopt;
    const double step = std::max(2.0, size.height() / 4.0);
    for (double top = bounds.top(); top + size.height() <= bounds.bottom(); top += step) {
        // Flush left, flush right, then the positions between.
        std::vector<double> lefts{bounds.left(), bounds.right() - size.width()};
        constexpr int kColumns = 8;
        for (int column = 1; column < kColumns; ++column)
            lefts.push_back(bounds.left() + (bounds.width() - size.width()) * column / kColumns);
        for (const double left : lefts) {
            const QRectF rect(QPointF(left, top), size);
            const QRectF padded = rect.adjusted(-2, -1, 2, 1);
            if (std::any_of(taken.begin(), taken.end(), [&](const QRectF& other) { return other.intersects(padded); }))
                continue;
            if (avoidLines && std::any_of(lines.begin(), lines.end(),
                                          [&](const QLineF& line) { return segmentIntersectsRect(line, rect); }))
                continue;
            return rect;
        }
    }
    return std::nullopt;
}

std::vector<QLineF> verticalLineAround(double x, double top, double bottom, const std::vector<QRectF>& boxes,
                                       double gap)
{
    std::vector<std::pair<double, double>> cuts;
    for (const QRectF& box : boxes)
        if (x >= box.left() - 1.0 && x <= box.right() + 1.0)
            cuts.emplace_back(box.top() - gap, box.bottom() + gap);
    std::sort(cuts.begin(), cuts.end());
    std::vector<QLineF> pieces;
    double from = top;
    for (const auto& [cutTop, cutBottom] : cuts) {
        if (cutTop > from)
            pieces.emplace_back(x, from, x, std::min(cutTop, bottom));
        from = std::max(from, cutBottom);
        if (from >= bottom)
            break;
    }
    if (from < bottom)
        pieces.emplace_back(x, from, x, bottom);
    return pieces;
}

}  // namespace ridgeline::ui
