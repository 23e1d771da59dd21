#pragma once
// The arithmetic of log-scaled plots, without widgets: a visible data range, its mapping to pixels (the same as
// Qt Charts' log-log domain, so marks computed here land on the dots the chart draws), and axis limits snapped
// to whole decades.

#include <QPointF>
#include <QRectF>

#include <vector>

namespace ridgeline::ui {

// The visible data range of a log-log plot: intensity (FLOP/byte) across, GFLOP/s up on the roofline.
struct PlotRange {
    double xMin = 0.0;
    double xMax = 0.0;
    double yMin = 0.0;
    double yMax = 0.0;
    // Both axes positive, finite and not empty: a range a log axis can show.
    bool valid() const;
};

// Whether low..high can be a log axis's range: positive, increasing, finite.
bool isLogRange(double low, double high);

// The range every log axis is given (ui/chart/log_axis.h): Qt Charts lays out a log axis by recursing over its
// decades, and a range that is not finite or spans hundreds of them (an overflowed ridge of 1e308 FLOP/byte) ends in
// a stack overflow. The ends are kept within kLogAxisFloor..kLogAxisCeiling, 60 decades, far beyond any physical
// quantity a loader accepts (core/physical_limits.h); an empty range is widened a decade each way, and a range
// that is not two positive finite numbers becomes 1..10.
inline constexpr double kLogAxisFloor = 1e-30;
inline constexpr double kLogAxisCeiling = 1e30;
struct LogAxisRange {
    double low = 1.0;
    double high = 10.0;
};
LogAxisRange safeLogAxisRange(double low, double high);

// Data <-> pixels of a log-log plot.
struct PlotMapping {
    QRectF plot;  // the plot area, in chart pixels
    PlotRange range;
    double xBase = 10.0;  // the axes' log bases: they move no point, but Qt Charts divides by them, and so
    double yBase = 10.0;  // does this mapping, to land on the same pixels
    QPointF toPixel(QPointF value) const;
    // The inverse: the data point at a pixel (the cursor's intensity and GFLOP/s).
    QPointF toValue(QPointF pixel) const;
};

// The whole decades at or below and at or above a value (1 and 10 for a value that is not a positive number).
// Axis limits snapped outward to them hold still while the data moves a little.
double decadeBelow(double value);
double decadeAbove(double value);

// The range an axis keeps while its data moves (a slider dragged): the current one while it still holds the wanted
// range and is at most `slackDecades` looser at either end, else the wanted one. An axis that jumps a decade at every
// step makes the curve seem to jump the other way, and each jump relays out the axis and repaints its labels.
struct LogRange {
    double low = 1.0;
    double high = 10.0;
    bool operator==(const LogRange&) const = default;
};
LogRange steadyLogRange(LogRange current, LogRange wanted, double slackDecades = 1.0);

// One line of a log axis's grid: at every power of the base (major) and, between them, at each whole multiple
// 2 .. base - 1 of it (minor), as Qt Charts' log axes place theirs with an automatic minor tick count.
struct LogGridLine {
    double value = 0.0;
    bool major = false;
};
// The grid lines within low..high (ascending); none for a range a log axis cannot show or a base below 2, and at
// most `limit` (a range of many decades gets its majors only, then none).
std::vector<LogGridLine> logGridLines(double low, double high, double base, int limit = 400);

}  // namespace ridgeline::ui
