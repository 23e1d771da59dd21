#pragma once
// The decode step as a point on one GPU's roofline (TFLOP/s per GPU against FLOP/byte): the roof the
// model uses (and the datasheet roof when efficiencies are below 1), the trajectory of the step from
// batch 1 to 4096 at this context, the current batch as a large dot that moves along it, and the
// attention over the KV cache as its own point (memory-bound for MHA and GQA at any batch).

#include "ui/chart/annotated_chart.h"
#include "ui/plots/batching/batching_chart_data.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

class DecodeRooflineChart : public AnnotatedChart {
    Q_OBJECT
public:
    explicit DecodeRooflineChart(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const DecodeRooflineData& data);
    void showMessage(const QString& message);
    bool hasData() const { return m_hasData; }
    const DecodeRooflineData& data() const { return m_data; }

    // (FLOP/byte, TFLOP/s) -> viewport pixel.
    QPoint viewportPosition(QPointF intensityAndTflops) const;
    // Where the current decode step is drawn, in viewport pixels.
    QPoint currentPointPosition() const;
    QScatterSeries* currentMarker() const { return m_current; }
    QScatterSeries* attentionMarker() const { return m_attention; }
    QScatterSeries* operatorMarkers() const { return m_operators; }
    QLineSeries* trajectorySeries() const { return m_trajectory; }
    QLineSeries* roofSeries() const { return m_roof; }

private:
    // The roofs and the trajectory as segments in chart coordinates: what labels keep off.
    std::vector<QLineF> curveSegments() const;
    void applyTheme();
    void relayout() override;
    // The TFLOP/s axis's top for the data and the plot's present height (decodeAxisTop).
    double axisTopForPlot() const;
    QLineSeries* addLine(const QString& name, bool inLegend);
    QScatterSeries* addScatter(const QString& name, bool inLegend);

    DecodeRooflineData m_data;
    double m_axisYDataTop = 1e3;  // the TFLOP/s axis's top the data asks for, before room for the roofs' numbers
    double m_roofTflops = 0.0;    // the flat roof the numbers sit above
    bool m_axisTopPending = false;
    bool m_hasData = false;
    QString m_message;

    QLogValueAxis* m_axisX = nullptr;
    QLogValueAxis* m_axisY = nullptr;
    QLineSeries* m_datasheet = nullptr;
    QLineSeries* m_roof = nullptr;
    QLineSeries* m_trajectory = nullptr;      // batches that fit
    QLineSeries* m_trajectoryOver = nullptr;  // batches that do not (dotted)
    QScatterSeries* m_marks = nullptr;        // B = 1, 4, 16 ... along the trajectory
    QScatterSeries* m_attention = nullptr;
    QScatterSeries* m_operators = nullptr;  // the step's kernels at the current batch and context
    QScatterSeries* m_current = nullptr;
};

}  // namespace ridgeline::ui
