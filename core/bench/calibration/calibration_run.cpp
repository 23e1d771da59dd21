#include "core/bench/calibration/calibration_run.h"

#include "core/bench/bench_importer.h"
#include "core/bench/calibration/calibration_record_builder.h"

#include <utility>

namespace ridgeline {

Result<CalibrationRun> runCalibration(const QStringList& files, BenchFormat format,
                                      const std::vector<RunFacts>& perFile, FitOptions options,
                                      const QString& generator)
{
    if (files.isEmpty())
        return Error{Error::Code::InvalidArgument, QStringLiteral("give at least one benchmark result file")};
    if (perFile.size() != static_cast<std::size_t>(files.size()))
        return Error{Error::Code::InvalidArgument, QStringLiteral("one set of run facts per file is needed")};
    CalibrationRun run;
    for (const QString& file : files) {
        auto imported = importBenchFile(file, format);
        if (!imported)
            return imported.error();
        run.imports.push_back(std::move(imported).value());
    }
    auto prepared = calibrationPointsPerFile(run.imports, perFile);
    if (!prepared)
        return prepared.error();
    run.prepared = std::move(prepared).value();
    if (options.priorWeight <= 0.0)
        options.priorWeight = kUserFitPriorWeight;
    run.start = EngineTerms::measured();
    auto before = evaluatePoints(run.prepared.points, run.start);
    if (!before)
        return before.error();
    run.before = std::move(before).value();
    auto fit = fitEngineTerms(run.prepared.points, run.start, options);
    if (!fit)
        return fit.error();
    run.fit = std::move(fit).value();
    run.record = calibrationRecord(run.imports, run.prepared, run.start, run.fit, run.before, generator);
    return run;
}

Result<std::vector<std::optional<std::int64_t>>> perFileCounts(const QString& text, std::int64_t max, std::size_t files,
                                                               const QString& what)
{
    std::vector<std::optional<std::int64_t>> values(files);
    if (text.trimmed().isEmpty())
        return values;
    const QStringList texts = text.split(u',');
    if (texts.size() != 1 && static_cast<std::size_t>(texts.size()) != files)
        return Error{
            Error::Code::InvalidArgument,
            QStringLiteral("%1 gives %2 values for %3 files: give one for every file, or one per file in order")
                .arg(what)
                .arg(texts.size())
                .arg(files)};
    for (std::size_t i = 0; i < files; ++i) {
        const QString one = texts[texts.size() == 1 ? 0 : static_cast<qsizetype>(i)].trimmed();
        bool ok = false;
        const qlonglong value = one.toLongLong(&ok);
        if (!ok || value < 1 || value > max)
            return Error{Error::Code::InvalidArgument,
                         QStringLiteral("%1 must be a whole number from 1 to %2 (or one per file, comma-separated), "
                                        "got \"%3\"")
                             .arg(what)
                             .arg(max)
                             .arg(one)};
        values[i] = value;
    }
    return values;
}

}  // namespace ridgeline
