#include "ui/talk/training_slides.h"

#include "core/scene/training_scene.h"
#include "ui/chart/training_bar.h"
#include "ui/chart/training_hierarchy.h"
#include "ui/plots/training/training_view.h"

#include <QGridLayout>
#include <QVBoxLayout>

#include <algorithm>

namespace ridgeline::ui {

TrainingSlide::TrainingSlide(const Scene& scene, ThemeKind theme, QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("TrainingSlide"));
    if (scene.kind == QLatin1String("training-moves"))
        buildMoves(scene, theme);
    else
        buildHierarchy(scene, theme);
}

void TrainingSlide::buildMoves(const Scene& scene, ThemeKind theme)
{
    const Result<std::vector<TrainingStage>> stages = trainingMovesOf(scene);
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    if (!stages)
        return;
    double longest = 0;
    for (const TrainingStage& stage : stages.value())
        longest = std::max(longest, stage.report.memory.onCard());
    column->addStretch(1);
    for (const TrainingStage& stage : stages.value()) {
        StackBarData memory = trainingMemoryBar(stage.config, stage.report.memory);
        memory.title = stage.label;
        memory.shortTitle = stage.label;
        memory.scale = longest;
        // Every status names the card's size ("of 80.00 GiB", "the card has 80.00 GiB"), and four bars with their
        // legends fill the page: the line under the bar that names it again is left out.
        memory.capacityLabel.clear();
        auto* bar = new TrainingBar(this);
        bar->setTheme(theme);
        bar->setData(memory);
        column->addWidget(bar);
        m_bars.push_back(bar);
    }
    column->addStretch(1);
}

// Each stage's machine and collectives across the whole width, one above the other; under them the two steps' time
// bars side by side on one scale.
void TrainingSlide::buildHierarchy(const Scene& scene, ThemeKind theme)
{
    const Result<std::vector<TrainingStage>> stages = trainingHierarchyOf(scene);
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setHorizontalSpacing(24);
    grid->setVerticalSpacing(4);
    if (!stages)
        return;
    double longest = 0;
    for (const TrainingStage& stage : stages.value())
        longest = std::max(longest, stage.report.time.total());
    const int count = static_cast<int>(stages.value().size());
    for (int i = 0; i < count; ++i) {
        const TrainingStage& stage = stages.value()[static_cast<std::size_t>(i)];
        HierarchyData machine = trainingHierarchy(stage.config, stage.report);
        machine.title = stage.label + QStringLiteral(": collectives by the link they cross");
        auto* hierarchy = new TrainingHierarchy(this);
        hierarchy->setTheme(theme);
        hierarchy->setData(machine);
        StackBarData time = trainingTimeBar(stage.report);
        time.title = stage.label;
        time.shortTitle = stage.label;
        time.scale = longest;
        auto* bar = new TrainingBar(this);
        bar->setTheme(theme);
        bar->setData(time);
        grid->addWidget(hierarchy, i, 0, 1, count);
        grid->addWidget(bar, count, i);
        grid->setColumnStretch(i, 1);
        m_hierarchies.push_back(hierarchy);
        m_bars.push_back(bar);
    }
    grid->setRowStretch(count + 1, 1);
}

}  // namespace ridgeline::ui
