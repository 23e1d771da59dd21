#pragma once
// The roofline's key, drawn by the chart instead of Qt Charts' legend: that one lays its entries out in one row
// (cutting names short) or one column (taking a third of the chart's width), never in rows that wrap. Here the
// entries go in centred rows below the axis title (ui/plots/layout/legend_flow.h), each a marker or a stroke of
// a line and its name; a click on one (press and release on the same entry) is reported for the chart to act on.
// A chart too short for all its rows folds the key to one row that ends in "+N more"; a click there unfolds it,
// and "fewer" at its end folds it again.

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

// How the key takes its rows: all of them; one row ending in "+N more"; all of them ending in "fewer".
enum class KeyFold { All, OneRow, Unfolded };

class ChartLegend : public QGraphicsObject {
    Q_OBJECT
public:
    explicit ChartLegend(QGraphicsItem* parent = nullptr);

    void setEntries(std::vector<LegendEntry> entries, const QFont& font, const QColor& text);
    const std::vector<LegendEntry>& entries() const { return m_entries; }
    void setDimmed(std::size_t index, bool dimmed);

    void setFold(KeyFold fold);
    KeyFold fold() const { return m_fold; }
    // The height the entries take in rows `width` wide when folded so (0 without entries).
    double heightFor(double width, KeyFold fold) const;
    double rowHeight() const;
    // Lays the rows out across `width` from `topLeft`, in chart coordinates.
    void layOut(QPointF topLeft, double width);
    // Each entry's box and the whole key's, in chart coordinates; empty before layOut, and for an entry a folded key
    // leaves out.
    const std::vector<QRectF>& entryRects() const { return m_rects; }
    QRectF keyRect() const;
    // Where each entry's name is drawn, in chart coordinates; empty for an entry left out.
    QRectF textRect(std::size_t index) const;
    // The entry that folds or unfolds the key ("+9 more", "fewer") and its box; empty when it shows none.
    QString foldText() const;
    QRectF foldRect() const { return m_foldRect; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

signals:
    void entryClicked(int index);
    // The "+N more" or "fewer" entry was clicked.
    void foldClicked();

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent* event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent* event) override;

private:
    std::vector<double> entryWidths() const;
    double symbolWidth() const;
    // The entries a key `width` wide shows, in order, and the text of its fold entry ("" for none).
    std::vector<std::size_t> shownEntries(double width, KeyFold fold, QString* foldText) const;
    double foldWidth(const QString& text) const;
    int entryAt(QPointF at) const;  // an entry's index, m_entries.size() for the fold entry, -1 for none

    std::vector<LegendEntry> m_entries;
    std::vector<QRectF> m_rects;
    KeyFold m_fold = KeyFold::All;
    QString m_foldText;
    QRectF m_foldRect;
    QFont m_font;
    QColor m_text;
    int m_pressed = -1;
};

}  // namespace ridgeline::ui
