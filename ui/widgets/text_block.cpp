#include "ui/widgets/text_block.h"

#include "ui/widgets/accessible_text.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QPainter>
#include <QTextLayout>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr int kPadding = 12;                 // inside the frame
constexpr double kSmallestFontScale = 0.75;  // a headline shrinks at most this far before it elides

struct WrappedText {
    QStringList lines;
    bool cut = false;  // the text went on beyond the last line; that line ends in an ellipsis
};

// `text` word-wrapped to `width`, in as many lines as `height` holds; the last of them elided when more follows.
WrappedText wrapText(const QString& text, const QFont& font, double width, double height)
{
    const QFontMetricsF metrics(font);
    const int fits = std::max(1, static_cast<int>(std::floor((height - metrics.height()) / metrics.lineSpacing())) + 1);
    QTextLayout layout(text, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    WrappedText wrapped;
    layout.beginLayout();
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(width);
        if (static_cast<int>(wrapped.lines.size()) + 1 == fits && line.textStart() + line.textLength() < text.size()) {
            wrapped.lines << metrics.elidedText(text.mid(line.textStart()), Qt::ElideRight, width);
            wrapped.cut = true;
            break;
        }
        wrapped.lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout.endLayout();
    return wrapped;
}

}  // namespace

TextBlock::TextBlock(int lines, QWidget* parent) : QWidget(parent), m_lines(std::max(1, lines))
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // It paints its own background: new text repaints the block alone, not the panel around it.
    setAttribute(Qt::WA_OpaquePaintEvent, true);
}

void TextBlock::setParagraphs(const QStringList& paragraphs)
{
    if (paragraphs == m_paragraphs)
        return;
    m_paragraphs = paragraphs;
    fitLines();
    describe();
    update();
}

void TextBlock::setGrowsUpTo(int maxLines)
{
    m_maxLines = std::max(1, maxLines);
    fitLines();
}

void TextBlock::fitLines()
{
    if (m_maxLines == 0 || width() <= 0)
        return;
    double available = width() - bulletIndent();
    if (m_framed)
        available -= 2 * kPadding;
    int needed = 0;
    for (const QString& paragraph : m_paragraphs)
        needed += static_cast<int>(wrapText(paragraph, font(), available, 1e9).lines.size());
    needed = std::clamp(needed, 1, m_maxLines);
    if (needed != m_lines) {
        m_lines = needed;
        updateGeometry();
    }
}

double TextBlock::bulletIndent() const
{
    const QFontMetricsF metrics(font());
    return m_bullets ? metrics.horizontalAdvance(QStringLiteral("\u2022")) + metrics.averageCharWidth() : 0.0;
}

void TextBlock::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitLines();
}

void TextBlock::setTitle(const QString& title)
{
    if (title == m_title)
        return;
    m_title = title;
    updateGeometry();
    describe();
    update();
}

void TextBlock::setBullets(bool on)
{
    m_bullets = on;
    update();
}

void TextBlock::setColor(const QColor& color)
{
    if (color == m_color)
        return;
    m_color = color;
    update();
}

void TextBlock::setFramed(bool on)
{
    m_framed = on;
    updateGeometry();
    update();
}

QSize TextBlock::sizeHint() const
{
    const QFontMetricsF metrics(font());
    double height = std::ceil(metrics.lineSpacing() * m_lines);
    if (!m_title.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        height += QFontMetricsF(bold).lineSpacing() * 1.5;
    }
    if (m_framed)
        height += 2 * kPadding;
    return QSize(200, static_cast<int>(std::ceil(height)));
}

QSize TextBlock::minimumSizeHint() const
{
    return QSize(100, sizeHint().height());
}

void TextBlock::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange) {
        fitLines();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

void TextBlock::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().color(backgroundRole()));
    p.setRenderHint(QPainter::Antialiasing, true);
    QRectF area = rect();
    if (m_framed) {
        p.setPen(QPen(palette().color(QPalette::Mid), 1.0));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(area.adjusted(0.5, 0.5, -0.5, -0.5), 4.0, 4.0);
        area.adjust(kPadding, kPadding, -kPadding, -kPadding);
    }
    p.setClipRect(area);
    p.setPen(m_color.isValid() ? m_color : palette().color(QPalette::WindowText));
    const QFontMetricsF metrics(font());
    double y = area.top();
    if (!m_title.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(QRectF(area.left(), y, area.width(), metrics.lineSpacing() * 1.5), Qt::AlignLeft | Qt::AlignTop,
                   m_title);
        y += QFontMetricsF(bold).lineSpacing() * 1.5;
        p.setFont(font());
    }
    if (m_lines == 1 && !m_bullets && m_paragraphs.size() == 1) {
        // A one-line block (the headline) never wraps into a line it has no room for: on a narrow window it
        // shrinks its font a little, then elides.
        QFont fitted = font();
        const double wanted = metrics.horizontalAdvance(m_paragraphs.front());
        if (wanted > area.width() && fitted.pixelSize() > 0) {
            const double scale = std::max(kSmallestFontScale, area.width() / wanted);
            fitted.setPixelSize(std::max(1, static_cast<int>(std::floor(fitted.pixelSize() * scale))));
        }
        const QFontMetricsF fittedMetrics(fitted);
        p.setFont(fitted);
        const QString shown = fittedMetrics.elidedText(m_paragraphs.front(), Qt::ElideRight, area.width());
        p.drawText(QPointF(area.left(), y + fittedMetrics.ascent()), shown);
        showWholeTextAsToolTip(shown != m_paragraphs.front());
        return;
    }
    const QString bullet = QStringLiteral("\u2022");
    const double indent = bulletIndent();
    bool cut = false;
    for (const QString& paragraph : m_paragraphs) {
        if (y + metrics.height() > area.bottom() + 0.5) {
            cut = true;
            break;
        }
        if (m_bullets)
            p.drawText(QPointF(area.left(), y + metrics.ascent()), bullet);
        const WrappedText wrapped = wrapText(paragraph, font(), area.width() - indent, area.bottom() - y);
        for (const QString& line : wrapped.lines) {
            p.drawText(QPointF(area.left() + indent, y + metrics.ascent()), line);
            y += metrics.lineSpacing();
        }
        cut = cut || wrapped.cut;
        y += m_bullets ? metrics.lineSpacing() * 0.35 : 0.0;
    }
    showWholeTextAsToolTip(cut);
}

void TextBlock::showWholeTextAsToolTip(bool cut)
{
    m_cut = cut;
    // What the block has no room for stays one hover away, never silently gone.
    const QString tip = cut ? m_paragraphs.join(QLatin1Char('\n')) : QString();
    if (toolTip() != tip)
        setToolTip(tip);
}

// A screen reader reads the painted text: the title (or the first paragraph) as the name, the rest after it.
void TextBlock::describe()
{
    setAccessibleText(*this, m_title.isEmpty() ? m_paragraphs.value(0) : m_title, m_paragraphs);
}

}  // namespace ridgeline::ui
