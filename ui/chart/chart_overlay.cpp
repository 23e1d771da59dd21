#include "ui/chart/chart_overlay.h"

#include "ui/plots/layout/text_metrics.h"

#include <QGlyphRun>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>
#include <QTextLayout>
#include <QTransform>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr double kHaloWidth = 4.0;
constexpr double kMargin = kHaloWidth;  // room for the halo (or the box) around the text
constexpr double kBoxPadding = 3.0;     // a boxed label's box reaches this far left and right of its text
constexpr double kBoxRadius = 3.0;
constexpr float kBoxOpacity = 0.85f;

QRectF textBox(const AnnotationText& text)
{
    const TextMetrics metrics(text.font);
    return QRectF(0.0, 0.0, metrics.horizontalAdvance(text.text), metrics.height())
        .adjusted(-kMargin, -kMargin, kMargin, kMargin);
}

// The text's box in chart coordinates, after its rotation about the origin.
QRectF placedBox(const AnnotationText& text)
{
    QTransform t;
    t.translate(text.origin.x(), text.origin.y());
    t.rotate(text.angleDegrees);
    return t.mapRect(textBox(text));
}

// A boxed label's background, relative to its origin: a rounded box in the halo colour, nearly opaque.
void drawBox(QPainter& painter, const AnnotationText& text)
{
    const TextMetrics metrics(text.font);
    QColor fill = text.halo;
    fill.setAlphaF(kBoxOpacity);
    painter.setPen(Qt::NoPen);
    painter.setBrush(fill);
    painter.drawRoundedRect(
        QRectF(-kBoxPadding, 0.0, metrics.horizontalAdvance(text.text) + 2.0 * kBoxPadding, metrics.height()),
        kBoxRadius, kBoxRadius);
}

bool isBoxed(const AnnotationText& text)
{
    return text.boxed && text.halo.isValid();
}

// The text with its halo (or box) drawn as text, for vector output.
void drawVectorText(QPainter& painter, const AnnotationText& text)
{
    painter.save();
    painter.translate(text.origin);
    painter.rotate(text.angleDegrees);
    painter.setFont(text.font);
    const QPointF baseline(0.0, TextMetrics(text.font).ascent());
    if (isBoxed(text)) {
        drawBox(painter, text);
    } else if (text.halo.isValid()) {
        // The halo as the glyphs' stroked outline: a shape, so the PDF holds each text once.
        QPainterPath outline;
        outline.addText(baseline, text.font, text.text);
        painter.strokePath(outline, QPen(text.halo, kHaloWidth, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    }
    painter.setPen(text.color);
    painter.drawText(baseline, text.text);
    painter.restore();
}

}  // namespace

ChartOverlay::ChartOverlay(QGraphicsItem* parent) : QGraphicsItem(parent)
{
    setAcceptedMouseButtons(Qt::NoButton);
    setAcceptHoverEvents(false);
}

void ChartOverlay::setClipRect(const QRectF& rect)
{
    if (rect == m_clip)
        return;
    prepareGeometryChange();
    m_clip = rect;
    updateBounds();
}

namespace {

bool sameText(const AnnotationText& a, const AnnotationText& b)
{
    return a.text == b.text && a.origin == b.origin && a.angleDegrees == b.angleDegrees && a.color == b.color &&
           a.font == b.font && a.halo == b.halo && a.boxed == b.boxed;
}

// What a text's rendered image depends on: not where it stands or how it is turned.
bool sameLook(const AnnotationText& a, const AnnotationText& b)
{
    return a.text == b.text && a.color == b.color && a.font == b.font && a.halo == b.halo && a.boxed == b.boxed;
}

bool sameLine(const AnnotationLine& a, const AnnotationLine& b)
{
    return a.line == b.line && a.pen == b.pen;
}

bool sameRing(const AnnotationRing& a, const AnnotationRing& b)
{
    return a.center == b.center && a.radius == b.radius && a.pen == b.pen;
}

template <typename T, typename Same>
bool sameAll(const std::vector<T>& a, const std::vector<T>& b, Same same)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), same);
}

}  // namespace

void ChartOverlay::setContent(std::vector<AnnotationLine> lines, std::vector<AnnotationText> texts,
                              std::vector<AnnotationRing> rings)
{
    // Unchanged content costs nothing: no repaint, and the rendered texts are kept.
    if (sameAll(lines, m_lines, sameLine) && sameAll(texts, m_texts, sameText) && sameAll(rings, m_rings, sameRing))
        return;
    prepareGeometryChange();
    // A label that only moved or turned (its text, font and colours the same) keeps its rendered image: a context
    // step moves most labels of a chart and rewrites few.
    std::vector<RenderedText> rendered(texts.size());
    std::vector<bool> taken(m_texts.size(), false);
    for (std::size_t i = 0; i < texts.size(); ++i)
        for (std::size_t j = 0; j < m_texts.size(); ++j)
            if (!taken[j] && j < m_rendered.size() && !m_rendered[j].image.isNull() && sameLook(texts[i], m_texts[j])) {
                rendered[i] = std::move(m_rendered[j]);
                taken[j] = true;
                break;
            }
    m_lines = std::move(lines);
    m_texts = std::move(texts);
    m_rings = std::move(rings);
    m_rendered = std::move(rendered);
    updateBounds();
    update();
}

void ChartOverlay::clear()
{
    setContent({}, {}, {});
}

std::vector<QRectF> ChartOverlay::textRects() const
{
    std::vector<QRectF> rects;
    rects.reserve(m_texts.size());
    for (const AnnotationText& t : m_texts)
        rects.push_back(placedBox(t).adjusted(kMargin, kMargin, -kMargin, -kMargin));
    return rects;
}

