#include "ui/chart/chart_legend.h"

#include "ui/chart/kernel_dots.h"
#include "ui/plots/layout/legend_flow.h"

#include <QCursor>
#include <QFontMetricsF>
#include <QGraphicsSceneMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr float kDimmedText = 0.4f;
constexpr float kDimmedFill = 0.3f;

}  // namespace

ChartLegend::ChartLegend(QGraphicsItem* parent) : QGraphicsObject(parent)
{
    setAcceptedMouseButtons(Qt::LeftButton);
    setCursor(QCursor(Qt::PointingHandCursor));
}

void ChartLegend::setEntries(std::vector<LegendEntry> entries, const QFont& font, const QColor& text)
{
    prepareGeometryChange();
    m_entries = std::move(entries);
    m_font = font;
    m_text = text;
    m_rects.clear();
    m_foldRect = QRectF();
    m_pressed = -1;
}

void ChartLegend::setDimmed(std::size_t index, bool dimmed)
{
    if (index < m_entries.size() && m_entries[index].dimmed != dimmed) {
        m_entries[index].dimmed = dimmed;
        update();
    }
}

double ChartLegend::rowHeight() const
{
    return std::ceil(QFontMetricsF(m_font).height() * 1.35);
}

double ChartLegend::symbolWidth() const
{
    return std::ceil(QFontMetricsF(m_font).height() * 1.3);
}

std::vector<double> ChartLegend::entryWidths() const
{
    const QFontMetricsF metrics(m_font);
    std::vector<double> widths;
    widths.reserve(m_entries.size());
    for (const LegendEntry& entry : m_entries)
        widths.push_back(symbolWidth() + 0.4 * metrics.height() + metrics.horizontalAdvance(entry.text) + 2.0);
    return widths;
}

void ChartLegend::setFold(KeyFold fold)
{
    m_fold = fold;
}

double ChartLegend::foldWidth(const QString& text) const
{
    QFont font = m_font;
    font.setUnderline(true);
    return QFontMetricsF(font).horizontalAdvance(text) + 2.0;
}

std::vector<std::size_t> ChartLegend::shownEntries(double width, KeyFold fold, QString* foldText) const
{
    std::vector<std::size_t> shown(m_entries.size());
    for (std::size_t i = 0; i < shown.size(); ++i)
        shown[i] = i;
    foldText->clear();
    if (fold == KeyFold::Unfolded) {
        *foldText = tr("fewer");
    } else if (fold == KeyFold::OneRow) {
        std::vector<bool> dots;
        for (const LegendEntry& entry : m_entries)
            dots.push_back(entry.brush.style() != Qt::NoBrush);
        const double gap = QFontMetricsF(m_font).height();
        // Room for the widest count it may need.
        const QString widest = tr("+%n more", nullptr, static_cast<int>(m_entries.size()));
        shown = oneRowOf(entryWidths(), dots, gap, width, foldWidth(widest));
        if (shown.size() < m_entries.size())
            *foldText = tr("+%n more", nullptr, static_cast<int>(m_entries.size() - shown.size()));
    }
    return shown;
}

double ChartLegend::heightFor(double width, KeyFold fold) const
{
    QString foldText;
    const std::vector<std::size_t> shown = shownEntries(width, fold, &foldText);
    const std::vector<double> all = entryWidths();
    std::vector<double> widths;
    for (const std::size_t i : shown)
        widths.push_back(all[i]);
    if (!foldText.isEmpty())
        widths.push_back(foldWidth(foldText));
    const double gap = QFontMetricsF(m_font).height();
    return flowLegend(widths, rowHeight(), gap, QPointF(), width).height;
}

void ChartLegend::layOut(QPointF topLeft, double width)
{
    const double gap = QFontMetricsF(m_font).height();
    prepareGeometryChange();
    const std::vector<std::size_t> shown = shownEntries(width, m_fold, &m_foldText);
    const std::vector<double> all = entryWidths();
    std::vector<double> widths;
    for (const std::size_t i : shown)
        widths.push_back(all[i]);
    if (!m_foldText.isEmpty())
        widths.push_back(foldWidth(m_foldText));
    const std::vector<QRectF> boxes = flowLegend(widths, rowHeight(), gap, topLeft, width).entries;
    m_rects.assign(m_entries.size(), QRectF());
    for (std::size_t k = 0; k < shown.size() && k < boxes.size(); ++k)
        m_rects[shown[k]] = boxes[k];
    m_foldRect = m_foldText.isEmpty() || boxes.size() <= shown.size() ? QRectF() : boxes.back();
    update();
}

