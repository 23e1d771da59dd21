#pragma once
// Where one decode step's time goes: weights, KV cache, compute, communication and the engine's fixed
// overhead as a thin stacked bar over a small table, each part with its time and share of the step, the numbers
// `ridgeline model` prints (core/model/llm/breakdown_text.h). Narrow and no taller than the memory bar, beside which it
// sits. Painted by hand, like the memory bar: a labelled bar, not a plot.

#include "core/model/llm/breakdown_text.h"
#include "ui/plots/batching/batching_chart_data.h"
#include "ui/plots/layout/chart_theme.h"

#include <QStringList>
#include <QWidget>

namespace ridgeline::ui {

class StepBreakdownBar : public QWidget {
    Q_OBJECT
public:
    explicit StepBreakdownBar(QWidget* parent = nullptr);

    void setTheme(ThemeKind theme);
    void setData(const StepBreakdownData& data);
    void showMessage(const QString& message);

    bool hasData() const { return m_hasData; }
    const StepBreakdownData& data() const { return m_data; }
    QString titleText() const { return m_title; }
    // The title and one text per part as `ridgeline model` words it ("weights 8.12 ms (66 %)", "compute: none").
    QStringList texts() const;
    // The bar's segment of a part in widget pixels (empty when it took no time), and its table row.
    QRectF segmentRect(BreakdownPart part) const;
    QRectF rowRect(BreakdownPart part) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QColor partColor(BreakdownPart part) const;
    QRectF barRect() const;
    double rowHeight() const;
    void rebuildTexts();
    QString hiddenUnder(BreakdownPart part) const;  // "" unless the part did work hidden under another

    ChartTheme m_theme;
    StepBreakdownData m_data;
    bool m_hasData = false;
    QString m_title;
    QString m_message;
    QStringList m_legend;  // one per part, in kBreakdownParts order
};

}  // namespace ridgeline::ui
