#pragma once
// One stacked bar of the Training tab (ui/plots/training/training_view.h): the memory per GPU against the card, or
// the step's time split. Title left, status right, the parts with their names inside when they fit, a hatched red
// overflow past the capacity line, and a legend with every part's number. Painted by hand, like the batching memory
// bar: a labelled bar, not a plot; where things go comes from layoutStackBar.

#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/training/training_view.h"

#include <QPointF>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace ridgeline::ui {

class TrainingBar : public QWidget {
    Q_OBJECT
public:
    explicit TrainingBar(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const StackBarData& data);
    const StackBarData& data() const { return m_data; }
    // Everything the bar writes (title, status, capacity, legend), for tests.
    QStringList texts() const;
    // The bar's rectangle of each part and of the overflow, in widget pixels.
    QRectF partRect(TrainingPart part) const;
    QRectF overRect() const;
    // Whether the width cuts a word short: the status, or the title and its short form, elided.
    bool isCut() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QRectF barRect() const;
    double capacityRow() const;
    std::vector<QPointF> legendOrigins(double width) const;
    void fitLegendRows();

    ChartTheme m_theme;
    StackBarData m_data;
    int m_legendRows = 1;
};

}  // namespace ridgeline::ui
