#pragma once
// The base of the batching explorer's charts (throughput, decode roofline, this CPU's curve): the chart frame in
// the house look, two overlay layers over the plot (what changes with the curves, and what moves with every batch
// step), the "no numbers" message, and the relayout whenever the plot area or an axis range changes. What the
// layers hold comes from ui/plots/batching/batching_labels.h.

#include "ui/plots/batching/batching_labels.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/layout/log_scale.h"

#include <QChartView>
#include <QStringList>

#include <initializer_list>
#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAbstractSeries;
class QLogValueAxis;
class QXYSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

class ChartOverlay;

class AnnotatedChart : public QChartView {
    Q_OBJECT
public:
    const ChartTheme& theme() const { return m_theme; }
    // The title and every text drawn on the plot, for tests.
    QStringList texts() const;
    // Every text box the chart draws over its plot, in chart coordinates: for overlap tests.
    std::vector<QRectF> textRects() const;
    QRectF plotRect() const;                   // the plot area, in the same chart coordinates
    std::vector<QLineF> overlayLines() const;  // every line drawn over the plot (leaders, markers), for tests
    QRectF noteRect() const;                   // the note strip under the axes, as drawn now; empty without a note

protected:
    AnnotatedChart(QMargins margins, QSize minimumSize, QWidget* parent);
    ~AnnotatedChart() override;

    virtual void relayout() = 0;
    // relayout() after every change of the plot area or of these axes' ranges.
    void relayoutOn(std::initializer_list<QAbstractAxis*> axes);
    // The axes whose grid lines (major and minor) are drawn. The chart's backgrounds and this grid are painted
    // in the view's cached background, not as Qt Charts items: a slider step then repaints only what moves over
    // one cached picture (the ~180 grid items were 1.5 ms of a 6.5 ms batch step at 1920x1080).
    void setGridAxes(std::initializer_list<QLogValueAxis*> axes);
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    // Line and area series, and the point markers, are drawn from pixmaps of their own while they do not change: a
    // batch step moves only the markers and the labels, and re-stroking the thick dashed curves was half of what a step
    // still cost. Call after adding series. Exports draw without these caches (renderWidgetTree).
    void cacheSeriesPaint();
    // Both layers, or only the fixed one (the moving one cleared).
    void showLayers(OverlayLayers layers);
    void showContent(OverlayContent fixed);
    // The plot area and two log axes' ranges and bases as a pixel mapping.
    PlotMapping mapping(const QLogValueAxis* x, const QLogValueAxis* y) const;
    // The series' points as pixel segments, each series in its own axes.
    std::vector<QLineF> segmentsOf(std::initializer_list<QXYSeries*> series) const;
    // A data point of `series` -> viewport pixel, the layout-independent probe of the house style.
    QPoint viewportPositionOf(QPointF value, QAbstractSeries* series) const;
    // The title: the first of `titles` (longest first) that fits the chart's width, chosen again on every resize,
    // so a narrow chart reads "Custom GPU roofline, bf16" rather than Qt's "Custom GPU (300 TFLOP/s, 2 TB/s, ...".
    void setTitles(QStringList titles);
    // A sentence about the whole chart, drawn under the axes in a strip of its own (ui/plots/layout/note_strip.h):
    // the chart's bottom margin grows by the strip, so the plot gives way to it rather than being covered.
    void setNote(const QString& note);
    void resizeEvent(QResizeEvent* event) override;

    ChartTheme m_theme;

private:
    ChartOverlay* m_fixed = nullptr;
    ChartOverlay* m_moving = nullptr;
    ChartOverlay* m_note = nullptr;
    QString m_noteText;
    QMargins m_margins;   // the chart's own margins, before the note strip is added under them
    QSize m_minimumSize;  // the chart's own minimum, before the note strip is added under it
    std::vector<QLogValueAxis*> m_gridAxes;
    bool m_cachesSeries = false;  // cacheSeriesPaint was called
    QStringList m_titles;
    QStringList m_drawnTexts;  // the overlays' texts, for the accessible description
    void fitTitle();
    void layoutNote();
    void describe();
};

}  // namespace ridgeline::ui
