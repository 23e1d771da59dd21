#include "ui/gpu_menu.h"

#include "core/model/catalog/catalog.h"
#include "core/model/catalog/gpu_roofs.h"
#include "ui/dialogs.h"

#include <QAction>
#include <QActionGroup>
#include <QSignalBlocker>

namespace ridgeline::ui {

GpuMenu::GpuMenu(QWidget* window) : QMenu(tr("&GPU Rooflines"), window)
{
    QMenu* formats = addMenu(tr("&Number Format"));
    m_formats = new QActionGroup(this);
    for (const NumberFormat format : {NumberFormat::Fp32, NumberFormat::Tf32, NumberFormat::Bf16, NumberFormat::Fp16,
                                      NumberFormat::Fp8, NumberFormat::Int8}) {
        QAction* action = formats->addAction(numberFormatName(format));
        action->setCheckable(true);
        action->setChecked(format == NumberFormat::Bf16);
        action->setData(static_cast<int>(format));
        m_formats->addAction(action);
    }
    connect(m_formats, &QActionGroup::triggered, this, &GpuMenu::onChanged);
    addSeparator();
    if (const Result<std::vector<GpuSpec>>& gpus = builtinGpus(); gpus.ok()) {
        for (const GpuSpec& gpu : gpus.value()) {
            QAction* action = addAction(gpu.name);
            action->setCheckable(true);
            action->setData(gpu.id);
            action->setToolTip(gpu.source);
            connect(action, &QAction::toggled, this, &GpuMenu::onChanged);
            m_gpuActions << action;
        }
    }
    addSeparator();
    addAction(tr("&Custom GPU…"), this, &GpuMenu::addCustomGpu);
    addAction(tr("C&lear GPU Rooflines"), this, &GpuMenu::clear);
}

NumberFormat GpuMenu::format() const
{
    const QAction* checked = m_formats->checkedAction();
    return static_cast<NumberFormat>(checked ? checked->data().toInt() : static_cast<int>(NumberFormat::Bf16));
}

std::vector<NamedRoof> GpuMenu::roofs() const
{
    const NumberFormat format = this->format();
    std::vector<NamedRoof> roofs;
    for (const QAction* action : m_gpuActions)
        if (action->isChecked())
            if (Result<NamedRoof> roof = catalogGpuRoof(action->data().toString(), format))
                roofs.push_back(roof.value());
    roofs.insert(roofs.end(), m_customRoofs.begin(), m_customRoofs.end());
    return roofs;
}

void GpuMenu::onChanged()
{
    const NumberFormat format = this->format();
    QStringList missing;
    for (const QAction* action : std::as_const(m_gpuActions))
        if (action->isChecked() && !catalogGpuRoof(action->data().toString(), format))
            missing << action->text();
    emit roofsChanged();
    if (!missing.isEmpty())
        emit statusMessage(
            tr("No dense %1 peak for %2").arg(numberFormatName(format), missing.join(QStringLiteral(", "))), 6000);
}

void GpuMenu::addCustomGpu()
{
    if (std::optional<NamedRoof> roof = askCustomGpu(parentWidget())) {
        m_customRoofs.push_back(*roof);
        onChanged();
    }
}

void GpuMenu::clear()
{
    m_customRoofs.clear();
    for (QAction* action : std::as_const(m_gpuActions)) {
        const QSignalBlocker blocker(action);
        action->setChecked(false);
    }
    onChanged();
}

}  // namespace ridgeline::ui
