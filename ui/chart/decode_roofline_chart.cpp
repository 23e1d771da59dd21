#include "ui/chart/decode_roofline_chart.h"

#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/log_axis.h"
#include "ui/chart/series_points.h"
#include "ui/plots/roofline/roofline_devices.h"

#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QTimer>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

namespace {

constexpr double kOverdraw = 1e3;  // roofs run past the visible range

Roof inTeraUnits(const Roof& roof)
{
    return Roof{roof.peakGflops / 1e3, roof.bandwidthGbps / 1e3};  // TFLOP/s and TB/s
}

bool sameTrajectory(const DecodeRooflineData& a, const DecodeRooflineData& b)
{
    if (a.trajectory.size() != b.trajectory.size() || a.effective.peakGflops != b.effective.peakGflops ||
        a.effective.bandwidthGbps != b.effective.bandwidthGbps || a.datasheet.has_value() != b.datasheet.has_value() ||
        a.attentionIntensity != b.attentionIntensity)
        return false;
    for (std::size_t i = 0; i < a.trajectory.size(); ++i)
        if (a.trajectory[i].batch != b.trajectory[i].batch || a.trajectory[i].intensity != b.trajectory[i].intensity ||
            a.trajectory[i].achievedTflops != b.trajectory[i].achievedTflops ||
            a.trajectory[i].fits != b.trajectory[i].fits)
            return false;
    return true;
}

}  // namespace

// Two of them beside the controls fit a 1280-pixel window.
DecodeRooflineChart::DecodeRooflineChart(QWidget* parent)
    : AnnotatedChart(QMargins(8, 4, 16, 4), QSize(360, 300), parent)
{
    QChart* c = chart();

    m_axisX = makeLogAxis(c, tr("Arithmetic intensity (FLOP/byte)"));
    m_axisY = makeLogAxis(c, tr("TFLOP/s per GPU"));
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    m_axisX->setRange(0.1, 1e4);
    m_axisY->setRange(1.0, 1e3);

    // Short legend names: the numbers are written on the chart itself.
    m_datasheet = addLine(tr("datasheet"), true);
    m_roof = addLine(tr("with efficiencies"), true);
    m_trajectory = addLine(tr("decode steps"), true);
    m_trajectoryOver = addLine(QString(), false);
    m_marks = addScatter(QString(), false);
    m_attention = addScatter(tr("attention"), false);
    m_operators = addScatter(tr("the step's operators"), false);
    m_current = addScatter(tr("current batch"), false);

    relayoutOn({m_axisX, m_axisY});
    setGridAxes({m_axisX, m_axisY});
    cacheSeriesPaint();
    applyTheme();
    showMessage(QString());
}

QLineSeries* DecodeRooflineChart::addLine(const QString& name, bool inLegend)
{
    auto* series = new QLineSeries;
    series->setName(name);
    chart()->addSeries(series);
    series->attachAxis(m_axisX);
    series->attachAxis(m_axisY);
    for (QLegendMarker* m : chart()->legend()->markers(series))
        m->setVisible(inLegend);
    return series;
}

QScatterSeries* DecodeRooflineChart::addScatter(const QString& name, bool inLegend)
{
    auto* series = new QScatterSeries;
    series->setName(name);
    chart()->addSeries(series);
    series->attachAxis(m_axisX);
    series->attachAxis(m_axisY);
    for (QLegendMarker* m : chart()->legend()->markers(series))
        m->setVisible(inLegend);
    return series;
}

void DecodeRooflineChart::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    applyTheme();
    relayout();
}

void DecodeRooflineChart::applyTheme()
{
    applyBatchingTheme(this, m_theme, {m_axisX, m_axisY});
    QPen roof(m_theme.computeRoof, m_theme.boldRoofWidth);
    roof.setCapStyle(Qt::FlatCap);
    roof.setJoinStyle(Qt::MiterJoin);
    m_roof->setPen(roof);
    QPen datasheet(m_theme.mutedText, m_theme.roofWidth, Qt::DashLine);
    datasheet.setCapStyle(Qt::FlatCap);
    m_datasheet->setPen(datasheet);
    QPen trajectory(decodeTrajectoryColor(m_theme), 3.0);
    trajectory.setCapStyle(Qt::RoundCap);
    m_trajectory->setPen(trajectory);
    trajectory.setStyle(Qt::DotLine);
    m_trajectoryOver->setPen(trajectory);
    m_marks->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_marks->setMarkerSize(9.0);
    m_marks->setColor(decodeTrajectoryColor(m_theme));
    m_marks->setBorderColor(m_theme.background);
    m_attention->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_attention->setMarkerSize(18.0);
    m_attention->setColor(attentionColor(m_theme));
    m_attention->setBorderColor(m_theme.background);
    m_operators->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    m_operators->setMarkerSize(11.0);
    m_operators->setColor(m_theme.mutedText);
    m_operators->setBorderColor(m_theme.background);
    m_current->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_current->setMarkerSize(20.0);
    m_current->setColor(m_theme.highlight);
    m_current->setBorderColor(m_theme.background);
}

void DecodeRooflineChart::showMessage(const QString& message)
{
    m_hasData = false;
    m_message = message;
    for (QLineSeries* s : {m_datasheet, m_roof, m_trajectory, m_trajectoryOver})
        s->clear();
    for (QScatterSeries* s : {m_marks, m_attention, m_operators, m_current})
        s->clear();
    m_data = DecodeRooflineData{};
    setTitles({tr("Decode step on the GPU's roofline"), tr("The GPU's roofline")});
    relayout();
}

