#pragma once
// The roofline chart: log-log axes, compute and bandwidth ceilings drawn as exact roofs, kernels as dots
// with non-overlapping labels, error bars, ceiling labels on the lines, optional region shading and
// iso-efficiency lines. Several sessions overlay in distinct colours; extra named roofs (GPUs) sit beside.
// It only renders: what to draw comes from buildRooflinePlot (ui/plots/roofline/roofline_plot.h), the text and marks
// over the dots from annotateRoofline (ui/plots/roofline/roofline_labels.h); here they become series, axes and two
// overlay items, with zoom, pan, hover and click (a press and release within a few pixels is a click on the dot
// or roof under it, a longer drag zooms: ui/chart/chart_navigator.h), and keys that walk the kernels as clicks do
// (ui/chart/roofline_chart_keys.cpp).

#include "core/model/roofline.h"
#include "core/session/session.h"
#include "ui/chart/chart_layout.h"
#include "ui/chart/chart_legend.h"
#include "ui/chart/chart_navigator.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/layout/view_history.h"
#include "ui/plots/roofline/roof_labels.h"
#include "ui/plots/roofline/roofline_decorations.h"
#include "ui/plots/roofline/roofline_plot.h"

#include <QChartView>
#include <QPair>
#include <QSet>

#include <memory>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QAbstractSeries;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

class ChartLegend;
class ChartOverlay;
class KernelDots;

