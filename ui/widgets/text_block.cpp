#include "ui/widgets/text_block.h"

#include "ui/widgets/accessible_text.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QPaintEvent>
#include <QPainter>
#include <QTextLayout>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr int kPadding = 12;                 // inside the frame
constexpr double kSmallestFontScale = 0.75;  // a headline shrinks at most this far before it elides

// `text` broken into every line it needs at `width`, no height limit. Each line's text is trimmed; a line that
// begins with white space (only a paragraph can) has no line index in the layout to draw it from.
std::unique_ptr<QTextLayout> wrapAll(const QString& text, const QFont& font, double width, QStringList& lines,
                                     QList<qsizetype>& starts)
{
    auto layout = std::make_unique<QTextLayout>(text, font);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout->setTextOption(option);
    lines.clear();
    starts.clear();
    layout->beginLayout();
    for (QTextLine line = layout->createLine(); line.isValid(); line = layout->createLine()) {
        line.setLineWidth(width);
        starts << line.textStart();
        lines << text.mid(line.textStart(), line.textLength()).trimmed();
    }
    layout->endLayout();
    return layout;
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
    if (isHeadline() || m_shownFor != size()) {
        update();
        return;
    }
    // Only the lines whose text or place changed are painted again: on a slider step most of a long block stays.
    const std::vector<ShownLine> before = std::move(m_shown);
    placeLines();
    const std::size_t count = std::max(before.size(), m_shown.size());
    for (std::size_t i = 0; i < count; ++i) {
        const bool had = i < before.size(), has = i < m_shown.size();
        if (had && has && before[i] == m_shown[i])
            continue;
        if (had)
            update(lineRect(before[i]));
        if (has)
            update(lineRect(m_shown[i]));
    }
}

void TextBlock::setGrowsUpTo(int maxLines)
{
    m_maxLines = std::max(1, maxLines);
    fitLines();
}

void TextBlock::fitLines()
{
    if (width() <= 0)
        return;
    rewrap();
    if (m_maxLines == 0)
        return;
    int needed = 0;
    for (const Wrapped& paragraph : m_wrapped)
        needed += static_cast<int>(paragraph.lines.size());
    needed = std::clamp(needed, 1, m_maxLines);
    if (needed != m_lines) {
        m_lines = needed;
        updateGeometry();
    }
}

void TextBlock::rewrap()
{
    const double width = textArea().width() - bulletIndent();
    if (width != m_wrappedWidth) {
        m_wrapped.clear();
        m_wrappedWidth = width;
    }
    m_wrapped.resize(static_cast<std::size_t>(m_paragraphs.size()));
    for (std::size_t i = 0; i < m_wrapped.size(); ++i) {
        Wrapped& paragraph = m_wrapped[i];
        const QString& text = m_paragraphs[static_cast<qsizetype>(i)];
        if (paragraph.text == text && !paragraph.lines.isEmpty())
            continue;
        paragraph.text = text;
        paragraph.layout = wrapAll(text, font(), width, paragraph.lines, paragraph.starts);
    }
}

void TextBlock::placeLines()
{
    rewrap();
    m_shown.clear();
    m_shownFor = size();
    const QFontMetricsF metrics(font());
    const QRectF area = textArea();
    double y = textTop();
    bool cut = false;
    for (std::size_t p = 0; p < m_wrapped.size(); ++p) {
        const Wrapped& paragraph = m_wrapped[p];
        if (y + metrics.height() > area.bottom() + 0.5) {
            cut = true;
            break;
        }
        const qsizetype fits = std::max(
            qsizetype{1},
            static_cast<qsizetype>(std::floor((area.bottom() - y - metrics.height()) / metrics.lineSpacing())) + 1);
        const qsizetype shown = std::min(fits, paragraph.lines.size());
        for (qsizetype k = 0; k < shown; ++k) {
            // The last line there is room for ends in an ellipsis when the paragraph goes on.
            const bool elide = k + 1 == fits && paragraph.lines.size() > fits;
            m_shown.push_back(
                {elide ? metrics.elidedText(paragraph.text.mid(paragraph.starts[k]), Qt::ElideRight, m_wrappedWidth)
                       : paragraph.lines[k],
                 y, m_bullets && k == 0, p, elide ? -1 : k});
            y += metrics.lineSpacing();
        }
        cut = cut || paragraph.lines.size() > fits;
        y += m_bullets ? metrics.lineSpacing() * 0.35 : 0.0;
    }
    m_cut = cut;
}

