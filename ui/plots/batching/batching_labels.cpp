#include "ui/plots/batching/batching_labels.h"

#include "core/model/units.h"
#include "ui/plots/batching/overlay_text.h"
#include "ui/plots/layout/label_layout.h"
#include "ui/plots/layout/text_metrics.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <optional>

namespace ridgeline::ui {

namespace {

using overlay::kPad;
using overlay::label;
using overlay::tooSmall;
using overlay::tr;

constexpr double kRingRadius = 14.0;  // the ring around the current decode step
constexpr double kRingClearance = kRingRadius + 4.0;

QString percent(double fraction)
{
    return QStringLiteral("%1 %").arg(formatSignificant(fraction * 100.0, 2));
}

Roof inTeraUnits(const Roof& roof)
{
    return Roof{roof.peakGflops / 1e3, roof.bandwidthGbps / 1e3};  // TFLOP/s and TB/s
}

// --- Throughput vs batch ---

QString throughputTr(const char* text)
{
    return tr("ridgeline::ui::BatchThroughputChart", text);
}

// The context (top right), the knee and the memory limit: they change with the curves only.
OverlayContent throughputFixedLabels(const ThroughputData& data, const PlotMapping& tokens, const ChartTheme& theme,
                                     std::vector<QRectF>& obstacles)
{
    OverlayContent out;
    const QRectF& plot = tokens.plot;
    const TextMetrics metrics(theme.kernelLabelFont);
    const double lineHeight = metrics.height();
    auto text = [&](const QString& s, QPointF topLeft) {
        out.texts.push_back(label(s, topLeft, theme.text, theme));
        obstacles.emplace_back(topLeft, QSizeF(metrics.horizontalAdvance(s), lineHeight));
    };
    auto xAt = [&](double batch) { return tokens.toPixel(QPointF(batch, tokens.range.yMin)).x(); };

    const QString context = data.context == 1
                                ? throughputTr("1 token of context")
                                : throughputTr("%1 tokens of context").arg(formatGrouped(double(data.context)));
    // Top right; left of the memory limit's edge when the shading beyond it is too narrow to hold it.
    const double contextWidth = metrics.horizontalAdvance(context);
    double contextRight = plot.right() - kPad;
    if (data.maxFittingBatch > 0 && data.maxFittingBatch < data.maxShownBatch) {
        const double edge = xAt(double(data.maxFittingBatch));
        if (edge + kPad + contextWidth > contextRight)
            contextRight = std::max(plot.left() + kPad + contextWidth, edge - kPad);
    }
    text(context, QPointF(contextRight - contextWidth, plot.top() + kPad));
    // The knee label drops a row rather than cover the context.
    const QRectF contextRect = obstacles.back();
    auto topRow = [&](double left, double width) {
        const QRectF first(left, plot.top() + kPad, width, lineHeight);
        return first.adjusted(-2.0 * kPad, 0.0, 2.0 * kPad, 0.0).intersects(contextRect)
                   ? plot.top() + 2.0 * kPad + lineHeight
                   : plot.top() + kPad;
    };
    // The compute-bound knee: a dashed line with its batch, at the top of the plot.
    const std::int64_t knee = data.kneeBatch.value_or(0);
    std::optional<double> kneeX;
    if (knee >= 1 && knee <= data.maxShownBatch) {
        const double x = xAt(double(knee));
        kneeX = x;
        const QString s = throughputTr("compute-bound from B = %1").arg(formatGrouped(double(knee)));
        const double w = metrics.horizontalAdvance(s);
        // Right of the line, else left of it, and never cut off by the plot's left edge.
        const double left = x + kPad + w <= plot.right() - kPad ? x + kPad : std::max(plot.left() + kPad, x - kPad - w);
        text(s, QPointF(left, topRow(left, w)));
    } else {
        const QString s = knee > 0 ? throughputTr("compute-bound only from B = %1").arg(formatGrouped(double(knee)))
                                   : throughputTr("never compute-bound");
        text(s, QPointF(plot.left() + kPad, topRow(plot.left() + kPad, metrics.horizontalAdvance(s))));
    }
    // The memory limit: where the shading starts, with the largest batch that fits.
    if (data.maxFittingBatch < data.maxShownBatch) {
        const QString s =
            data.maxFittingBatch > 0
                ? throughputTr("B > %1 does not fit in memory").arg(formatGrouped(double(data.maxFittingBatch)))
                : throughputTr("not even one sequence fits in memory");
        const double w = metrics.horizontalAdvance(s);
        const double x = data.maxFittingBatch > 0 ? xAt(double(data.maxFittingBatch)) : plot.left();
        // Inside the shading when it has the room, else ending just left of its edge: never across that edge.
        const double left = x + kPad + w <= plot.right() - kPad ? std::max(x + kPad, plot.left() + kPad)
                                                                : std::max(plot.left() + kPad, x - kPad - w);
        text(s, QPointF(left, plot.bottom() - kPad - lineHeight));
    }
    // The knee's line passes behind the texts rather than through them ("64 tokens of context" on a slide).
    if (kneeX)
        for (const QLineF& piece : verticalLineAround(*kneeX, plot.top(), plot.bottom(), obstacles))
            out.lines.push_back({piece, QPen(theme.computeRoof, 2.0, Qt::DashLine)});
    return out;
}

// --- The decode step on a GPU's roofline ---

QString decodeTr(const char* text)
{
    return tr("ridgeline::ui::DecodeRooflineChart", text);
}

struct PointLabel {
    QStringList lines;
    QPointF anchor;
    QColor color;
};

// One placed label: its box and what draws it (text lines, and a leader when it sits away from its point).
struct DrawnLabel {
    QRectF rect;
    std::vector<AnnotationText> texts;
    std::optional<AnnotationLine> leader;
};

class DecodeLabelPlacer {
public:
    DecodeLabelPlacer(const DecodeRooflineData& data, const PlotMapping& mapping, const std::vector<QLineF>& curves,
                      const ChartTheme& theme)
        : m_data(data),
          m_mapping(mapping),
          m_curves(curves),
          m_theme(theme),
          m_metrics(theme.kernelLabelFont),
          m_lineHeight(m_metrics.height())
    {
    }

