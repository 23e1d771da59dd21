#pragma once
// One line over the Measurement dock's report: how the clock was measured and whether it can be believed, and
// how many checks and experiments need the reader's eye. The clock's method and readings, the
// impossible and doubtful results and what was not measured are said in the window as in the table.

#include "core/session/session.h"

#include <QString>

namespace ridgeline::ui {

struct MeasurementSummary {
    enum class Severity { Fine, Doubtful, Impossible };
    bool measured = false;  // a session of ceilings this program measured (not an import)
    QString headline;       // "Clock 3.69 GHz by ... · 1 doubtful · 3 not measured"
    Severity severity = Severity::Fine;
};

MeasurementSummary summarizeMeasurement(const Session& session);

}  // namespace ridgeline::ui
