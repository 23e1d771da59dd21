#include "ui/plots/batching/batching_calibration.h"

#include "core/bench/calibration/calibration_curves.h"
#include "core/bench/calibration/calibration_record_builder.h"
#include "core/model/units.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::BatchingPanel", text);
}

// The window draws a curve from a quarter of the smallest measured batch to four times the largest (at least 16),
// at four samples per octave and at every measured batch: wide enough to see it bend.
std::vector<std::int64_t> windowBatches(const CalibrationSeries& series)
{
    std::vector<std::int64_t> batches = series.batches;
    if (batches.empty())
        return batches;
    const double low = std::max(1.0, static_cast<double>(batches.front()) / 4.0);
    const double high =
        std::min(static_cast<double>(kMaxBatch), std::max(16.0, 4.0 * static_cast<double>(batches.back())));
    for (double b = low; b <= high * 1.0001; b *= std::pow(2.0, 0.25))
        batches.push_back(std::llround(b));
    batches.push_back(std::llround(high));
    std::sort(batches.begin(), batches.end());
    batches.erase(std::unique(batches.begin(), batches.end()), batches.end());
    return batches;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The median and worst |error| over the series' stored points (percent, two significant digits), with the stored
// prediction chosen by `after`; empty when no point has both.
struct ErrorText {
    QString median;
    QString worst;
};

ErrorText errorText(const Calibration& calibration, const CalibrationSeries& series, bool after)
{
    std::vector<double> errors;
    for (const std::size_t i : series.points) {
        const CalibrationPoint& p = calibration.points[i];
        const double predicted = after ? p.predicted : p.predictedBefore;
        if (p.measured > 0 && std::isfinite(predicted))
            errors.push_back(std::fabs(predicted / p.measured - 1.0) * 100.0);
    }
    if (errors.empty())
        return {};
    return {formatSignificant(median(errors), 2),
            formatSignificant(*std::max_element(errors.begin(), errors.end()), 2)};
}

// A curve's legend names, longest first: "before the fit: median 13 %, worst 18 % off", "before: median 13 %, worst
// 18 %", "before the fit" (only the last when no point has both a measurement and a prediction).
QStringList namesOf(const QString& name, const QString& shortName, const ErrorText& error)
{
    if (error.median.isEmpty())
        return {name};
    return {tr("%1: median %2 %, worst %3 % off").arg(name, error.median, error.worst),
            tr("%1: median %2 %, worst %3 %").arg(shortName, error.median, error.worst), name};
}

// What the measured dots are, from the most to the least said: the statistic and the files by name (the first and
// the last of more than two), then without the names, then only how many.
QStringList sourceTexts(const QString& statistic, const QStringList& files)
{
    const QString count = files.size() == 1 ? tr("1 file") : tr("%1 files").arg(files.size());
    QString named;
    if (files.size() <= 2)
        named = files.join(QStringLiteral(", "));
    else
        named = tr("%1 (%2 to %3)").arg(count, files.first(), files.last());
    return {tr("%1 of %2").arg(statistic, named), tr("%1 of %2").arg(statistic, count), count};
}

std::optional<CalibrationCurveData> curveOf(const Calibration& calibration, const CalibrationSeries& series,
                                            QString& problem)
{
    const Result<InferenceConfig> config = configOf(series.setup, EngineTerms::measured());
    const Result<std::vector<CurveSample>> samples = seriesCurve(calibration, series, windowBatches(series));
    if (!config || !samples) {
        problem = config ? samples.error().message : config.error().message;
        return std::nullopt;
    }
    const InferenceConfig& c = config.value();
    const CalibrationPoint& s = series.setup;
    CalibrationCurveData d;
    d.setup = s;
    d.largestBatch = series.batches.empty() ? 1 : series.batches.back();
    const QString quantity = quantityName(series.quantity);
    d.rate = isRate(series.quantity);
    d.yTitle = quantityAxisTitle(quantity);
    const QString gpus = c.tensorParallel > 1 ? QStringLiteral(" \u00d7%1").arg(c.tensorParallel) : QString();
    const QString what = d.yTitle.section(QLatin1String(" ("), 0, 0).toLower();
    d.titles = QStringList{tr("Your benchmark: %1, %2 on %3%4").arg(what, c.model.name, c.gpu.name, gpus),
                           tr("Your benchmark: %1, %2").arg(what, c.model.name), tr("Your benchmark: %1").arg(what),
                           tr("Your benchmark")};
    d.name = tr("%1: %2 on %3%4 (%5)")
                 .arg(d.yTitle.section(QLatin1String(" ("), 0, 0), c.model.name, c.gpu.name, gpus, series.statistic);
    const QString lengths = tr("prompt %1, output %2").arg(formatGrouped(s.prompt), formatGrouped(s.output));
    d.setups = QStringList{tr("%1 weights, %2 KV  \u00b7  %3").arg(s.weights, s.kv, lengths),
                           tr("%1/%2 KV  \u00b7  %3").arg(s.weights, s.kv, lengths), lengths};
    d.sources = sourceTexts(series.statistic, series.files);
    for (const CurveSample& sample : samples.value()) {
        const auto batch = static_cast<double>(sample.batch);
        if (sample.measured)
            d.measured.emplace_back(batch, *sample.measured);
        if (sample.before && sample.after) {
            d.before.emplace_back(batch, *sample.before);
            d.after.emplace_back(batch, *sample.after);
        } else if (!sample.refused.isEmpty()) {
            d.notPredicted << tr("batch %1: %2").arg(formatGrouped(sample.batch), sample.refused);
        }
    }
    const ErrorText before = errorText(calibration, series, false);
    const ErrorText after = errorText(calibration, series, true);
    d.beforeNames = namesOf(tr("before the fit"), tr("before"), before);
    d.afterNames = namesOf(tr("after the fit"), tr("after"), after);
    if (d.after.empty()) {
        problem = d.notPredicted.value(0);
        return std::nullopt;
    }
    return d;
}

}  // namespace

