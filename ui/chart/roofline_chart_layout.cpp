// The roofline chart's layout report (ui/chart/chart_layout.h): read off the series and overlay items as they are
// drawn now, so the report and the picture cannot disagree.
#include "ui/chart/chart_overlay.h"
#include "ui/chart/roofline_chart.h"

#include <QFontMetricsF>
#include <QLineSeries>
#include <QScatterSeries>

namespace ridgeline::ui {

namespace {

// A text's four corners in chart coordinates, after its rotation about its origin.
QPolygonF textOutline(const AnnotationText& text)
{
    const QFontMetricsF metrics(text.font);
    QTransform t;
    t.translate(text.origin.x(), text.origin.y());
    t.rotate(text.angleDegrees);
    return t.map(QPolygonF(QRectF(0.0, 0.0, metrics.horizontalAdvance(text.text), metrics.height())));
}

void addTexts(const ChartOverlay& overlay, ChartLayout& out)
{
    const std::vector<QRectF> rects = overlay.textRects();
    for (std::size_t i = 0; i < overlay.texts().size(); ++i) {
        const AnnotationText& text = overlay.texts()[i];
        out.texts.push_back({rects[i], textOutline(text), text.text, text.owner});
        if (text.role == TextRole::Note)
            out.notes.push_back(rects[i]);
    }
}

}  // namespace

ChartLayout RooflineChart::layoutReport() const
{
    ChartLayout out;
    const QRectF plotArea = chart()->plotArea();
    out.plot = plotArea;
    // Dots: the series' own points where Qt Charts draws them, a large group's from the points KernelDots draws.
    for (std::size_t g = 0; g < m_groupSeries.size(); ++g) {
        QScatterSeries* series = m_groupSeries[g];
        const KernelGroup& group = m_plot.groups[g];
        if (!series || !series->isVisible())
            continue;
        const double radius = series->markerSize() / 2.0;
        for (std::size_t i = 0; i < group.points.size(); ++i) {
            const QPointF at = series->points().isEmpty()
                                   ? plotPosition(group.points[i])
                                   : chart()->mapToPosition(series->points().at(static_cast<qsizetype>(i)), series);
            if (!plotArea.contains(at))
                continue;  // Qt Charts clips dots to the plot
            const QString id = i < group.refs.size() ? kernelMarkId(group.refs[i]) : QStringLiteral("faded");
            out.markers.push_back({QRectF(at.x() - radius, at.y() - radius, 2.0 * radius, 2.0 * radius), id});
        }
    }
    // Roof lines as their series draw them, cut to the plot.
    for (std::size_t r = 0; r < m_roofSeries.size(); ++r) {
        QLineSeries* series = m_roofSeries[r];
        if (!series || !series->isVisible())
            continue;
        std::vector<QPointF> points;
        for (const QPointF& p : series->points())
            points.push_back(chart()->mapToPosition(p, series));
        for (std::vector<QPointF>& part : clipPolyline(points, plotArea))
            out.lines.push_back({roofMarkId(r), std::move(part)});
    }
    // Paths through a sweep's dots and leaders from names to their dots, as the overlays draw them.
    for (const ChartOverlay* overlay : {m_under, m_over})
        for (const AnnotationLine& line : overlay->lines()) {
            if (line.role == LineRole::Mark)
                continue;
            for (std::vector<QPointF>& part : clipPolyline({line.line.p1(), line.line.p2()}, plotArea))
                (line.role == LineRole::Leader ? out.leaders : out.lines).push_back({line.id, std::move(part)});
        }
    addTexts(*m_over, out);
    addTexts(*m_strip, out);
    if (!m_legend->keyRect().isEmpty()) {
        out.legends.push_back(m_legend->keyRect());
        for (std::size_t i = 0; i < m_legend->entries().size(); ++i) {
            const QRectF text = m_legend->textRect(i);
            if (!text.isEmpty())  // folded away
                out.texts.push_back({text, QPolygonF(text), m_legend->entries()[i].text, QString()});
        }
        if (const QRectF fold = m_legend->foldRect(); !fold.isEmpty())
            out.texts.push_back({fold, QPolygonF(fold), m_legend->foldText(), QString()});
    }
    if (!m_roofLegend.isEmpty())
        out.legends.push_back(m_roofLegend);
    // Chart coordinates -> the viewport's pixels, the picture an export renders.
    return out.mapped(chart()->sceneTransform() * viewportTransform());
}

}  // namespace ridgeline::ui
