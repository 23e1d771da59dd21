#include "ui/chart/memory_bar.h"

#include "ui/widgets/accessible_text.h"

#include "core/model/llm/llm_model.h"
#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/plots/layout/text_metrics.h"
#include "ui/plots/roofline/roofline_devices.h"

#include <QPaintEvent>
#include <QPainter>

#include <algorithm>

namespace ridgeline::ui {

namespace {

// "1 token", "8,192 tokens".
QString tokens(std::int64_t count)
{
    return count == 1 ? QStringLiteral("1 token") : QStringLiteral("%1 tokens").arg(formatGrouped(double(count)));
}

constexpr double kMargin = 16.0;
constexpr double kBarHeight = 46.0;
constexpr double kGap = 8.0;
constexpr double kSwatch = 16.0;

QFont bold(QFont font)
{
    font.setBold(true);
    return font;
}

}  // namespace

MemoryBar::MemoryBar(QWidget* parent) : QWidget(parent)
{
    setAttribute(Qt::WA_OpaquePaintEvent, true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_theme = ChartTheme::make(ThemeKind::Light);
    showMessage(QString());
}

void MemoryBar::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    rebuildTexts();
    update();
}

void MemoryBar::setData(const MemoryBarData& data)
{
    m_data = data;
    m_hasData = true;
    m_message.clear();
    rebuildTexts();
    fitLegendRows();
    setAccessibleText(*this, titleText(), texts());
    update();
}

void MemoryBar::showMessage(const QString& message)
{
    m_data = MemoryBarData{};
    m_hasData = false;
    m_message = message;
    rebuildTexts();
    setAccessibleText(*this, tr("Memory per GPU"), {message});
    update();
}

QColor MemoryBar::weightsColor() const
{
    return m_theme.sessionColor(0);
}
QColor MemoryBar::kvColor() const
{
    return m_theme.sessionColor(3);
}
QColor MemoryBar::overColor() const
{
    return m_theme.kind == ThemeKind::Light ? QColor(0xc0, 0x10, 0x10) : QColor(0xff, 0x5c, 0x5c);
}
QColor MemoryBar::fitColor() const
{
    return m_theme.kind == ThemeKind::Light ? QColor(0x1e, 0x7a, 0x3c) : QColor(0x5c, 0xd6, 0x8a);
}

void MemoryBar::rebuildTexts()
{
    m_legend.clear();
    m_capacityLabel.clear();
    if (!m_hasData) {
        m_titles = {tr("Memory per GPU")};
        m_status = m_message;
        return;
    }
    const MemoryBarData& d = m_data;
    const double required = double(d.weightsBytes) + double(d.kvBytes);
    const double capacity = double(d.capacityBytes);
    // A 1600-px window has room for "Memory per GPU (2 x H100 SXM5 80GB)" but not for NVIDIA's whole name.
    const QString shortName = shortGpuName(d.gpuName);
    if (d.gpus > 1)
        m_titles = {tr("Memory per GPU (each of %1 \u00d7 %2)").arg(d.gpus).arg(d.gpuName),
                    tr("Memory per GPU (each of %1 \u00d7 %2)").arg(d.gpus).arg(shortName),
                    tr("Memory per GPU (%1 \u00d7 %2)").arg(d.gpus).arg(shortName),
                    tr("Memory per GPU (%1 GPUs)").arg(d.gpus), tr("Memory per GPU")};
    else
        m_titles = {tr("Memory per GPU (%1)").arg(d.gpuName), tr("Memory per GPU (%1)").arg(shortName),
                    tr("Memory per GPU")};
    m_titles.removeDuplicates();
    if (d.fits)
        m_status = tr("Fits: %1 of %2 (%3 %)")
                       .arg(formatGiB(required), formatGiB(capacity),
                            formatSignificant(capacity > 0.0 ? 100.0 * required / capacity : 0.0, 2));
    else
        m_status = tr("DOES NOT FIT: needs %1, the card has %2").arg(formatGiB(required), formatGiB(capacity));
    m_capacityLabel = tr("capacity %1").arg(formatGiB(capacity));

    m_legend.push_back(
        {weightsColor(), false,
         tr("Weights %1 (%2)").arg(formatGiB(double(d.weightsBytes)), formatGB(double(d.weightsBytes)))});
    m_legend.push_back({kvColor(), false,
                        tr("KV cache %1 = %2 \u00d7 %3 (%4 each)")
                            .arg(formatMemory(double(d.kvBytes)), formatGrouped(double(d.batch)),
                                 formatMemory(double(d.kvBytesPerSequence)), tokens(d.context))});
    if (d.fits)
        m_legend.push_back({m_theme.minorGrid, false, tr("Free %1").arg(formatGiB(capacity - required))});
    else
        m_legend.push_back({overColor(), true, tr("Over by %1").arg(formatGiB(required - capacity))});
    // The model counts batches up to kMaxBatch: at the limit, say so rather than pass it off as the answer.
    const QString maxBatch =
        d.maxFittingBatch >= kMaxBatch
            ? tr("Max batch at %1: at least %2 (the model's limit)").arg(tokens(d.context), formatGrouped(kMaxBatch))
        : d.maxFittingBatch > 0
            ? tr("Max batch at %1: %2").arg(tokens(d.context), formatGrouped(double(d.maxFittingBatch)))
            : tr("Not even one sequence of %1 fits").arg(tokens(d.context));
    m_legend.push_back({QColor(), false, maxBatch});
}

QStringList MemoryBar::texts() const
{
    QStringList list{drawnTitle(), m_status};
    if (!m_capacityLabel.isEmpty())
        list << m_capacityLabel;
    for (const LegendEntry& e : m_legend)
        list << e.text;
    return list;
}

QSize MemoryBar::sizeHint() const
{
    return QSize(900, minimumSizeHint().height());
}

QSize MemoryBar::minimumSizeHint() const
{
    const TextMetrics title(bold(m_theme.axisTitleFont));
    const TextMetrics label(m_theme.legendFont);
    const double height = kGap + title.height() + kGap + kBarHeight + 4.0 + label.height() + kGap +
                          m_legendRows * (label.height() + 4.0) + kGap;
    return QSize(480, static_cast<int>(std::ceil(height)));
}

void MemoryBar::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(rect(), m_theme.background);
    double y = paintTitle(p, kGap);
    const QRectF bar(kMargin, y, width() - 2.0 * kMargin, kBarHeight);
    if (!m_hasData) {
        p.setPen(QPen(m_theme.grid, 2.0, Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(bar);
        return;
    }
    y = paintBar(p, bar);
    paintLegend(p, y);
}

// What the title has beside the status (the status wins the room when both do not fit).
double MemoryBar::titleRoom() const
{
    const TextMetrics titleMetrics(bold(m_theme.axisTitleFont));
    const double inner = width() - 2.0 * kMargin;
    return inner - std::min(inner, titleMetrics.horizontalAdvance(m_status)) - 24.0;
}

QString MemoryBar::drawnTitle() const
{
    const double room = titleRoom();
    const TextMetrics titleMetrics(bold(m_theme.axisTitleFont));
    for (const QString& title : m_titles)
        if (titleMetrics.horizontalAdvance(title) <= room)
            return title;
    return {};  // "Memory ..." says less than nothing: the status beside it ("DOES NOT FIT: needs ...") says it
}

// Title left, status right; returns where the bar goes.
double MemoryBar::paintTitle(QPainter& p, double y) const
{
    const QFont titleFont = bold(m_theme.axisTitleFont);
    const TextMetrics titleMetrics(titleFont);
    const double width = this->width();
    const double inner = width - 2.0 * kMargin;
    const QColor statusColor = !m_hasData ? m_theme.mutedText : (m_data.fits ? fitColor() : overColor());
    p.setFont(titleFont);
    p.setPen(m_theme.text);
    if (const QString title = drawnTitle(); !title.isEmpty())
        p.drawText(QPointF(kMargin, y + titleMetrics.ascent()), title);
    p.setPen(statusColor);
    const QString status = titleMetrics.elidedText(m_status, Qt::ElideRight, inner);
    p.drawText(QPointF(width - kMargin - titleMetrics.horizontalAdvance(status), y + titleMetrics.ascent()), status);
    return y + titleMetrics.height() + kGap;
}

// The card's capacity with the weights and the KV cache in it, their names inside when they fit and the capacity
// under its line; returns where the legend goes.
double MemoryBar::paintBar(QPainter& p, const QRectF& bar) const
{
    const QFont labelFont = m_theme.legendFont;
    const TextMetrics labelMetrics(labelFont);
    const MemoryBarData& d = m_data;
    const double weights = double(d.weightsBytes);
    const double kv = double(d.kvBytes);
    const double capacity = double(d.capacityBytes);
    const double required = weights + kv;
    const double scale = std::max(capacity, required);
    auto xOf = [&](double bytes) { return bar.left() + (scale > 0.0 ? bytes / scale : 0.0) * bar.width(); };

    // Free space first (the card's outline), then the two filled parts on top.
    p.setPen(QPen(m_theme.mutedText, 1.5));
    p.setBrush(m_theme.minorGrid);
    p.drawRect(QRectF(QPointF(bar.left(), bar.top()), QPointF(xOf(capacity), bar.bottom())));
    const QRectF weightsRect(QPointF(bar.left(), bar.top()), QPointF(xOf(weights), bar.bottom()));
    const QRectF kvRect(QPointF(xOf(weights), bar.top()), QPointF(xOf(required), bar.bottom()));
    p.setPen(Qt::NoPen);
    p.setBrush(weightsColor());
    p.drawRect(weightsRect);
    p.setBrush(kvColor());
    p.drawRect(kvRect);
    if (!d.fits) {
        // What is past the capacity is hatched red: the part that has nowhere to go.
        const QRectF over(QPointF(xOf(capacity), bar.top() - 4.0), QPointF(xOf(required), bar.bottom() + 4.0));
        p.setBrush(QBrush(overColor(), Qt::BDiagPattern));
        p.setPen(QPen(overColor(), 2.5));
        p.drawRect(over);
        p.setPen(QPen(m_theme.text, 4.0));
        p.drawLine(QPointF(xOf(capacity), bar.top() - 8.0), QPointF(xOf(capacity), bar.bottom() + 8.0));
    }

    // Names inside the parts when they fit.
    p.setFont(labelFont);
    auto inside = [&](const QRectF& r, const QString& name, const QColor& color) {
        if (labelMetrics.horizontalAdvance(name) + 12.0 > r.width())
            return;
        p.setPen(color);
        p.drawText(r, Qt::AlignCenter, name);
    };
    inside(weightsRect, tr("weights"), m_theme.background);
    inside(kvRect.intersected(QRectF(bar.left(), bar.top(), xOf(capacity) - bar.left(), bar.height())), tr("KV cache"),
           m_theme.background);
    if (d.fits)
        inside(QRectF(QPointF(xOf(required), bar.top()), QPointF(xOf(capacity), bar.bottom())), tr("free"),
               m_theme.mutedText);
    const double y = bar.bottom() + 4.0;

    // Capacity under its line, kept inside the widget.
    const double w = labelMetrics.horizontalAdvance(m_capacityLabel);
    const double x = std::clamp(xOf(capacity) - w / 2.0, kMargin, width() - kMargin - w);
    p.setPen(d.fits ? m_theme.mutedText : m_theme.text);
    p.drawText(QPointF(x, y + labelMetrics.ascent()), m_capacityLabel);
    return y + labelMetrics.height() + kGap;
}

// Legend: swatch and numbers, wrapping to another row when one is full.
void MemoryBar::paintLegend(QPainter& p, double y) const
{
    const QFont labelFont = m_theme.legendFont;
    const TextMetrics labelMetrics(labelFont);
    const std::vector<QPointF> origins = legendOrigins(width());
    for (std::size_t i = 0; i < m_legend.size(); ++i) {
        const LegendEntry& e = m_legend[i];
        double x = origins[i].x();
        const double top = y + origins[i].y() * (labelMetrics.height() + 4.0);
        if (e.color.isValid()) {
            const QRectF box(x, top + (labelMetrics.height() - kSwatch) / 2.0, kSwatch, kSwatch);
            p.setPen(QPen(e.hatched ? e.color : m_theme.mutedText, 1.5));
            p.setBrush(e.hatched ? QBrush(e.color, Qt::BDiagPattern) : QBrush(e.color));
            p.drawRect(box);
            x += kSwatch + 8.0;
        }
        const bool strong = !e.color.isValid();  // the max batch: the number to remember
        p.setFont(strong ? bold(labelFont) : labelFont);
        p.setPen(strong && !m_data.fits ? overColor() : m_theme.text);
        p.drawText(QPointF(x, top + labelMetrics.ascent()), e.text);
        p.setFont(labelFont);
    }
}

void MemoryBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitLegendRows();
}

void MemoryBar::fitLegendRows()
{
    const std::vector<QPointF> origins = legendOrigins(width());
    const int rows = std::max(2, origins.empty() ? 0 : static_cast<int>(origins.back().y()) + 1);
    if (rows != m_legendRows) {
        m_legendRows = rows;
        updateGeometry();
    }
}

std::vector<QPointF> MemoryBar::legendOrigins(double width) const
{
    const TextMetrics label(m_theme.legendFont);
    const TextMetrics strongLabel(bold(m_theme.legendFont));
    std::vector<QPointF> origins;
    double x = kMargin;
    int row = 0;
    for (const LegendEntry& e : m_legend) {
        const bool strong = !e.color.isValid();
        const double swatch = e.color.isValid() ? kSwatch + 8.0 : 0.0;
        const double textWidth = (strong ? strongLabel : label).horizontalAdvance(e.text);
        if (x > kMargin && x + swatch + textWidth > width - kMargin) {
            x = kMargin;
            ++row;
        }
        origins.emplace_back(x, row);
        x += swatch + textWidth + 32.0;
    }
    return origins;
}

}  // namespace ridgeline::ui
