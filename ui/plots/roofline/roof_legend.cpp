#include "ui/plots/roofline/roof_legend.h"

#include "ui/plots/layout/label_layout.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RooflineChart", text);
}

constexpr double kPadding = 6.0;
constexpr double kStroke = 30.0;  // length of a row's line sample
constexpr double kStrokeGap = 8.0;

QPen samplePen(QPen pen)
{
    pen.setWidthF(std::min(pen.widthF(), 4.0));  // a highlighted roof's width would swamp the row
    pen.setCapStyle(Qt::FlatCap);
    return pen;
}

}  // namespace

std::vector<RoofLegendRow> roofLegendRows(const RooflineView& view, const ChartTheme& theme,
                                          const std::vector<RoofLegendEntry>& entries, bool lowerComputeRow)
{
    bool lowerCompute = false;
    bool triad = false;
    bool read = false;
    QPen lowerPen;
    for (const PlotRoof& roof : view.plot->roofs) {
        if (!roofInView(roof, view.mapping))
            continue;
        const bool dashed = roof.pen.style() == Qt::DashLine;
        if (roof.kind == RoofKind::Compute && dashed && !lowerCompute) {
            lowerCompute = true;
            lowerPen = roof.pen;
        }
        if (roof.kind == RoofKind::Bandwidth)
            (dashed ? triad : read) = true;
    }
    std::vector<RoofLegendRow> rows;
    // Style rows in a neutral colour: they say what a dash means, whatever the colour.
    if (lowerCompute && lowerComputeRow) {
        lowerPen.setColor(view.sessions->size() > 1 ? theme.mutedText : lowerPen.color());
        rows.push_back({samplePen(lowerPen), tr("lower compute roofs"), {}, true});
    }
    if (triad && read)
        rows.push_back(
            {samplePen(QPen(theme.mutedText, theme.roofWidth + 0.5, Qt::SolidLine)), tr("read bandwidth"), {}, true});
    if (triad)
        rows.push_back(
            {samplePen(QPen(theme.mutedText, theme.roofWidth + 0.5, Qt::DashLine)), tr("triad bandwidth"), {}, true});
    for (const RoofLegendEntry& entry : entries) {
        const bool lower =
            !entry.roofs.empty() && std::all_of(entry.roofs.begin(), entry.roofs.end(), [&](std::size_t r) {
                const PlotRoof& roof = view.plot->roofs[r];
                return (roof.kind == RoofKind::Compute || roof.kind == RoofKind::DeviceCompute) && !roof.binding;
            });
        rows.push_back({samplePen(entry.pen), entry.text, entry.roofs, entry.pen.style() == Qt::SolidLine, lower});
    }
    return rows;
}

QSizeF roofLegendSize(const std::vector<RoofLegendRow>& rows, const ChartTheme& theme)
{
    if (rows.empty())
        return {};
    const QFontMetricsF metrics(theme.kernelLabelFont);
    double width = 0.0;
    for (const RoofLegendRow& row : rows)
        width = std::max(width, metrics.horizontalAdvance(row.text));
    return {width + kStroke + kStrokeGap + 2.0 * kPadding + 2.0,
            metrics.height() * static_cast<double>(rows.size()) + 2.0 * kPadding};
}

QRectF anchoredAt(const LegendSpot& spot, QSizeF size, const QRectF& inner)
{
    const bool left = spot.corner == Corner::TopLeft || spot.corner == Corner::BottomLeft;
    const bool top = spot.corner == Corner::TopLeft || spot.corner == Corner::TopRight;
    return QRectF(
        QPointF(left ? inner.left() : inner.right() - size.width(), top ? inner.top() : inner.bottom() - size.height()),
        size);
}

