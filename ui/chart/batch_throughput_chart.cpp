#include "ui/chart/batch_throughput_chart.h"

#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/chart_overlay.h"
#include "ui/models/label_layout.h"

#include <QAreaSeries>
#include <QFontMetricsF>
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

constexpr double kAnnotationZ = 4.5;  // over the series (4), under the legend (5)
constexpr double kXLow = 0.75;        // batch axis: a little room left of 1 and right of 4096
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

bool sameCurve(const ThroughputData& a, const ThroughputData& b)
{
    if (a.curve.size() != b.curve.size() || a.maxFittingBatch != b.maxFittingBatch)
        return false;
    for (std::size_t i = 0; i < a.curve.size(); ++i)
        if (a.curve[i].batch != b.curve[i].batch || a.curve[i].stepSeconds != b.curve[i].stepSeconds)
            return false;
    return true;
}

void setRangeIfChanged(QLogValueAxis* axis, double low, double high)
{
    if (axis->min() != low || axis->max() != high)
        axis->setRange(low, high);
}

}  // namespace

BatchThroughputChart::BatchThroughputChart(QWidget* parent) : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumSize(360, 300);  // two of them beside the controls fit a 1280-pixel window
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setDropShadowEnabled(false);
    c->setMargins(QMargins(8, 4, 8, 4));
    c->legend()->setAlignment(Qt::AlignBottom);

    // Base 4: ticks at 1, 4, 16, 64, 256, 1024, 4096, the batches of the source text's table.
    m_axisX = makeLogAxis(c, tr("Batch (sequences decoded together)"), 4.0);
    m_axisTokens = makeLogAxis(c, tr("Tokens/s (all sequences)"));
    m_axisStep = makeLogAxis(c, tr("Time per step (ms)"));
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

    m_fixed = new ChartOverlay(c);
    m_fixed->setZValue(kAnnotationZ);
    m_moving = new ChartOverlay(c);
    m_moving->setZValue(kAnnotationZ);
    connect(c, &QChart::plotAreaChanged, this, [this] { relayout(); });
    for (QLogValueAxis* axis : {m_axisX, m_axisTokens, m_axisStep})
        connect(axis, &QLogValueAxis::rangeChanged, this, [this] { relayout(); });

    m_theme = ChartTheme::make(ThemeKind::Light);
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
    // The step axis's grid would double the tokens axis's: one grid only.
    m_axisStep->setGridLineVisible(false);

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
    // Faint shading, and a solid edge where the memory runs out (which also makes the legend swatch visible).
    QColor edge = noFitColor(m_theme);
    edge.setAlpha(255);
    m_noFit->setPen(QPen(edge, 2.0));
    m_noFit->setBrush(noFitColor(m_theme));
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
    for (QLineSeries* s : {m_tokens, m_tokensOver, m_step, m_stepOver, m_noFitUpper, m_noFitLower})
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
            setRangeIfChanged(m_axisTokens, decadeBelow(tokensLow / 2.0), decadeAbove(tokensHigh * 3.0));
            setRangeIfChanged(m_axisStep, decadeBelow(stepLow / 2.0), decadeAbove(stepHigh * 3.0));
        }
        const bool anyOver = data.maxFittingBatch < data.maxShownBatch;
        m_noFit->setVisible(anyOver);
        if (anyOver) {
            const double from = std::max(kXLow, double(data.maxFittingBatch));
            const double to = double(data.maxShownBatch) * kXHighFactor;
            const double top = m_axisTokens->max() * 10.0;
            const double bottom = m_axisTokens->min() / 10.0;
            m_noFitUpper->replace({QPointF(from, top), QPointF(to, top)});
            m_noFitLower->replace({QPointF(from, bottom), QPointF(to, bottom)});
            // The legend copies the faint fill, which reads as an empty box: give the swatch some colour.
            QColor swatch = noFitColor(m_theme);
            swatch.setAlpha(150);
            for (QLegendMarker* m : chart()->legend()->markers(m_noFit)) {
                m->setShape(QLegend::MarkerShapeRectangle);
                m->setBrush(swatch);
            }
        }
    }
    m_currentTokens->replace({QPointF(double(data.batch), data.tokensPerSecond)});
    m_currentStep->replace({QPointF(double(data.batch), data.stepSeconds * 1e3)});
    relayout();
}

