#pragma once
// THE way a log axis gets its range: through safeLogAxisRange (ui/plots/layout/log_scale.h), so that Qt Charts is never
// handed a range that is not finite, empty, or hundreds of decades wide, whatever the data.

class QLogValueAxis;

namespace ridgeline::ui {

// Sets the axis to low..high, made safe.
void setLogAxisRange(QLogValueAxis* axis, double low, double high);

}  // namespace ridgeline::ui
