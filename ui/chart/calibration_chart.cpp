#include "ui/chart/calibration_chart.h"

#include "core/model/units.h"
#include "ui/chart/batching_chart_style.h"
#include "ui/chart/log_axis.h"
#include "ui/plots/layout/label_layout.h"

#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace ridgeline::ui {

namespace {

constexpr double kPad = 6.0;
constexpr double kDotClearance = 7.0;  // around a measured dot, which no text covers
// Beside its dot over a curve (in a box of the background, the curve passing under) rather than a ring further
// out: the dots sit on the curves, and a residual away from its dot reads as its neighbour's.
constexpr double kResidualLineCost = 0.1;

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
    setTitles({tr("Your benchmark vs the model")});
    chart()->legend()->setVisible(false);
    relayout();
}

void CalibrationChart::setData(const CalibrationCurveData& data)
{
    m_data = data;
    m_hasData = true;
    m_message.clear();
    setTitles(data.titles);
    m_axisY->setTitleText(data.rate ? tr("Tokens/s") : tr("Seconds"));
    chart()->legend()->setVisible(true);
    fitLegendNames();
    double xLow = std::numeric_limits<double>::max(), xHigh = 0.0;
    double yLow = std::numeric_limits<double>::max(), yHigh = 0.0;
    for (const std::vector<QPointF>* points : {&data.measured, &data.before, &data.after})
        for (const QPointF& p : *points) {
            xLow = std::min(xLow, p.x());
            xHigh = std::max(xHigh, p.x());
            yLow = std::min(yLow, p.y());
            yHigh = std::max(yHigh, p.y());
        }
    setLogAxisRange(m_axisX, xLow / 1.3, xHigh * 1.3);
    // Less than two decades of seconds or tokens/s: ticks at powers of two (16, 32, 64), else of ten.
    m_axisY->setBase(yLow >= 1.0 && yHigh / yLow < 100.0 ? 2.0 : 10.0);
    setLogAxisRange(m_axisY, yLow / 1.5, yHigh * 1.5);
    m_before->replace(QList<QPointF>(data.before.begin(), data.before.end()));
    m_after->replace(QList<QPointF>(data.after.begin(), data.after.end()));
    m_measured->replace(QList<QPointF>(data.measured.begin(), data.measured.end()));
    relayout();
}

void CalibrationChart::resizeEvent(QResizeEvent* event)
{
    AnnotatedChart::resizeEvent(event);
    fitLegendNames();
}

namespace {

// Whether the legend shows `name` cut short ("measured: mean tok/s of llama_bench_202..."): Qt Charts gives a legend
// beside the plot at most a share of the chart's width and elides longer names to fit.
bool cutInLegend(const QLegend* legend, const QString& name)
{
    std::vector<const QGraphicsItem*> items{legend};
    while (!items.empty()) {
        const QGraphicsItem* item = items.back();
        items.pop_back();
        for (const QGraphicsItem* child : item->childItems())
            items.push_back(child);
        const auto* text = dynamic_cast<const QGraphicsTextItem*>(item);
        if (!text || !text->isVisible())
            continue;
        QString shown = text->toPlainText();
        if (!shown.endsWith(QLatin1String("...")) && !shown.endsWith(QChar(0x2026)))
            continue;
        shown.chop(shown.endsWith(QChar(0x2026)) ? 1 : 3);
        if (name.startsWith(shown) && shown.size() < name.size())
            return true;
    }
    return false;
}

}  // namespace

