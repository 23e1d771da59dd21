#include "ui/chart/training_bar.h"

#include "ui/widgets/accessible_text.h"

#include "ui/plots/training/training_geometry.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr double kMargin = 16.0;
constexpr double kBarHeight = 40.0;
constexpr double kGap = 8.0;
constexpr double kSwatch = 16.0;
constexpr double kLegendSpacing = 32.0;
// Between two legend rows: tight, so that four bars with two-row legends fit a 16:9 slide.
constexpr double kLegendRowGap = 2.0;

QFont bold(QFont font)
{
    font.setBold(true);
    return font;
}

}  // namespace

TrainingBar::TrainingBar(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent, true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_theme = ChartTheme::make(ThemeKind::Light);
}

void TrainingBar::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    update();
}

void TrainingBar::setData(const StackBarData& data)
{
    const bool named = !m_data.capacityLabel.isEmpty();
    m_data = data;
    fitLegendRows();
    if (named != !m_data.capacityLabel.isEmpty())  // the line under the bar comes or goes
        updateGeometry();
    setAccessibleText(*this, m_data.title, texts());
    update();
}

QStringList TrainingBar::texts() const
{
    QStringList list{m_data.title, m_data.status};
    if (!m_data.capacityLabel.isEmpty())
        list << m_data.capacityLabel;
    for (const StackPart& p : m_data.parts)
        list << p.legend;
    return list;
}

QRectF TrainingBar::barRect() const
{
    const QFontMetricsF title(bold(m_theme.axisTitleFont));
    return QRectF(kMargin, kGap + title.height() + kGap, width() - 2.0 * kMargin, kBarHeight);
}

QRectF TrainingBar::partRect(TrainingPart part) const
{
    const StackBarGeometry g = layoutStackBar(m_data, barRect());
    for (std::size_t i = 0; i < m_data.parts.size(); ++i)
        if (m_data.parts[i].part == part)
            return g.parts[i];
    return {};
}

QRectF TrainingBar::overRect() const
{
    return layoutStackBar(m_data, barRect()).over;
}

bool TrainingBar::isCut() const
{
    const QFontMetricsF title(bold(m_theme.axisTitleFont));
    const double inner = width() - 2.0 * kMargin;
    const double statusWidth = title.horizontalAdvance(m_data.status);
    const double room = std::max(0.0, inner - statusWidth - 24);
    return statusWidth > inner ||
           (title.horizontalAdvance(m_data.title) > room && title.horizontalAdvance(m_data.shortTitle) > room);
}

// The line under the bar that names the capacity line; none when there is no name to write.
double TrainingBar::capacityRow() const
{
    return m_data.capacityLabel.isEmpty() ? 0.0 : 4.0 + QFontMetricsF(m_theme.legendFont).height();
}

QSize TrainingBar::sizeHint() const
{
    return QSize(800, minimumSizeHint().height());
}

QSize TrainingBar::minimumSizeHint() const
{
    const QFontMetricsF title(bold(m_theme.axisTitleFont));
    const QFontMetricsF label(m_theme.legendFont);
    const double height = kGap + title.height() + kGap + kBarHeight + capacityRow() + kGap +
                          m_legendRows * (label.height() + kLegendRowGap) + kGap;
    return QSize(400, static_cast<int>(std::ceil(height)));
}

