#pragma once
// The human-readable report of a measurement, in the source text's table style.

#include "core/session/session.h"

#include <QTextStream>

namespace ridgeline::cli {

void printMeasureReport(const Session& session, QTextStream& out);

}  // namespace ridgeline::cli