void TextBlock::drawLine(QPainter& painter, const ShownLine& line, QPointF topLeft) const
{
    // From the paragraph's layout when it still holds this line as shown (it starts where its text does), else
    // from the text.
    if (line.line >= 0 && line.paragraph < m_wrapped.size()) {
        const Wrapped& paragraph = m_wrapped[line.paragraph];
        const QString first =
            line.line < paragraph.starts.size() ? paragraph.text.mid(paragraph.starts[line.line], 1) : QString();
        if (paragraph.layout && line.line < paragraph.lines.size() && paragraph.lines[line.line] == line.text &&
            !first.isEmpty() && !first.front().isSpace()) {
            const QTextLine shaped = paragraph.layout->lineAt(static_cast<int>(line.line));
            shaped.draw(&painter, topLeft - shaped.position());
            return;
        }
    }
    painter.drawText(QPointF(topLeft.x(), topLeft.y() + QFontMetricsF(font()).ascent()), line.text);
}

QRect TextBlock::lineRect(const ShownLine& line) const
{
    const QRectF area = textArea();
    return QRectF(area.left(), line.top, area.width(), QFontMetricsF(font()).lineSpacing()).toAlignedRect();
}

bool TextBlock::isHeadline() const
{
    return m_lines == 1 && !m_bullets && m_paragraphs.size() == 1;
}

QRectF TextBlock::textArea() const
{
    const QRectF area = rect();
    return m_framed ? area.adjusted(kPadding, kPadding, -kPadding, -kPadding) : area;
}

double TextBlock::textTop() const
{
    if (m_title.isEmpty())
        return textArea().top();
    QFont bold = font();
    bold.setBold(true);
    return textArea().top() + QFontMetricsF(bold).lineSpacing() * 1.5;
}

void TextBlock::forgetLayout()
{
    m_wrapped.clear();
    m_wrappedWidth = -1.0;
    m_shownFor = QSize();
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
    m_shownFor = QSize();
    updateGeometry();
    describe();
    update();
}

void TextBlock::setBullets(bool on)
{
    m_bullets = on;
    forgetLayout();
    fitLines();
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
    forgetLayout();
    fitLines();
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
        forgetLayout();
        fitLines();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

void TextBlock::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    const QRect dirty = event->rect();
    p.fillRect(dirty, palette().color(backgroundRole()));
    p.setRenderHint(QPainter::Antialiasing, true);
    const QRectF area = textArea();
    // The frame lies in the padding; a repaint of some lines leaves it as it was.
    if (m_framed && !area.contains(QRectF(dirty))) {
        p.setPen(QPen(palette().color(QPalette::Mid), 1.0));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5), 4.0, 4.0);
    }
    p.setClipRect(area);
    p.setPen(m_color.isValid() ? m_color : palette().color(QPalette::WindowText));
    const QFontMetricsF metrics(font());
    const double top = textTop();
    if (!m_title.isEmpty() && dirty.top() < top) {
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.drawText(QRectF(area.left(), area.top(), area.width(), metrics.lineSpacing() * 1.5),
                   Qt::AlignLeft | Qt::AlignTop, m_title);
        p.setFont(font());
    }
    if (isHeadline()) {
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
        const QString shown = wanted <= area.width()
                                  ? m_paragraphs.front()
                                  : fittedMetrics.elidedText(m_paragraphs.front(), Qt::ElideRight, area.width());
        p.drawText(QPointF(area.left(), top + fittedMetrics.ascent()), shown);
        showWholeTextAsToolTip(shown != m_paragraphs.front());
        return;
    }
    if (m_shownFor != size())
        placeLines();
    const QString bullet = QStringLiteral("\u2022");
    const double indent = bulletIndent();
    for (const ShownLine& line : m_shown) {
        if (!lineRect(line).intersects(dirty))
            continue;
        if (line.bullet)
            p.drawText(QPointF(area.left(), line.top + metrics.ascent()), bullet);
        drawLine(p, line, QPointF(area.left() + indent, line.top));
    }
    showWholeTextAsToolTip(m_cut);
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
