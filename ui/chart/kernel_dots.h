#pragma once
// The dots of large kernel groups (10,000 kernels stay fluid). Qt Charts draws a scatter series as one
// item per point, which every zoom step moves and repaints one by one (68 ms a step at 10,000 kernels on a 2-vCPU
// Zen 5); a group of more than kManyDots points is drawn here instead, as one item that places its dots with the
// plot's mapping and stamps one pre-drawn marker per colour. The group's series stays, without points, for
// its legend entry and its visibility. Into a PDF or SVG the dots go as shapes.

#include "ui/plots/roofline/roofline_plot.h"

#include <QGraphicsItem>
#include <QPixmap>

#include <map>
#include <tuple>
#include <vector>

QT_BEGIN_NAMESPACE
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

// Groups with more dots than this are drawn by KernelDots; smaller ones stay Qt Charts' markers.
inline constexpr std::size_t kManyDots = 500;

class KernelDots : public QGraphicsItem {
public:
    explicit KernelDots(QGraphicsItem* parent = nullptr);

    // The group's points (intensity, GFLOP/s), drawn while `series` is visible.
    void add(const KernelGroup& group, const QScatterSeries* series);
    void clear();
    // Where each dot is now, by the mapping the hit tests and labels use: after every change of the plot or axes.
    void relayout(const PlotMapping& mapping);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    struct Cloud {
        const QScatterSeries* series = nullptr;
        MarkerShape shape = MarkerShape::Circle;
        double size = 0.0;
        QColor color;
        QColor border;
        std::vector<QPointF> values;
        std::vector<QColor> colors;  // per point where any differs from `color`, else empty
        std::vector<QPointF> pixels;
    };
    using StampKey = std::tuple<int, double, QRgb, QRgb, double>;  // shape, size, fill, border, device scale
    const QPixmap& stamp(const Cloud& cloud, const QColor& fill, double scale) const;

    std::vector<Cloud> m_clouds;
    QRectF m_plot;
    mutable std::map<StampKey, QPixmap> m_stamps;
};

// The marker's outline, centred on (0, 0), as Qt Charts draws each shape.
QPainterPath markerPath(MarkerShape shape, double size);

}  // namespace ridgeline::ui
