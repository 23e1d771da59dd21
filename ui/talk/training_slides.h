#pragma once
// The training scenes' pictures (core/scene/training_scene.h), drawn with the Training tab's own widgets:
// - training-moves: one memory bar per stage (the start, then each cheap move), all on one scale, each with the
//   card's capacity line, so a bar's length compares across the moves;
// - training-hierarchy: the same tensor-parallel group inside one box and across boxes, side by side, each as the
//   tab's hierarchy view over its step's time bar, the two time bars on one scale.
// The stages are the ones the caption's numbers come from, so slide and caption cannot drift apart.

#include "core/scene/deck.h"
#include "ui/plots/layout/chart_theme.h"

#include <QWidget>

#include <vector>

namespace ridgeline::ui {

class TrainingBar;
class TrainingHierarchy;

class TrainingSlide : public QWidget {
    Q_OBJECT
public:
    // The scene must be of a training kind and its stages must compute (its facts did).
    TrainingSlide(const Scene& scene, ThemeKind theme, QWidget* parent = nullptr);

    const std::vector<TrainingBar*>& bars() const { return m_bars; }
    const std::vector<TrainingHierarchy*>& hierarchies() const { return m_hierarchies; }

private:
    void buildMoves(const Scene& scene, ThemeKind theme);
    void buildHierarchy(const Scene& scene, ThemeKind theme);

    std::vector<TrainingBar*> m_bars;
    std::vector<TrainingHierarchy*> m_hierarchies;
};

}  // namespace ridgeline::ui
