#include "ui/plots/batching/weight_precision_curves.h"

#include "core/session/decode_series.h"
#include "ui/plots/batching/batch_samples.h"

#include <algorithm>
#include <cmath>

namespace ridgeline::ui {

namespace {

bool finitePositive(double v)
{
    return std::isfinite(v) && v > 0.0;
}

// The matrix's d from a step's FLOP count: 2 d^2 FLOPs (int8: operations) per vector.
int matrixDimOf(const KernelResult& kernel)
{
    if (!finitePositive(kernel.flops) || kernel.batch <= 0)
        return 0;
    return static_cast<int>(std::lround(std::sqrt(kernel.flops / (2.0 * kernel.batch))));
}

WeightPrecisionCurve curveOf(const DecodeSeries& series)
{
    WeightPrecisionCurve curve;
    curve.precision = series.precision;
    for (const KernelResult* k : series.measured)
        if (k->batch > 0 && finitePositive(k->tokensPerSecond))
            curve.measured.emplace_back(k->batch, k->tokensPerSecond);
    if (curve.measured.empty())
        return curve;
    curve.kneeBatch = series.kneeBatch;
    // Twice the largest measured batch, and both sides of the knee so the bend is drawn where it is.
    const auto largest = static_cast<std::int64_t>(curve.measured.back().x());
    const std::int64_t knee = series.kneeBatch ? static_cast<std::int64_t>(std::ceil(*series.kneeBatch)) : 0;
    for (const std::int64_t b : sampleBatches(std::max<std::int64_t>(2 * largest, 4), {knee - 1, knee})) {
        const double tokens = series.predictedTokensPerSecond(static_cast<double>(b));
        if (finitePositive(tokens))
            curve.predicted.emplace_back(static_cast<double>(b), tokens);
    }
    return curve;
}

}  // namespace

WeightPrecisionCurves weightPrecisionCurves(const Session& session)
{
    WeightPrecisionCurves out;
    for (const DecodeSeries& series : decodeSeriesByPrecision(session)) {
        WeightPrecisionCurve curve = curveOf(series);
        if (curve.measured.empty())
            continue;
        if (out.matrixDim == 0)
            out.matrixDim = matrixDimOf(*series.measured.front());
        out.curves.push_back(std::move(curve));
    }
    if (out.curves.size() < 2)
        out = {};
    return out;
}

double batchOneSpeedup(const std::vector<WeightPrecisionCurve>& curves, const QString& precision)
{
    auto batchOne = [&](const QString& name) {
        for (const WeightPrecisionCurve& c : curves)
            if (c.precision == name && !c.measured.empty() && c.measured.front().x() == 1.0)
                return c.measured.front().y();
        return 0.0;
    };
    const double fp32 = batchOne(QStringLiteral("fp32"));
    const double other = batchOne(precision);
    return fp32 > 0.0 && other > 0.0 ? other / fp32 : 0.0;
}

}  // namespace ridgeline::ui
