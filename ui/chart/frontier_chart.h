#pragma once
// Throughput against interactivity: output tokens/s per GPU against tokens/s per user (1 / inter-token latency),
// one point per batch of requests in flight, the tab's batch ringed. The curve depends on the model, GPU and lengths
// only; moving the batch moves the ring and its numbers. With targets, the points that meet both are drawn in their
// own colour, the region slower than the ITL target is shaded and the best point within them named; a click on a
// point asks for its batch.

#include "ui/chart/annotated_chart.h"
#include "ui/plots/batching/frontier_chart_data.h"

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

class FrontierChart : public AnnotatedChart {
    Q_OBJECT
public:
    explicit FrontierChart(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const FrontierChartData& data);
    // No numbers to show (the model refused the inputs): the curve goes, the message stays.
    void showMessage(const QString& message);
    const FrontierChartData& data() const { return m_data; }

    // (tokens/s per user, tokens/s per GPU) -> viewport pixel.
    QPoint viewportPosition(QPointF perUserAndPerGpu) const;
    QLineSeries* frontierSeries() const { return m_line; }
    QScatterSeries* currentMarker() const { return m_current; }
    QScatterSeries* meetingSeries() const { return m_meeting; }
    QAreaSeries* itlShade() const { return m_itlShade; }
    // With a price: USD per million output tokens on the right, against the tokens/s per GPU beside it (reversed:
    // the more tokens a GPU makes, the less each costs); hidden without one, and in a chart under 600 px wide.
    QLogValueAxis* costAxis() const { return m_axisCost; }

signals:
    // A person clicked the point of `batch` requests in flight.
    void batchClicked(std::int64_t batch);

protected:
    void mousePressEvent(QMouseEvent* event) override;

private:
    void applyTheme();
    void relayout() override;
    void updateTargets();
    void updateCostAxis();

    FrontierChartData m_data;
    QString m_priceNote;
    QLogValueAxis* m_axisX = nullptr;
    QLogValueAxis* m_axisY = nullptr;
    QLogValueAxis* m_axisCost = nullptr;
    QLineSeries* m_line = nullptr;
    QScatterSeries* m_dots = nullptr;
    QScatterSeries* m_current = nullptr;
    QScatterSeries* m_meeting = nullptr;  // the points within both targets
    QLineSeries* m_itlUpper = nullptr;
    QLineSeries* m_itlLower = nullptr;
    QAreaSeries* m_itlShade = nullptr;  // slower for each user than the ITL target
};

}  // namespace ridgeline::ui
