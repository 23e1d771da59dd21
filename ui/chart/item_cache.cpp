#include "ui/chart/item_cache.h"

#include <QGraphicsItem>
#include <QGraphicsScene>

#include <typeinfo>

namespace ridgeline::ui {

void cacheItemsNamed(QGraphicsScene* scene, std::initializer_list<std::string_view> classNames)
{
    if (!scene)
        return;
    for (QGraphicsItem* item : scene->items()) {
        if (item->cacheMode() == QGraphicsItem::DeviceCoordinateCache)
            continue;
        const std::string_view name = typeid(*item).name();
        for (const std::string_view wanted : classNames)
            if (name.find(wanted) != std::string_view::npos) {
                item->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
                break;
            }
    }
}

void dropItemCaches(QGraphicsScene* scene)
{
    if (!scene)
        return;
    for (QGraphicsItem* item : scene->items()) {
        const QGraphicsItem::CacheMode mode = item->cacheMode();
        if (mode == QGraphicsItem::NoCache)
            continue;
        item->setCacheMode(QGraphicsItem::NoCache);
        item->setCacheMode(mode);
    }
}

}  // namespace ridgeline::ui
