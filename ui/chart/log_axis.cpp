#include "ui/chart/log_axis.h"

#include "ui/plots/layout/log_scale.h"

#include <QLogValueAxis>

namespace ridgeline::ui {

void setLogAxisRange(QLogValueAxis* axis, double low, double high)
{
    const LogAxisRange range = safeLogAxisRange(low, high);
    axis->setRange(range.low, range.high);
}

}  // namespace ridgeline::ui