QPoint BatchThroughputChart::viewportPosition(QPointF value) const
{
    return mapFromScene(chart()->mapToScene(chart()->mapToPosition(value, m_tokens)));
}

QPoint BatchThroughputChart::stepViewportPosition(QPointF value) const
{
    return mapFromScene(chart()->mapToScene(chart()->mapToPosition(QPointF(value.x(), value.y() * 1e3), m_step)));
}

std::vector<QRectF> BatchThroughputChart::textRects() const
{
    return textRectsOf({m_fixed, m_moving});
}

QStringList BatchThroughputChart::texts() const
{
    QStringList list{chart()->title()};
    for (const ChartOverlay* overlay : {m_fixed, m_moving})
        for (const AnnotationText& t : overlay->texts())
            list << t.text;
    return list;
}

void BatchThroughputChart::relayout()
{
    const QRectF plot = chart()->plotArea();
    m_fixed->setClipRect(plot);
    m_moving->setClipRect(plot);
    if (plot.width() < 20 || plot.height() < 20) {
        m_fixed->clear();
        m_moving->clear();
        return;
    }
    const QFont labelFont = m_theme.kernelLabelFont;
    const QFontMetricsF metrics(labelFont);
    const double lineHeight = metrics.height();
    std::vector<AnnotationLine> lines;
    std::vector<AnnotationText> texts;
    auto text = [&](const QString& s, QPointF topLeft, const QColor& color) {
        texts.push_back({s, topLeft, 0.0, color, labelFont, m_theme.background});
        return QRectF(topLeft, QSizeF(metrics.horizontalAdvance(s), lineHeight));
    };

    if (!m_hasData) {
        if (!m_message.isEmpty()) {
            const QFont big = m_theme.axisTitleFont;
            const QFontMetricsF bigMetrics(big);
            const QString elided = bigMetrics.elidedText(m_message, Qt::ElideRight, plot.width() - 24.0);
            const double w = bigMetrics.horizontalAdvance(elided);
            texts.push_back({elided,
                             QPointF(plot.center().x() - w / 2.0, plot.center().y() - bigMetrics.height() / 2.0), 0.0,
                             m_theme.mutedText, big, QColor()});
        }
        m_fixed->setContent({}, std::move(texts), {});
        m_moving->clear();
        return;
    }

    auto xAt = [&](double batch) { return chart()->mapToPosition(QPointF(batch, m_axisTokens->min()), m_tokens).x(); };
    std::vector<QRectF> obstacles;
    const double pad = 6.0;

    // The context these curves are for, top right; the knee label drops a row rather than cover it.
    {
        const QString label = m_data.context == 1
                                  ? tr("1 token of context")
                                  : tr("%1 tokens of context").arg(formatGrouped(double(m_data.context)));
        const double w = metrics.horizontalAdvance(label);
        obstacles.push_back(text(label, QPointF(plot.right() - pad - w, plot.top() + pad), m_theme.text));
    }

    const QRectF contextRect = obstacles.back();
    auto topRow = [&](double left, double width) {
        const QRectF first(left, plot.top() + pad, width, lineHeight);
        return first.adjusted(-2.0 * pad, 0.0, 2.0 * pad, 0.0).intersects(contextRect)
                   ? plot.top() + 2.0 * pad + lineHeight
                   : plot.top() + pad;
    };
    // The compute-bound knee: a dashed line with its batch, at the top of the plot.
    const std::int64_t knee = m_data.kneeBatch.value_or(0);
    if (knee >= 1 && knee <= m_data.maxShownBatch) {
        const double x = xAt(double(knee));
        QPen pen(m_theme.computeRoof, 2.0, Qt::DashLine);
        lines.push_back({QLineF(x, plot.top(), x, plot.bottom()), pen});
        const QString label = tr("compute-bound from B = %1").arg(formatGrouped(double(knee)));
        const double w = metrics.horizontalAdvance(label);
        // Right of the line, else left of it, and never cut off by the plot's left edge.
        const double left = x + pad + w <= plot.right() - pad ? x + pad : std::max(plot.left() + pad, x - pad - w);
        obstacles.push_back(text(label, QPointF(left, topRow(left, w)), m_theme.text));
    } else {
        const QString label = knee > 0 ? tr("compute-bound only from B = %1").arg(formatGrouped(double(knee)))
                                       : tr("never compute-bound");
        const double w = metrics.horizontalAdvance(label);
        obstacles.push_back(text(label, QPointF(plot.left() + pad, topRow(plot.left() + pad, w)), m_theme.text));
    }

    // The memory limit: where the shading starts, with the largest batch that fits.
    if (m_data.maxFittingBatch < m_data.maxShownBatch) {
        const QString label =
            m_data.maxFittingBatch > 0
                ? tr("B > %1 does not fit in memory").arg(formatGrouped(double(m_data.maxFittingBatch)))
                : tr("not even one sequence fits in memory");
        const double w = metrics.horizontalAdvance(label);
        const double x = m_data.maxFittingBatch > 0 ? xAt(double(m_data.maxFittingBatch)) : plot.left();
        const double left = std::clamp(x + pad, plot.left() + pad, plot.right() - pad - w);
        obstacles.push_back(text(label, QPointF(left, plot.bottom() - pad - lineHeight), m_theme.text));
    }

    m_fixed->setContent(std::move(lines), std::move(texts), {});
    lines = {};
    texts = {};

    // The current batch: a line through both markers and its numbers beside the tokens/s marker.
    const QPointF tokensAt = chart()->mapToPosition(QPointF(double(m_data.batch), m_data.tokensPerSecond), m_tokens);
    const QPointF stepAt = chart()->mapToPosition(QPointF(double(m_data.batch), m_data.stepSeconds * 1e3), m_step);
    lines.push_back(
        {QLineF(tokensAt.x(), plot.top(), tokensAt.x(), plot.bottom()), QPen(m_theme.highlight, 1.5, Qt::DotLine)});
    // Each marker carries its own number: one long label would be as wide as the plot on a slide.
    const QString tokensLabel =
        tr("B = %1: %2 tokens/s").arg(formatGrouped(double(m_data.batch)), formatSignificant(m_data.tokensPerSecond));
    const QString stepLabel = tr("%1 per step").arg(formatSeconds(m_data.stepSeconds));
    LabelLayoutInput layout;
    layout.bounds = plot.adjusted(pad, pad, -pad, -pad);
    layout.obstacles = obstacles;
    layout.markerRadius = 9.0;
    for (QLineSeries* series : {m_tokens, m_step}) {
        const QList<QPointF> points = series->points();
        for (qsizetype i = 1; i < points.size(); ++i)
            layout.lines.emplace_back(chart()->mapToPosition(points[i - 1], series),
                                      chart()->mapToPosition(points[i], series));
    }
    const auto boxSize = [&](const QString& s) { return QSizeF(metrics.horizontalAdvance(s) + 4.0, lineHeight + 2.0); };
    layout.labels.push_back({tokensAt, boxSize(tokensLabel)});
    layout.labels.push_back({stepAt, boxSize(stepLabel)});
    const std::vector<LabelPlacement> placed = placeLabels(layout);
    std::vector<QRectF> taken = obstacles;
    for (const LabelPlacement& p : placed)
        if (p.placed)
            taken.push_back(p.rect);
    const QString labels[] = {tokensLabel, stepLabel};
    for (std::size_t i = 0; i < placed.size(); ++i) {
        const LabelPlacement& p = placed[i];
        if (p.placed) {
            if (p.needsLeader)
                lines.push_back({p.leader, QPen(m_theme.highlight, 1.5)});
            text(labels[i], p.rect.topLeft() + QPointF(2.0, 1.0), m_theme.highlight);
            continue;
        }
        // No spot near its marker: the first free row of the plot, left or right, so it never covers
        // other text (the colour and the dotted line tie it to the current batch).
        const QSizeF size = boxSize(labels[i]);
        std::optional<QRectF> spot = freeRow(layout.bounds, size, taken, layout.lines, /*avoidLines=*/true);
        if (!spot)
            spot = freeRow(layout.bounds, size, taken, layout.lines, /*avoidLines=*/false);
        if (!spot)
            continue;  // a plot too small for the text: the headline above the charts has the numbers
        taken.push_back(*spot);
        text(labels[i], spot->topLeft() + QPointF(2.0, 1.0), m_theme.highlight);
    }
    m_moving->setContent(std::move(lines), std::move(texts), {});
}

}  // namespace ridgeline::ui
