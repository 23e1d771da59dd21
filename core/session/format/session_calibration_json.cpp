#include "core/session/format/session_calibration_json.h"

#include "core/message_text.h"
#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_terms.h"
#include "core/model/llm/llm_model.h"
#include "core/model/number_format.h"
#include "core/session/format/session_json_rules.h"

#include <QJsonArray>
#include <QSet>

#include <utility>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;
using namespace session_json;

namespace {

QJsonObject calibrationErrorToJson(const CalibrationError& error)
{
    return {{u"median_abs"_s, error.medianAbs}, {u"worst_abs"_s, error.worstAbs}, {u"rms_log"_s, error.rmsLog}};
}

CalibrationError calibrationErrorFromJson(ObjectReader& in)
{
    CalibrationError error;
    error.medianAbs = in.number("median_abs"_L1, kMaxRelativeError, Need::Required);
    error.worstAbs = in.number("worst_abs"_L1, kMaxRelativeError, Need::Required);
    error.rmsLog = in.number("rms_log"_L1, kMaxRelativeError, Need::Required);
    if (!in.problem().found() && error.medianAbs > error.worstAbs)
        in.problem().report(Error::Code::Range,
                            in.where("median_abs"_L1) + u" ("_s + formatExactNumber(error.medianAbs) +
                                u") must not exceed worst_abs ("_s + formatExactNumber(error.worstAbs) + u')');
    return error;
}

QJsonObject calibrationTermToJson(const CalibrationTerm& term)
{
    return {{u"name"_s, term.name}, {u"start"_s, term.start}, {u"fitted"_s, term.fitted}};
}

CalibrationTerm calibrationTermFromJson(ObjectReader& in)
{
    CalibrationTerm term;
    term.name = in.text("name"_L1, Need::Required);
    // Shares lie in (0, 1]; times in [0, 1 s] (checkTerms' bounds).
    term.start = in.number("start"_L1, 1.0, Need::Required);
    term.fitted = in.number("fitted"_L1, 1.0, Need::Required);
    if (in.problem().found())
        return term;
    const auto parsed = parseTermName(term.name);
    if (!parsed)
        in.problem().report(Error::Code::Schema, in.where("name"_L1) +
                                                     u" must name an engine term such as "
                                                     "\"layer_seconds\" or \"weight_bandwidth.bf16\", got "_s +
                                                     describeText(term.name));
    else if (parsed->isShare() && (term.start <= 0.0 || term.fitted <= 0.0))
        in.problem().report(Error::Code::Range, in.where(term.start <= 0.0 ? "start"_L1 : "fitted"_L1) +
                                                    u" must be above 0: "_s + term.name +
                                                    u" is a share of a datasheet peak"_s);
    return term;
}

QJsonObject calibrationPointToJson(const CalibrationPoint& point)
{
    return {{u"id"_s, point.id},
            {u"file"_s, point.file},
            {u"run"_s, point.run},
            {u"label"_s, point.label},
            {u"quantity"_s, point.quantity},
            {u"statistic"_s, point.statistic},
            {u"model"_s, point.model},
            {u"gpu"_s, point.gpu},
            {u"tensor_parallel"_s, point.tensorParallel},
            {u"weights"_s, point.weights},
            {u"kv"_s, point.kv},
            {u"batch"_s, static_cast<qint64>(point.batch)},
            {u"prompt"_s, static_cast<qint64>(point.prompt)},
            {u"output"_s, static_cast<qint64>(point.output)},
            {u"measured"_s, point.measured},
            {u"predicted_before"_s, point.predictedBefore},
            {u"predicted"_s, point.predicted}};
}

// The prompt and output a quantity needs to be predicted at all (predictQuantity's conditions), so that a stored
// point is one the window can redraw: {least prompt, least output}.
std::pair<std::int64_t, std::int64_t> leastLengths(MeasuredQuantity quantity)
{
    switch (quantity) {
        case MeasuredQuantity::TokenLatency:
        case MeasuredQuantity::TokensPerSecond:
            return {0, 0};
        case MeasuredQuantity::Ttft:
            return {1, 0};
        case MeasuredQuantity::EndToEnd:
        case MeasuredQuantity::StaticThroughput:
            return {1, 1};
        case MeasuredQuantity::StaticTpot:
        case MeasuredQuantity::StaticDecodeRate:
        case MeasuredQuantity::ServingTpot:
        case MeasuredQuantity::ServingThroughput:
            return {1, 2};
    }
    return {0, 0};
}

CalibrationPoint calibrationPointFromJson(ObjectReader& in)
{
    CalibrationPoint point;
    point.id = in.text("id"_L1, Need::Required);
    point.file = in.text("file"_L1, Need::Required);
    point.run = in.smallInteger("run"_L1, 1, 1'000'000'000, 1, Need::Required);
    point.label = in.text("label"_L1);
    point.quantity = in.text("quantity"_L1, Need::Required);
    point.statistic = in.text("statistic"_L1);
    point.model = in.text("model"_L1, Need::Required);
    point.gpu = in.text("gpu"_L1, Need::Required);
    // The model's own limits (llm_model.h): a point outside them is one no curve can be drawn through.
    point.tensorParallel = in.smallInteger("tensor_parallel"_L1, 1, kMaxTensorParallel, 1, Need::Required);
    point.weights = in.text("weights"_L1, Need::Required);
    point.kv = in.text("kv"_L1, Need::Required);
    point.batch = in.integer("batch"_L1, 1, kMaxBatch, 1, Need::Required);
    point.prompt = in.integer("prompt"_L1, 0, kMaxContext, 0, Need::Required);
    point.output = in.integer("output"_L1, 0, kMaxContext, 0, Need::Required);
    point.measured = in.number("measured"_L1, kMaxMeasuredValue, Need::Required);
    point.predictedBefore = in.number("predicted_before"_L1, kMaxMeasuredValue, Need::Required);
    point.predicted = in.number("predicted"_L1, kMaxMeasuredValue, Need::Required);
    if (in.problem().found())
        return point;
    const auto quantity = parseQuantityName(point.quantity);
    for (const auto& [key, text] : {std::pair{"id"_L1, &point.id}, std::pair{"file"_L1, &point.file},
                                    std::pair{"model"_L1, &point.model}, std::pair{"gpu"_L1, &point.gpu}}) {
        if (!in.problem().found() && text->trimmed().isEmpty())
            in.problem().report(Error::Code::Schema, in.where(key) +
                                                         u" is empty: a calibration point names its "
                                                         "benchmark file, run, model and GPU"_s);
    }
    if (in.problem().found())
        return point;
    if (!quantity)
        in.problem().report(Error::Code::Schema, in.where("quantity"_L1) +
                                                     u" must name a measured quantity such as \"serving_tpot_s\" or "
                                                     "\"e2e_latency_s\", got "_s +
                                                     describeText(point.quantity));
    else if (point.prompt + point.output > kMaxContext)
        in.problem().report(Error::Code::Range, in.where("output"_L1) + u": prompt and output together are "_s +
                                                    QString::number(point.prompt + point.output) +
                                                    u" tokens; the model takes at most "_s +
                                                    QString::number(kMaxContext));
    else if (point.prompt < leastLengths(*quantity).first)
        in.problem().report(Error::Code::Range, in.where("prompt"_L1) + u" must be at least "_s +
                                                    QString::number(leastLengths(*quantity).first) + u" for "_s +
                                                    point.quantity + u", got "_s + QString::number(point.prompt));
    else if (point.output < leastLengths(*quantity).second)
        in.problem().report(Error::Code::Range, in.where("output"_L1) + u" must be at least "_s +
                                                    QString::number(leastLengths(*quantity).second) + u" for "_s +
                                                    point.quantity + u", got "_s + QString::number(point.output));
    else if (!parseNumberFormat(point.weights))
        in.problem().report(Error::Code::Schema,
                            in.where("weights"_L1) + u" must be a number format, got "_s + describeText(point.weights));
    else if (!parseNumberFormat(point.kv))
        in.problem().report(Error::Code::Schema,
                            in.where("kv"_L1) + u" must be a number format, got "_s + describeText(point.kv));
    else if (point.measured <= 0.0 || point.predicted <= 0.0 || point.predictedBefore <= 0.0)
        in.problem().report(Error::Code::Range, in.where(point.measured <= 0.0    ? "measured"_L1
                                                         : point.predicted <= 0.0 ? "predicted"_L1
                                                                                  : "predicted_before"_L1) +
                                                    u" must be above 0: a fitted figure is a time or a rate"_s);
    return point;
}

}  // namespace

QJsonObject calibrationToJson(const Calibration& calibration)
{
    QJsonObject out{{u"generator"_s, calibration.generator},
                    {u"sources"_s, QJsonArray::fromStringList(calibration.sources)},
                    {u"free_terms"_s, QJsonArray::fromStringList(calibration.freeTerms)},
                    {u"terms"_s, toJsonArray(calibration.terms, calibrationTermToJson)},
                    {u"iterations"_s, calibration.iterations},
                    {u"converged"_s, calibration.converged},
                    {u"error_before"_s, calibrationErrorToJson(calibration.before)},
                    {u"error_after"_s, calibrationErrorToJson(calibration.after)},
                    {u"points"_s, toJsonArray(calibration.points, calibrationPointToJson)},
                    {u"notes"_s, QJsonArray::fromStringList(calibration.notes)}};
    if (calibration.created.isValid())
        out.insert("created"_L1, calibration.created.toUTC().toString(Qt::ISODateWithMs));
    return out;
}

Calibration calibrationFromJson(ObjectReader& in)
{
    Calibration calibration;
    calibration.created = in.dateTime("created"_L1);
    calibration.generator = in.text("generator"_L1);
    calibration.sources = textListFromJson(in, "sources"_L1, kMaxEntries);
    calibration.freeTerms = textListFromJson(in, "free_terms"_L1, kMaxEntries);
    calibration.terms =
        readEntries<CalibrationTerm>(in, "terms"_L1, kMaxEntries, Need::Required, calibrationTermFromJson);
    calibration.iterations = in.smallInteger("iterations"_L1, 0, 1'000'000, 0, Need::Required);
    calibration.converged = in.boolean("converged"_L1, false);
    for (const auto& [key, error] :
         {std::pair{"error_before"_L1, &calibration.before}, std::pair{"error_after"_L1, &calibration.after}}) {
        // A structured binding cannot be captured by clang 14 (the fuzz build's compiler): copy it first.
        CalibrationError* target = error;
        readObject(in, key, Need::Required, [target](ObjectReader& e) { *target = calibrationErrorFromJson(e); });
    }
    calibration.points =
        readEntries<CalibrationPoint>(in, "points"_L1, kMaxCalibrationPoints, Need::Required, calibrationPointFromJson);
    calibration.notes = textListFromJson(in, "notes"_L1, kMaxEntries);
    Problem& problem = in.problem();
    if (problem.found())
        return calibration;
    if (calibration.points.empty())
        problem.report(Error::Code::Schema, in.where("points"_L1) + u" is empty: a calibration fits measured points"_s);
    // A point is one figure of one run: the same run and figure twice is a file edited by hand, or a broken one.
    QSet<QString> figures;
    for (std::size_t i = 0; i < calibration.points.size() && !problem.found(); ++i) {
        const CalibrationPoint& point = calibration.points[i];
        const QString figure = point.id + u'\n' + point.quantity;
        if (figures.contains(figure))
            problem.report(Error::Code::Schema, indexedPath(in.where("points"_L1), static_cast<qsizetype>(i)) +
                                                    u": "_s + point.quantity + u" of "_s + oneLine(point.id) +
                                                    u" appears twice"_s);
        figures.insert(figure);
    }
    QSet<QString> names;
    for (std::size_t i = 0; i < calibration.terms.size() && !problem.found(); ++i) {
        const QString& name = calibration.terms[i].name;
        if (names.contains(name))
            problem.report(Error::Code::Schema, indexedPath(in.where("terms"_L1), static_cast<qsizetype>(i)) +
                                                    u".name: the term "_s + name + u" appears twice"_s);
        names.insert(name);
    }
    for (qsizetype i = 0; i < calibration.freeTerms.size() && !problem.found(); ++i) {
        if (!names.contains(calibration.freeTerms[i]))
            problem.report(Error::Code::Schema, indexedPath(in.where("free_terms"_L1), i) + u" names "_s +
                                                    describeText(calibration.freeTerms[i]) +
                                                    u", which is not in terms"_s);
        else if (calibration.freeTerms.indexOf(calibration.freeTerms[i]) < i)
            problem.report(Error::Code::Schema, indexedPath(in.where("free_terms"_L1), i) + u" names "_s +
                                                    calibration.freeTerms[i] + u" a second time"_s);
    }
    return calibration;
}

}  // namespace ridgeline
