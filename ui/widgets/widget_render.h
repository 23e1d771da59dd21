#pragma once
// Draws a widget and everything in it onto any painter (an image, a PDF page, an SVG), each part at its place in
// `root`. QWidget::render would draw a QGraphicsView child (every chart) into a PDF or SVG as thousands of small
// images; here a graphics view draws its scene, as vectors. Qt 6.4's SVG generator writes no clip paths, so
// chart lines would run past their plot areas: for an SVG the charts go in as images at the painter's resolution
// (ChartDrawing::Raster) while text and everything else stays vector.

#include <QGraphicsItem>
#include <QSize>

#include <utility>
#include <vector>

class QGraphicsScene;
class QPainter;
class QWidget;

namespace ridgeline::ui {

enum class ChartDrawing { Vector, Raster };

void renderWidgetTree(QWidget* widget, QWidget* root, QPainter& painter, ChartDrawing charts);

// While it lives, every item of `scene` draws itself afresh: a screen's pixmap caches (the batching charts'
// curves) would otherwise put bitmaps into a PDF or SVG. Every export of a graphics view holds one.
class ItemCachesOff {
public:
    explicit ItemCachesOff(QGraphicsScene* scene);
    ~ItemCachesOff();
    ItemCachesOff(const ItemCachesOff&) = delete;
    ItemCachesOff& operator=(const ItemCachesOff&) = delete;

private:
    std::vector<std::pair<QGraphicsItem*, QGraphicsItem::CacheMode>> m_cached;
};

// Lays `widget` out at exactly `size` now, for an export: shown with WA_DontShowOnScreen so the resize and the
// layouts (nested ones settle over a few rounds of posted events) happen synchronously, without a window appearing.
void layoutOffscreen(QWidget& widget, QSize size);

}  // namespace ridgeline::ui
