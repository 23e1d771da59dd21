#include "ui/chart/chart_annotations.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

namespace ridgeline::ui {

ChartAnnotations::ChartAnnotations(QGraphicsItem* parent) : QGraphicsItem(parent)
{
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
}

void ChartAnnotations::setClipRect(const QRectF& rect)
{
    prepareGeometryChange();
    m_clip = rect;
}

void ChartAnnotations::setContent(std::vector<AnnotationLine> lines, std::vector<AnnotationText> texts,
                                  std::vector<AnnotationRing> rings)
{
    m_lines = std::move(lines);
    m_texts = std::move(texts);
    m_rings = std::move(rings);
    update();
}

void ChartAnnotations::clear()
{
    setContent({}, {}, {});
}

QRectF ChartAnnotations::boundingRect() const
{
    return m_clip;
}

void ChartAnnotations::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->save();
    painter->setClipRect(m_clip);
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setRenderHint(QPainter::TextAntialiasing, true);
    for (const AnnotationLine& line : m_lines) {
        painter->setPen(line.pen);
        painter->drawLine(line.line);
    }
    painter->setBrush(Qt::NoBrush);
    for (const AnnotationRing& ring : m_rings) {
        painter->setPen(ring.pen);
        painter->drawEllipse(ring.center, ring.radius, ring.radius);
    }
    for (const AnnotationText& text : m_texts) {
        painter->save();
        painter->translate(text.origin);
        painter->rotate(text.angleDegrees);
        const QFontMetricsF metrics(text.font);
        const QPointF baseline(0.0, metrics.ascent());
        if (text.boxed && text.halo.isValid()) {
            QColor fill = text.halo;
            fill.setAlphaF(0.85f);
            painter->setPen(Qt::NoPen);
            painter->setBrush(fill);
            painter->drawRoundedRect(QRectF(-3.0, 0.0, metrics.horizontalAdvance(text.text) + 6.0, metrics.height()),
                                     3.0, 3.0);
        } else if (text.halo.isValid()) {
            // A halo in the background colour keeps text legible where it crosses a line or a grid.
            QPainterPath path;
            path.addText(baseline, text.font, text.text);
            painter->setPen(QPen(text.halo, 4.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
            painter->setBrush(Qt::NoBrush);
            painter->drawPath(path);
        }
        painter->setFont(text.font);
        painter->setPen(text.color);
        painter->drawText(baseline, text.text);
        painter->restore();
    }
    painter->restore();
}

}  // namespace ridgeline::ui
