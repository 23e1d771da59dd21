#pragma once
// The tensor-parallel scene's comparison: tokens/s of the same model and batch over each link, one bar per
// link, inside the box vs between boxes. The numbers are the scene's facts (computeSceneFacts), never typed.

#include "core/scene/scene_facts.h"
#include "ui/plots/layout/chart_theme.h"

#include <QWidget>

#include <vector>

namespace ridgeline::ui {

class LinkBars : public QWidget {
    Q_OBJECT
public:
    struct Bar {
        QString label;  // "NVLink 4 (H100)"
        QString value;  // "5,393 tokens/s"
        double tokensPerSecond = 0.0;
        double commPercent = 0.0;  // share of the step spent in all-reduces
        bool insideBox = true;
    };

    LinkBars(const Scene& scene, const SceneFacts& facts, ThemeKind theme, QWidget* parent = nullptr);

    const std::vector<Bar>& bars() const { return m_bars; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<Bar> m_bars;
    ChartTheme m_theme;
};

}  // namespace ridgeline::ui
