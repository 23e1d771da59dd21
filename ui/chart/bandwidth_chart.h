#pragma once
// Bandwidth against working-set size: the staircase of the session's bandwidth curve, with the cache
// capacities marked and each plateau's value written beside it. Both axes are logarithmic, with their ticks
// from ui/plots/roofline/bandwidth_staircase.h. Hovering a point shows its numbers; clicking one selects its memory
// level (the roofline then highlights that roof).

#include "core/session/session.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/roofline/bandwidth_staircase.h"

#include <QChartView>

#include <optional>

QT_BEGIN_NAMESPACE
class QCategoryAxis;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;
QT_END_NAMESPACE

namespace ridgeline::ui {

class ChartOverlay;

class BandwidthChart : public QChartView {
    Q_OBJECT
public:
    explicit BandwidthChart(QWidget* parent = nullptr);

    void setSession(const Session& session);
    void setTheme(ThemeKind theme);
    // Emphasises the points of one level, as if the user had clicked it; empty clears.
    void setSelectedLevel(const QString& level);
    QString selectedLevel() const { return m_selectedLevel; }

    int curvePointCount() const;
    int cacheMarkerCount() const { return static_cast<int>(m_staircase.caches.size()); }
    // "L1 32 KiB" style: one per data/unified cache level, total capacity this process can use.
    QStringList cacheLabels() const;
    // What is drawn, as plain data.
    const BandwidthStaircase& staircase() const { return m_staircase; }
    // Every text of the overlay (cache sizes, plateau values) and the axes' tick labels, for tests.
    QStringList overlayTexts() const;
    std::vector<QRectF> overlayTextRects() const;  // their boxes, in the chart's coordinates
    QStringList xTickLabels() const;
    QStringList yTickLabels() const;
    // Curve point `index` (ascending working set) in viewport pixels: where a user points at it.
    QPoint pointPosition(int index) const;
    // The text shown for the point under the mouse; empty when the mouse is over none.
    QString hoverText() const { return m_hoverText; }

signals:
    void levelSelected(const QString& level);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void rebuild();
    void setAxes();
    void addCacheMarkers();
    void addCurveAndPoints();
    void applyTheme();
    void fitTitles();
    void relayout();
    // The curve point nearest to a viewport pixel, within reach of the mouse; nullopt when none is.
    std::optional<int> pointAt(QPoint pixel) const;
    double curveYAt(double log2Bytes) const;  // chart pixels; needs a point
    void selectLevelOf(int index);

    Session m_session;
    BandwidthStaircase m_staircase;
    ChartTheme m_theme;
    QString m_selectedLevel;
    QString m_hoverText;
    QString m_title;                         // shown when the chart is tall enough (fitTitles)
    QValueAxis* m_axisX = nullptr;           // log2(bytes), hidden: carries the data
    QCategoryAxis* m_axisXLabels = nullptr;  // "4 KiB", "1 MiB" ... at the matching log2 positions
    QLogValueAxis* m_axisY = nullptr;        // GB/s, hidden: carries the data
    QCategoryAxis* m_axisYLabels = nullptr;  // 10, 20, 50, 100 ... at the matching log10 positions
    QLineSeries* m_curve = nullptr;
    ChartOverlay* m_annotations = nullptr;
};

}  // namespace ridgeline::ui
