// The roofline chart's key (ui/chart/roofline_chart.h): kinds and precisions the user hides by clicking their
// entries, in rows below the axis title, and the room the key and the strip of roofs and notes take from the plot.
#include "ui/chart/roofline_chart.h"

#include <QScatterSeries>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

// The chart's margins around what Qt Charts lays out (title, axes, plot); the right one holds the strip.
constexpr double kMarginLeft = 12.0;
constexpr double kMarginRight = 20.0;
constexpr double kMarginBottom = 8.0;
constexpr double kLegendGap = 4.0;  // between the axis title and the key
// The strip of roofs and notes: a sixth of the chart's width, its rows wrapped to it, so that the plot keeps
// three quarters of a 1280 px slide.
constexpr double kStripShare = 0.16;
constexpr double kStripMin = 170.0;
constexpr double kStripMax = 260.0;
// The most of the chart's height the key's rows take before it folds to one row: in a window's chart the rows of
// a session of many kinds and precisions would leave the plot a strip (three rows of 510 px took 81).
constexpr double kKeyShare = 0.12;

}  // namespace

void RooflineChart::addLegendEntry(const LegendEntry& entry, LegendToggle toggle)
{
    m_legendEntries.push_back(entry);
    m_legendToggles.push_back(std::move(toggle));
}

// A click on a kind's entry hides or shows it; on a precision's, its roofs and kernels. The entry stays,
// dimmed. A precision's change rebuilds the chart and its key: queued, after the click has left the key.
void RooflineChart::onLegendClick(int index)
{
    if (index < 0 || static_cast<std::size_t>(index) >= m_legendToggles.size())
        return;
    const LegendToggle toggle = m_legendToggles[static_cast<std::size_t>(index)];
    if (!toggle.precision.isEmpty()) {
        const QString precision = toggle.precision;
        QMetaObject::invokeMethod(
            this, [this, precision] { setPrecisionVisible(precision, hiddenPrecisions().contains(precision)); },
            Qt::QueuedConnection);
    } else if (!toggle.kind.isEmpty()) {
        const QPair<int, QString> key(toggle.session, toggle.kind);
        if (!m_hiddenKinds.remove(key))
            m_hiddenKinds.insert(key);
        applyKindVisibility();
        relayout();
    }
}

void RooflineChart::setPrecisionVisible(const QString& precision, bool visible)
{
    ChartOptions options = m_options;
    options.hiddenPrecisions.removeAll(precision);
    if (!visible)
        options.hiddenPrecisions << precision;
    setOptions(options);
}

// The entries of hidden precisions: a dimmed stroke and name, to be clicked on again.
void RooflineChart::addHiddenPrecisionEntries()
{
    for (const QString& precision : m_plot.hiddenPrecisionEntries) {
        LegendEntry entry{tr("%1 roofs").arg(precision), QPen(m_theme.mutedText, m_theme.roofWidth, Qt::DashLine),
                          Qt::NoBrush};
        entry.dimmed = true;
        addLegendEntry(entry, {-1, {}, precision});
    }
}

bool RooflineChart::kindHidden(int session, const QString& kind) const
{
    return m_hiddenKinds.contains(QPair<int, QString>(session, kind));
}

void RooflineChart::applyKindVisibility()
{
    for (std::size_t i = 0; i < m_plot.groups.size(); ++i) {
        const KernelGroup& group = m_plot.groups[i];
        QScatterSeries* series = m_groupSeries[i];
        if (!group.dimmed && series)
            series->setVisible(!kindHidden(group.session, group.kind));
    }
    const std::vector<LegendToggle>& toggles = m_legendToggles;
    for (std::size_t i = 0; i < toggles.size(); ++i)
        if (!toggles[i].kind.isEmpty())
            m_legend->setDimmed(i, kindHidden(toggles[i].session, toggles[i].kind));
}

void RooflineChart::setKernelKindVisible(const QString& kind, bool visible)
{
    for (int session = 0; session < static_cast<int>(m_sessions.size()); ++session) {
        const QPair<int, QString> key(session, kind);
        if (visible)
            m_hiddenKinds.remove(key);
        else
            m_hiddenKinds.insert(key);
    }
    applyKindVisibility();
    relayout();
}

QStringList RooflineChart::hiddenKernelKinds() const
{
    QStringList hidden;
    for (const KernelGroup& group : m_plot.groups)
        if (!group.dimmed && group.session == 0 && kindHidden(0, group.kind) && !hidden.contains(group.kind))
            hidden << group.kind;
    return hidden;
}

// The strip takes its share of the width from the right margin; the key's rows take the height they need from the
// bottom one: under the plot's column, or across the whole chart (under the strip too) when that saves a row, so
// that a session of many kinds and precisions wraps instead of taking a column of the plot's width. Rows that would
// take more than their share of a short chart on screen fold to one, unless the user unfolded them.
void RooflineChart::fitMargins(QSizeF chartSize)
{
    const double width = chartSize.width();
    const bool strip = m_options.legendBeside && !m_plot.roofs.empty() && width >= 400.0;
    m_stripWidth = strip ? std::clamp(std::round(width * kStripShare), kStripMin, kStripMax) : 0.0;
    const double column = width - kMarginLeft - kMarginRight - m_stripWidth;
    const double full = width - kMarginLeft - kMarginRight;
    const double allRows = std::min(m_legend->heightFor(column, KeyFold::All), m_legend->heightFor(full, KeyFold::All));
    // Only on screen, where "+N more" can be clicked: an exported picture or slide shows every row.
    const bool onScreen = isVisible() && !window()->testAttribute(Qt::WA_DontShowOnScreen);
    const bool folds = onScreen && allRows > std::max(m_legend->rowHeight(), kKeyShare * chartSize.height());
    m_legend->setFold(!folds ? KeyFold::All : m_keyUnfolded ? KeyFold::Unfolded : KeyFold::OneRow);
    const double underPlot = m_legend->heightFor(column, m_legend->fold());
    const double rows = std::min(underPlot, m_legend->heightFor(full, m_legend->fold()));
    // A folded key's one row runs under the strip too: more of its entries fit.
    const bool underPlotOnly = underPlot <= rows && m_legend->fold() != KeyFold::OneRow;
    m_legendArea = QRectF(kMarginLeft, 0.0, underPlotOnly ? column : full, rows);
    const QMargins margins(static_cast<int>(kMarginLeft), 8, static_cast<int>(kMarginRight + m_stripWidth),
                           static_cast<int>(std::ceil(kMarginBottom + (rows > 0.0 ? rows + kLegendGap : 0.0))));
    if (chart()->margins() != margins)
        chart()->setMargins(margins);
}

// "+N more" shows every row of the key; "fewer" folds it to one again. Queued: the click's release is still with
// the key.
void RooflineChart::onFoldClick()
{
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_keyUnfolded = !m_keyUnfolded;
            fitMargins(chart()->size());
            relayout();
        },
        Qt::QueuedConnection);
}

// The key's rows at the bottom of the chart, under the axis title.
void RooflineChart::placeLegend()
{
    const double top = chart()->size().height() - kMarginBottom - m_legendArea.height();
    m_legend->layOut(QPointF(m_legendArea.left(), top), m_legendArea.width());
}

}  // namespace ridgeline::ui
