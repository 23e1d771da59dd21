#pragma once
// Between a fit and the session: the record `ridgeline calibrate --out` keeps (core/session/calibration_record.h),
// and the fitted terms a window needs to draw the model's curves through the stored points.

#include "core/bench/calibration/calibration_points.h"
#include "core/bench/formats/bench_result.h"
#include "core/model/llm/calibration.h"
#include "core/model/llm/llm_model.h"
#include "core/result.h"
#include "core/session/session.h"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace ridgeline {

// Every engine term with its start and fitted value, every point with its setup and both predictions.
Calibration calibrationRecord(const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                              const EngineTerms& start, const CalibrationFit& fit,
                              const std::vector<PointResidual>& before, const QString& generator);

// The fitted terms of a stored calibration: EngineTerms::measured() with every stored term set. An error names a
// term this build does not know or a value checkTerms refuses.
Result<EngineTerms> fittedTerms(const Calibration& calibration);

// The setup of a stored point as the model's input, with the given terms: what the window evaluates to draw the
// model's curve through the point (vary `batch` for a batch sweep). Errors name the point.
Result<InferenceConfig> configOf(const CalibrationPoint& point, const EngineTerms& terms);

// The base session with the calibration appended, or a new session that measured nothing and holds it.
Session sessionWithCalibration(const std::optional<Session>& base, Calibration calibration);

}  // namespace ridgeline
