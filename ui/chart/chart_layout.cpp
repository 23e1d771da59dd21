#include "ui/chart/chart_layout.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

QRectF mappedRect(const QTransform& t, const QRectF& r)
{
    return t.mapRect(r);
}

std::vector<QPointF> mappedPoints(const QTransform& t, const std::vector<QPointF>& points)
{
    std::vector<QPointF> out;
    out.reserve(points.size());
    for (const QPointF& p : points)
        out.push_back(t.map(p));
    return out;
}

// Two decimals: a report of pixels needs no more, and the file stays readable.
double rounded(double v)
{
    return std::round(v * 100.0) / 100.0;
}

QJsonArray rectJson(const QRectF& r)
{
    return {rounded(r.x()), rounded(r.y()), rounded(r.width()), rounded(r.height())};
}

QJsonArray pointsJson(const std::vector<QPointF>& points)
{
    QJsonArray out;
    for (const QPointF& p : points)
        out.append(QJsonArray{rounded(p.x()), rounded(p.y())});
    return out;
}

QJsonValue idJson(const QString& id)
{
    return id.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(id);
}

// Liang-Barsky: the part of the segment inside the rectangle, if any.
bool clipSegment(QPointF& a, QPointF& b, const QRectF& r)
{
    const double dx = b.x() - a.x();
    const double dy = b.y() - a.y();
    double t0 = 0.0;
    double t1 = 1.0;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - r.left(), r.right() - a.x(), a.y() - r.top(), r.bottom() - a.y()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0)
                return false;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0.0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 > t1)
            return false;
    }
    const QPointF start = a;
    a = start + QPointF(dx, dy) * t0;
    b = start + QPointF(dx, dy) * t1;
    return true;
}

}  // namespace

std::vector<std::vector<QPointF>> clipPolyline(const std::vector<QPointF>& points, const QRectF& rect)
{
    std::vector<std::vector<QPointF>> parts;
    std::vector<QPointF> current;
    for (std::size_t i = 1; i < points.size(); ++i) {
        QPointF a = points[i - 1];
        QPointF b = points[i];
        if (!std::isfinite(a.x()) || !std::isfinite(a.y()) || !std::isfinite(b.x()) || !std::isfinite(b.y()) ||
            !clipSegment(a, b, rect)) {
            if (current.size() > 1)
                parts.push_back(std::move(current));
            current.clear();
            continue;
        }
        if (current.empty() || current.back() != a) {
            if (current.size() > 1)
                parts.push_back(std::move(current));
            current = {a};
        }
        current.push_back(b);
    }
    if (current.size() > 1)
        parts.push_back(std::move(current));
    return parts;
}

ChartLayout ChartLayout::mapped(const QTransform& t) const
{
    ChartLayout out;
    out.plot = mappedRect(t, plot);
    for (const LayoutText& text : texts)
        out.texts.push_back({mappedRect(t, text.rect), t.map(text.outline), text.text, text.owner});
    for (const LayoutMarker& marker : markers)
        out.markers.push_back({mappedRect(t, marker.rect), marker.id});
    for (const LayoutPath& line : lines)
        out.lines.push_back({line.id, mappedPoints(t, line.points)});
    for (const LayoutPath& leader : leaders)
        out.leaders.push_back({leader.id, mappedPoints(t, leader.points)});
    for (const QRectF& legend : legends)
        out.legends.push_back(mappedRect(t, legend));
    for (const QRectF& note : notes)
        out.notes.push_back(mappedRect(t, note));
    return out;
}

QByteArray chartLayoutJson(const ChartLayout* layout)
{
    QJsonObject root;
    QJsonArray texts, markers, lines, leaders, legends, notes;
    if (layout) {
        for (const LayoutText& t : layout->texts)
            texts.append(QJsonObject{{QStringLiteral("rect"), rectJson(t.rect)},
                                     {QStringLiteral("text"), t.text},
                                     {QStringLiteral("owner"), idJson(t.owner)}});
        for (const LayoutMarker& m : layout->markers)
            markers.append(QJsonObject{{QStringLiteral("rect"), rectJson(m.rect)}, {QStringLiteral("id"), m.id}});
        for (const LayoutPath& l : layout->lines)
            lines.append(QJsonObject{{QStringLiteral("id"), l.id}, {QStringLiteral("points"), pointsJson(l.points)}});
        for (const LayoutPath& l : layout->leaders)
            leaders.append(
                QJsonObject{{QStringLiteral("owner"), idJson(l.id)}, {QStringLiteral("points"), pointsJson(l.points)}});
        for (const QRectF& r : layout->legends)
            legends.append(rectJson(r));
        for (const QRectF& r : layout->notes)
            notes.append(rectJson(r));
    }
    root.insert(QStringLiteral("plot"), layout ? QJsonValue(rectJson(layout->plot)) : QJsonValue(QJsonValue::Null));
    root.insert(QStringLiteral("texts"), texts);
    root.insert(QStringLiteral("markers"), markers);
    root.insert(QStringLiteral("lines"), lines);
    root.insert(QStringLiteral("leaders"), leaders);
    root.insert(QStringLiteral("legends"), legends);
    root.insert(QStringLiteral("notes"), notes);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace ridgeline::ui
