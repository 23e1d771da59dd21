#include "ui/chart/batch_throughput_chart.h"

#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/log_axis.h"
#include "ui/chart/series_points.h"
#include "ui/plots/layout/log_scale.h"

#include <QAreaSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

namespace {

constexpr double kXLow = 0.75;  // batch axis: a little room left of 1 and right of 4096
constexpr double kXHighFactor = 1.35;
constexpr double kDefaultMaxBatch = 4096.0;

QColor tokensColor(const ChartTheme& theme)
{
    return theme.sessionColor(0);
}
QColor stepColor(const ChartTheme& theme)
{
    return theme.kind == ThemeKind::Light ? QColor(0xc2, 0x4e, 0x00) : QColor(0xff, 0x9e, 0x4a);
}
QColor noFitColor(const ChartTheme& theme)
{
    return theme.kind == ThemeKind::Light ? QColor(0xd0, 0x20, 0x20, 34) : QColor(0xff, 0x55, 0x55, 46);
}
QColor noFitEdgeColor(const ChartTheme& theme)
{
    QColor edge = noFitColor(theme);
    edge.setAlpha(255);
    return edge;
}

bool sameCurve(const ThroughputData& a, const ThroughputData& b)
{
    if (a.curve.size() != b.curve.size() || a.maxFittingBatch != b.maxFittingBatch)
        return false;
    for (std::size_t i = 0; i < a.curve.size(); ++i)
        // Tokens/s too: a speculative acceptance changes the tokens a step yields, not its time.
        if (a.curve[i].batch != b.curve[i].batch || a.curve[i].stepSeconds != b.curve[i].stepSeconds ||
            a.curve[i].tokensPerSecond != b.curve[i].tokensPerSecond)
            return false;
    return true;
}

// While a slider is dragged the axes hold still as long as the curves stay inside and fill them.
void setSteadyRange(QLogValueAxis* axis, double low, double high)
{
    const LogRange current{axis->min(), axis->max()};
    const LogRange range = steadyLogRange(current, {low, high});
    if (range != current)
        setLogAxisRange(axis, range.low, range.high);
}

}  // namespace

// Two of them beside the controls fit a 1280-pixel window.
BatchThroughputChart::BatchThroughputChart(QWidget* parent)
    : AnnotatedChart(QMargins(8, 4, 8, 4), QSize(360, 300), parent)
{
    QChart* c = chart();

    // Base 4: ticks at 1, 4, 16, 64, 256, 1024, 4096, the batches of the source text's table.
    m_axisX = makeLogAxis(c, tr("Batch (sequences per step)"), 4.0);
    m_axisTokens = makeLogAxis(c, tr("Tokens/s (total)"));
    m_axisStep = makeLogAxis(c, tr("Step time (ms)"));
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisTokens, Qt::AlignLeft);
    c->addAxis(m_axisStep, Qt::AlignRight);
    m_axisX->setRange(kXLow, kDefaultMaxBatch * kXHighFactor);
    m_axisTokens->setRange(1.0, 1e4);
    m_axisStep->setRange(1.0, 1e3);

    m_noFitUpper = new QLineSeries(this);
    m_noFitLower = new QLineSeries(this);
    m_noFit = new QAreaSeries(m_noFitUpper, m_noFitLower);
    m_noFit->setName(tr("does not fit in memory"));
    c->addSeries(m_noFit);
    m_noFit->attachAxis(m_axisX);
    m_noFit->attachAxis(m_axisTokens);
    // The shading has no outline: its top and bottom would run along the plot's frame. Its one edge that means
    // something, where the memory runs out, is a line of its own that ends at the plot's edges, so that a step
    // repaints the plot and not the axis labels around it.
    m_noFitEdge = addLine(m_axisTokens, QString(), false);

    m_tokens = addLine(m_axisTokens, tr("tokens/s"), true);
    m_tokensOver = addLine(m_axisTokens, QString(), false);
    m_step = addLine(m_axisStep, tr("time per step"), true);
    m_stepOver = addLine(m_axisStep, QString(), false);

    auto marker = [&](QLogValueAxis* y) {
        auto* s = new QScatterSeries;
        s->setMarkerShape(QScatterSeries::MarkerShapeCircle);
        s->setMarkerSize(15.0);
        c->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(y);
        for (QLegendMarker* m : c->legend()->markers(s))
            m->setVisible(false);
        return s;
    };
    m_currentStep = marker(m_axisStep);
    m_currentTokens = marker(m_axisTokens);

    relayoutOn({m_axisX, m_axisTokens, m_axisStep});
    setGridAxes({m_axisX, m_axisTokens});  // the step axis's grid would double the tokens axis's: one grid only
    cacheSeriesPaint();
    applyTheme();
    showMessage(QString());
}

QLineSeries* BatchThroughputChart::addLine(QLogValueAxis* y, const QString& name, bool inLegend)
{
    auto* series = new QLineSeries;
    series->setName(name);
    chart()->addSeries(series);
    series->attachAxis(m_axisX);
    series->attachAxis(y);
    for (QLegendMarker* m : chart()->legend()->markers(series))
        m->setVisible(inLegend);
    return series;
}

void BatchThroughputChart::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    applyTheme();
    relayout();
}

