#include "ui/chart/cpu_batching_chart.h"

#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/log_axis.h"
#include "ui/plots/batching/cpu_batching_labels.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

CpuBatchingChart::CpuBatchingChart(QWidget* parent) : AnnotatedChart(QMargins(8, 4, 16, 4), QSize(420, 210), parent)
{
    QChart* c = chart();

    m_axisX = makeLogAxis(c, tr("Batch (vectors per step)"), 4.0);
    m_axisY = makeLogAxis(c, tr("Tokens/s"));
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    m_axisX->setRange(0.75, 512.0);
    m_axisY->setRange(10.0, 1e5);

    m_predicted = new QLineSeries;
    m_measuredLine = new QLineSeries;
    m_measuredDots = new QScatterSeries;
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_predicted, m_measuredLine, m_measuredDots}) {
        c->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    for (QLegendMarker* m : c->legend()->markers(m_measuredLine))
        m->setVisible(false);
    // The chart is wide and short: the legend goes beside the plot, leaving the height to the axes.
    c->legend()->setAlignment(Qt::AlignRight);

    relayoutOn({m_axisX, m_axisY});
    setGridAxes({m_axisX, m_axisY});
    applyTheme();
    CpuBatchingData none;
    none.reason = tr("Open or measure a session to see this CPU's batching curve.");
    setData(none);
}

void CpuBatchingChart::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    applyTheme();
    setData(m_data);  // the curves by weight precision take their colours from the theme
}

void CpuBatchingChart::applyTheme()
{
    applyBatchingTheme(this, m_theme, {m_axisX, m_axisY});
    const QColor measured = m_theme.kernelColor(QStringLiteral("decode"));
    QPen line(measured, 3.0);
    line.setCapStyle(Qt::RoundCap);
    m_measuredLine->setPen(line);
    m_measuredDots->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_measuredDots->setMarkerSize(16.0);
    m_measuredDots->setColor(measured);
    m_measuredDots->setBorderColor(m_theme.background);
    QPen predicted(m_theme.computeRoof, 2.5, Qt::DashLine);
    predicted.setCapStyle(Qt::FlatCap);
    m_predicted->setPen(predicted);
}

void CpuBatchingChart::setData(const CpuBatchingData& data)
{
    m_data = data;
    // Where the decode batches' energy per token was read, or why there is none: about the whole run, so under it.
    setNote(data.valid ? data.energy : QString());
    for (const PrecisionSeries& p : m_byPrecision)
        for (QAbstractSeries* series :
             std::initializer_list<QAbstractSeries*>{p.predicted, p.measuredLine, p.measuredDots}) {
            chart()->removeSeries(series);
            delete series;
        }
    m_byPrecision.clear();
    m_predicted->clear();
    m_measuredLine->clear();
    m_measuredDots->clear();
    if (!data.valid) {
        m_predicted->setName(tr("roofline prediction"));
        m_measuredDots->setName(tr("measured"));
        setChartTitle(chart(), tr("This CPU: decode measured vs roofline"));
        chart()->legend()->setVisible(false);
        relayout();
        return;
    }
    chart()->legend()->setVisible(true);
    if (!data.byWeightPrecision.empty()) {
        showWeightPrecisions();
        relayout();
        return;
    }
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{m_predicted, m_measuredDots})
        for (QLegendMarker* m : chart()->legend()->markers(s))
            m->setVisible(true);
    setChartTitle(chart(),
                  tr("This CPU: decode of a %1\u00d7%1 fp32 matrix, measured vs roofline").arg(data.matrixDim));
    m_predicted->setName(tr("roofline of this CPU: %1 GFLOP/s, %2 GB/s")
                             .arg(formatSignificant(data.peakGflops), formatSignificant(data.bandwidthGbps)));
    m_measuredDots->setName(tr("measured tokens/s"));
    fitAxes({&data.measured, &data.predicted});
    const QList<QPointF> measured(data.measured.begin(), data.measured.end());
    m_measuredLine->replace(measured);
    m_measuredDots->replace(measured);
    m_predicted->replace(QList<QPointF>(data.predicted.begin(), data.predicted.end()));
    relayout();
}

