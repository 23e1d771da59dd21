#include "core/bench/calibration/calibration_curves.h"

#include "core/bench/calibration/calibration_record_builder.h"
#include "core/model/llm/llm_model.h"

#include <algorithm>
#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

bool sameSeries(const CalibrationPoint& a, const CalibrationPoint& b)
{
    return a.quantity == b.quantity && a.statistic == b.statistic && a.model == b.model && a.gpu == b.gpu &&
           a.tensorParallel == b.tensorParallel && a.weights == b.weights && a.kv == b.kv && a.prompt == b.prompt &&
           a.output == b.output;
}

std::optional<double> predictAt(const CalibrationPoint& setup, const EngineTerms& terms, MeasuredQuantity quantity,
                                QString& refused, bool& fits)
{
    const Result<InferenceConfig> config = configOf(setup, terms);
    if (!config) {
        refused = config.error().message;
        return std::nullopt;
    }
    const Result<LlmModel> model = LlmModel::create(config.value());
    if (!model) {
        refused = model.error().message;
        return std::nullopt;
    }
    const Result<MemoryUse> memory = model.value().memory(config.value().batch, config.value().context);
    fits = memory.ok() && memory.value().fits;
    const Result<double> value = predictQuantity(model.value(), quantity);
    if (!value || !(value.value() > 0) || !std::isfinite(value.value())) {
        refused = value ? u"the model predicts no finite positive value"_s : value.error().message;
        return std::nullopt;
    }
    return value.value();
}

}  // namespace

std::vector<CalibrationSeries> calibrationSeries(const Calibration& calibration)
{
    std::vector<CalibrationSeries> series;
    for (std::size_t i = 0; i < calibration.points.size(); ++i) {
        const CalibrationPoint& point = calibration.points[i];
        const auto quantity = parseQuantityName(point.quantity);
        if (!quantity)
            continue;
        auto found = std::find_if(series.begin(), series.end(),
                                  [&](const CalibrationSeries& s) { return sameSeries(s.setup, point); });
        if (found == series.end()) {
            CalibrationSeries added;
            added.quantity = *quantity;
            added.statistic = point.statistic;
            added.setup = point;
            series.push_back(std::move(added));
            found = series.end() - 1;
        }
        found->points.push_back(i);
        if (!found->files.contains(point.file))
            found->files << point.file;
    }
    for (CalibrationSeries& s : series) {
        std::stable_sort(s.points.begin(), s.points.end(), [&](std::size_t a, std::size_t b) {
            return calibration.points[a].batch < calibration.points[b].batch;
        });
        for (std::size_t i : s.points) {
            if (s.batches.empty() || s.batches.back() != calibration.points[i].batch)
                s.batches.push_back(calibration.points[i].batch);
        }
    }
    return series;
}

Result<EngineTerms> startTerms(const Calibration& calibration)
{
    Calibration start = calibration;
    for (CalibrationTerm& term : start.terms)
        term.fitted = term.start;
    return fittedTerms(start);
}

std::vector<std::int64_t> curveBatches(const CalibrationSeries& series)
{
    std::vector<std::int64_t> batches = series.batches;
    if (batches.empty())
        return batches;
    const std::int64_t low = std::max<std::int64_t>(1, batches.front() / 2);
    const std::int64_t high = std::min<std::int64_t>(kMaxBatch, batches.back() * 2);
    for (std::int64_t b = 1; b <= high; b *= 2) {
        if (b >= low)
            batches.push_back(b);
    }
    std::sort(batches.begin(), batches.end());
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    return batches;
}

Result<std::vector<CurveSample>> seriesCurve(const Calibration& calibration, const CalibrationSeries& series,
                                             const std::vector<std::int64_t>& batches)
{
    const Result<EngineTerms> before = startTerms(calibration);
    if (!before)
        return before.error();
    const Result<EngineTerms> after = fittedTerms(calibration);
    if (!after)
        return after.error();
    // A setup this build cannot evaluate at any batch (a model or GPU not in its catalog) stops the series.
    if (const Result<InferenceConfig> setup = configOf(series.setup, after.value()); !setup)
        return setup.error();
    std::vector<CurveSample> samples;
    samples.reserve(batches.size());
    for (std::int64_t batch : batches) {
        CurveSample sample;
        sample.batch = batch;
        double sum = 0;
        int count = 0;
        for (std::size_t i : series.points) {
            if (calibration.points[i].batch == batch) {
                sum += calibration.points[i].measured;
                ++count;
            }
        }
        if (count > 0)
            sample.measured = sum / count;
        CalibrationPoint setup = series.setup;
        setup.batch = batch;
        bool fits = true;
        sample.before = predictAt(setup, before.value(), series.quantity, sample.refused, fits);
        if (sample.before)
            sample.after = predictAt(setup, after.value(), series.quantity, sample.refused, sample.fitsInMemory);
        if (!sample.after)
            sample.before.reset();
        samples.push_back(std::move(sample));
    }
    return samples;
}

}  // namespace ridgeline
