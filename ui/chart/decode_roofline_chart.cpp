#include "ui/chart/decode_roofline_chart.h"

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

constexpr double kRingRadius = 14.0;  // the ring around the current step
constexpr double kRingClearance = kRingRadius + 4.0;

constexpr double kAnnotationZ = 4.5;
constexpr double kOverdraw = 1e3;  // roofs run past the visible range

QColor trajectoryColor(const ChartTheme& theme)
{
    return theme.sessionColor(0);
}
QColor attentionColor(const ChartTheme& theme)
{
    return theme.kind == ThemeKind::Light ? QColor(0x00, 0x8a, 0x64) : QColor(0x3c, 0xd0, 0xa0);
}

Roof inTeraUnits(const Roof& roof)
{
    return Roof{roof.peakGflops / 1e3, roof.bandwidthGbps / 1e3};  // TFLOP/s and TB/s
}

bool isPowerOfFour(std::int64_t b)
{
    if (b < 1 || (b & (b - 1)) != 0)
        return false;
    int bit = 0;
    while ((std::int64_t{1} << bit) != b)
        ++bit;
    return bit % 2 == 0;
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

QString percent(double fraction)
{
    return QStringLiteral("%1 %").arg(formatSignificant(fraction * 100.0, 2));
}

}  // namespace

DecodeRooflineChart::DecodeRooflineChart(QWidget* parent) : QChartView(new QChart, parent)
{
    setRenderHint(QPainter::Antialiasing, true);
    setMinimumSize(360, 300);  // two of them beside the controls fit a 1280-pixel window
    QChart* c = chart();
    c->setAnimationOptions(QChart::NoAnimation);
    c->setBackgroundRoundness(0);
    c->setDropShadowEnabled(false);
    c->setMargins(QMargins(8, 4, 16, 4));
    c->legend()->setAlignment(Qt::AlignBottom);

    m_axisX = makeLogAxis(c, tr("Arithmetic intensity (FLOP/byte)"));
    m_axisY = makeLogAxis(c, tr("TFLOP/s per GPU"));
    c->addAxis(m_axisX, Qt::AlignBottom);
    c->addAxis(m_axisY, Qt::AlignLeft);
    m_axisX->setRange(0.1, 1e4);
    m_axisY->setRange(1.0, 1e3);

    // Short legend names: the numbers are written on the chart itself.
    m_datasheet = addLine(tr("datasheet"), true);
    m_roof = addLine(tr("with efficiencies"), true);
    m_trajectory = addLine(tr("decode step, B = 1 \u2192 4,096"), true);
    m_trajectoryOver = addLine(QString(), false);
    m_marks = addScatter(QString(), false);
    m_attention = addScatter(tr("attention"), false);
    m_current = addScatter(tr("current batch"), false);

    m_fixed = new ChartOverlay(c);
    m_fixed->setZValue(kAnnotationZ);
    m_moving = new ChartOverlay(c);
    m_moving->setZValue(kAnnotationZ);
    connect(c, &QChart::plotAreaChanged, this, [this] { relayout(); });
    for (QLogValueAxis* axis : {m_axisX, m_axisY})
        connect(axis, &QLogValueAxis::rangeChanged, this, [this] { relayout(); });

    m_theme = ChartTheme::make(ThemeKind::Light);
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
    QPen trajectory(trajectoryColor(m_theme), 3.0);
    trajectory.setCapStyle(Qt::RoundCap);
    m_trajectory->setPen(trajectory);
    trajectory.setStyle(Qt::DotLine);
    m_trajectoryOver->setPen(trajectory);
    m_marks->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_marks->setMarkerSize(9.0);
    m_marks->setColor(trajectoryColor(m_theme));
    m_marks->setBorderColor(m_theme.background);
    m_attention->setMarkerShape(QScatterSeries::MarkerShapeRotatedRectangle);
    m_attention->setMarkerSize(18.0);
    m_attention->setColor(attentionColor(m_theme));
    m_attention->setBorderColor(m_theme.background);
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
    for (QScatterSeries* s : {m_marks, m_attention, m_current})
        s->clear();
    m_data = DecodeRooflineData{};
    setChartTitle(chart(), tr("Decode step on the GPU's roofline"));
    relayout();
}