QString ChartLegend::foldText() const
{
    return m_foldRect.isEmpty() ? QString() : m_foldText;
}

QRectF ChartLegend::keyRect() const
{
    QRectF key = m_foldRect;
    for (const QRectF& r : m_rects)
        if (!r.isEmpty())
            key = key.isEmpty() ? r : key.united(r);
    return key;
}

QRectF ChartLegend::textRect(std::size_t index) const
{
    if (index >= m_rects.size() || m_rects[index].isEmpty())
        return {};
    const QFontMetricsF metrics(m_font);
    const QRectF& box = m_rects[index];
    const double left = box.left() + symbolWidth() + 0.4 * metrics.height();
    return QRectF(left, box.center().y() - metrics.height() / 2.0, box.right() - left, metrics.height());
}

QRectF ChartLegend::boundingRect() const
{
    return keyRect();
}

void ChartLegend::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*)
{
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setFont(m_font);
    for (std::size_t i = 0; i < m_rects.size() && i < m_entries.size(); ++i) {
        const LegendEntry& entry = m_entries[i];
        const QRectF& box = m_rects[i];
        if (box.isEmpty())
            continue;  // folded away
        const QPointF centre(box.left() + symbolWidth() / 2.0, box.center().y());
        if (entry.brush.style() == Qt::NoBrush) {
            QPen pen = entry.pen;
            pen.setWidthF(std::min(pen.widthF(), 4.0));  // a highlighted roof's width would swamp the entry
            pen.setCapStyle(Qt::FlatCap);
            if (entry.dimmed) {
                QColor faint = pen.color();
                faint.setAlphaF(kDimmedText);
                pen.setColor(faint);
            }
            painter->setPen(pen);
            painter->drawLine(QPointF(box.left(), centre.y()), QPointF(box.left() + symbolWidth(), centre.y()));
        } else {
            QBrush fill = entry.brush;
            QColor colour = fill.color();
            colour.setAlphaF(entry.dimmed ? kDimmedFill : colour.alphaF());
            fill.setColor(colour);
            painter->setPen(entry.pen);
            painter->setBrush(fill);
            const double size = std::min(entry.markerSize, rowHeight() * 0.8);
            painter->drawPath(markerPath(entry.shape, size).translated(centre));
        }
        QColor text = m_text;
        if (entry.dimmed)
            text.setAlphaF(kDimmedText);
        painter->setPen(text);
        painter->drawText(textRect(i), Qt::AlignLeft | Qt::AlignVCenter, entry.text);
    }
    if (!m_foldRect.isEmpty()) {
        // Underlined: a link that shows the rest of the key, or folds it again.
        QFont font = m_font;
        font.setUnderline(true);
        painter->setFont(font);
        painter->setPen(m_text);
        painter->drawText(m_foldRect, Qt::AlignLeft | Qt::AlignVCenter, m_foldText);
    }
}

int ChartLegend::entryAt(QPointF at) const
{
    for (std::size_t i = 0; i < m_rects.size(); ++i)
        if (m_rects[i].contains(at))
            return static_cast<int>(i);
    if (m_foldRect.contains(at))
        return static_cast<int>(m_rects.size());
    return -1;
}

void ChartLegend::mousePressEvent(QGraphicsSceneMouseEvent* event)
{
    m_pressed = entryAt(event->pos());
    if (m_pressed < 0)
        event->ignore();  // between entries: not the legend's
    else
        event->accept();
}

void ChartLegend::mouseReleaseEvent(QGraphicsSceneMouseEvent* event)
{
    const int pressed = m_pressed;
    m_pressed = -1;
    if (pressed < 0 || entryAt(event->pos()) != pressed)
        return;
    // Last: the chart may give the legend new entries, or fold it.
    if (static_cast<std::size_t>(pressed) == m_rects.size())
        emit foldClicked();
    else
        emit entryClicked(pressed);
}

}  // namespace ridgeline::ui
