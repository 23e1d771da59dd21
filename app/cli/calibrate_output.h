#pragma once
// What `ridgeline calibrate` prints for one fit: the text report (files read, setups, fitted terms, each run's
// measured and predicted figures, the model's curves, what was not fitted and the notes) and the same as JSON.

#include "core/bench/bench_importer.h"
#include "core/bench/calibration/calibration_points.h"
#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_terms.h"
#include "core/session/calibration_record.h"

#include <QJsonObject>
#include <QTextStream>

#include <vector>

namespace ridgeline::cli {

void printCalibrationText(QTextStream& out, const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                          const EngineTerms& start, const CalibrationFit& fit, const std::vector<PointResidual>& before,
                          const Calibration& record);

QJsonObject calibrationJson(const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                            const EngineTerms& start, const CalibrationFit& fit,
                            const std::vector<PointResidual>& before, const Calibration& record);

}  // namespace ridgeline::cli
