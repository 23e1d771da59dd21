#include "ui/models/batching_calibration.h"

#include "core/bench/calibration_curves.h"
#include "core/bench/calibration_record_builder.h"
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

// "median 9.8 %, worst 18 % off" over the series' stored points, with the stored prediction chosen by `after`.
QString errorText(const Calibration& calibration, const CalibrationSeries& series, bool after)
{
    std::vector<double> errors;
    for (const std::size_t i : series.points) {
        const CalibrationPoint& p = calibration.points[i];
        const double predicted = after ? p.predicted : p.predictedBefore;
        if (p.measured > 0 && std::isfinite(predicted))
            errors.push_back(std::fabs(predicted / p.measured - 1.0) * 100.0);
    }
    if (errors.empty())
        return QString();
    return tr("median %1 %, worst %2 % off")
        .arg(formatSignificant(median(errors), 2),
             formatSignificant(*std::max_element(errors.begin(), errors.end()), 2));
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
    const QString quantity = quantityName(series.quantity);
    d.rate = isRate(series.quantity);
    d.yTitle = quantityAxisTitle(quantity);
    const QString gpus = c.tensorParallel > 1 ? QStringLiteral(" \u00d7%1").arg(c.tensorParallel) : QString();
    d.title = tr("Your benchmark: %1, %2 on %3%4")
                  .arg(d.yTitle.section(QLatin1String(" ("), 0, 0).toLower(), c.model.name, c.gpu.name, gpus);
    d.name = tr("%1: %2 on %3%4 (%5)")
                 .arg(d.yTitle.section(QLatin1String(" ("), 0, 0), c.model.name, c.gpu.name, gpus, series.statistic);
    d.setup = tr("%1 weights, %2 KV  \u00b7  prompt %3, output %4")
                  .arg(s.weights, s.kv, formatGrouped(s.prompt), formatGrouped(s.output));
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
    const QString before = errorText(calibration, series, false);
    const QString after = errorText(calibration, series, true);
    d.beforeName = before.isEmpty() ? tr("model before the fit") : tr("before the fit: %1").arg(before);
    d.afterName = after.isEmpty() ? tr("model after the fit") : tr("after the fit: %1").arg(after);
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
    for (const Calibration& calibration : session.calibrations)
        for (const CalibrationSeries& series : calibrationSeries(calibration)) {
            QString problem;
            if (std::optional<CalibrationCurveData> curve = curveOf(calibration, series, problem))
                data.series.push_back(std::move(*curve));
            else
                problems << problem;
        }
    data.valid = !data.series.empty();
    if (!data.valid)
        data.reason = tr("The session's calibration cannot be redrawn here: %1").arg(problems.value(0));
    return data;
}

}  // namespace ridgeline::ui
