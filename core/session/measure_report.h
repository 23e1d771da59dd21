#pragma once
// The human-readable report of a measurement, in the source text's table style: `ridgeline measure` prints it
// and the window's Measurement dock shows it, so both say the same (the clock's method and readings, each
// ceiling against its theoretical peak, the checks and what was not measured).

#include "core/session/session.h"

#include <QTextStream>

namespace ridgeline {

void printMeasureReport(const Session& session, QTextStream& out);
QString measureReportText(const Session& session);

}  // namespace ridgeline
