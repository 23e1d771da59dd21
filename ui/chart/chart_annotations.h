#pragma once
// Text, leader lines and error bars drawn on top of (or just under) the chart's series, positioned in the
// chart's own coordinates. The chart recomputes them whenever its plot area or axis ranges change.

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QLineF>
#include <QPen>
#include <QString>

#include <vector>

namespace ridgeline::ui {

struct AnnotationText {
    QString text;
    QPointF origin;             // top-left of the text box before rotation, chart coordinates
    double angleDegrees = 0.0;  // rotation about `origin`
    QColor color;
    QFont font;
    QColor halo;         // drawn behind the text so it stays readable over lines; invalid = none
    bool boxed = false;  // a background-coloured box behind the text: for labels that sit on dashed lines
};

struct AnnotationLine {
    QLineF line;
    QPen pen;
};

struct AnnotationRing {
    QPointF center;
    double radius = 0.0;
    QPen pen;
};

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
