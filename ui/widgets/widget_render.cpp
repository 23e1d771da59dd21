#include "ui/widgets/widget_render.h"

#include <QCoreApplication>
#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QImage>
#include <QPainter>

#include <cmath>

namespace ridgeline::ui {

namespace {

void renderGraphicsView(QGraphicsView* graphics, QWidget* root, QPainter& painter, ChartDrawing charts)
{
    const ItemCachesOff drawAfresh(graphics->scene());
    QWidget* viewport = graphics->viewport();
    painter.save();
    painter.translate(QPointF(viewport->mapTo(root, QPoint(0, 0))));
    const QRectF target(QPointF(0, 0), QSizeF(viewport->size()));
    painter.fillRect(target, graphics->backgroundBrush().style() == Qt::NoBrush
                                 ? graphics->palette().color(QPalette::Base)
                                 : graphics->backgroundBrush().color());
    if (charts == ChartDrawing::Raster) {
        const double scale = std::sqrt(std::fabs(painter.deviceTransform().determinant()));
        QImage image((QSizeF(viewport->size()) * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
        image.setDevicePixelRatio(scale);
        image.fill(Qt::transparent);
        QPainter imagePainter(&image);
        imagePainter.setRenderHint(QPainter::Antialiasing, true);
        imagePainter.setRenderHint(QPainter::TextAntialiasing, true);
        graphics->render(&imagePainter, target, viewport->rect(), Qt::IgnoreAspectRatio);
        imagePainter.end();
        painter.drawImage(target, image);
    } else {
        graphics->render(&painter, target, viewport->rect(), Qt::IgnoreAspectRatio);
    }
    painter.restore();
}

}  // namespace

ItemCachesOff::ItemCachesOff(QGraphicsScene* scene)
{
    if (!scene)
        return;
    for (QGraphicsItem* item : scene->items())
        if (item->cacheMode() != QGraphicsItem::NoCache) {
            m_cached.emplace_back(item, item->cacheMode());
            item->setCacheMode(QGraphicsItem::NoCache);
        }
}

ItemCachesOff::~ItemCachesOff()
{
    for (const auto& [item, mode] : m_cached)
        item->setCacheMode(mode);
}

void renderWidgetTree(QWidget* widget, QWidget* root, QPainter& painter, ChartDrawing charts)
{
    if (auto* graphics = qobject_cast<QGraphicsView*>(widget)) {
        renderGraphicsView(graphics, root, painter, charts);
        return;
    }
    // Plain widgets draw themselves; one that holds a graphics view draws only its background, then its children.
    painter.save();
    painter.translate(QPointF(widget->mapTo(root, QPoint(0, 0))));
    const bool hasGraphics = !widget->findChildren<QGraphicsView*>().isEmpty();
    widget->render(&painter, QPoint(), QRegion(),
                   hasGraphics ? QWidget::RenderFlags(QWidget::DrawWindowBackground)
                               : QWidget::DrawWindowBackground | QWidget::DrawChildren);
    painter.restore();
    if (!hasGraphics)
        return;
    const QList<QWidget*> children = widget->findChildren<QWidget*>(Qt::FindDirectChildrenOnly);
    for (QWidget* child : children)
        if (child->isVisible() && !child->isWindow())
            renderWidgetTree(child, root, painter, charts);
}

void layoutOffscreen(QWidget& widget, QSize size)
{
    widget.setAttribute(Qt::WA_DontShowOnScreen, true);
    widget.setMinimumSize(1, 1);
    widget.resize(size);
    widget.show();
    for (int round = 0; round < 3; ++round) {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QCoreApplication::sendPostedEvents();
    }
}

}  // namespace ridgeline::ui
