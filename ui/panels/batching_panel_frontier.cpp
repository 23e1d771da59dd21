// The batching panel's frontier: the chart that shares the throughput chart's slot, its targets and price, and the
// link both ways between its points and the batch slider.
#include "ui/chart/batch_throughput_chart.h"
#include "ui/chart/frontier_chart.h"
#include "ui/panels/batching_panel.h"
#include "ui/panels/frontier_controls.h"

#include <QTabBar>

namespace ridgeline::ui {

QWidget* BatchingPanel::createFrontierControls(QWidget* parent)
{
    m_frontierControls = new FrontierControls(parent);
    // The core's rules at the tab's model, GPU and lengths: a target below one request alone's time is refused with
    // that time; a model the tab cannot evaluate has nothing to check against (its chart says why).
    m_frontierControls->setCheck([this](const FrontierSettings& settings) -> std::optional<QString> {
        if (m_scenario.error)
            return std::nullopt;
        return checkFrontierSettings(m_scenario.config, m_scenario.scheduler, settings);
    });
    connect(m_frontierControls, &FrontierControls::edited, this, [this] {
        updateFrontier();
        emit scenarioChanged();
    });
    // A click on a point of the frontier is a move of the batch slider to that batch.
    connect(m_frontier, &FrontierChart::batchClicked, this, [this](std::int64_t batch) { setBatch(batch); });
    m_frontierControls->hide();
    return m_frontierControls;
}

void BatchingPanel::setFrontierSettings(const FrontierSettings& settings)
{
    m_frontierControls->showSettings(settings);
    updateFrontier();
}

// Only when shown: the whole curve is a latency evaluation per batch, which a hidden chart need not pay for on
// every slider step.
void BatchingPanel::updateFrontier()
{
    // The price field follows the GPU whether or not the frontier is shown, so it is right when it opens.
    m_frontierControls->setCatalogPrice(m_scenario.error ? CostInputs{}
                                                         : withCatalogPrice(CostInputs{}, m_scenario.config.gpu));
    if (!frontierShown())
        return;
    if (m_scenario.error)
        m_frontier->showMessage(tr("No numbers: see the message above"));
    else
        m_frontier->setData(frontierChartData(m_scenario.config, m_scenario.scheduler, m_frontierControls->settings()));
}

void BatchingPanel::showFrontier(bool frontier)
{
    if (m_chartSwitch->currentIndex() != (frontier ? 1 : 0))
        m_chartSwitch->setCurrentIndex(frontier ? 1 : 0);  // comes back here through currentChanged
    if (frontier == frontierShown())
        return;
    m_frontier->setVisible(frontier);
    m_frontierControls->setVisible(frontier);
    m_throughput->setVisible(!frontier);
    updateFrontier();
    updateTexts();
}

bool BatchingPanel::frontierShown() const
{
    return m_frontier->isVisibleTo(this);
}

}  // namespace ridgeline::ui
