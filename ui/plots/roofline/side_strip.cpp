#include "ui/plots/roofline/side_strip.h"

#include <QCoreApplication>
#include <QFontMetricsF>

#include <algorithm>

namespace ridgeline::ui {

namespace {

constexpr double kPadding = 6.0;
constexpr double kStroke = 26.0;  // a row's line sample
constexpr double kStrokeGap = 6.0;
constexpr double kNoteGap = 10.0;  // between the legend and the notes, and between notes

double lineHeight(const QFont& font)
{
    return QFontMetricsF(font).height();
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
    font.setPixelSize(std::max(10, static_cast<int>(std::lround(font.pixelSize() * 0.85))));
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
    const double legendRoom = strip.bottom() - legendTop - 2.0 * kPadding - row;
    top = legendTop + kPadding;
    int cut = 0;
    std::vector<std::pair<const RoofLegendRow*, QStringList>> shown;
    double used = 0.0;
    for (const RoofLegendRow& r : rows) {
        const QStringList lines = wrapText(r.text, font, textWidth);
        const double height = static_cast<double>(lines.size()) * row;
        // Keep room for the count of the rows cut.
        if (used + height + row > legendRoom && &r != &rows.back()) {
            cut += std::max<int>(1, static_cast<int>(r.roofs.size()));
            continue;
        }
        if (used + height > legendRoom) {
            cut += std::max<int>(1, static_cast<int>(r.roofs.size()));
            continue;
        }
        used += height;
        shown.emplace_back(&r, lines);
    }
    if (!shown.empty() || cut > 0) {
        const double height = used + (cut > 0 ? row : 0.0) + 2.0 * kPadding;
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
            for (const QString& line : lines) {
                out.texts.push_back({line, QPointF(strip.left() + kPadding + kStroke + kStrokeGap, top), 0.0,
                                     theme.text, font, QColor(), false, QString(), TextRole::Legend});
                top += row;
            }
            out.roofsShown.insert(out.roofsShown.end(), r->roofs.begin(), r->roofs.end());
        }
        if (cut > 0) {
            out.texts.push_back(
                {QCoreApplication::translate("RooflineChart", "+%n more: point at a line", nullptr, cut),
                 QPointF(strip.left() + kPadding, top), 0.0, theme.mutedText, font, QColor(), false, QString(),
                 TextRole::Legend});
        }
    }
    return out;
}

}  // namespace ridgeline::ui
