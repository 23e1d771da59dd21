#pragma once
// A calibration as an engine profile of the user's own (`ridgeline calibrate --save-engine NAME`, the Calibrate
// dialog): every term the fit left away from the measured defaults, on every card, each with where it comes from.
// Saved with saveUserEngine (core/model/llm/engine_catalog.h), it is chosen like a built-in engine.

#include "core/model/llm/engine_profile.h"
#include "core/result.h"
#include "core/session/calibration_record.h"

#include <QString>

namespace ridgeline {

// `id` is what --engine will take; the catalog's reader judges it when the profile is saved. An error when the
// calibration's fitted terms do not read (fittedTerms).
Result<EngineProfile> engineFromCalibration(const Calibration& calibration, const QString& id);

}  // namespace ridgeline
