#pragma once
// Bandwidth against working-set size: the staircase of the session's bandwidth curve, with the cache
// capacities marked. Clicking a step selects its memory level (the roofline then highlights that roof).

#include "core/session/session.h"
#include "ui/models/chart_theme.h"

#include <QChartView>
#include <QList>
#include <QPointF>

#include <utility>

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
    int cacheMarkerCount() const { return m_cacheMarkers; }
    // "L1 32 KiB" style: one per data/unified cache level, total capacity this process can use.
    QStringList cacheLabels() const;

signals:
    void levelSelected(const QString& level);

private:
    void rebuild();
    std::pair<double, double> fitAxes(const QList<QPointF>& curve);
    void addCacheMarkers(double yMin, double yMax);
    void styleChart(const QString& mix);
    void relayout();
    void onPointClicked(const QPointF& point);

    Session m_session;
    ChartTheme m_theme;
    QString m_selectedLevel;
    QValueAxis* m_axisX = nullptr;           // log2(bytes), hidden: carries the data
    QCategoryAxis* m_axisXLabels = nullptr;  // "4 KiB", "1 MiB" ... at the matching log2 positions
    QLogValueAxis* m_axisY = nullptr;
    QLineSeries* m_curve = nullptr;
    QScatterSeries* m_points = nullptr;
    QScatterSeries* m_selectedPoints = nullptr;
    ChartOverlay* m_annotations = nullptr;
    int m_cacheMarkers = 0;
    std::vector<std::pair<double, QString>> m_cacheSizes;  // log2(bytes), label
};

}  // namespace ridgeline::ui
