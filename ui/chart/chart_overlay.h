#pragma once
// The one overlay of every chart: text, lines and rings (ui/plots/layout/annotation.h) drawn over (or just under) a
// chart's series, in the chart's coordinates. Built for charts that change on every slider step: each text is
// rendered once (with its halo, or on its box) into an image and then only copied, and the item's bounding box
// is the union of what it draws, not the whole plot, so moving one label repaints a few hundred pixels instead
// of the plot area. Into a PDF or SVG the text goes as text.

#include "ui/plots/layout/annotation.h"

#include <QGraphicsItem>
#include <QImage>

#include <initializer_list>
#include <vector>

namespace ridgeline::ui {

class ChartOverlay : public QGraphicsItem {
public:
    explicit ChartOverlay(QGraphicsItem* parent = nullptr);

    void setClipRect(const QRectF& rect);  // nothing is drawn outside: the plot area
    void setContent(std::vector<AnnotationLine> lines, std::vector<AnnotationText> texts,
                    std::vector<AnnotationRing> rings);
    void clear();

    const std::vector<AnnotationText>& texts() const { return m_texts; }
    const std::vector<AnnotationLine>& lines() const { return m_lines; }
    const std::vector<AnnotationRing>& rings() const { return m_rings; }
    // Each text's box in chart coordinates (the bounding box when rotated).
    std::vector<QRectF> textRects() const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    struct RenderedText {
        QImage image;  // text and halo, premultiplied ARGB, at `scale` device pixels per unit
        double scale = 0.0;
        QPointF offset;  // where the image's top-left sits relative to the text's origin (halo margin)
    };
    const RenderedText& rendered(std::size_t index, double scale) const;
    void updateBounds();

    QRectF m_clip;
    QRectF m_bounds;
    std::vector<AnnotationLine> m_lines;
    std::vector<AnnotationText> m_texts;
    std::vector<AnnotationRing> m_rings;
    mutable std::vector<RenderedText> m_rendered;
};

// The text boxes of several overlays together, for overlap checks.
std::vector<QRectF> textRectsOf(std::initializer_list<const ChartOverlay*> overlays);

}  // namespace ridgeline::ui
