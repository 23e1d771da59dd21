#include "ui/plots/roofline/side_strip.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>

namespace ridgeline::ui {

namespace {

constexpr double kPadding = 5.0;
constexpr double kStroke = 20.0;  // a row's line sample
constexpr double kStrokeGap = 5.0;
constexpr double kTieIndent = 8.0;
constexpr double kNoteGap = 10.0;  // between the legend and the notes, and between notes

double lineHeight(const QFont& font)
{
    return QFontMetricsF(font).height();
}

// One line of a roof's row: its text, and a value set flush right on the same line; a tie is muted.
struct RowLine {
    QString text;
    QString value;
    bool tie = false;
};

// A roof's row in a narrow strip: "fp32 avx512 x1: 223 GFLOP/s  (≈ bf16 avx512_bf16 x2 214)" as the name and the
// value flush right on one line, or on two when they do not fit side by side (a name is never cut in its middle:
// "fp1… x1" says nothing); then the roofs that tie with it on lines of their own, muted.
std::vector<RowLine> rowLines(const QString& text, const QFont& font, double width)
{
    const QFontMetricsF metrics(font);
    const qsizetype tieAt = text.indexOf(QStringLiteral("  (\u2248 "));
    const QString head = tieAt < 0 ? text : text.left(tieAt);
    std::vector<RowLine> out;
    const qsizetype colon = head.lastIndexOf(QStringLiteral(": "));
    if (metrics.horizontalAdvance(head) + 2.0 <= width || colon <= 0) {
        for (const QString& line : wrapText(head, font, width))
            out.push_back({line, {}, false});
    } else {
        const QString name = head.left(colon);
        const QString value = head.mid(colon + 2);
        const double gap = metrics.horizontalAdvance(QStringLiteral("  "));
        if (metrics.horizontalAdvance(name) + gap + metrics.horizontalAdvance(value) + 2.0 <= width) {
            out.push_back({name, value, false});
        } else {
            out.push_back({metrics.elidedText(name, Qt::ElideRight, width), {}, false});
            out.push_back({{}, value, false});
        }
    }
    if (tieAt >= 0) {
        QString tie = text.mid(tieAt + 2).trimmed();  // "(≈ ...)"
        if (tie.startsWith(u'(') && tie.endsWith(u')'))
            tie = tie.mid(1, tie.size() - 2);
        for (const QString& line : wrapText(tie, font, width - kTieIndent))
            out.push_back({line, {}, true});
    }
    return out;
}

// What a last row says of the `cut` roofs left out, wrapped to the legend's width.
QStringList countLines(int cut, bool onlyLower, const QFont& font, double width)
{
    const QString text =
        onlyLower ? QCoreApplication::translate("RooflineChart", "+%n lower roof(s): point at a line", nullptr, cut)
                  : QCoreApplication::translate("RooflineChart", "+%n more: point at a line", nullptr, cut);
    return wrapText(text, font, width);
}

// The rows shown in `room` pixels: every row when all fit. Else, with room kept for the count of the rest, the rows
// on line styles, the binding roofs and the bandwidths first (each names a line nothing else names), then the lower
// compute roofs from the highest down while they fit; a pointer on a line left out reads it.
std::vector<bool> chooseRows(const std::vector<RoofLegendRow>& rows, const std::vector<double>& heights, double room,
                             double countHeight)
{
    double total = 0.0;
    for (const double h : heights)
        total += h;
    const double left = total <= room ? room : room - countHeight;
    std::vector<bool> chosen(rows.size(), false);
    double used = 0.0;
    for (const bool lower : {false, true})
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (rows[i].lowerCompute != lower || used + heights[i] > left)
                continue;
            used += heights[i];
            chosen[i] = true;
        }
    return chosen;
}

}  // namespace

QStringList wrapText(const QString& text, const QFont& font, double width)
{
    const QFontMetricsF metrics(font);
    QStringList lines;
    QString line;
    for (const QString& word : text.split(u' ', Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + u' ' + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) + 2.0 > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty())
        lines << line;
    // A word wider than the strip (a long kernel name) is cut, not run past the picture.
    for (QString& l : lines)
        l = metrics.elidedText(l, Qt::ElideMiddle, width);
    return lines;
}

