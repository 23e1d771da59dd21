#include "ui/chart/cpu_batching_chart.h"

#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/chart_overlay.h"
#include "ui/models/label_layout.h"

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

constexpr double kAnnotationZ = 4.5;

}  // namespace

CpuBatchingChart::CpuBatchingChart(QWidget* parent) : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumSize(420, 260);
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setDropShadowEnabled(false);
    c->setMargins(QMargins(8, 4, 16, 4));
    c->legend()->setAlignment(Qt::AlignBottom);

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

    m_annotations = new ChartOverlay(c);
    m_annotations->setZValue(kAnnotationZ);
    connect(c, &QChart::plotAreaChanged, this, [this] { relayout(); });
    for (QLogValueAxis* axis : {m_axisX, m_axisY})
        connect(axis, &QLogValueAxis::rangeChanged, this, [this] { relayout(); });

    m_theme = ChartTheme::make(ThemeKind::Light);
    applyTheme();
    CpuBatchingData none;
    none.reason = tr("Open or measure a session to see this CPU's batching curve.");
    setData(none);
}

void CpuBatchingChart::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    applyTheme();
    relayout();
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
    if (!data.valid) {
        m_predicted->clear();
        m_measuredLine->clear();
        m_measuredDots->clear();
        m_predicted->setName(tr("roofline prediction"));
        m_measuredDots->setName(tr("measured"));
        setChartTitle(chart(), tr("This CPU: decode measured vs roofline"));
        chart()->legend()->setVisible(false);
        relayout();
        return;
    }
    chart()->legend()->setVisible(true);
    setChartTitle(chart(),
                  tr("This CPU: decode of a %1\u00d7%1 fp32 matrix, measured vs roofline").arg(data.matrixDim));
    m_predicted->setName(tr("roofline of this CPU: %1 GFLOP/s, %2 GB/s")
                             .arg(formatSignificant(data.peakGflops), formatSignificant(data.bandwidthGbps)));
    m_measuredDots->setName(tr("measured tokens/s"));

    double xLow = std::numeric_limits<double>::max(), xHigh = 0.0;
    double yLow = std::numeric_limits<double>::max(), yHigh = 0.0;
    for (const std::vector<QPointF>* points : {&data.measured, &data.predicted})
        for (const QPointF& p : *points) {
            xLow = std::min(xLow, p.x());
            xHigh = std::max(xHigh, p.x());
            yLow = std::min(yLow, p.y());
            yHigh = std::max(yHigh, p.y());
        }
    m_axisX->setRange(xLow / 1.4, xHigh * 1.4);
    m_axisY->setRange(yLow / 3.0, yHigh * 4.0);
    const QList<QPointF> measured(data.measured.begin(), data.measured.end());
    m_measuredLine->replace(measured);
    m_measuredDots->replace(measured);
    m_predicted->replace(QList<QPointF>(data.predicted.begin(), data.predicted.end()));
    relayout();
}

QPoint CpuBatchingChart::viewportPosition(QPointF value) const
{
    return mapFromScene(chart()->mapToScene(chart()->mapToPosition(value, m_predicted)));
}

QStringList CpuBatchingChart::texts() const
{
    QStringList list{chart()->title()};
    for (const AnnotationText& t : m_annotations->texts())
        list << t.text;
    return list;
}

void CpuBatchingChart::relayout()
{
    const QRectF plot = chart()->plotArea();
    m_annotations->setClipRect(plot);
    if (plot.width() < 20 || plot.height() < 20) {
        m_annotations->clear();
        return;
    }
    const QFont labelFont = m_theme.kernelLabelFont;
    const QFontMetricsF metrics(labelFont);
    const double lineHeight = metrics.height();
    const double pad = 6.0;
    std::vector<AnnotationLine> lines;
    std::vector<AnnotationText> texts;

    if (!m_data.valid) {
        const QFont big = m_theme.axisTitleFont;
        const QFontMetricsF bigMetrics(big);
        const QString elided = bigMetrics.elidedText(m_data.reason, Qt::ElideRight, plot.width() - 24.0);
        const double w = bigMetrics.horizontalAdvance(elided);
        texts.push_back({elided, QPointF(plot.center().x() - w / 2.0, plot.center().y() - bigMetrics.height() / 2.0),
                         0.0, m_theme.mutedText, big, QColor()});
        m_annotations->setContent({}, std::move(texts), {});
        return;
    }
    auto at = [&](QPointF p) { return chart()->mapToPosition(p, m_predicted); };
    if (m_data.kneeBatch && *m_data.kneeBatch >= m_axisX->min() && *m_data.kneeBatch <= m_axisX->max()) {
        const double x = at(QPointF(*m_data.kneeBatch, m_axisY->min())).x();
        lines.push_back({QLineF(x, plot.top(), x, plot.bottom()), QPen(m_theme.mutedText, 2.0, Qt::DotLine)});
        const QString label = tr("roofline knee B \u2248 %1").arg(formatSignificant(*m_data.kneeBatch, 2));
        const double w = metrics.horizontalAdvance(label);
        const double left = x + pad + w <= plot.right() - pad ? x + pad : x - pad - w;
        texts.push_back(
            {label, QPointF(left, plot.bottom() - pad - lineHeight), 0.0, m_theme.text, labelFont, m_theme.background});
    }
    // Which machine, top left and quiet.
    {
        const QString label = metrics.elidedText(m_data.machineName, Qt::ElideRight, plot.width() / 2.0);
        texts.push_back({label, QPointF(plot.left() + pad, plot.top() + pad), 0.0, m_theme.mutedText, labelFont,
                         m_theme.background});
    }
    // The largest measured batch against its prediction: how close this CPU gets to its own roof.
    const QPointF last = m_data.measured.back();
    double predictedAtLast = 0.0;
    for (const QPointF& p : m_data.predicted)
        if (p.x() <= last.x())
            predictedAtLast = p.y();
    if (predictedAtLast > 0.0) {
        const QString label =
            tr("B = %1: %2 of the roofline")
                .arg(formatGrouped(last.x()))
                .arg(QStringLiteral("%1 %").arg(formatSignificant(100.0 * last.y() / predictedAtLast, 2)));
        const double w = metrics.horizontalAdvance(label);
        texts.push_back({label, QPointF(plot.right() - pad - w, plot.top() + pad), 0.0, m_theme.text, labelFont,
                         m_theme.background});
    }
    m_annotations->setContent(std::move(lines), std::move(texts), {});
}

}  // namespace ridgeline::ui
