#pragma once
// The JSON of a session's calibrations (schema 2): fits of the LLM model's engine terms to benchmark results,
// with every point's residual. Beside session_json.cpp, which calls it.

#include "core/json/strict_reader.h"
#include "core/session/session.h"

#include <QJsonObject>

namespace ridgeline {

QJsonObject calibrationToJson(const Calibration& calibration);
Calibration calibrationFromJson(ObjectReader& in);

}  // namespace ridgeline
