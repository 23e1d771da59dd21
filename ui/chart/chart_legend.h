#pragma once
// The roofline's key, drawn by the chart instead of Qt Charts' legend: that one lays its entries out in one row
// (cutting names short) or one column (taking a third of the chart's width), never in rows that wrap. Here the
// entries go in centred rows below the axis title (ui/plots/layout/legend_flow.h), each a marker or a stroke of
// a line and its name; a click on one (press and release on the same entry) is reported for the chart to act on.

#include "ui/plots/roofline/roofline_plot_data.h"

#include <QBrush>
#include <QFont>
#include <QGraphicsObject>
#include <QPen>

#include <vector>

namespace ridgeline::ui {

struct LegendEntry {
    QString text;
    QPen pen;      // the stroke of a line, or a marker's outline
    QBrush brush;  // a marker's fill; Qt::NoBrush: the entry shows a stroke of `pen`
    MarkerShape shape = MarkerShape::Circle;
    double markerSize = 10.0;  // diameter, capped to the row's height
    bool dimmed = false;       // what it stands for is hidden: drawn faint, to be clicked on again
};

class ChartLegend : public QGraphicsObject {
    Q_OBJECT
public:
    explicit ChartLegend(QGraphicsItem* parent = nullptr);

    void setEntries(std::vector<LegendEntry> entries, const QFont& font, const QColor& text);
    const std::vector<LegendEntry>& entries() const { return m_entries; }
    void setDimmed(std::size_t index, bool dimmed);

    // The height the entries take in rows `width` wide (0 without entries).
    double heightFor(double width) const;
    // Lays the rows out across `width` from `topLeft`, in chart coordinates.
    void layOut(QPointF topLeft, double width);
    // Each entry's box and the whole key's, in chart coordinates; empty before layOut.
    const std::vector<QRectF>& entryRects() const { return m_rects; }
    QRectF keyRect() const;
    // Where each entry's name is drawn, in chart coordinates.
    QRectF textRect(std::size_t index) const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    void entryClicked(int index);

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;

private:
    std::vector<double> entryWidths() const;
    double rowHeight() const;
    double symbolWidth() const;
    int entryAt(QPointF at) const;

    std::vector<LegendEntry> m_entries;
    std::vector<QRectF> m_rects;
    QFont m_font;
    QColor m_text;
    int m_pressed = -1;
};

}  // namespace ridgeline::ui
