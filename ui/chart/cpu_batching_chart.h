#pragma once
// This machine's own batching curve: the decode kernel measured in a session (tokens/s against batch,
// log-log) over the roofline's prediction for the same matrix on this CPU's ceilings. Same physics as
// the GPU panel, different ratio.

#include "ui/chart/annotated_chart.h"
#include "ui/plots/batching/batching_chart_data.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

class CpuBatchingChart : public AnnotatedChart {
    Q_OBJECT
public:
    explicit CpuBatchingChart(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const CpuBatchingData& data);
    const CpuBatchingData& data() const { return m_data; }
    bool hasOverlay() const { return m_data.valid; }

    // (batch, tokens/s) -> viewport pixel.
    QPoint viewportPosition(QPointF batchAndTokensPerSecond) const;
    QScatterSeries* measuredSeries() const { return m_measuredDots; }
    QLineSeries* predictedSeries() const { return m_predicted; }
    // Decode by weight precision, one per precision of data().byWeightPrecision, in its order.
    struct PrecisionSeries {
        QLineSeries* predicted = nullptr;
        QLineSeries* measuredLine = nullptr;
        QScatterSeries* measuredDots = nullptr;
    };
    const std::vector<PrecisionSeries>& precisionSeries() const { return m_byPrecision; }

private:
    void applyTheme();
    void relayout() override;
    void showWeightPrecisions();
    void fitAxes(const std::vector<const std::vector<QPointF>*>& curves);

    CpuBatchingData m_data;
    QLogValueAxis* m_axisX = nullptr;
    QLogValueAxis* m_axisY = nullptr;
    QLineSeries* m_predicted = nullptr;
    QLineSeries* m_measuredLine = nullptr;
    QScatterSeries* m_measuredDots = nullptr;
    std::vector<PrecisionSeries> m_byPrecision;
};

}  // namespace ridgeline::ui
