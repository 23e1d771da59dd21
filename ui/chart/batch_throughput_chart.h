#pragma once
// Tokens/s and time per decode step against batch (log x, one axis each), the current batch marked, the
// compute-bound knee drawn, and the batches that no longer fit in memory shaded. The curves depend on the
// model, GPU and context only; moving the batch moves the marker, so a slider step redraws little.

#include "ui/chart/annotated_chart.h"
#include "ui/plots/batching/batching_chart_data.h"

#include <vector>

QT_BEGIN_NAMESPACE
class QAreaSeries;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
QT_END_NAMESPACE

namespace ridgeline::ui {

class BatchThroughputChart : public AnnotatedChart {
    Q_OBJECT
public:
    explicit BatchThroughputChart(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const ThroughputData& data);
    // No numbers to show (the model refused the inputs): the curves go, the message stays.
    void showMessage(const QString& message);
    bool hasData() const { return m_hasData; }
    const ThroughputData& data() const { return m_data; }

    // (batch, tokens/s) -> viewport pixel, the layout-independent probe of the house style.
    QPoint viewportPosition(QPointF batchAndTokensPerSecond) const;
    // (batch, seconds per step) -> viewport pixel.
    QPoint stepViewportPosition(QPointF batchAndSeconds) const;
    QLineSeries* tokensSeries() const { return m_tokens; }
    QScatterSeries* currentTokensMarker() const { return m_currentTokens; }

private:
    void applyTheme();
    void relayout() override;
    QLineSeries* addLine(QLogValueAxis* y, const QString& name, bool inLegend);

    ThroughputData m_data;
    bool m_hasData = false;
    QString m_message;

    QLogValueAxis* m_axisX = nullptr;
    QLogValueAxis* m_axisTokens = nullptr;
    QLogValueAxis* m_axisStep = nullptr;  // milliseconds
    QAreaSeries* m_noFit = nullptr;
    QLineSeries* m_noFitUpper = nullptr;
    QLineSeries* m_noFitLower = nullptr;
    QLineSeries* m_noFitEdge = nullptr;   // where the memory runs out
    QLineSeries* m_tokens = nullptr;      // batches that fit
    QLineSeries* m_tokensOver = nullptr;  // batches that do not (dotted)
    QLineSeries* m_step = nullptr;
    QLineSeries* m_stepOver = nullptr;
    QScatterSeries* m_currentTokens = nullptr;
    QScatterSeries* m_currentStep = nullptr;
};

}  // namespace ridgeline::ui
