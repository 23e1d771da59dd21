#pragma once
// A serving slide's chart: one curve over the batch on two log axes, each point named (the trade of throughput
// against the time to first token, or the cost per million output tokens against the batch). What it draws comes
// from ui/plots/batching/serving_scene_data.h.

#include "ui/chart/annotated_chart.h"
#include "ui/plots/batching/serving_scene_data.h"

QT_BEGIN_NAMESPACE
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

class ServingSceneChart : public AnnotatedChart {
    Q_OBJECT
public:
    explicit ServingSceneChart(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const ServingSceneChartData& data);
    const ServingSceneChartData& data() const { return m_data; }
    QLineSeries* curve() const { return m_line; }
    // A point in the axes' units -> viewport pixel.
    QPoint viewportPosition(QPointF value) const;

private:
    void applyTheme();
    void relayout() override;

    ServingSceneChartData m_data;
    QLogValueAxis* m_axisX = nullptr;
    QLogValueAxis* m_axisY = nullptr;
    QLineSeries* m_line = nullptr;
    QScatterSeries* m_dots = nullptr;
};

}  // namespace ridgeline::ui
