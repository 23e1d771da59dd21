#include "ui/chart/step_breakdown_bar.h"

#include "ui/widgets/accessible_text.h"

#include "core/model/units.h"
#include "ui/plots/layout/text_metrics.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr double kMargin = 16.0;
constexpr double kBarHeight = 14.0;
constexpr double kGap = 8.0;
constexpr double kSwatch = 16.0;

QFont bold(QFont font)
{
    font.setBold(true);
    return font;
}

}  // namespace

StepBreakdownBar::StepBreakdownBar(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("batchingStepBreakdown"));
    setAttribute(Qt::WA_OpaquePaintEvent, true);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    setToolTip(
        tr("Each kernel's time goes to what bounds it: weights (GEMMs waiting on the weight stream), KV "
           "(attention reading the cache), compute (waiting on the tensor cores), communication "
           "(tensor-parallel all-reduces) and overhead (the engine's fixed times per layer, pass, "
           "collective and sequence). `ridgeline model` prints the same."));
    m_theme = ChartTheme::make(ThemeKind::Light);
    showMessage(QString());
}

void StepBreakdownBar::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    updateGeometry();
    update();
}

void StepBreakdownBar::setData(const StepBreakdownData& data)
{
    m_data = data;
    m_hasData = true;
    m_message.clear();
    rebuildTexts();
    setAccessibleText(*this, titleText(), texts());
    update();
}

void StepBreakdownBar::showMessage(const QString& message)
{
    m_data = StepBreakdownData{};
    m_hasData = false;
    m_message = message;
    rebuildTexts();
    setAccessibleText(*this, tr("Step breakdown"), {message});
    update();
}

QColor StepBreakdownBar::partColor(BreakdownPart part) const
{
    // Weights and KV in the memory bar's colours, so the two bars read together.
    switch (part) {
        case BreakdownPart::Weights:
            return m_theme.sessionColor(0);
        case BreakdownPart::Kv:
            return m_theme.sessionColor(3);
        case BreakdownPart::Compute:
            return m_theme.kernelColor(QStringLiteral("sgemm"));
        case BreakdownPart::Communication:
            return m_theme.sessionColor(2);
        case BreakdownPart::Overhead:
            return m_theme.kernelColor(QStringLiteral("fusion-unfused"));
    }
    return m_theme.mutedText;
}

void StepBreakdownBar::rebuildTexts()
{
    m_legend.clear();
    if (!m_hasData) {
        m_title = tr("Decode step");
        return;
    }
    const StepBreakdown& b = m_data.breakdown;
    m_title = m_data.speculative ? tr("Draft + verify step: %1").arg(formatSeconds(b.total()))
                                 : tr("Decode step: %1").arg(formatSeconds(b.total()));
    for (const BreakdownPart part : kBreakdownParts) {
        if (breakdownSeconds(b, part) > 0.0)
            m_legend << breakdownPartName(part) + QLatin1Char(' ') + breakdownShareText(b, part);
        else if (!hiddenUnder(part).isEmpty())
            m_legend << tr("%1: %2").arg(breakdownPartName(part), hiddenUnder(part));
        else
            m_legend << tr("%1: none").arg(breakdownPartName(part));
    }
}

// A part that took no time of its own but did work: "0.42 ms, hidden under memory" rather than "none", which would
// contradict the step's own FLOPs and bytes (and `ridgeline model`'s compute time).
QString StepBreakdownBar::hiddenUnder(BreakdownPart part) const
{
    if (breakdownSeconds(m_data.breakdown, part) > 0.0)
        return QString();
    switch (part) {
        case BreakdownPart::Compute:
            return m_data.computeSeconds > 0.0 ? tr("%1, hidden under memory").arg(formatSeconds(m_data.computeSeconds))
                                               : QString();
        case BreakdownPart::Weights:
            return m_data.weightBytes > 0.0 ? tr("hidden under compute") : QString();
        case BreakdownPart::Kv:
            return m_data.kvBytes > 0.0 ? tr("hidden under compute") : QString();
        default:
            return QString();
    }
}

QStringList StepBreakdownBar::texts() const
{
    QStringList list{m_title};
    if (!m_message.isEmpty())
        list << m_message;
    list << m_legend;
    return list;
}

QSize StepBreakdownBar::sizeHint() const
{
    return minimumSizeHint();
}

double StepBreakdownBar::rowHeight() const
{
    return TextMetrics(m_theme.legendFont).height() + 2.0;
}

