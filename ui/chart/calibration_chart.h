#pragma once
// The user's own benchmark against the model: a calibration series' measured points over the
// model's curve along the batch, with the terms before the fit (dashed) and after it (solid), log-log. Data from
// ui/plots/batching/batching_calibration.h, which reads the session's stored calibration.

#include "ui/chart/annotated_chart.h"
#include "ui/plots/batching/batching_calibration.h"

QT_BEGIN_NAMESPACE
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

class CalibrationChart : public AnnotatedChart {
    Q_OBJECT
public:
    explicit CalibrationChart(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const CalibrationCurveData& data);
    void showMessage(const QString& message);
    bool hasData() const { return m_hasData; }
    const CalibrationCurveData& data() const { return m_data; }

    // (batch, value) -> viewport pixel.
    QPoint viewportPosition(QPointF batchAndValue) const;
    QScatterSeries* measuredSeries() const { return m_measured; }
    QLineSeries* beforeSeries() const { return m_before; }
    QLineSeries* afterSeries() const { return m_after; }

private:
    void applyTheme();
    void relayout() override;
    void resizeEvent(QResizeEvent* event) override;
    void fitLegendNames();

    CalibrationCurveData m_data;
    bool m_hasData = false;
    QString m_message;
    QLogValueAxis* m_axisX = nullptr;
    QLogValueAxis* m_axisY = nullptr;
    QLineSeries* m_before = nullptr;
    QLineSeries* m_after = nullptr;
    QScatterSeries* m_measured = nullptr;
};

}  // namespace ridgeline::ui