class RooflineChart : public QChartView {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);
    ~RooflineChart() override;

    // The first session is the primary one (shading and iso lines follow it); the rest are overlays.
    void setSessions(std::vector<Session> sessions);
    const std::vector<Session>& sessions() const { return m_sessions; }
    void setExtraRoofs(std::vector<NamedRoof> roofs);
    const std::vector<NamedRoof>& extraRoofs() const { return m_extraRoofs; }
    void setOptions(const ChartOptions& options);
    const ChartOptions& options() const { return m_options; }
    const ChartTheme& theme() const { return m_theme; }
    // What is drawn, as plain data.
    const RooflinePlot& plot() const { return m_plot; }

    // The bandwidth view links here: emphasise one level's roof ("L2"); empty clears.
    void setHighlightedLevel(const QString& level);
    QString highlightedLevel() const { return m_highlightedLevel; }
    // Ring one kernel (after a click); -1 clears.
    void setSelectedKernel(int session, int kernel);
    // Selects the kernel `step` on from the selected one in the keys' order (ui/plots/roofline/kernel_order.h: in view,
    // by intensity then performance), as a click on its dot does: kernelClicked follows. False past either end.
    bool stepSelection(int step);
    KernelRef selectedKernel() const { return m_selected; }
    // Kernels whose short or full name contains the text (any case) are drawn as usual; the others fade to
    // small grey dots without labels, tooltips or clicks. Empty shows every kernel. Keeps the zoom.
    void setKernelFilter(const QString& text);
    QString kernelFilter() const { return m_kernelFilter; }
    bool matchesKernelFilter(const KernelResult& kernel) const;

    // Kernel kinds ("sgemm", "decode") shown or hidden, as a click on their legend entry does; every
    // session's dots of that kind follow. hiddenKernelKinds lists the hidden kinds of the primary session.
    // A kind stays hidden while the sessions stay (theme, highlight and filter changes keep it).
    void setKernelKindVisible(const QString& kind, bool visible);
    QStringList hiddenKernelKinds() const;
    // Shows or hides a precision's compute roofs and kernels, as its legend entry does.
    void setPrecisionVisible(const QString& precision, bool visible);
    const QStringList& hiddenPrecisions() const { return m_options.hiddenPrecisions; }

    // The zoom: the data range the axes show. setVisibleRange takes each axis whose bounds make a log range
    // (positive, increasing, finite) and leaves the other as it is.
    PlotRange visibleRange() const;
    void setVisibleRange(const PlotRange& range);
    void resetView();
    // Back and Forward through the views zooms, pans and resets showed (Alt+Left / Alt+Right, the mouse's side
    // buttons, the View menu); new data starts afresh. historyChanged says when either becomes possible or not.
    void zoomBack();
    void zoomForward();
    bool canZoomBack() const { return m_history.canGoBack(); }
    bool canZoomForward() const { return m_history.canGoForward(); }

    // What is on the chart, for tests and the CSV export.
    QList<QLineSeries*> ceilingSeries() const;  // one per compute and bandwidth ceiling, all sessions
    QList<QScatterSeries*> kernelSeries() const;
    QList<QLineSeries*> extraRoofSeries() const;
    // kind is "compute" or "bandwidth"; name as in the session ("fp32 avx512 x2", "DRAM", "L2 triad").
    QLineSeries* ceilingSeries(int session, const QString& kind, const QString& name) const;
    int kernelPointCount() const;        // kernels drawn in full (those the filter lets through)
    int dimmedKernelPointCount() const;  // kernels the filter fades out
    // Chart-data -> viewport pixel, the layout-independent probe of the house style.
    QPoint viewportPosition(QPointF value) const;
    // Chart-data -> chart coordinates (where the overlays draw), as Qt Charts maps its own series.
    QPointF plotPosition(QPointF value) const;
    // Ceiling and kernel labels currently drawn (text only), for tests.
    QStringList visibleLabels() const;
    // The hover text of a kernel: name, numbers, bound; for imported kernels also the full name, file, level, time.
    QString kernelTooltip(int session, int kernel) const;
    // Before/after arrows currently drawn (their "+150 %" labels are among visibleLabels()).
    int beforeAfterArrowCount() const { return m_drawnArrows; }
    // Diameter in pixels of a kernel's dot (differs from the theme's only when sized by time share).
    double kernelMarkerSize(int session, int kernel) const;
    // A kernel's colour: its kind's (or its session's, in an overlay), or its own for imported kernels.
    QColor kernelColor(int session, int kernel) const;
    // Where each roof in view is named now (a label's outline on the chart, or the roof legend), and that legend's box.
    const std::vector<RoofLabel>& roofLabels() const { return m_roofLabels; }
    QRectF roofLegendRect() const { return m_roofLegend; }
    // Text boxes of the kernel labels currently drawn, in chart coordinates.
    std::vector<QRectF> kernelLabelRects() const { return m_kernelLabelRects; }
    // What the two overlay layers draw now, in chart coordinates: error bars, the ridge line, level joins and the
    // decode path under the dots; arrows, leaders, rings and every label over them.
    const ChartOverlay& underDots() const { return *m_under; }
    const ChartOverlay& overDots() const { return *m_over; }
    // The ring that shows the keyboard's focus is on the chart (focus by Tab, or a key used on it).
    bool showsKeyFocus() const { return m_keyFocus && hasFocus(); }
    // What the mouse is over, in words and units (empty when it is off the plot), and the layer that shows it.
    QString pointerReadoutText() const { return m_readout; }
    // Where everything is drawn now, in the viewport's pixels (an export's): read off the series and overlays.
    ChartLayout layoutReport() const;
    // The roof legend and notes beside the plot, as drawn now.
    const ChartOverlay& besidePlot() const { return *m_strip; }
    // The key of kinds and precisions below the axis title; a click on an entry hides or shows what it names.
    const ChartLegend& legend() const { return *m_legend; }
    const ChartOverlay& pointerLayer() const { return *m_pointer; }