// fp32, bf16 and int8 weights, each measured (line and dots) over its own precision's roofline (dashed, same
// colour); the legend names the weights, and the first dashed line stands for all predictions.
void CpuBatchingChart::showWeightPrecisions()
{
    setChartTitle(chart(), tr("This CPU: decode of a %1\u00d7%1 matrix by weight precision, measured vs roofline")
                               .arg(m_data.precisionMatrixDim));
    QChart* c = chart();
    std::vector<const std::vector<QPointF>*> all;
    for (const WeightPrecisionCurve& curve : m_data.byWeightPrecision) {
        const QColor color = m_theme.kernelColor(QStringLiteral("decode-") + curve.precision);
        PrecisionSeries p{new QLineSeries, new QLineSeries, new QScatterSeries};
        QPen predicted(color, 2.0, Qt::DashLine);
        predicted.setCapStyle(Qt::FlatCap);
        p.predicted->setPen(predicted);
        p.predicted->setName(tr("roofline of each precision"));
        QPen line(color, 2.5);
        line.setCapStyle(Qt::RoundCap);
        p.measuredLine->setPen(line);
        p.measuredDots->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        p.measuredDots->setMarkerSize(11.0);
        p.measuredDots->setColor(color);
        p.measuredDots->setBorderColor(m_theme.background);
        p.measuredDots->setName(tr("%1 weights").arg(curve.precision));
        const QList<QPointF> measured(curve.measured.begin(), curve.measured.end());
        p.measuredLine->replace(measured);
        p.measuredDots->replace(measured);
        p.predicted->replace(QList<QPointF>(curve.predicted.begin(), curve.predicted.end()));
        for (QXYSeries* s : std::initializer_list<QXYSeries*>{p.predicted, p.measuredLine, p.measuredDots}) {
            c->addSeries(s);
            s->attachAxis(m_axisX);
            s->attachAxis(m_axisY);
        }
        for (QLegendMarker* m : c->legend()->markers(p.measuredLine))
            m->setVisible(false);
        if (!m_byPrecision.empty())
            for (QLegendMarker* m : c->legend()->markers(p.predicted))
                m->setVisible(false);
        m_byPrecision.push_back(p);
        all.push_back(&curve.measured);
        all.push_back(&curve.predicted);
    }
    for (QAbstractSeries* s : std::initializer_list<QAbstractSeries*>{m_predicted, m_measuredLine, m_measuredDots})
        for (QLegendMarker* m : c->legend()->markers(s))
            m->setVisible(false);
    fitAxes(all);
}

void CpuBatchingChart::fitAxes(const std::vector<const std::vector<QPointF>*>& curves)
{
    double xLow = std::numeric_limits<double>::max(), xHigh = 0.0;
    double yLow = std::numeric_limits<double>::max(), yHigh = 0.0;
    for (const std::vector<QPointF>* points : curves)
        for (const QPointF& p : *points) {
            xLow = std::min(xLow, p.x());
            xHigh = std::max(xHigh, p.x());
            yLow = std::min(yLow, p.y());
            yHigh = std::max(yHigh, p.y());
        }
    if (xHigh <= 0.0 || yHigh <= 0.0)
        return;
    setLogAxisRange(m_axisX, xLow / 1.4, xHigh * 1.4);
    setLogAxisRange(m_axisY, yLow / 3.0, yHigh * 4.0);
}

QPoint CpuBatchingChart::viewportPosition(QPointF value) const
{
    return viewportPositionOf(value, m_predicted);
}

void CpuBatchingChart::relayout()
{
    if (!m_data.valid) {
        showContent(plotMessage(chart()->plotArea(), m_data.reason, m_theme));
        return;
    }
    OverlayContent content = layoutCpuBatchingLabels(m_data, mapping(m_axisX, m_axisY), m_theme);
    // The machine's name and the measured share sit where the curves run in a short plot: the curves pass under.
    std::vector<QLineF> curves;
    const auto add = [&](QXYSeries* series) {
        if (series && series->isVisible())
            for (const QLineF& segment : segmentsOf({series}))
                curves.push_back(segment);
    };
    add(m_predicted);
    add(m_measuredLine);
    for (const PrecisionSeries& p : m_byPrecision) {
        add(p.predicted);
        add(p.measuredLine);
    }
    boxTextsCrossedBy(content.texts, curves);
    showContent(std::move(content));
}

}  // namespace ridgeline::ui