// Each legend name is the longest of its variants that the legend shows whole: the legend is laid out and read
// back, since how much of the width it may take is Qt's rule.
void CalibrationChart::fitLegendNames()
{
    if (!m_hasData)
        return;
    QStringList measured;
    for (const QString& source : m_data.sources)
        measured << tr("measured: %1").arg(source);
    measured << tr("measured");
    struct Entry {
        QXYSeries* series;
        QStringList names;
        qsizetype chosen = 0;
    };
    std::array entries = {Entry{m_before, m_data.beforeNames}, Entry{m_after, m_data.afterNames},
                          Entry{m_measured, measured}};
    bool changed = true;
    for (Entry& e : entries)
        if (e.series->name() != e.names.value(0))
            e.series->setName(e.names.value(0));
    for (int round = 0; changed && round < 8; ++round) {
        if (QGraphicsLayout* layout = chart()->layout())
            layout->activate();
        if (QGraphicsLayout* layout = chart()->legend()->layout())
            layout->activate();
        changed = false;
        for (Entry& e : entries) {
            if (e.chosen + 1 < e.names.size() && cutInLegend(chart()->legend(), e.names[e.chosen])) {
                e.series->setName(e.names[++e.chosen]);
                changed = true;
            }
        }
    }
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
    const QRectF bounds = plot.adjusted(kPad, kPad, -kPad, -kPad);
    const std::vector<QLineF> curves = segmentsOf({m_before, m_after});
    std::vector<QPointF> dots;
    std::vector<QRectF> taken;
    for (const QPointF& point : m_data.measured) {
        dots.push_back(chart()->mapToPosition(point, m_measured));
        taken.emplace_back(dots.back() - QPointF(kDotClearance, kDotClearance),
                           QSizeF(2 * kDotClearance, 2 * kDotClearance));
    }
    // The setup (formats and lengths) in a quiet line: top left where the curves leave that corner free (they mostly
    // rise), else the first row clear of them and of the dots; else off the dots at least (a box on a curve hides
    // only the line).
    QString setup =
        metrics.elidedText(m_data.setups.value(m_data.setups.size() - 1), Qt::ElideRight, 0.8 * bounds.width());
    for (const QString& candidate : m_data.setups) {
        if (metrics.horizontalAdvance(candidate) <= 0.8 * bounds.width()) {
            setup = candidate;
            break;
        }
    }
    const QSizeF setupSize(metrics.horizontalAdvance(setup), metrics.height());
    std::optional<QRectF> setupRow = freeRow(bounds, setupSize, taken, curves, true);
    if (!setupRow)
        setupRow = freeRow(bounds, setupSize, taken, curves, false);
    const QRectF setupBox = setupRow.value_or(QRectF(bounds.topLeft(), setupSize));
    out.texts.push_back(
        {setup, setupBox.topLeft(), 0.0, m_theme.mutedText, m_theme.kernelLabelFont, m_theme.background});
    // Each measured point's residual after the fit, beside its dot: off the setup, the other residuals and, where
    // the plot has room, the curves.
    LabelLayoutInput layout;
    layout.bounds = bounds;
    layout.obstacles = {setupBox};
    layout.lines = curves;
    layout.markerRadius = kDotClearance;
    layout.lineCost = kResidualLineCost;
    QStringList texts;
    for (std::size_t i = 0; i < m_data.measured.size(); ++i) {
        const QPointF& point = m_data.measured[i];
        const auto after = std::find_if(m_data.after.begin(), m_data.after.end(),
                                        [&](const QPointF& a) { return a.x() == point.x(); });
        if (after == m_data.after.end() || !(point.y() > 0.0))
            continue;
        const double residual = 100.0 * (after->y() / point.y() - 1.0);
        texts << QStringLiteral("%1%2 %").arg(residual >= 0 ? QStringLiteral("+") : QStringLiteral("-"),
                                              formatSignificant(std::fabs(residual), 2));
        layout.labels.push_back({dots[i], QSizeF(metrics.horizontalAdvance(texts.back()) + 4.0, metrics.height())});
    }
    const std::vector<LabelPlacement> placed = placeEveryLabel(layout, {}, true);
    for (std::size_t i = 0; i < placed.size(); ++i) {
        if (placed[i].needsLeader)
            out.lines.push_back({placed[i].leader, QPen(m_theme.mutedText, 1.0)});
        out.texts.push_back({texts[qsizetype(i)], placed[i].rect.topLeft() + QPointF(2.0, 0.0), 0.0, m_theme.text,
                             m_theme.kernelLabelFont, m_theme.background});
    }
    // Text a curve still runs through (a plot too full to keep it off them) passes over the curve in a box.
    boxTextsCrossedBy(out.texts, curves);
    showContent(std::move(out));
}

}  // namespace ridgeline::ui
