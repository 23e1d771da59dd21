#include "ui/chart/series_clip.h"

#include <QAreaSeries>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace ridgeline::ui {

namespace {

// One axis' visible range, in the space where the chart draws straight lines (log10 for a log axis).
struct AxisRange {
    double low = 0.0;
    double high = 0.0;
    bool log = false;
    double toSpace(double v) const { return log ? std::log10(v) : v; }
    double fromSpace(double v) const { return log ? std::pow(10.0, v) : v; }
};

std::optional<AxisRange> rangeOf(const QAbstractAxis* axis)
{
    if (const auto* logAxis = qobject_cast<const QLogValueAxis*>(axis)) {
        if (!(logAxis->min() > 0.0 && logAxis->max() > logAxis->min()))
            return std::nullopt;
        return AxisRange{std::log10(logAxis->min()), std::log10(logAxis->max()), true};
    }
    if (const auto* valueAxis = qobject_cast<const QValueAxis*>(axis))
        return AxisRange{valueAxis->min(), valueAxis->max(), false};
    return std::nullopt;
}

struct Frame {
    AxisRange x;
    AxisRange y;
};

std::optional<Frame> frameOf(QChart* chart, QAbstractSeries* series)
{
    const QList<QAbstractAxis*> xs = chart->axes(Qt::Horizontal, series);
    const QList<QAbstractAxis*> ys = chart->axes(Qt::Vertical, series);
    if (xs.isEmpty() || ys.isEmpty())
        return std::nullopt;
    const std::optional<AxisRange> x = rangeOf(xs.front());
    const std::optional<AxisRange> y = rangeOf(ys.front());
    if (!x || !y)
        return std::nullopt;
    return Frame{*x, *y};
}

// Liang-Barsky: the part of segment a-b (in axis space) inside the frame, as parameters t0 <= t1 in [0, 1].
std::optional<std::pair<double, double>> clipSegment(QPointF a, QPointF b, const Frame& f)
{
    double t0 = 0.0;
    double t1 = 1.0;
    const double dx = b.x() - a.x();
    const double dy = b.y() - a.y();
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {a.x() - f.x.low, f.x.high - a.x(), a.y() - f.y.low, f.y.high - a.y()};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0.0) {
            if (q[i] < 0.0)
                return std::nullopt;
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0.0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
    }
    if (t0 > t1)
        return std::nullopt;
    return std::make_pair(t0, t1);
}

QPointF toSpace(QPointF p, const Frame& f)
{
    return {f.x.toSpace(p.x()), f.y.toSpace(p.y())};
}

QPointF fromSpace(QPointF p, const Frame& f)
{
    return {f.x.fromSpace(p.x()), f.y.fromSpace(p.y())};
}

bool finitePoint(QPointF p)
{
    return std::isfinite(p.x()) && std::isfinite(p.y());
}

// The polyline's parts inside the frame, in data space.
std::vector<QList<QPointF>> clipPolyline(const QList<QPointF>& points, const Frame& f)
{
    std::vector<QList<QPointF>> parts;
    QList<QPointF> current;
    auto close = [&] {
        if (current.size() >= 2)
            parts.push_back(current);
        current.clear();
    };
    for (qsizetype i = 0; i + 1 < points.size(); ++i) {
        const QPointF a = toSpace(points[i], f);
        const QPointF b = toSpace(points[i + 1], f);
        const auto cut = finitePoint(a) && finitePoint(b) ? clipSegment(a, b, f) : std::nullopt;
        if (!cut) {
            close();
            continue;
        }
        const QPointF start = fromSpace(a + (b - a) * cut->first, f);
        const QPointF end = fromSpace(a + (b - a) * cut->second, f);
        if (current.isEmpty() || cut->first > 0.0) {
            close();
            current.append(start);
        }
        current.append(end);
        if (cut->second < 1.0)
            close();
    }
    close();
    return parts;
}

void clipLine(QChart* chart, QLineSeries* series, const Frame& f)
{
    const std::vector<QList<QPointF>> parts = clipPolyline(series->points(), f);
    if (parts.empty()) {
        series->clear();
        return;
    }
    series->replace(parts.front());
    const QList<QAbstractAxis*> axes = series->attachedAxes();
    for (std::size_t i = 1; i < parts.size(); ++i) {
        auto* extra = new QLineSeries;
        extra->setPen(series->pen());
        extra->replace(parts[i]);
        chart->addSeries(extra);
        for (QAbstractAxis* axis : axes)
            extra->attachAxis(axis);
        for (QLegendMarker* marker : chart->legend()->markers(extra))
            marker->setVisible(false);
    }
}

// An area between two bounds that share their x values: cut at the x range, each bound clamped to the y range
// (clamping both bounds draws exactly the part of the area inside the band).
void clipArea(QAreaSeries* area, const Frame& f)
{
    QLineSeries* upper = area->upperSeries();
    QLineSeries* lower = area->lowerSeries();
    if (!upper || !lower || upper->count() != lower->count())
        return;
    const double low = f.x.fromSpace(f.x.low);
    const double high = f.x.fromSpace(f.x.high);
    auto cutBound = [&](const QList<QPointF>& points) {
        QList<QPointF> out;
        for (qsizetype i = 0; i < points.size(); ++i) {
            const QPointF p = points[i];
            if (p.x() >= low && p.x() <= high)
                out.append(p);
            if (i + 1 == points.size())
                break;
            const QPointF a = toSpace(p, f);
            const QPointF b = toSpace(points[i + 1], f);
            for (const double edge : {f.x.low, f.x.high}) {
                const bool crosses = (a.x() - edge) * (b.x() - edge) < 0.0;
                if (crosses && finitePoint(a) && finitePoint(b))
                    out.append(fromSpace(a + (b - a) * ((edge - a.x()) / (b.x() - a.x())), f));
            }
        }
        std::sort(out.begin(), out.end(), [](QPointF l, QPointF r) { return l.x() < r.x(); });
        const double yLow = f.y.fromSpace(f.y.low);
        const double yHigh = f.y.fromSpace(f.y.high);
        for (QPointF& p : out)
            p.setY(std::clamp(p.y(), yLow, yHigh));
        return out;
    };
    upper->replace(cutBound(upper->points()));
    lower->replace(cutBound(lower->points()));
}

}  // namespace

void clipSeriesToAxes(QChart* chart)
{
    const QList<QAbstractSeries*> series = chart->series();  // a copy: clipLine adds series
    for (QAbstractSeries* s : series) {
        const std::optional<Frame> frame = frameOf(chart, s);
        if (!frame)
            continue;
        if (s->type() == QAbstractSeries::SeriesTypeLine)
            clipLine(chart, static_cast<QLineSeries*>(s), *frame);
        else if (s->type() == QAbstractSeries::SeriesTypeArea)
            clipArea(static_cast<QAreaSeries*>(s), *frame);
    }
}

}  // namespace ridgeline::ui