QSize StepBreakdownBar::minimumSizeHint() const
{
    // As wide as the longest row needs: swatch, name, time, share.
    const TextMetrics label(m_theme.legendFont);
    const double name = label.horizontalAdvance(QStringLiteral("communication"));
    const double time = label.horizontalAdvance(QStringLiteral("888.8 ms"));
    const double share = label.horizontalAdvance(QStringLiteral("100 %"));
    const double width = 2.0 * kMargin + kSwatch + 8.0 + name + 16.0 + time + 16.0 + share;
    const TextMetrics title(bold(m_theme.axisTitleFont));
    const double height = kGap + title.height() + kGap + kBarHeight + kGap + 5.0 * rowHeight() + kGap;
    return QSize(static_cast<int>(std::ceil(width)), static_cast<int>(std::ceil(height)));
}

QRectF StepBreakdownBar::barRect() const
{
    const TextMetrics title(bold(m_theme.axisTitleFont));
    return QRectF(kMargin, kGap + title.height() + kGap, width() - 2.0 * kMargin, kBarHeight);
}

QRectF StepBreakdownBar::segmentRect(BreakdownPart part) const
{
    const double total = m_data.breakdown.total();
    if (!m_hasData || !(total > 0.0) || !(breakdownSeconds(m_data.breakdown, part) > 0.0))
        return QRectF();
    const QRectF bar = barRect();
    double left = bar.left();
    for (const BreakdownPart p : kBreakdownParts) {
        const double w = bar.width() * breakdownSeconds(m_data.breakdown, p) / total;
        if (p == part)
            return QRectF(left, bar.top(), w, bar.height());
        left += w;
    }
    return QRectF();
}

QRectF StepBreakdownBar::rowRect(BreakdownPart part) const
{
    const auto index =
        static_cast<double>(std::find(kBreakdownParts.begin(), kBreakdownParts.end(), part) - kBreakdownParts.begin());
    return QRectF(kMargin, barRect().bottom() + kGap + index * rowHeight(), width() - 2.0 * kMargin, rowHeight());
}

void StepBreakdownBar::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(rect(), m_theme.background);
    const QFont titleFont = bold(m_theme.axisTitleFont);
    const TextMetrics titleMetrics(titleFont);
    const TextMetrics labelMetrics(m_theme.legendFont);
    p.setFont(titleFont);
    p.setPen(m_theme.text);
    p.drawText(QPointF(kMargin, kGap + titleMetrics.ascent()),
               titleMetrics.elidedText(m_title, Qt::ElideRight, width() - 2.0 * kMargin));
    const QRectF bar = barRect();
    p.setFont(m_theme.legendFont);
    if (!m_hasData) {
        p.setPen(QPen(m_theme.grid, 2.0, Qt::DashLine));
        p.drawRect(bar);
        p.setPen(m_theme.mutedText);
        const QRectF below(kMargin, bar.bottom() + kGap, bar.width(), 3.0 * rowHeight());
        p.drawText(below, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_message);
        return;
    }
    for (const BreakdownPart part : kBreakdownParts) {
        const QRectF segment = segmentRect(part);
        if (segment.isEmpty())
            continue;
        p.setPen(Qt::NoPen);
        p.setBrush(partColor(part));
        p.drawRect(segment);
    }
    p.setPen(QPen(m_theme.mutedText, 1.0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(bar);

    // The table: swatch and name left, time and share right-aligned; a part that took no time in muted text.
    const StepBreakdown& b = m_data.breakdown;
    const double total = b.total();
    const double shareWidth =
        std::max(labelMetrics.horizontalAdvance(QStringLiteral("100 %")), labelMetrics.horizontalAdvance(tr("hidden")));
    for (const BreakdownPart part : kBreakdownParts) {
        const QRectF row = rowRect(part);
        const double seconds = breakdownSeconds(b, part);
        const bool took = seconds > 0.0;
        const QRectF box(row.left(), row.center().y() - kSwatch / 2.0, kSwatch, kSwatch);
        p.setPen(QPen(took ? m_theme.mutedText : partColor(part), 1.5));
        p.setBrush(took ? QBrush(partColor(part)) : QBrush(Qt::NoBrush));
        p.drawRect(box);
        p.setPen(took ? m_theme.text : m_theme.mutedText);
        const double baseline = row.top() + (row.height() - labelMetrics.height()) / 2.0 + labelMetrics.ascent();
        p.drawText(QPointF(box.right() + 8.0, baseline), breakdownPartName(part));
        const bool hidden = !took && !hiddenUnder(part).isEmpty();
        const QString share = took ? QStringLiteral("%1 %").arg(total > 0.0 ? 100.0 * seconds / total : 0.0, 0, 'f', 0)
                                   : (hidden ? tr("hidden") : QString());
        QString time = took ? formatSeconds(seconds) : tr("none");
        if (hidden)
            time = part == BreakdownPart::Compute ? formatSeconds(m_data.computeSeconds) : QString();
        p.drawText(QPointF(row.right() - labelMetrics.horizontalAdvance(share), baseline), share);
        p.drawText(QPointF(row.right() - shareWidth - 16.0 - labelMetrics.horizontalAdvance(time), baseline), time);
    }
}

}  // namespace ridgeline::ui
