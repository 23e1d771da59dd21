#include "ui/talk/link_bars.h"

#include "core/model/catalog/links.h"

#include <QPainter>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

constexpr int kTitlePx = 22;
constexpr int kLabelPx = 19;
constexpr int kValuePx = 22;
constexpr int kNotePx = 15;
constexpr int kBarHeight = 44;
constexpr int kRowGap = 26;

// The fact keys scene_facts.cpp derives from a link id: "infiniband-ndr" -> "infiniband_ndr".
QString factKey(const QString& id)
{
    static const QRegularExpression nonWord(QStringLiteral("[^a-z0-9]+"));
    QString key = id.toLower();
    key.replace(nonWord, QStringLiteral("_"));
    return key;
}

}  // namespace

LinkBars::LinkBars(const Scene& scene, const SceneFacts& facts, ThemeKind theme, QWidget* parent)
    : QWidget(parent), m_theme(ChartTheme::make(theme))
{
    setObjectName(QStringLiteral("LinkBars"));
    for (const QString& id : scene.links) {
        const std::optional<double> tokens = facts.value(QStringLiteral("tokens_s_") + factKey(id));
        if (!tokens || !std::isfinite(*tokens))
            continue;
        Bar bar;
        const Result<LinkSpec> link = findLink(id);
        bar.label = link ? link.value().name : id;
        bar.insideBox = !link || link.value().insideBox;
        bar.value = facts.text(QStringLiteral("tokens_s_") + factKey(id));
        bar.tokensPerSecond = *tokens;
        bar.commPercent = facts.value(QStringLiteral("comm_percent_") + factKey(id)).value_or(0.0);
        m_bars.push_back(bar);
    }
}

QSize LinkBars::sizeHint() const
{
    const int rows = static_cast<int>(m_bars.size());
    return {560, kTitlePx + 8 + kRowGap + rows * (kLabelPx + 8 + kBarHeight + kNotePx + 6 + kRowGap)};
}

QSize LinkBars::minimumSizeHint() const
{
    return {360, sizeHint().height()};
}

void LinkBars::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.fillRect(rect(), m_theme.background);
    double best = 0.0;
    for (const Bar& b : m_bars)
        best = std::max(best, b.tokensPerSecond);
    if (m_bars.empty() || !(best > 0.0))
        return;

    const int rows = static_cast<int>(m_bars.size());
    const int rowHeight = kLabelPx + 8 + kBarHeight + kNotePx + 6;
    const int total = rows * rowHeight + (rows - 1) * kRowGap;
    int y = std::max(0, (height() - total - kTitlePx - kRowGap) / 2);
    p.setFont(pixelFont(kTitlePx, true));
    p.setPen(m_theme.text);
    p.drawText(QRect(0, y, this->width(), kTitlePx + 8), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Tokens/s over each link"));
    y += kTitlePx + 8 + kRowGap;
    const QColor inside = m_theme.bandwidthColor(QStringLiteral("L1"));
    const QColor between = QColor(0xf0, 0x9a, 0x40);
    const int width = this->width() - 8;
    for (const Bar& b : m_bars) {
        p.setFont(pixelFont(kLabelPx, true));
        p.setPen(m_theme.text);
        p.drawText(QRect(0, y, width, kLabelPx + 6), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(p.font()).elidedText(b.label, Qt::ElideRight, width));
        y += kLabelPx + 8;
        const double fraction = b.tokensPerSecond / best;
        const QRectF bar(0, y, std::max(4.0, fraction * width), kBarHeight);
        p.setPen(Qt::NoPen);
        p.setBrush(b.insideBox ? inside : between);
        p.drawRoundedRect(bar, 4, 4);
        // The value sits inside a long bar, after a short one.
        p.setFont(pixelFont(kValuePx, true));
        const int valueWidth = QFontMetrics(p.font()).horizontalAdvance(b.value) + 24;
        if (bar.width() >= valueWidth) {
            p.setPen(QColor(0x10, 0x10, 0x10));
            p.drawText(bar.adjusted(12, 0, -12, 0), Qt::AlignLeft | Qt::AlignVCenter, b.value);
        } else {
            p.setPen(m_theme.text);
            p.drawText(QRectF(bar.right() + 12, y, width - bar.right() - 12, kBarHeight),
                       Qt::AlignLeft | Qt::AlignVCenter, b.value);
        }
        y += kBarHeight + 6;
        p.setFont(pixelFont(kNotePx));
        p.setPen(m_theme.mutedText);
        const QString where = b.insideBox ? tr("inside the box") : tr("between machines");
        p.drawText(QRect(0, y, width, kNotePx + 4), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetrics(p.font()).elidedText(
                       tr("%1 \u00b7 all-reduces take %2 % of each step").arg(where).arg(std::lround(b.commPercent)),
                       Qt::ElideRight, width));
        y += kNotePx + 6 + kRowGap;
    }
}

}  // namespace ridgeline::ui