SideStrip layOutSideStrip(const QRectF& strip, const std::vector<RoofLegendRow>& rows, const QStringList& notes,
                          const ChartTheme& theme)
{
    SideStrip out;
    // A size smaller than the chart's labels: the strip is read after the plot, and its rows are many.
    QFont font = theme.kernelLabelFont;
    font.setPixelSize(std::max(10, static_cast<int>(std::lround(font.pixelSize() * 0.75))));
    const double row = lineHeight(font);
    std::vector<QStringList> noteLines;
    for (const QString& note : notes) {
        noteLines.push_back(wrapText(note, font, strip.width()));
    }
    // The notes at the top: they must be read; the legend takes what they leave.
    double top = strip.top();
    for (const QStringList& lines : noteLines) {
        for (const QString& line : lines) {
            if (top + row > strip.bottom())
                break;
            out.texts.push_back({line, QPointF(strip.left(), top), 0.0, theme.mutedText, font, QColor(), false,
                                 QString(), TextRole::Note});
            top += row;
        }
        top += kNoteGap;
    }
    const double legendTop = top;
    const double textWidth = strip.width() - 2.0 * kPadding - kStroke - kStrokeGap;
    const double legendRoom = strip.bottom() - legendTop - 2.0 * kPadding;
    top = legendTop + kPadding;
    std::vector<std::vector<RowLine>> rowText;
    std::vector<double> heights;
    int roofCount = 0;
    for (const RoofLegendRow& r : rows) {
        rowText.push_back(rowLines(r.text, font, textWidth));
        heights.push_back(static_cast<double>(rowText.back().size()) * row);
        roofCount += std::max<int>(1, static_cast<int>(r.roofs.size()));
    }
    const double countWidth = strip.width() - 2.0 * kPadding;
    const double countHeight = static_cast<double>(std::max(countLines(roofCount, false, font, countWidth).size(),
                                                            countLines(roofCount, true, font, countWidth).size())) *
                               row;
    const std::vector<bool> chosen = chooseRows(rows, heights, legendRoom, countHeight);
    int cut = 0;
    bool cutOnlyLower = true;
    double used = 0.0;
    std::vector<std::pair<const RoofLegendRow*, std::vector<RowLine>>> shown;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (chosen[i]) {
            shown.emplace_back(&rows[i], rowText[i]);
            used += heights[i];
        } else {
            cut += std::max<int>(1, static_cast<int>(rows[i].roofs.size()));
            cutOnlyLower = cutOnlyLower && rows[i].lowerCompute;
        }
    }
    const QStringList count = cut > 0 ? countLines(cut, cutOnlyLower, font, countWidth) : QStringList();
    if (!shown.empty() || cut > 0) {
        const double height = used + static_cast<double>(count.size()) * row + 2.0 * kPadding;
        out.legend = QRectF(strip.left(), legendTop, strip.width(), height);
        const QPen frame(theme.grid, 1.0);
        const QRectF& box = out.legend;
        for (const QLineF& edge :
             {QLineF(box.topLeft(), box.topRight()), QLineF(box.topRight(), box.bottomRight()),
              QLineF(box.bottomRight(), box.bottomLeft()), QLineF(box.bottomLeft(), box.topLeft())})
            out.lines.push_back({edge, frame});
        for (const auto& [r, lines] : shown) {
            QPen pen = r->pen;
            pen.setWidthF(std::min(pen.widthF(), 4.0));
            pen.setCapStyle(Qt::FlatCap);
            const double y = top + row / 2.0;
            out.lines.push_back({QLineF(strip.left() + kPadding, y, strip.left() + kPadding + kStroke, y), pen});
            const double textLeft = strip.left() + kPadding + kStroke + kStrokeGap;
            for (const RowLine& line : lines) {
                if (!line.text.isEmpty())
                    out.texts.push_back({line.text, QPointF(textLeft + (line.tie ? kTieIndent : 0.0), top), 0.0,
                                         line.tie ? theme.mutedText : theme.text, font, QColor(), false, QString(),
                                         TextRole::Legend});
                if (!line.value.isEmpty()) {
                    const double valueWidth = QFontMetricsF(font).horizontalAdvance(line.value);
                    out.texts.push_back({line.value, QPointF(strip.right() - kPadding - valueWidth, top), 0.0,
                                         theme.text, font, QColor(), false, QString(), TextRole::Legend});
                }
                top += row;
            }
            out.roofsShown.insert(out.roofsShown.end(), r->roofs.begin(), r->roofs.end());
        }
        for (const QString& line : count) {
            out.texts.push_back({line, QPointF(strip.left() + kPadding, top), 0.0, theme.mutedText, font, QColor(),
                                 false, QString(), TextRole::Legend});
            top += row;
        }
    }
    return out;
}

}  // namespace ridgeline::ui