LegendSpot placeRoofLegend(QSizeF size, const QRectF& inner, const std::vector<QRectF>& markers,
                           const std::vector<QRectF>& taken, const std::vector<QLineF>& lines)
{
    LegendSpot best;
    double bestCost = std::numeric_limits<double>::max();
    // The top left of a roofline lies above every roof: nothing measured can be there, so it is tried first.
    for (const Corner corner : {Corner::TopLeft, Corner::TopRight, Corner::BottomRight, Corner::BottomLeft}) {
        const LegendSpot spot{corner, {}};
        const QRectF rect = anchoredAt(spot, size, inner);
        double cost = 0.0;
        for (const QRectF& m : markers)
            cost += m.intersects(rect) ? 1000.0 : 0.0;
        for (const QRectF& t : taken)
            cost += t.intersects(rect) ? 100.0 : 0.0;
        for (const QLineF& l : lines)
            cost += segmentIntersectsRect(l, rect) ? 1.0 : 0.0;
        if (cost < bestCost) {
            bestCost = cost;
            best = {corner, rect};
        }
    }
    return best;
}

std::vector<RoofLegendRow> roofLegendClearOfDots(std::vector<RoofLegendRow> rows, const ChartTheme& theme,
                                                 const QRectF& inner, const std::vector<QRectF>& markers)
{
    auto clearSomewhere = [&](const std::vector<RoofLegendRow>& shown) {
        const QSizeF size = roofLegendSize(shown, theme);
        for (const Corner corner : {Corner::TopLeft, Corner::TopRight, Corner::BottomRight, Corner::BottomLeft}) {
            const QRectF rect = anchoredAt({corner, {}}, size, inner);
            if (std::none_of(markers.begin(), markers.end(), [&](const QRectF& m) { return m.intersects(rect); }))
                return true;
        }
        return false;
    };
    if (clearSomewhere(rows))
        return rows;
    std::size_t cutRoofs = 0;
    auto withCount = [&] {
        std::vector<RoofLegendRow> shown = rows;
        shown.push_back({QPen(Qt::NoPen),
                         (cutRoofs == 1 ? tr("+%1 dashed roof: point at its line to read it")
                                        : tr("+%1 dashed roofs: point at a line to read it"))
                             .arg(cutRoofs),
                         {},
                         true});
        return shown;
    };
    for (;;) {
        const auto last = std::find_if(rows.rbegin(), rows.rend(), [](const RoofLegendRow& r) { return !r.keep; });
        if (last == rows.rend())
            break;
        cutRoofs += std::max<std::size_t>(last->roofs.size(), 1);
        rows.erase(std::next(last).base());
        if (clearSomewhere(withCount()))
            break;
    }
    return cutRoofs > 0 ? withCount() : rows;
}

void drawRoofLegend(const std::vector<RoofLegendRow>& rows, const QRectF& rect, const ChartTheme& theme,
                    std::vector<AnnotationLine>& lines, std::vector<AnnotationText>& texts)
{
    if (rows.empty())
        return;
    // The background as one stroke as tall as the box (the overlay draws lines, text and rings), nearly opaque so
    // the roofs behind it do not run through the key; then a thin frame.
    QColor fill = theme.background;
    fill.setAlphaF(0.92f);
    const double middle = rect.center().y();
    lines.push_back(
        {QLineF(rect.left(), middle, rect.right(), middle), QPen(fill, rect.height(), Qt::SolidLine, Qt::FlatCap)});
    const QPen frame(theme.grid, 1.0);
    for (const QLineF& edge :
         {QLineF(rect.topLeft(), rect.topRight()), QLineF(rect.topRight(), rect.bottomRight()),
          QLineF(rect.bottomRight(), rect.bottomLeft()), QLineF(rect.bottomLeft(), rect.topLeft())})
        lines.push_back({edge, frame});
    const QFontMetricsF metrics(theme.kernelLabelFont);
    double top = rect.top() + kPadding;
    for (const RoofLegendRow& row : rows) {
        const double y = top + metrics.height() / 2.0;
        lines.push_back({QLineF(rect.left() + kPadding, y, rect.left() + kPadding + kStroke, y), row.pen});
        texts.push_back({row.text, QPointF(rect.left() + kPadding + kStroke + kStrokeGap, top), 0.0, theme.text,
                         theme.kernelLabelFont, QColor(), false, QString(), TextRole::Legend});
        top += metrics.height();
    }
}

}  // namespace ridgeline::ui
