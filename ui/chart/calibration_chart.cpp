#include "ui/chart/calibration_chart.h"

#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"

#include <QFontMetricsF>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ridgeline::ui {

namespace {

constexpr double kPad = 6.0;

}  // namespace

CalibrationChart::CalibrationChart(QWidget* parent) : AnnotatedChart(QMargins(8, 4, 16, 4), QSize(360, 210), parent)
{
    setObjectName(QStringLiteral("batchingCalibrationChart"));
    QChart* c = chart();
    m_axisX = makeLogAxis(c, tr("Batch (requests together)"), 4.0);
    m_axisY = makeLogAxis(c, tr("Seconds"));
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    m_axisX->setRange(0.75, 512.0);
    m_axisY->setRange(0.1, 100.0);
    m_before = new QLineSeries;
    m_after = new QLineSeries;
    m_measured = new QScatterSeries;
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_before, m_after, m_measured}) {
        c->addSeries(s);
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    // Wide and short like the CPU's chart, whose place it takes: the legend goes beside the plot.
    c->legend()->setAlignment(Qt::AlignRight);
    relayoutOn({m_axisX, m_axisY});
    setGridAxes({m_axisX, m_axisY});
    applyTheme();
    showMessage(QString());
}

void CalibrationChart::setTheme(ThemeKind theme)
{
    m_theme = ChartTheme::make(theme);
    applyTheme();
    relayout();
}

void CalibrationChart::applyTheme()
{
    applyBatchingTheme(this, m_theme, {m_axisX, m_axisY});
    const QColor model = m_theme.sessionColor(0);
    QPen before(model, 2.5, Qt::DashLine);
    before.setCapStyle(Qt::FlatCap);
    m_before->setPen(before);
    QPen after(model, 3.0);
    after.setCapStyle(Qt::RoundCap);
    m_after->setPen(after);
    const QColor measured = m_theme.kernelColor(QStringLiteral("imported"));
    m_measured->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_measured->setMarkerSize(14.0);
    m_measured->setColor(m_theme.kernelColor(QStringLiteral("sgemm")));
    m_measured->setBorderColor(measured);
}

void CalibrationChart::showMessage(const QString& message)
{
    m_hasData = false;
    m_message = message;
    m_data = CalibrationCurveData{};
    for (QXYSeries* s : std::initializer_list<QXYSeries*>{m_before, m_after, m_measured})
        s->clear();
    setChartTitle(chart(), tr("Your benchmark vs the model"));
    chart()->legend()->setVisible(false);
    relayout();
}

void CalibrationChart::setData(const CalibrationCurveData& data)
{
    m_data = data;
    m_hasData = true;
    m_message.clear();
    setChartTitle(chart(), data.title);
    m_axisY->setTitleText(data.rate ? tr("Tokens/s") : tr("Seconds"));
    m_before->setName(data.beforeName);
    m_after->setName(data.afterName);
    m_measured->setName(tr("measured (%1 runs)").arg(data.measured.size()));
    chart()->legend()->setVisible(true);
    double xLow = std::numeric_limits<double>::max(), xHigh = 0.0;
    double yLow = std::numeric_limits<double>::max(), yHigh = 0.0;
    for (const std::vector<QPointF>* points : {&data.measured, &data.before, &data.after})
        for (const QPointF& p : *points) {
            xLow = std::min(xLow, p.x());
            xHigh = std::max(xHigh, p.x());
            yLow = std::min(yLow, p.y());
            yHigh = std::max(yHigh, p.y());
        }
    m_axisX->setRange(xLow / 1.3, xHigh * 1.3);
    // Less than two decades of seconds or tokens/s: ticks at powers of two (16, 32, 64), else of ten.
    m_axisY->setBase(yLow >= 1.0 && yHigh / yLow < 100.0 ? 2.0 : 10.0);
    m_axisY->setRange(yLow / 1.5, yHigh * 1.5);
    m_before->replace(QList<QPointF>(data.before.begin(), data.before.end()));
    m_after->replace(QList<QPointF>(data.after.begin(), data.after.end()));
    m_measured->replace(QList<QPointF>(data.measured.begin(), data.measured.end()));
    relayout();
}

QPoint CalibrationChart::viewportPosition(QPointF value) const
{
    return viewportPositionOf(value, m_after);
}

void CalibrationChart::relayout()
{
    const QRectF plot = chart()->plotArea();
    if (!m_hasData) {
        showContent(plotMessage(plot, m_message, m_theme));
        return;
    }
    OverlayContent out;
    const QFontMetricsF metrics(m_theme.kernelLabelFont);
    // The setup, top left and quiet, in two short lines (formats and lengths; statistic and files): rising curves
    // leave that corner free.
    double y = plot.top() + kPad;
    for (const QString& line : m_data.setup.split(QLatin1Char('\n'))) {
        out.texts.push_back({metrics.elidedText(line, Qt::ElideMiddle, 0.8 * plot.width()),
                             QPointF(plot.left() + kPad, y), 0.0, m_theme.mutedText, m_theme.kernelLabelFont,
                             m_theme.background});
        y += metrics.height();
    }
    // Each measured point's residual after the fit, above and right of its dot (below where the top is near).
    for (const QPointF& point : m_data.measured) {
        const auto after = std::find_if(m_data.after.begin(), m_data.after.end(),
                                        [&](const QPointF& a) { return a.x() == point.x(); });
        if (after == m_data.after.end() || !(point.y() > 0.0))
            continue;
        const double residual = 100.0 * (after->y() / point.y() - 1.0);
        const QString text = QStringLiteral("%1%2 %").arg(residual >= 0 ? QStringLiteral("+") : QStringLiteral("-"),
                                                          formatSignificant(std::fabs(residual), 2));
        const QPointF pixel = chart()->mapToPosition(point, m_measured);
        const double w = metrics.horizontalAdvance(text);
        const double x = pixel.x() + 8.0 + w <= plot.right() ? pixel.x() + 8.0 : pixel.x() - 8.0 - w;
        const double above = pixel.y() - 8.0 - metrics.height();
        out.texts.push_back({text, QPointF(x, above >= plot.top() ? above : pixel.y() + 8.0), 0.0, m_theme.text,
                             m_theme.kernelLabelFont, m_theme.background});
    }
    showContent(std::move(out));
}

}  // namespace ridgeline::ui
