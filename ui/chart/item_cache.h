#pragma once
// Pixmap caches for the items Qt Charts draws a series with. A series that does not change (a batching curve) is
// then blitted on a repaint instead of stroked again. Qt Charts gives no handle on those items:
// they are known by their class names (private; Qt 6.4's LineChartItem, AreaChartItem), and a Qt that
// names them otherwise only goes without the cache. Exports turn the caches off (ItemCachesOff).

#include <initializer_list>
#include <string_view>

class QGraphicsScene;

namespace ridgeline::ui {

// Gives every item of `scene` whose class name contains one of `classNames` a device-coordinate pixmap cache.
void cacheItemsNamed(QGraphicsScene* scene, std::initializer_list<std::string_view> classNames);

// Throws away every cached pixmap of `scene`'s items (they are drawn afresh at the next paint). A device-coordinate
// cache is kept across a change of the plot area or of an axis range, and under a window system that repaints
// parts of the view, parts of a roof drawn for the old range stayed on screen beside the new one.
void dropItemCaches(QGraphicsScene* scene);

}  // namespace ridgeline::ui
