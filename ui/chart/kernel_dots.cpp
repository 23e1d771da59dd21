#include "ui/chart/kernel_dots.h"

#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QScatterSeries>

#include <cmath>
#include <numbers>

namespace ridgeline::ui {

QPainterPath markerPath(MarkerShape shape, double size)
{
    const double r = size / 2.0;
    QPainterPath path;
    switch (shape) {
        case MarkerShape::Circle:
            path.addEllipse(QPointF(0, 0), r, r);
            break;
        case MarkerShape::Rectangle:
            path.addRect(QRectF(-r, -r, size, size));
            break;
        case MarkerShape::RotatedRectangle:
            path.addPolygon(QPolygonF({QPointF(0, -r), QPointF(r, 0), QPointF(0, r), QPointF(-r, 0)}));
            path.closeSubpath();
            break;
        case MarkerShape::Triangle:
            path.addPolygon(QPolygonF({QPointF(0, -r), QPointF(r, r), QPointF(-r, r)}));
            path.closeSubpath();
            break;
        case MarkerShape::Pentagon: {
            QPolygonF pentagon;
            for (int i = 0; i < 5; ++i) {
                const double angle = -std::numbers::pi / 2.0 + i * 2.0 * std::numbers::pi / 5.0;
                pentagon << QPointF(r * std::cos(angle), r * std::sin(angle));
            }
            path.addPolygon(pentagon);
            path.closeSubpath();
            break;
        }
    }
    return path;
}

KernelDots::KernelDots(QGraphicsItem* parent) : QGraphicsItem(parent) {}

void KernelDots::add(const KernelGroup& group, const QScatterSeries* series)
{
    Cloud cloud;
    cloud.series = series;
    cloud.shape = group.shape;
    cloud.size = group.markerSize;
    cloud.color = group.color;
    cloud.border = group.border;
    cloud.values = group.points;
    if (!group.pointColors.empty()) {
        cloud.colors.assign(cloud.values.size(), group.color);
        for (const auto& [index, color] : group.pointColors)
            if (index >= 0 && static_cast<std::size_t>(index) < cloud.colors.size())
                cloud.colors[static_cast<std::size_t>(index)] = color;
    }
    m_clouds.push_back(std::move(cloud));
}

void KernelDots::clear()
{
    prepareGeometryChange();
    m_clouds.clear();
    m_stamps.clear();  // a new theme or per-kernel colouring brings stamps of its own
    m_plot = QRectF();
}

void KernelDots::relayout(const PlotMapping& mapping)
{
    prepareGeometryChange();
    m_plot = mapping.plot;
    for (Cloud& cloud : m_clouds) {
        cloud.pixels.resize(cloud.values.size());
        for (std::size_t i = 0; i < cloud.values.size(); ++i)
            cloud.pixels[i] = mapping.toPixel(cloud.values[i]);
    }
    update();
}

QRectF KernelDots::boundingRect() const
{
    return m_clouds.empty() ? QRectF() : m_plot;
}

const QPixmap& KernelDots::stamp(const Cloud& cloud, const QColor& fill, double scale) const
{
    const StampKey key{static_cast<int>(cloud.shape), cloud.size, fill.rgba(), cloud.border.rgba(), scale};
    QPixmap& pixmap = m_stamps[key];
    if (!pixmap.isNull())
        return pixmap;
    const double side = cloud.size + 2.0;  // room for the border's half width
    pixmap = QPixmap(QSize(static_cast<int>(std::ceil(side * scale)), static_cast<int>(std::ceil(side * scale))));
    pixmap.setDevicePixelRatio(scale);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.translate(side / 2.0, side / 2.0);
    p.setPen(QPen(cloud.border, 1.0));
    p.setBrush(fill);
    p.drawPath(markerPath(cloud.shape, cloud.size));
    return pixmap;
}

void KernelDots::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->save();
    painter->setClipRect(m_plot);
    const bool vector = painter->paintEngine() && painter->paintEngine()->type() != QPaintEngine::Raster;
    const double scale = std::max(1.0, std::sqrt(std::fabs(painter->deviceTransform().determinant())));
    const QRectF visible = m_plot.adjusted(-20, -20, 20, 20);
    for (const Cloud& cloud : m_clouds) {
        if (!cloud.series->isVisible())
            continue;
        const QPainterPath path = markerPath(cloud.shape, cloud.size);
        painter->setPen(QPen(cloud.border, 1.0));
        for (std::size_t i = 0; i < cloud.pixels.size(); ++i) {
            const QPointF& at = cloud.pixels[i];
            if (!visible.contains(at))
                continue;
            const QColor& fill = cloud.colors.empty() ? cloud.color : cloud.colors[i];
            if (vector) {  // a PDF or SVG: shapes, not ten thousand little images
                painter->setRenderHint(QPainter::Antialiasing, true);
                painter->setBrush(fill);
                painter->drawPath(path.translated(at));
                continue;
            }
            const QPixmap& pixmap = stamp(cloud, fill, scale);
            const QSizeF size = QSizeF(pixmap.size()) / scale;
            painter->drawPixmap(QPointF(at.x() - size.width() / 2.0, at.y() - size.height() / 2.0), pixmap);
        }
    }
    painter->restore();
}

}  // namespace ridgeline::ui