void TrainingBar::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.fillRect(rect(), m_theme.background);
    const QFont titleFont = bold(m_theme.axisTitleFont);
    const QFontMetricsF titleMetrics(titleFont);
    const QFontMetricsF labelMetrics(m_theme.legendFont);
    const bool over = m_data.over();

    // Title left, status right: the status wins the room, the title is elided.
    p.setFont(titleFont);
    const double inner = width() - 2.0 * kMargin;
    const QString status = titleMetrics.elidedText(m_data.status, Qt::ElideRight, inner);
    const double statusWidth = titleMetrics.horizontalAdvance(status);
    const double room = std::max(0.0, inner - statusWidth - 24);
    const QString title = titleMetrics.horizontalAdvance(m_data.title) <= room
                              ? m_data.title
                              : titleMetrics.elidedText(m_data.shortTitle, Qt::ElideRight, room);
    p.setPen(m_theme.text);
    p.drawText(QPointF(kMargin, kGap + titleMetrics.ascent()), title);
    p.setPen(m_data.capacity > 0 ? (over ? trainingOverColor(m_theme) : trainingFitColor(m_theme)) : m_theme.text);
    p.drawText(QPointF(width() - kMargin - statusWidth, kGap + titleMetrics.ascent()), status);

    // The card (or the step) as an outline, the parts on top, the overflow hatched past the capacity line.
    const QRectF bar = barRect();
    const StackBarGeometry g = layoutStackBar(m_data, bar);
    p.setPen(QPen(m_theme.mutedText, 1.5));
    p.setBrush(m_theme.minorGrid);
    p.drawRect(g.capacity);
    p.setPen(Qt::NoPen);
    for (std::size_t i = 0; i < m_data.parts.size(); ++i) {
        p.setBrush(trainingPartColor(m_data.parts[i].part, m_theme));
        p.drawRect(g.parts[i]);
    }
    if (!g.over.isEmpty()) {
        p.setBrush(QBrush(trainingOverColor(m_theme), Qt::BDiagPattern));
        p.setPen(QPen(trainingOverColor(m_theme), 2.5));
        p.drawRect(g.over.adjusted(0, -4, 0, 4));
        p.setPen(QPen(m_theme.text, 4.0));
        p.drawLine(QPointF(g.capacity.right(), bar.top() - 8), QPointF(g.capacity.right(), bar.bottom() + 8));
    }
    p.setFont(m_theme.legendFont);
    for (std::size_t i = 0; i < m_data.parts.size(); ++i) {
        const QRectF r = g.parts[i].intersected(g.capacity);
        if (labelMetrics.horizontalAdvance(m_data.parts[i].name) + 12.0 > r.width())
            continue;
        p.setPen(trainingLabelColor(trainingPartColor(m_data.parts[i].part, m_theme)));
        p.drawText(r, Qt::AlignCenter, m_data.parts[i].name);
    }
    double y = bar.bottom() + 4.0;
    if (g.hasCapacity && !m_data.capacityLabel.isEmpty()) {
        const double w = labelMetrics.horizontalAdvance(m_data.capacityLabel);
        const double x = std::clamp(g.capacity.right() - w / 2.0, kMargin, width() - kMargin - w);
        p.setPen(over ? m_theme.text : m_theme.mutedText);
        p.drawText(QPointF(x, y + labelMetrics.ascent()), m_data.capacityLabel);
    }
    y = bar.bottom() + capacityRow() + kGap;

    // The legend: swatch and number, wrapping when a row is full; a part that is zero in muted text.
    const std::vector<QPointF> origins = legendOrigins(width());
    for (std::size_t i = 0; i < m_data.parts.size(); ++i) {
        const StackPart& part = m_data.parts[i];
        const double top = y + origins[i].y() * (labelMetrics.height() + kLegendRowGap);
        const QRectF box(origins[i].x(), top + (labelMetrics.height() - kSwatch) / 2.0, kSwatch, kSwatch);
        p.setPen(QPen(m_theme.mutedText, 1.0));
        p.setBrush(trainingPartColor(part.part, m_theme));
        p.drawRect(box);
        p.setPen(part.value > 0 ? m_theme.text : m_theme.mutedText);
        p.drawText(QPointF(box.right() + 8.0, top + labelMetrics.ascent()), part.legend);
    }
}

void TrainingBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitLegendRows();
}

void TrainingBar::fitLegendRows()
{
    const std::vector<QPointF> origins = legendOrigins(width());
    const int rows = origins.empty() ? 1 : static_cast<int>(origins.back().y()) + 1;
    if (rows != m_legendRows) {
        m_legendRows = rows;
        updateGeometry();
    }
}

std::vector<QPointF> TrainingBar::legendOrigins(double width) const
{
    const QFontMetricsF label(m_theme.legendFont);
    std::vector<QPointF> origins;
    double x = kMargin;
    int row = 0;
    for (const StackPart& p : m_data.parts) {
        const double w = kSwatch + 8.0 + label.horizontalAdvance(p.legend);
        if (x > kMargin && x + w > width - kMargin) {
            x = kMargin;
            ++row;
        }
        origins.emplace_back(x, row);
        x += w + kLegendSpacing;
    }
    return origins;
}

}  // namespace ridgeline::ui