QString quantityAxisTitle(const QString& quantity)
{
    static const std::pair<const char*, const char*> titles[] = {
        {"token_latency_s", "Time per output token (s)"},
        {"tokens_per_s", "Tokens/s"},
        {"ttft_s", "Time to first token (s)"},
        {"e2e_latency_s", "End-to-end latency (s)"},
        {"throughput_tokens_per_s", "Throughput (tokens/s)"},
        {"tpot_s", "Time per output token (s)"},
        {"decode_tokens_per_s", "Decode rate (tokens/s)"},
        {"serving_tpot_s", "Serving time per output token (s)"},
        {"serving_tokens_per_s", "Serving throughput (tokens/s)"},
    };
    for (const auto& [name, title] : titles)
        if (quantity == QLatin1String(name))
            return tr(title);
    return quantity;
}

CalibrationChartData calibrationChartData(const Session& session)
{
    CalibrationChartData data;
    if (session.calibrations.empty()) {
        data.reason =
            tr("No calibration in this session: `ridgeline calibrate FILE... --out NEW.json` fits the model "
               "to your own benchmark results.");
        return data;
    }
    QStringList problems;
    for (std::size_t c = 0; c < session.calibrations.size(); ++c)
        for (const CalibrationSeries& series : calibrationSeries(session.calibrations[c])) {
            QString problem;
            if (std::optional<CalibrationCurveData> curve = curveOf(session.calibrations[c], series, problem)) {
                curve->calibration = c;
                data.series.push_back(std::move(*curve));
            } else {
                problems << problem;
            }
        }
    data.valid = !data.series.empty();
    if (!data.valid)
        data.reason = tr("The session's calibration cannot be redrawn here: %1").arg(problems.value(0));
    return data;
}

}  // namespace ridgeline::ui
