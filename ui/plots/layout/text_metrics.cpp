#include "ui/plots/layout/text_metrics.h"

#include <QHash>
#include <QPair>

#include <memory>

namespace ridgeline::ui {

struct TextMetrics::Widths {
    QHash<QString, double> byText;
};

namespace {

// Labels carry numbers that change as a slider moves, so a font's table only grows: it starts again past this size,
// which a whole window's labels stay well below.
constexpr qsizetype kMaxRemembered = 4096;

}  // namespace

TextMetrics::TextMetrics(const QFont& font) : QFontMetricsF(font)
{
    // The charts draw on the GUI thread and `render` on the main one; a table per thread needs no lock. A font in
    // points made for another screen (QFont(font, device)) compares equal to the same font here yet measures at that
    // screen's dots per inch: its height, measured, tells the two apart.
    thread_local QHash<QPair<QFont, double>, std::shared_ptr<Widths>> tables;
    std::shared_ptr<Widths>& widths = tables[qMakePair(font, height())];
    if (!widths)
        widths = std::make_shared<Widths>();
    m_widths = widths.get();
}

double TextMetrics::horizontalAdvance(const QString& text) const
{
    const auto found = m_widths->byText.constFind(text);
    if (found != m_widths->byText.constEnd())
        return *found;
    if (m_widths->byText.size() >= kMaxRemembered)
        m_widths->byText.clear();
    const double width = QFontMetricsF::horizontalAdvance(text);
    m_widths->byText.insert(text, width);
    return width;
}

}  // namespace ridgeline::ui
