// The roofline chart's legend (ui/chart/roofline_chart.h): kinds and precisions the user hides by clicking their
// entries, and where the legend goes so that no entry is cut short.
#include "ui/chart/roofline_chart.h"

#include <QFontMetricsF>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>

#include <algorithm>

namespace ridgeline::ui {

// Clicking a precision's legend entry hides or shows its roofs and kernels; the entry of a hidden one
// stays, dimmed. Queued: the change rebuilds the chart, which deletes this marker.
void RooflineChart::connectPrecisionEntry(QLineSeries* series, const QString& precision)
{
    for (QLegendMarker* marker : chart()->legend()->markers(series))
        connect(marker, &QLegendMarker::clicked, this, [this, precision] {
            QMetaObject::invokeMethod(
                this, [this, precision] { setPrecisionVisible(precision, hiddenPrecisions().contains(precision)); },
                Qt::QueuedConnection);
        });
}

void RooflineChart::setPrecisionVisible(const QString& precision, bool visible)
{
    ChartOptions options = m_options;
    options.hiddenPrecisions.removeAll(precision);
    if (!visible)
        options.hiddenPrecisions << precision;
    setOptions(options);
}

// The entries of hidden precisions: empty series in the legend, their labels dimmed.
void RooflineChart::addHiddenPrecisionEntries()
{
    for (const QString& precision : m_plot.hiddenPrecisionEntries) {
        const QPen pen(m_theme.mutedText, m_theme.roofWidth, Qt::DashLine);
        QLineSeries* series = addLine({}, pen, tr("%1 roofs").arg(precision), true);
        connectPrecisionEntry(series, precision);
        QColor label = m_theme.text;
        label.setAlphaF(0.4f);
        for (QLegendMarker* marker : chart()->legend()->markers(series))
            marker->setLabelBrush(label);
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
        if (group.dimmed || !series)
            continue;
        const bool visible = !kindHidden(group.session, group.kind);
        if (series->isVisible() == visible)
            continue;
        series->setVisible(visible);
        if (!group.carriesLegend || !group.legendVisible)
            continue;
        // Hiding a series hides its legend entry too: bring it back, dimmed, so it can be clicked on again.
        for (QLegendMarker* marker : chart()->legend()->markers(series)) {
            marker->setVisible(true);
            QColor label = m_theme.text;
            label.setAlphaF(visible ? 1.0f : 0.4f);
            marker->setLabelBrush(label);
            QColor fill = series->color();
            fill.setAlphaF(visible ? 1.0f : 0.3f);
            marker->setBrush(fill);
        }
    }
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

// One row of entries under the plot while they fit its width; a column beside it when they do not (a session of
// many kinds and precisions), so that no entry is cut short.
void RooflineChart::fitLegend()
{
    QLegend* legend = chart()->legend();
    const QFontMetricsF metrics(m_theme.legendFont);
    double width = 0.0;
    double widest = 0.0;
    for (QLegendMarker* marker : legend->markers())
        if (marker->isVisible()) {
            const double entry = metrics.horizontalAdvance(marker->label()) + 2.5 * metrics.height();  // and marker
            width += entry;
            widest = std::max(widest, entry);
        }
    const Qt::Alignment wanted = width > 0.95 * chart()->size().width() ? Qt::AlignRight : Qt::AlignBottom;
    if (legend->alignment() != wanted)
        legend->setAlignment(wanted);
    // A column as wide as its widest entry: Qt Charts gives a side legend less and elides the longer names
    // ("GPU kernels: bytes at DRAM/H..." beside a GPU's kernels at 1600 px). Never more than a third of the chart.
    const double column =
        wanted == Qt::AlignRight ? std::min(widest + metrics.height(), chart()->size().width() / 3.0) : 0.0;
    if (legend->minimumWidth() != column)
        legend->setMinimumWidth(column);
}

}  // namespace ridgeline::ui