void DecodeRooflineChart::setData(const DecodeRooflineData& data)
{
    const bool changed = !m_hasData || !sameTrajectory(data, m_data);
    m_data = data;
    m_hasData = true;
    m_message.clear();
    const QString shortName = shortGpuName(data.gpuName);
    setTitles({tr("%1 roofline, %2").arg(data.gpuName, data.precision),
               tr("%1 roofline, %2").arg(shortName, data.precision), tr("%1, %2").arg(shortName, data.precision)});

    if (changed) {
        const Roof effective = inTeraUnits(data.effective);
        const double ridge = ridgeIntensity(effective);
        double xLow = std::numeric_limits<double>::max(), xHigh = ridge;
        double yLow = std::numeric_limits<double>::max();
        QList<QPointF> fit, over, marks;
        for (const BatchSample& s : data.trajectory) {
            const QPointF p(s.intensity, s.achievedTflops);
            (s.fits ? fit : over) << p;
            if (isPowerOfFour(s.batch))
                marks << p;
            xLow = std::min(xLow, p.x());
            xHigh = std::max(xHigh, p.x());
            yLow = std::min(yLow, p.y());
        }
        // The dotted part starts where the solid one ends.
        if (!fit.isEmpty() && !over.isEmpty())
            over.prepend(fit.back());
        if (data.hasAttention) {
            xLow = std::min(xLow, data.attentionIntensity);
            xHigh = std::max(xHigh, data.attentionIntensity);
            yLow = std::min(yLow, data.attentionTflops);
        }
        const double peak = data.datasheet ? data.datasheet->peakGflops / 1e3 : effective.peakGflops;
        if (xLow > xHigh || !(yLow > 0.0)) {
            xLow = xHigh / 100.0;
            yLow = peak / 1000.0;
        }
        // Room left of the first point for its label, right of the ridge for the flat roof and its label.
        const double x0 = decadeBelow(xLow / 3.0);
        const double x1 = decadeAbove(std::max(xHigh * 3.0, ridge * 10.0));
        const double y0 = decadeBelow(yLow / 6.0);
        m_axisYDataTop = decadeAbove(peak * 6.0);
        m_roofTflops = peak;
        const double y1 = decodeAxisTop(m_axisYDataTop, y0, peak, chart()->plotArea().height(), m_theme);
        if (m_axisX->min() != x0 || m_axisX->max() != x1)
            setLogAxisRange(m_axisX, x0, x1);
        if (m_axisY->min() != y0 || m_axisY->max() != y1)
            setLogAxisRange(m_axisY, y0, y1);

        const std::vector<QPointF> roofPoints = roofVertices(effective, x0 / kOverdraw, x1 * kOverdraw);
        replaceIfChanged(m_roof, QList<QPointF>(roofPoints.begin(), roofPoints.end()));
        if (data.datasheet) {
            const std::vector<QPointF> sheet =
                roofVertices(inTeraUnits(*data.datasheet), x0 / kOverdraw, x1 * kOverdraw);
            replaceIfChanged(m_datasheet, QList<QPointF>(sheet.begin(), sheet.end()));
        } else {
            m_datasheet->clear();
        }
        m_trajectory->replace(fit);
        m_trajectoryOver->replace(over);
        m_marks->replace(marks);
        if (data.hasAttention)
            m_attention->replace({QPointF(data.attentionIntensity, data.attentionTflops)});
        else
            m_attention->clear();
        for (QLegendMarker* m : chart()->legend()->markers(m_datasheet))
            m->setVisible(data.datasheet.has_value());
        m_roof->setName(data.datasheet ? tr("with efficiencies") : tr("datasheet (ideal)"));
    }
    // The operators move with both sliders, so they are replaced on every step, like the current point.
    QList<QPointF> operators;
    for (const OperatorPoint& op : data.operators)
        operators << QPointF(op.intensity, op.tflops);
    m_operators->replace(operators);
    m_current->replace({QPointF(data.current.intensity, data.current.achievedTflops)});
    relayout();
}

double DecodeRooflineChart::axisTopForPlot() const
{
    return safeLogAxisRange(m_axisY->min(), decodeAxisTop(m_axisYDataTop, m_axisY->min(), m_roofTflops,
                                                          chart()->plotArea().height(), m_theme))
        .high;
}

QPoint DecodeRooflineChart::viewportPosition(QPointF value) const
{
    return viewportPositionOf(value, m_roof);
}

QPoint DecodeRooflineChart::currentPointPosition() const
{
    return viewportPosition(QPointF(m_data.current.intensity, m_data.current.achievedTflops));
}

std::vector<QLineF> DecodeRooflineChart::curveSegments() const
{
    return segmentsOf({m_datasheet, m_roof, m_trajectory, m_trajectoryOver});
}

void DecodeRooflineChart::relayout()
{
    if (!m_hasData) {
        showContent(plotMessage(chart()->plotArea(), m_message, m_theme));
        return;
    }
    // The plot's height decides the axis's top (room for the roofs' numbers). Qt Charts is laying itself out
    // while this runs: a range set now would be undone by the domain it is syncing, so it is set once that is over
    // (and lays the labels out again).
    if (axisTopForPlot() != m_axisY->max() && !m_axisTopPending) {
        m_axisTopPending = true;
        QTimer::singleShot(0, this, [this] {
            m_axisTopPending = false;
            const double top = axisTopForPlot();
            if (top != m_axisY->max())
                setLogAxisRange(m_axisY, m_axisY->min(), top);
        });
    }
    showLayers(layoutDecodeRooflineLabels(m_data, mapping(m_axisX, m_axisY), curveSegments(), m_theme));
}

}  // namespace ridgeline::ui