void DecodeRooflineChart::setData(const DecodeRooflineData& data)
{
    const bool changed = !m_hasData || !sameTrajectory(data, m_data);
    m_data = data;
    m_hasData = true;
    m_message.clear();
    setChartTitle(chart(), tr("%1 roofline, %2").arg(data.gpuName, data.precision));

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
        const double y1 = decadeAbove(peak * 6.0);
        if (m_axisX->min() != x0 || m_axisX->max() != x1)
            m_axisX->setRange(x0, x1);
        if (m_axisY->min() != y0 || m_axisY->max() != y1)
            m_axisY->setRange(y0, y1);

        const std::vector<QPointF> roofPoints = roofVertices(effective, x0 / kOverdraw, x1 * kOverdraw);
        m_roof->replace(QList<QPointF>(roofPoints.begin(), roofPoints.end()));
        if (data.datasheet) {
            const std::vector<QPointF> sheet =
                roofVertices(inTeraUnits(*data.datasheet), x0 / kOverdraw, x1 * kOverdraw);
            m_datasheet->replace(QList<QPointF>(sheet.begin(), sheet.end()));
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
    m_current->replace({QPointF(data.current.intensity, data.current.achievedTflops)});
    relayout();
}

QPoint DecodeRooflineChart::viewportPosition(QPointF value) const
{
    return mapFromScene(chart()->mapToScene(chart()->mapToPosition(value, m_roof)));
}

QPoint DecodeRooflineChart::currentPointPosition() const
{
    return viewportPosition(QPointF(m_data.current.intensity, m_data.current.achievedTflops));
}

std::vector<QRectF> DecodeRooflineChart::textRects() const
{
    return textRectsOf({m_fixed, m_moving});
}

QStringList DecodeRooflineChart::texts() const
{
    QStringList list{chart()->title()};
    for (const ChartOverlay* overlay : {m_fixed, m_moving})
        for (const AnnotationText& t : overlay->texts())
            list << t.text;
    return list;
}

void DecodeRooflineChart::relayout()
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
    const double pad = 6.0;
    std::vector<AnnotationLine> lines;
    std::vector<AnnotationText> texts;

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
    auto at = [&](double x, double y) { return chart()->mapToPosition(QPointF(x, y), m_roof); };
    std::vector<QRectF> obstacles;
    const Roof effective = inTeraUnits(m_data.effective);
    const double ridge = ridgeIntensity(effective);
    const std::optional<Roof> sheet =
        m_data.datasheet ? std::optional<Roof>(inTeraUnits(*m_data.datasheet)) : std::nullopt;
    const Roof& upper = sheet ? *sheet : effective;

    // The roofs' numbers, two lines right-aligned above the flat part: the slope is left unlabelled so the
    // free triangle above it stays for the moving point's label.
    {
        QStringList label;
        if (sheet) {
            label << tr("used: %1 TFLOP/s (%2), %3 TB/s (%4)")
                         .arg(formatSignificant(effective.peakGflops),
                              percent(effective.peakGflops / sheet->peakGflops),
                              formatSignificant(effective.bandwidthGbps),
                              percent(effective.bandwidthGbps / sheet->bandwidthGbps));
            label << tr("datasheet: %1 TFLOP/s, %2 TB/s")
                         .arg(formatSignificant(sheet->peakGflops), formatSignificant(sheet->bandwidthGbps));
        } else {
            label << tr("datasheet: %1 TFLOP/s, %2 TB/s")
                         .arg(formatSignificant(effective.peakGflops), formatSignificant(effective.bandwidthGbps));
        }
        // A narrow plot shortens the lines rather than cutting them off at its left edge.
        for (QString& line : label)
            line = metrics.elidedText(line, Qt::ElideRight, plot.width() - 2.0 * pad);
        // Above the flat roof, and above the current step's ring when the ring would sit on the text.
        const QPointF current = at(m_data.current.intensity, m_data.current.achievedTflops);
        const QRectF ring(current - QPointF(kRingClearance, kRingClearance),
                          QSizeF(2.0 * kRingClearance, 2.0 * kRingClearance));
        const double roofY = at(1.0, upper.peakGflops).y();
        double y = roofY - pad - lineHeight * double(label.size());
        for (const QString& line : label) {
            const double w = metrics.horizontalAdvance(line);
            if (QRectF(plot.right() - pad - w, y, w, lineHeight * double(label.size())).intersects(ring)) {
                y = ring.top() - lineHeight * double(label.size());
                break;
            }
        }
        for (const QString& line : label) {
            const double w = metrics.horizontalAdvance(line);
            const QPointF origin(plot.right() - pad - w, y);
            texts.push_back({line, origin, 0.0, m_theme.text, labelFont, m_theme.background});
            obstacles.emplace_back(origin, QSizeF(w, lineHeight));
            y += lineHeight;
        }
    }
    // Ridge: a dotted drop from the corner of the roof the model uses, labelled at the bottom.
    {
        const QPointF corner = at(ridge, effective.peakGflops);
        lines.push_back(
            {QLineF(corner, QPointF(corner.x(), plot.bottom())), QPen(m_theme.mutedText, 1.5, Qt::DotLine)});
        const QString label = tr("ridge %1 FLOP/byte").arg(formatSignificant(ridge));
        const double w = metrics.horizontalAdvance(label);
        const double left = corner.x() + pad + w <= plot.right() - pad ? corner.x() + pad : corner.x() - pad - w;
        const QPointF origin(left, plot.bottom() - pad - lineHeight);
        texts.push_back({label, origin, 0.0, m_theme.mutedText, labelFont, m_theme.background});
        obstacles.emplace_back(origin, QSizeF(w, lineHeight));
    }

    // Fixed point labels (they change with the curves, not with the batch): the attention point and the
    // batch marks, marks closer than a label's height merged into one "B=64-4,096" (long contexts pile them).
    struct PointLabel {
        QStringList lines;
        QPointF anchor;
        QColor color;
    };
    auto boxSize = [&](const PointLabel& r) {
        double w = 0.0;
        for (const QString& line : r.lines)
            w = std::max(w, metrics.horizontalAdvance(line));
        return QSizeF(w + 4.0, lineHeight * double(r.lines.size()) + 2.0);
    };
    std::vector<QLineF> curveSegments;
    for (QLineSeries* series : {m_roof, m_trajectory, m_trajectoryOver}) {
        const QList<QPointF> points = series->points();
        for (qsizetype i = 1; i < points.size(); ++i)
            curveSegments.emplace_back(at(points[i - 1].x(), points[i - 1].y()), at(points[i].x(), points[i].y()));
    }
    // One placed label: its box and what draws it (text lines, and a leader when it sits away from its point).
    struct DrawnLabel {
        QRectF rect;
        std::vector<AnnotationText> texts;
        std::optional<AnnotationLine> leader;
    };
    // Places the labels and returns what draws each one that found a place. The first `hardCount` boxes of
    // `avoid` (roof and ridge text) must never be covered; the rest (batch marks' labels) may give way to a
    // forced first label.
    auto place = [&](const std::vector<PointLabel>& requests, const std::vector<QRectF>& avoid, std::size_t hardCount,
                     bool forceFirst) {
        LabelLayoutInput layout;
        layout.bounds = plot.adjusted(pad, pad, -pad, -pad);
        layout.obstacles = avoid;
        layout.lines = curveSegments;
        layout.markerRadius = 10.0;
        for (const PointLabel& r : requests)
            layout.labels.push_back({r.anchor, boxSize(r)});
        std::vector<LabelPlacement> placed = placeLabels(layout);
        if (forceFirst && !placed.empty() && !placed.front().placed) {
            // The first label is always drawn: at the free spot of a grid over the plot nearest to its
            // point (or, when nothing is free, the spot that covers the least, batch marks' labels before
            // anything else), with a leader back to it.
            const QSizeF size = boxSize(requests.front());
            const QRectF inner = plot.adjusted(pad, pad, -pad, -pad);
            const QPointF anchor = requests.front().anchor;
            QRectF chosen(inner.topLeft(), size);
            double bestOverlap = std::numeric_limits<double>::max();
            double bestDistance = std::numeric_limits<double>::max();
            constexpr int kGrid = 24;  // fine enough to find a gap between the batch marks
            for (int gy = 0; gy <= kGrid; ++gy)
                for (int gx = 0; gx <= kGrid; ++gx) {
                    const QRectF candidate(inner.left() + (inner.width() - size.width()) * gx / kGrid,
                                           inner.top() + (inner.height() - size.height()) * gy / kGrid, size.width(),
                                           size.height());
                    if (candidate.contains(anchor))
                        continue;
                    double overlap = 0.0;
                    const QRectF padded = candidate.adjusted(-2, -1, 2, 1);
                    const auto addOverlap = [&](const QRectF& o, double weight) {
                        const QRectF both = o.intersected(padded);
                        overlap += both.isValid() ? weight * (1.0 + both.width() * both.height()) : 0.0;
                    };
                    constexpr double kHard = 1e6;
                    for (std::size_t a = 0; a < avoid.size(); ++a)
                        addOverlap(avoid[a], a < hardCount ? kHard : 1.0);
                    for (std::size_t other = 1; other < placed.size(); ++other)  // the labels placed with it
                        if (placed[other].placed)
                            addOverlap(placed[other].rect, 1.0);
                    const double distance = QLineF(candidate.center(), anchor).length();
                    if (overlap < bestOverlap - 1.0 ||
                        (std::fabs(overlap - bestOverlap) <= 1.0 && distance < bestDistance)) {
                        bestOverlap = overlap;
                        bestDistance = distance;
                        chosen = candidate;
                    }
                }
            // Where it still meets a batch mark's label placed with it, the mark's label gives way.
            for (std::size_t other = 1; other < placed.size(); ++other)
                if (placed[other].placed && placed[other].rect.intersects(chosen.adjusted(-2, -1, 2, 1)))
                    placed[other].placed = false;
            placed.front().placed = true;
            placed.front().rect = chosen;
            placed.front().needsLeader = true;
            placed.front().leader = QLineF(placed.front().rect.center(), requests.front().anchor);
        }
        std::vector<DrawnLabel> drawn;
        for (std::size_t i = 0; i < placed.size() && i < requests.size(); ++i) {
            if (!placed[i].placed)
                continue;
            DrawnLabel label;
            label.rect = placed[i].rect;
            if (placed[i].needsLeader)
                label.leader = AnnotationLine{placed[i].leader, QPen(requests[i].color, 1.5)};
            QPointF origin = placed[i].rect.topLeft() + QPointF(2.0, 1.0);
            for (const QString& line : requests[i].lines) {
                label.texts.push_back({line, origin, 0.0, requests[i].color, labelFont, m_theme.background});
                origin.ry() += lineHeight;
            }
            drawn.push_back(std::move(label));
        }
        return drawn;
    };
    const auto draw = [](const std::vector<DrawnLabel>& labels, std::vector<AnnotationLine>& outLines,
                         std::vector<AnnotationText>& outTexts) {
        for (const DrawnLabel& label : labels) {
            if (label.leader)
                outLines.push_back(*label.leader);
            outTexts.insert(outTexts.end(), label.texts.begin(), label.texts.end());
        }
    };

    std::vector<PointLabel> fixedRequests;
    if (m_data.hasAttention)
        fixedRequests.push_back(
            {{tr("attention alone: %1 FLOP/byte").arg(formatSignificant(m_data.attentionIntensity)),
              m_data.attentionBound == Bound::Memory ? tr("memory-bound at any batch") : tr("compute-bound")},
             at(m_data.attentionIntensity, m_data.attentionTflops),
             attentionColor(m_theme)});
    struct Mark {
        std::int64_t first = 0;
        std::int64_t last = 0;
        QPointF anchor;
    };
    std::vector<Mark> marks;
    for (const BatchSample& s : m_data.trajectory) {
        if (!isPowerOfFour(s.batch))
            continue;
        const QPointF p = at(s.intensity, s.achievedTflops);
        if (!marks.empty() && QLineF(marks.back().anchor, p).length() < lineHeight)
            marks.back().last = s.batch;
        else
            marks.push_back({s.batch, s.batch, p});
    }
    for (const Mark& m : marks) {
        const QString text =
            m.first == m.last
                ? QStringLiteral("B=%1").arg(formatGrouped(double(m.first)))
                : QStringLiteral("B=%1\u2013%2").arg(formatGrouped(double(m.first)), formatGrouped(double(m.last)));
        fixedRequests.push_back({{text}, m.anchor, trajectoryColor(m_theme)});
    }
    std::vector<DrawnLabel> fixedLabels = place(fixedRequests, obstacles, obstacles.size(), m_data.hasAttention);
    std::vector<QRectF> taken = obstacles;
    for (const DrawnLabel& label : fixedLabels)
        taken.push_back(label.rect);

    // The current step: two lines beside its dot, around the fixed labels; a ring to find it on a slide.
    const BatchSample& cur = m_data.current;
    const QPointF curAt = at(cur.intensity, cur.achievedTflops);
    const PointLabel current{
        {tr("B = %1: %2 TFLOP/s").arg(formatGrouped(double(cur.batch)), formatSignificant(cur.achievedTflops)),
         tr("%1 FLOP/byte, %2%3")
             .arg(formatSignificant(cur.intensity),
                  m_data.bound == Bound::Memory ? tr("memory-bound") : tr("compute-bound"),
                  cur.fits ? QString() : tr(", does not fit"))},
        curAt,
        m_theme.highlight};
    const std::size_t attentionLabels = m_data.hasAttention && !fixedLabels.empty() ? 1 : 0;
    const std::vector<DrawnLabel> currentLabel = place({current}, taken, obstacles.size() + attentionLabels, true);
    // In a crowded plot the current step's label wins: a batch mark's label it would cover is left out
    // (the attention label, first, always stays).
    if (!currentLabel.empty()) {
        const QRectF cleared = currentLabel.front().rect.adjusted(-2, -1, 2, 1);
        fixedLabels.erase(std::remove_if(fixedLabels.begin() + std::ptrdiff_t(attentionLabels), fixedLabels.end(),
                                         [&](const DrawnLabel& label) { return label.rect.intersects(cleared); }),
                          fixedLabels.end());
    }
    draw(fixedLabels, lines, texts);
    m_fixed->setContent(std::move(lines), std::move(texts), {});
    std::vector<AnnotationLine> movingLines;
    std::vector<AnnotationText> movingTexts;
    draw(currentLabel, movingLines, movingTexts);
    m_moving->setContent(std::move(movingLines), std::move(movingTexts),
                         {{curAt, kRingRadius, QPen(m_theme.highlight, 2.5)}});
}

}  // namespace ridgeline::ui
