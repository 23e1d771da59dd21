#include "core/bench/calibration/calibration_record_builder.h"

#include "core/model/llm/engine_terms.h"
#include "core/model/llm/inference_request.h"
#include "core/model/number_format.h"

#include <QDateTime>

#include <algorithm>

#include <utility>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

CalibrationError errorOf(const ErrorSummary& summary)
{
    return {summary.medianAbs, summary.worstAbs, summary.rmsLog};
}

}  // namespace

Calibration calibrationRecord(const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                              const EngineTerms& start, const CalibrationFit& fit,
                              const std::vector<PointResidual>& before, const QString& generator)
{
    Calibration record;
    record.created = QDateTime::currentDateTimeUtc();
    record.generator = generator;
    for (const BenchImport& file : imports)
        record.sources << file.fileName + u": "_s + describeBenchFormat(file.format) +
                              (file.versions.isEmpty() ? QString() : u" ("_s + file.versions.join(u"; "_s) + u')');
    for (EngineTerm term : fit.free)
        record.freeTerms << termName(term);
    for (EngineTerm term : allTerms())
        record.terms.push_back({termName(term), termValue(start, term), termValue(fit.terms, term)});
    record.iterations = fit.iterations;
    record.converged = fit.converged;
    record.before = errorOf(fit.before);
    record.after = errorOf(fit.after);
    for (std::size_t i = 0; i < fit.residuals.size() && i < prepared.points.size(); ++i) {
        const MeasuredPoint& point = prepared.points[i];
        const PointOrigin& origin = prepared.origins[i];
        CalibrationPoint stored;
        stored.id = point.id;
        stored.file = origin.file;
        stored.run = origin.record;
        stored.label = origin.label;
        stored.quantity = quantityName(point.quantity);
        stored.statistic = origin.statistic;
        stored.model = point.config.model.id;
        stored.gpu = point.config.gpu.id;
        stored.tensorParallel = point.config.tensorParallel;
        stored.weights = numberFormatName(point.config.weights);
        stored.kv = numberFormatName(point.config.kv);
        stored.batch = point.config.batch;
        stored.prompt = point.config.prompt;
        stored.output = point.config.output;
        stored.measured = fit.residuals[i].measured;
        stored.predictedBefore = i < before.size() ? before[i].predicted : 0.0;
        stored.predicted = fit.residuals[i].predicted;
        record.points.push_back(std::move(stored));
    }
    record.notes = prepared.notes;
    record.notes << fit.notes;
    for (const BenchSkip& unused : prepared.unused)
        record.notes << u"not fitted: "_s + unused.what + u": "_s + unused.reason;
    return record;
}

Result<EngineTerms> fittedTerms(const Calibration& calibration)
{
    EngineTerms terms = EngineTerms::measured();
    for (const CalibrationTerm& stored : calibration.terms) {
        const auto term = parseTermName(stored.name);
        if (!term)
            return makeError(Error::Code::Schema, u"the calibration holds the term \""_s + stored.name +
                                                      u"\", which this Ridgeline does not know"_s);
        setTermValue(terms, *term, stored.fitted);
    }
    if (const auto problem = checkTerms(terms))
        return makeError(Error::Code::Range, u"the calibration's terms are out of range: "_s + *problem);
    return terms;
}

Result<InferenceConfig> configOf(const CalibrationPoint& point, const EngineTerms& terms)
{
    const auto weights = parseNumberFormat(point.weights);
    const auto kv = parseNumberFormat(point.kv);
    if (!weights || !kv)
        return makeError(Error::Code::Schema,
                         point.id + u": unknown number format \""_s + (weights ? point.kv : point.weights) + u'"');
    InferenceRequest request;
    request.modelId = point.model;
    request.gpuId = point.gpu;
    request.gpus = point.tensorParallel;
    request.weights = *weights;
    request.kv = *kv;
    request.batch = point.batch;
    request.prompt = point.prompt;
    request.output = point.output;
    request.context = std::max<std::int64_t>(1, point.prompt + point.output);
    Result<InferenceConfig> config = resolveInference(request);
    if (!config)
        return makeError(config.error().code, point.id + u": "_s + config.error().message);
    config.value().efficiency = terms;
    return config;
}

Session sessionWithCalibration(const std::optional<Session>& base, Calibration calibration)
{
    Session session;
    if (base) {
        session = *base;
    } else {
        QStringList files;
        for (const CalibrationPoint& point : calibration.points) {
            if (!files.contains(point.file))
                files << point.file;
        }
        session.title = u"Calibration from "_s + files.join(u", "_s);
        session.created = QDateTime::currentDateTimeUtc();
        session.generator = calibration.generator;
        session.machine.cpuModel = u"not measured (a calibration of the LLM model to "_s + files.join(u", "_s) + u')';
        session.machine.cores = 1;  // a session names at least one CPU; nothing was measured here
    }
    session.calibrations.push_back(std::move(calibration));
    return session;
}

}  // namespace ridgeline
