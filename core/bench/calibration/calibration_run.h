#pragma once
// One calibration from files to record, as `ridgeline calibrate` and the window's Calibrate dialog both run it: read
// every file (format detected or given), turn its runs into points with the facts the user gave per file, fit the
// engine terms from the measured defaults (with the user's prior weight) and build the record a session keeps. Also
// the rule for a per-file list of whole numbers ("16" for every file, "1,4,16" one per file), shared by the
// command line's --batch and the dialog's fields.

#include "core/bench/calibration/calibration_points.h"
#include "core/bench/formats/bench_result.h"
#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_terms.h"
#include "core/result.h"
#include "core/session/session.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline {

// What a person may give for what the files do not record: tensor parallel size, prompt and output tokens.
inline constexpr int kMaxRunTensorParallel = 4096;
inline constexpr std::int64_t kMaxRunTokens = 10'000'000;

struct CalibrationRun {
    std::vector<BenchImport> imports;
    CalibrationPoints prepared;
    EngineTerms start;
    std::vector<PointResidual> before;  // each point under the start terms
    CalibrationFit fit;
    Calibration record;  // what a session keeps
};

// The whole run, or the first failure: a file that does not read (its name, line and field), a fact no file records
// and none was given (Error::Code::InvalidArgument: the caller asks for it), a point the model refuses.
// `options.priorWeight` 0 takes kUserFitPriorWeight.
Result<CalibrationRun> runCalibration(const QStringList& files, BenchFormat format,
                                      const std::vector<RunFacts>& perFile, FitOptions options,
                                      const QString& generator);

// `text` as one whole number for every one of `files`, or one per file in order, each from 1 to `max`; `what` names
// the field in the error ("--batch", "Batch"). Empty text: nothing given for any file.
Result<std::vector<std::optional<std::int64_t>>> perFileCounts(const QString& text, std::int64_t max, std::size_t files,
                                                               const QString& what);

}  // namespace ridgeline
