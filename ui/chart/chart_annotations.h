#pragma once
// Text, leader lines and error bars drawn on top of (or just under) the chart's series, positioned in the
// chart's own coordinates. The chart recomputes them whenever its plot area or axis ranges change.

#include "ui/models/annotation.h"

#include <QGraphicsItem>

#include <vector>

namespace ridgeline::ui {

class ChartAnnotations : public QGraphicsItem {
public:
    explicit ChartAnnotations(QGraphicsItem* parent = nullptr);

    void setClipRect(const QRectF& rect);  // nothing is drawn outside: the plot area
    void setContent(std::vector<AnnotationLine> lines, std::vector<AnnotationText> texts,
                    std::vector<AnnotationRing> rings);
    void clear();

    const std::vector<AnnotationText>& texts() const { return m_texts; }
    const std::vector<AnnotationLine>& lines() const { return m_lines; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    QRectF m_clip;
    std::vector<AnnotationLine> m_lines;
    std::vector<AnnotationText> m_texts;
    std::vector<AnnotationRing> m_rings;
};

}  // namespace ridgeline::ui