    QPointF at(double x, double y) const { return m_mapping.toPixel(QPointF(x, y)); }
    void roofNumbers(OverlayContent& out, std::vector<QRectF>& obstacles) const;
    void ridge(OverlayContent& out, std::vector<QRectF>& obstacles) const;
    std::vector<PointLabel> fixedRequests() const;
    PointLabel currentRequest() const;
    // Places the labels; the first `hardCount` boxes of `avoid` (roof and ridge text) are never covered, the rest
    // (batch marks' labels) may give way to a forced first label.
    std::vector<DrawnLabel> place(const std::vector<PointLabel>& requests, const std::vector<QRectF>& avoid,
                                  std::size_t hardCount, bool forceFirst) const;

private:
    QSizeF boxSize(const PointLabel& r) const;

    const DecodeRooflineData& m_data;
    const PlotMapping& m_mapping;
    const std::vector<QLineF>& m_curves;
    const ChartTheme& m_theme;
    const TextMetrics m_metrics;
    const double m_lineHeight;
};

// The roofs' numbers, two lines right-aligned above the flat part: the slope is left unlabelled so the free
// triangle above it stays for the moving point's label.
void DecodeLabelPlacer::roofNumbers(OverlayContent& out, std::vector<QRectF>& obstacles) const
{
    const QRectF& plot = m_mapping.plot;
    const Roof effective = inTeraUnits(m_data.effective);
    const std::optional<Roof> sheet =
        m_data.datasheet ? std::optional<Roof>(inTeraUnits(*m_data.datasheet)) : std::nullopt;
    QStringList lines;
    if (sheet) {
        lines << decodeTr("used: %1 TFLOP/s (%2), %3 TB/s (%4)")
                     .arg(formatSignificant(effective.peakGflops), percent(effective.peakGflops / sheet->peakGflops),
                          formatSignificant(effective.bandwidthGbps),
                          percent(effective.bandwidthGbps / sheet->bandwidthGbps));
        lines << decodeTr("datasheet: %1 TFLOP/s, %2 TB/s")
                     .arg(formatSignificant(sheet->peakGflops), formatSignificant(sheet->bandwidthGbps));
    } else {
        lines << decodeTr("datasheet: %1 TFLOP/s, %2 TB/s")
                     .arg(formatSignificant(effective.peakGflops), formatSignificant(effective.bandwidthGbps));
    }
    const double roofY = at(1.0, (sheet ? *sheet : effective).peakGflops).y();
    // Above the roof nothing crosses the text (roofs and steps stay under it); a short plot (a 1600 x 1000 window)
    // has room there for one line only: the shares of the datasheet, in one.
    if (sheet && roofY - plot.top() < 2.0 * m_lineHeight + 2.0 * kPad) {
        lines = QStringList{
            decodeTr("used %1 of %2 TFLOP/s, %3 of %4 TB/s")
                .arg(percent(effective.peakGflops / sheet->peakGflops), formatSignificant(sheet->peakGflops),
                     percent(effective.bandwidthGbps / sheet->bandwidthGbps), formatSignificant(sheet->bandwidthGbps))};
    }
    // A narrow plot shortens the lines rather than cutting them off at its left edge.
    for (QString& line : lines)
        line = m_metrics.elidedText(line, Qt::ElideRight, plot.width() - 2.0 * kPad);
    // Above the flat roof, and above the current step's ring when the ring would sit on the text.
    const QPointF current = at(m_data.current.intensity, m_data.current.achievedTflops);
    const QRectF ring(current - QPointF(kRingClearance, kRingClearance),
                      QSizeF(2.0 * kRingClearance, 2.0 * kRingClearance));
    const double height = m_lineHeight * double(lines.size());
    double y = roofY - kPad - height;
    for (const QString& line : lines) {
        const double w = m_metrics.horizontalAdvance(line);
        if (QRectF(plot.right() - kPad - w, y, w, height).intersects(ring)) {
            y = ring.top() - height;
            break;
        }
    }
    for (const QString& line : lines) {
        const double w = m_metrics.horizontalAdvance(line);
        const QPointF origin(plot.right() - kPad - w, y);
        out.texts.push_back(label(line, origin, m_theme.text, m_theme));
        obstacles.emplace_back(origin, QSizeF(w, m_lineHeight));
        y += m_lineHeight;
    }
}

// Ridge: a dotted drop from the corner of the roof the model uses, labelled at the bottom.
void DecodeLabelPlacer::ridge(OverlayContent& out, std::vector<QRectF>& obstacles) const
{
    const QRectF& plot = m_mapping.plot;
    const Roof effective = inTeraUnits(m_data.effective);
    const double ridgeAt = ridgeIntensity(effective);
    const QPointF corner = at(ridgeAt, effective.peakGflops);
    out.lines.push_back(
        {QLineF(corner, QPointF(corner.x(), plot.bottom())), QPen(m_theme.mutedText, 1.5, Qt::DotLine)});
    const QString text = decodeTr("ridge %1 FLOP/byte").arg(formatSignificant(ridgeAt));
    const double w = m_metrics.horizontalAdvance(text);
    const double left = corner.x() + kPad + w <= plot.right() - kPad ? corner.x() + kPad : corner.x() - kPad - w;
    const QPointF origin(left, plot.bottom() - kPad - m_lineHeight);
    out.texts.push_back(label(text, origin, m_theme.mutedText, m_theme));
    obstacles.emplace_back(origin, QSizeF(w, m_lineHeight));
}

// Fixed point labels (they change with the curves, not with the batch): the attention point and the batch
// marks, marks closer than a label's height merged into one "B=64-4,096" (long contexts pile them).
std::vector<PointLabel> DecodeLabelPlacer::fixedRequests() const
{
    std::vector<PointLabel> requests;
    if (m_data.hasAttention)
        requests.push_back(
            {{decodeTr("attention alone: %1 FLOP/byte").arg(formatSignificant(m_data.attentionIntensity)),
              m_data.attentionBound == Bound::Memory ? decodeTr("memory-bound at any batch")
                                                     : decodeTr("compute-bound")},
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
        if (!marks.empty() && QLineF(marks.back().anchor, p).length() < m_lineHeight)
            marks.back().last = s.batch;
        else
            marks.push_back({s.batch, s.batch, p});
    }
    for (const Mark& m : marks) {
        const QString text =
            m.first == m.last
                ? QStringLiteral("B=%1").arg(formatGrouped(double(m.first)))
                : QStringLiteral("B=%1\u2013%2").arg(formatGrouped(double(m.first)), formatGrouped(double(m.last)));
        requests.push_back({{text}, m.anchor, decodeTrajectoryColor(m_theme)});
    }
    return requests;
}

// The current step: two lines beside its dot.
PointLabel DecodeLabelPlacer::currentRequest() const
{
    const BatchSample& cur = m_data.current;
    return {
        {decodeTr("B = %1: %2 TFLOP/s").arg(formatGrouped(double(cur.batch)), formatSignificant(cur.achievedTflops)),
         decodeTr("%1 FLOP/byte, %2%3")
             .arg(formatSignificant(cur.intensity),
                  m_data.bound == Bound::Memory ? decodeTr("memory-bound") : decodeTr("compute-bound"),
                  cur.fits ? QString() : decodeTr(", does not fit"))},
        at(cur.intensity, cur.achievedTflops),
        m_theme.highlight};
}

QSizeF DecodeLabelPlacer::boxSize(const PointLabel& r) const
{
    double w = 0.0;
    for (const QString& line : r.lines)
        w = std::max(w, m_metrics.horizontalAdvance(line));
    return QSizeF(w + 4.0, m_lineHeight * double(r.lines.size()) + 2.0);
}

std::vector<DrawnLabel> DecodeLabelPlacer::place(const std::vector<PointLabel>& requests,
                                                 const std::vector<QRectF>& avoid, std::size_t hardCount,
                                                 bool forceFirst) const
{
    LabelLayoutInput layout;
    layout.bounds = m_mapping.plot.adjusted(kPad, kPad, -kPad, -kPad);
    layout.obstacles = avoid;
    layout.lines = m_curves;
    layout.markerRadius = 10.0;
    for (const PointLabel& r : requests)
        layout.labels.push_back({r.anchor, boxSize(r)});
    std::vector<LabelPlacement> placed = placeLabels(layout);
    if (forceFirst && !placed.empty() && !placed.front().placed) {
        // The first label is always drawn (placeForced); where it still meets a batch mark's label placed with
        // it, the mark's label gives way.
        const std::vector<QRectF> hard(avoid.begin(), avoid.begin() + std::ptrdiff_t(hardCount));
        std::vector<QRectF> soft(avoid.begin() + std::ptrdiff_t(hardCount), avoid.end());
        for (std::size_t other = 1; other < placed.size(); ++other)
            if (placed[other].placed)
                soft.push_back(placed[other].rect);
        placed.front() =
            placeForced(layout.bounds, layout.labels.front(), hard, soft, layout.lines, layout.markerRadius);
        for (std::size_t other = 1; other < placed.size(); ++other)
            if (placed[other].placed && placed[other].rect.intersects(placed.front().rect.adjusted(-2, -1, 2, 1)))
                placed[other].placed = false;
    }
    std::vector<DrawnLabel> drawn;
    for (std::size_t i = 0; i < placed.size() && i < requests.size(); ++i) {
        if (!placed[i].placed)
            continue;
        DrawnLabel d;
        d.rect = placed[i].rect;
        if (placed[i].needsLeader)
            d.leader = AnnotationLine{placed[i].leader, QPen(requests[i].color, 1.5)};
        // A plot too full to keep a label off every curve (a 1600 x 1000 window): the whole label gets a box of the
        // background behind it when a curve crosses any of it.
        const bool crossed = std::any_of(m_curves.begin(), m_curves.end(), [&](const QLineF& curve) {
            return segmentIntersectsRect(curve, placed[i].rect);
        });
        QPointF origin = placed[i].rect.topLeft() + QPointF(2.0, 1.0);
        for (const QString& line : requests[i].lines) {
            d.texts.push_back(label(line, origin, requests[i].color, m_theme));
            d.texts.back().boxed = crossed;
            origin.ry() += m_lineHeight;
        }
        drawn.push_back(std::move(d));
    }
    return drawn;
}

void draw(const std::vector<DrawnLabel>& labels, OverlayContent& out)
{
    for (const DrawnLabel& d : labels) {
        if (d.leader)
            out.lines.push_back(*d.leader);
        out.texts.insert(out.texts.end(), d.texts.begin(), d.texts.end());
    }
}

}  // namespace

double decodeAxisTop(double dataTop, double bottom, double roofTflops, double plotHeight, const ChartTheme& theme)
{
    if (!(bottom > 0.0) || !(roofTflops > bottom) || !(dataTop > roofTflops) || !(plotHeight > 0.0))
        return dataTop;
    const double needed = TextMetrics(theme.kernelLabelFont).height() + kPad;
    double top = dataTop;
    for (int extra = 0; extra < 3; ++extra) {
        const double headroom = plotHeight * std::log10(top / roofTflops) / std::log10(top / bottom);
        if (headroom >= needed)
            break;
        top *= 10.0;
    }
    return top;
}

QColor decodeTrajectoryColor(const ChartTheme& theme)
{
    return theme.sessionColor(0);
}

QColor attentionColor(const ChartTheme& theme)
{
    return theme.kind == ThemeKind::Light ? QColor(0x00, 0x8a, 0x64) : QColor(0x3c, 0xd0, 0xa0);
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

OverlayContent plotMessage(const QRectF& plot, const QString& message, const ChartTheme& theme)
{
    OverlayContent out;
    if (message.isEmpty() || tooSmall(plot))
        return out;
    const QFont& big = theme.axisTitleFont;
    const TextMetrics metrics(big);
    const QString elided = metrics.elidedText(message, Qt::ElideRight, plot.width() - 24.0);
    const double w = metrics.horizontalAdvance(elided);
    out.texts.push_back({elided, QPointF(plot.center().x() - w / 2.0, plot.center().y() - metrics.height() / 2.0), 0.0,
                         theme.mutedText, big, QColor()});
    return out;
}

OverlayLayers layoutThroughputLabels(const ThroughputData& data, const PlotMapping& tokens, const PlotMapping& step,
                                     const std::vector<QLineF>& curves, const ChartTheme& theme)
{
    OverlayLayers out;
    const QRectF& plot = tokens.plot;
    if (tooSmall(plot))
        return out;
    std::vector<QRectF> obstacles;
    out.fixed = throughputFixedLabels(data, tokens, theme, obstacles);

    // The current batch: a line through both markers and its numbers beside each (one long label would be as wide
    // as the plot on a slide).
    const TextMetrics metrics(theme.kernelLabelFont);
    const QPointF tokensAt = tokens.toPixel(QPointF(double(data.batch), data.tokensPerSecond));
    const QPointF stepAt = step.toPixel(QPointF(double(data.batch), data.stepSeconds * 1e3));
    // The current batch's line, behind the fixed texts.
    for (const QLineF& piece : verticalLineAround(tokensAt.x(), plot.top(), plot.bottom(), obstacles))
        out.moving.lines.push_back({piece, QPen(theme.highlight, 1.5, Qt::DotLine)});
    const QString labels[] = {throughputTr("B = %1: %2 tokens/s")
                                  .arg(formatGrouped(double(data.batch)), formatSignificant(data.tokensPerSecond)),
                              throughputTr("%1 per step").arg(formatSeconds(data.stepSeconds))};
    const auto boxSize = [&](const QString& s) {
        return QSizeF(metrics.horizontalAdvance(s) + 4.0, metrics.height() + 2.0);
    };
    LabelLayoutInput layout;
    layout.bounds = plot.adjusted(kPad, kPad, -kPad, -kPad);
    layout.obstacles = obstacles;
    layout.markerRadius = 9.0;
    layout.lines = curves;
    layout.labels.push_back({tokensAt, boxSize(labels[0])});
    layout.labels.push_back({stepAt, boxSize(labels[1])});
    const std::vector<LabelPlacement> placed = placeLabels(layout);
    std::vector<QRectF> taken = obstacles;
    for (const LabelPlacement& p : placed)
        if (p.placed)
            taken.push_back(p.rect);
    for (std::size_t i = 0; i < placed.size(); ++i) {
        const LabelPlacement& p = placed[i];
        if (p.placed) {
            if (p.needsLeader)
                out.moving.lines.push_back({p.leader, QPen(theme.highlight, 1.5)});
            out.moving.texts.push_back(label(labels[i], p.rect.topLeft() + QPointF(2.0, 1.0), theme.highlight, theme));
            continue;
        }
        // No spot near its marker: the first free row of the plot, left or right, so it never covers other text
        // (the colour and the dotted line tie it to the current batch).
        const QSizeF size = boxSize(labels[i]);
        std::optional<QRectF> spot = freeRow(layout.bounds, size, taken, layout.lines, /*avoidLines=*/true);
        if (!spot)
            spot = freeRow(layout.bounds, size, taken, layout.lines, /*avoidLines=*/false);
        if (!spot)
            continue;  // a plot too small for the text: the headline above the charts has the numbers
        taken.push_back(*spot);
        out.moving.texts.push_back(label(labels[i], spot->topLeft() + QPointF(2.0, 1.0), theme.highlight, theme));
    }
    return out;
}

OverlayLayers layoutDecodeRooflineLabels(const DecodeRooflineData& data, const PlotMapping& mapping,
                                         const std::vector<QLineF>& curves, const ChartTheme& theme)
{
    OverlayLayers out;
    if (tooSmall(mapping.plot))
        return out;
    const DecodeLabelPlacer placer(data, mapping, curves, theme);
    std::vector<QRectF> obstacles;
    placer.roofNumbers(out.fixed, obstacles);
    placer.ridge(out.fixed, obstacles);
    std::vector<DrawnLabel> fixedLabels =
        placer.place(placer.fixedRequests(), obstacles, obstacles.size(), data.hasAttention);
    std::vector<QRectF> taken = obstacles;
    for (const DrawnLabel& d : fixedLabels)
        taken.push_back(d.rect);
    // The current step, around the fixed labels; a ring to find it on a slide.
    const std::size_t attentionLabels = data.hasAttention && !fixedLabels.empty() ? 1 : 0;
    const std::vector<DrawnLabel> currentLabel =
        placer.place({placer.currentRequest()}, taken, obstacles.size() + attentionLabels, true);
    // In a crowded plot the current step's label wins: a batch mark's label it would cover is left out (the
    // attention label, first, always stays).
    if (!currentLabel.empty()) {
        const QRectF cleared = currentLabel.front().rect.adjusted(-2, -1, 2, 1);
        fixedLabels.erase(std::remove_if(fixedLabels.begin() + std::ptrdiff_t(attentionLabels), fixedLabels.end(),
                                         [&](const DrawnLabel& d) { return d.rect.intersects(cleared); }),
                          fixedLabels.end());
    }
    draw(fixedLabels, out.fixed);
    draw(currentLabel, out.moving);
    out.moving.rings.push_back(
        {placer.at(data.current.intensity, data.current.achievedTflops), kRingRadius, QPen(theme.highlight, 2.5)});
    return out;
}

void boxTextsCrossedBy(std::vector<AnnotationText>& texts, const std::vector<QLineF>& curves)
{
    for (AnnotationText& text : texts) {
        const TextMetrics metrics(text.font);
        const QRectF box(text.origin, QSizeF(metrics.horizontalAdvance(text.text), metrics.height()));
        text.boxed = text.boxed || std::any_of(curves.begin(), curves.end(),
                                               [&](const QLineF& curve) { return segmentIntersectsRect(curve, box); });
    }
}

}  // namespace ridgeline::ui