signals:
    void kernelClicked(int session, int kernel);
    // A bandwidth roof was clicked: its level ("L2"), or empty when the click cleared the highlight.
    void levelClicked(const QString& level);
    void viewChanged();
    void historyChanged();

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    bool event(QEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    enum class View { Reset, Keep };
    void rebuild(View view = View::Reset);
    void relayout();
    // The room beside and below the plot for the strip and the key, from the chart's size: set before Qt Charts
    // lays the plot out for it.
    void fitMargins(QSizeF chartSize);
    void placeLegend();
    QRectF stripRect() const;
    void applyThemeToChart();
    QLineSeries* addLine(const std::vector<QPointF>& points, const QPen& pen, const QString& name);
    void attach(QAbstractSeries* series);
    void addRoof(std::size_t index);
    void addGroup(std::size_t index);
    void applyKindVisibility();
    // What a click on a key entry does: hide or show a session's kind of kernels, or a precision's roofs; nothing
    // for an entry that only names (an overlay session's roof).
    struct LegendToggle {
        int session = -1;
        QString kind;
        QString precision;
    };
    void addLegendEntry(const LegendEntry& entry, LegendToggle toggle);
    void addHiddenPrecisionEntries();
    void onLegendClick(int index);
    void onFoldClick();
    bool kindHidden(int session, const QString& kind) const;
    // The plot as the layouts and the hit test see it: the current mapping, selection and shown kinds.
    RooflineView currentView() const;
    QPointF chartPosition(QPoint viewportPosition) const;
    void onClick(QPoint viewportPosition);
    void hover(QPoint viewportPosition);
    // Acts on what the navigator made of an event; false when the event is not the navigator's.
    bool handled(ChartNavigator::Outcome outcome, QPoint position);
    // N, P, Enter and Escape on the selection; false for a key that is not one of them (or finds no selection).
    bool selectionKey(const QKeyEvent& event);
    // The selected kernel in words for the accessible description, with its place in the keys' order.
    QStringList selectionDescription() const;

    std::vector<Session> m_sessions;
    std::vector<NamedRoof> m_extraRoofs;
    ChartOptions m_options;
    ChartTheme m_theme;
    QString m_highlightedLevel;
    QString m_kernelFilter;
    KernelRef m_selected;
    QSet<QPair<int, QString>> m_hiddenKinds;  // (session, kind) hidden from the legend
    RooflinePlot m_plot;

    QLogValueAxis* m_axisX = nullptr;
    QLogValueAxis* m_axisY = nullptr;
    QLineSeries* m_anchor = nullptr;             // empty series that carries the axes for mapToPosition
    double m_yUnit = 1.0;                        // GFLOP/s per unit of the performance axis
    bool m_hasView = false;                      // the axes show a range of this data (a rebuild may keep it)
    std::vector<QLineSeries*> m_roofSeries;      // per m_plot.roofs
    std::vector<QScatterSeries*> m_groupSeries;  // per m_plot.groups
    QList<QLineSeries*> m_ceilingSeries;
    QList<QScatterSeries*> m_kernelSeries;
    QList<QScatterSeries*> m_dimmedSeries;
    QList<QLineSeries*> m_extraSeries;
    int m_drawnArrows = 0;

    ChartOverlay* m_under = nullptr;            // error bars, under the dots
    KernelDots* m_dots = nullptr;               // the dots of groups too large for Qt Charts' markers
    ChartOverlay* m_over = nullptr;             // labels and leader lines, over everything
    ChartOverlay* m_pointer = nullptr;          // the readout of what the mouse is over: never in an export
    ChartOverlay* m_strip = nullptr;            // the roof legend and the notes beside the plot
    ChartLegend* m_legend = nullptr;            // kinds and precisions, below the axis title
    std::vector<LegendEntry> m_legendEntries;   // gathered while the series are added
    std::vector<LegendToggle> m_legendToggles;  // per entry
    double m_stripWidth = 0.0;                  // 0: no strip
    QRectF m_legendArea;                        // where the key's rows go: x, y and width; height as they take
    bool m_keyUnfolded = false;                 // "+N more" was clicked: a key that folds shows all its rows
    QString m_readout;
    std::vector<QRectF> m_kernelLabelRects;
    std::vector<RoofLabel> m_roofLabels;
    QRectF m_roofLegend;
    bool m_rebuilding = false;
    std::unique_ptr<ChartNavigator> m_navigator;
    ViewHistory m_history;
    PlotRange m_panStart;     // the view a middle-button pan left
    bool m_keyFocus = false;  // the focus came by the keyboard, or keys were used: the focus ring shows
    void showKeyFocus(bool show);
    // Where the last wheel notch of a run was: notches that follow it at the same spot, with nothing else visited
    // between, are one visit (Back returns to the view before the run, not one notch back).
    std::optional<QPointF> m_wheelRun;
    void leaveView(const PlotRange& left);
};

}  // namespace ridgeline::ui