void BatchThroughputChart::applyTheme()
{
    applyBatchingTheme(this, m_theme, {m_axisX, m_axisTokens, m_axisStep}, true);
    m_axisX->setTitleBrush(m_theme.text);
    m_axisTokens->setTitleBrush(tokensColor(m_theme));
    m_axisStep->setTitleBrush(stepColor(m_theme));

    QPen tokens(tokensColor(m_theme), 3.5);
    tokens.setCapStyle(Qt::RoundCap);
    m_tokens->setPen(tokens);
    tokens.setStyle(Qt::DotLine);
    tokens.setWidthF(3.0);
    m_tokensOver->setPen(tokens);
    QPen step(stepColor(m_theme), 3.0, Qt::DashLine);
    m_step->setPen(step);
    step.setStyle(Qt::DotLine);
    m_stepOver->setPen(step);
    // Faint shading, and a solid edge where the memory runs out.
    m_noFit->setPen(Qt::NoPen);
    m_noFit->setBrush(noFitColor(m_theme));
    m_noFitEdge->setPen(QPen(noFitEdgeColor(m_theme), 2.0, Qt::SolidLine, Qt::FlatCap));
    for (QScatterSeries* s : {m_currentTokens, m_currentStep}) {
        s->setColor(m_theme.highlight);
        s->setBorderColor(m_theme.background);
    }
    m_currentStep->setColor(stepColor(m_theme));
    m_currentStep->setBorderColor(m_theme.highlight);
}

void BatchThroughputChart::showMessage(const QString& message)
{
    m_hasData = false;
    m_message = message;
    for (QLineSeries* s : {m_tokens, m_tokensOver, m_step, m_stepOver, m_noFitUpper, m_noFitLower, m_noFitEdge})
        s->clear();
    m_currentTokens->clear();
    m_currentStep->clear();
    m_noFit->setVisible(false);
    m_data = ThroughputData{};
    setChartTitle(chart(), tr("Throughput vs batch"));
    relayout();
}

void BatchThroughputChart::setData(const ThroughputData& data)
{
    const bool curveChanged = !m_hasData || !sameCurve(data, m_data);
    m_data = data;
    m_hasData = true;
    m_message.clear();
    // A constant title: QChart relays out (axes, grid, labels) on every title change, too slow for a
    // context drag. The context is written on the plot instead.
    setChartTitle(chart(), tr("Throughput vs batch"));

    if (curveChanged) {
        double tokensLow = std::numeric_limits<double>::max(), tokensHigh = 0.0;
        double stepLow = std::numeric_limits<double>::max(), stepHigh = 0.0;
        QList<QPointF> tokensFit, tokensOver, stepFit, stepOver;
        for (const BatchSample& s : data.curve) {
            const QPointF tokens(double(s.batch), s.tokensPerSecond);
            const QPointF step(double(s.batch), s.stepSeconds * 1e3);
            // The last batch that fits starts the dotted part too, so the two pieces join.
            if (s.fits || s.batch == data.maxFittingBatch) {
                tokensFit << tokens;
                stepFit << step;
            }
            if (!s.fits || s.batch == data.maxFittingBatch) {
                tokensOver << tokens;
                stepOver << step;
            }
            tokensLow = std::min(tokensLow, tokens.y());
            tokensHigh = std::max(tokensHigh, tokens.y());
            stepLow = std::min(stepLow, step.y());
            stepHigh = std::max(stepHigh, step.y());
        }
        if (tokensOver.size() < 2) {
            tokensOver.clear();
            stepOver.clear();
        }
        m_tokens->replace(tokensFit);
        m_tokensOver->replace(tokensOver);
        m_step->replace(stepFit);
        m_stepOver->replace(stepOver);
        if (tokensHigh > 0.0) {
            // Room above the curves for the knee label and below for the "does not fit" label.
            setSteadyRange(m_axisTokens, decadeBelow(tokensLow / 2.0), decadeAbove(tokensHigh * 3.0));
            setSteadyRange(m_axisStep, decadeBelow(stepLow / 2.0), decadeAbove(stepHigh * 3.0));
        }
        const bool anyOver = data.maxFittingBatch < data.maxShownBatch;
        m_noFit->setVisible(anyOver);
        m_noFitEdge->setVisible(anyOver);
        if (anyOver) {
            const double from = std::max(kXLow, double(data.maxFittingBatch));
            const double to = double(data.maxShownBatch) * kXHighFactor;
            const double top = m_axisTokens->max();
            const double bottom = m_axisTokens->min();
            replaceIfChanged(m_noFitUpper, {QPointF(from, top), QPointF(to, top)});
            replaceIfChanged(m_noFitLower, {QPointF(from, bottom), QPointF(to, bottom)});
            replaceIfChanged(m_noFitEdge, {QPointF(from, bottom), QPointF(from, top)});
            // The legend copies the faint fill, which reads as an empty box: give the swatch some colour.
            QColor swatch = noFitColor(m_theme);
            swatch.setAlpha(150);
            for (QLegendMarker* m : chart()->legend()->markers(m_noFit)) {
                m->setShape(QLegend::MarkerShapeRectangle);
                m->setBrush(swatch);
                m->setPen(QPen(noFitEdgeColor(m_theme), 2.0));
            }
        }
    }
    m_currentTokens->replace({QPointF(double(data.batch), data.tokensPerSecond)});
    m_currentStep->replace({QPointF(double(data.batch), data.stepSeconds * 1e3)});
    relayout();
}

QPoint BatchThroughputChart::viewportPosition(QPointF value) const
{
    return viewportPositionOf(value, m_tokens);
}

QPoint BatchThroughputChart::stepViewportPosition(QPointF value) const
{
    return viewportPositionOf(QPointF(value.x(), value.y() * 1e3), m_step);
}

void BatchThroughputChart::relayout()
{
    if (!m_hasData) {
        showContent(plotMessage(chart()->plotArea(), m_message, m_theme));
        return;
    }
    showLayers(layoutThroughputLabels(m_data, mapping(m_axisX, m_axisTokens), mapping(m_axisX, m_axisStep),
                                      segmentsOf({m_tokens, m_tokensOver, m_step, m_stepOver}), m_theme));
}

}  // namespace ridgeline::ui