void ChartOverlay::updateBounds()
{
    QRectF bounds;
    for (const AnnotationText& t : m_texts)
        bounds = bounds.united(placedBox(t));
    for (const AnnotationLine& l : m_lines) {
        const double w = l.pen.widthF() + 2.0;
        bounds = bounds.united(QRectF(l.line.p1(), l.line.p2()).normalized().adjusted(-w, -w, w, w));
    }
    for (const AnnotationRing& r : m_rings) {
        const double extent = r.radius + r.pen.widthF() + 2.0;
        bounds = bounds.united(QRectF(r.center - QPointF(extent, extent), QSizeF(2.0 * extent, 2.0 * extent)));
    }
    m_bounds = m_clip.isValid() ? bounds.intersected(m_clip) : bounds;
}

QRectF ChartOverlay::boundingRect() const
{
    return m_bounds;
}

const ChartOverlay::RenderedText& ChartOverlay::rendered(std::size_t index, double scale) const
{
    RenderedText& r = m_rendered[index];
    if (r.scale == scale && !r.image.isNull())
        return r;
    const AnnotationText& text = m_texts[index];
    const QRectF box = textBox(text);
    const QSize pixels(static_cast<int>(std::ceil(box.width() * scale)),
                       static_cast<int>(std::ceil(box.height() * scale)));
    r.image = QImage(pixels.expandedTo(QSize(1, 1)), QImage::Format_ARGB32_Premultiplied);
    r.image.fill(Qt::transparent);
    r.scale = scale;
    r.offset = box.topLeft();
    // Shaped once, drawn as glyph runs: shaping a label costs as much as drawing it.
    QTextLayout layout(text.text, text.font);
    layout.beginLayout();
    layout.createLine();
    layout.endLayout();
    const QList<QGlyphRun> runs = layout.glyphRuns();
    const QPointF origin = -box.topLeft();
    const auto drawRuns = [&](QImage& image, const QColor& color) {
        QPainter p(&image);
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setRenderHint(QPainter::TextAntialiasing, true);
        p.scale(scale, scale);
        p.setPen(color);
        for (const QGlyphRun& run : runs)
            p.drawGlyphRun(origin, run);
    };
    if (isBoxed(text)) {
        QPainter p(&r.image);
        p.setRenderHint(QPainter::Antialiasing, true);
        p.scale(scale, scale);
        p.translate(origin);
        drawBox(p, text);
    } else if (text.halo.isValid()) {
        // A halo in the background colour keeps text legible where it crosses a line or a grid: the text
        // in the halo colour, copied around a circle of half the halo's width, looks like a stroked outline
        // (stroking the glyph outlines costs milliseconds per label; eight image copies cost microseconds).
        QImage halo(r.image.size(), QImage::Format_ARGB32_Premultiplied);
        halo.fill(Qt::transparent);
        drawRuns(halo, text.halo);
        QPainter p(&r.image);
        constexpr double h = kHaloWidth / 2.0;
        constexpr double d = h * 0.7071;
        for (const QPointF& offset : {QPointF(h, 0), QPointF(-h, 0), QPointF(0, h), QPointF(0, -h), QPointF(d, d),
                                      QPointF(d, -d), QPointF(-d, d), QPointF(-d, -d)})
            p.drawImage(QPointF(std::round(offset.x() * scale), std::round(offset.y() * scale)), halo);
    }
    drawRuns(r.image, text.color);
    return r;
}

void ChartOverlay::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->save();
    if (m_clip.isValid())
        painter->setClipRect(m_clip);
    painter->setRenderHint(QPainter::Antialiasing, true);
    for (const AnnotationLine& line : m_lines) {
        painter->setPen(line.pen);
        painter->drawLine(line.line);
    }
    painter->setBrush(Qt::NoBrush);
    for (const AnnotationRing& ring : m_rings) {
        painter->setPen(ring.pen);
        painter->drawEllipse(ring.center, ring.radius, ring.radius);
    }
    // Into a PDF the text goes as text (selectable, sharp at any zoom): the cached images are for the screen.
    if (painter->paintEngine() != nullptr && painter->paintEngine()->type() != QPaintEngine::Raster) {
        for (const AnnotationText& text : m_texts)
            drawVectorText(*painter, text);
        painter->restore();
        return;
    }
    // Device pixels per chart unit (device pixel ratio included), so cached text is as sharp as drawn text.
    const double scale = std::max(1.0, std::sqrt(std::fabs(painter->deviceTransform().determinant())));
    for (std::size_t i = 0; i < m_texts.size(); ++i) {
        const AnnotationText& text = m_texts[i];
        const RenderedText& r = rendered(i, scale);
        const QSizeF size(r.image.width() / scale, r.image.height() / scale);
        if (text.angleDegrees == 0.0) {
            // Whole pixels: a copy at a fractional position would be resampled and blur the text.
            const QPointF at = text.origin + r.offset;
            painter->drawImage(QRectF(QPointF(std::round(at.x()), std::round(at.y())), size), r.image);
            continue;
        }
        painter->save();
        painter->setRenderHint(QPainter::SmoothPixmapTransform, true);
        painter->translate(text.origin);
        painter->rotate(text.angleDegrees);
        painter->drawImage(QRectF(r.offset, size), r.image);
        painter->restore();
    }
    painter->restore();
}

std::vector<QRectF> textRectsOf(std::initializer_list<const ChartOverlay*> overlays)
{
    std::vector<QRectF> rects;
    for (const ChartOverlay* overlay : overlays)
        for (const QRectF& r : overlay->textRects())
            rects.push_back(r);
    return rects;
}

}  // namespace ridgeline::ui
