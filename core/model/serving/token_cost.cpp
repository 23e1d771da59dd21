#include "core/model/serving/token_cost.h"

#include "core/model/serving/serving_latency.h"
#include "core/model/units.h"

#include <cmath>

namespace ridgeline {

std::optional<QString> checkGpuHourPrice(double usd)
{
    if (!std::isfinite(usd) || usd <= 0 || usd > kMaxGpuHourPrice)
        return QStringLiteral(
                   "the GPU-hour price must be a number of US dollars above 0 and at most %1 (a typo past "
                   "it), got %2")
            .arg(formatDollars(kMaxGpuHourPrice), QString::number(usd, 'g', 6));
    return std::nullopt;
}

std::optional<QString> checkCostInputs(const CostInputs& inputs)
{
    if (inputs.gpuHourPrice)
        if (std::optional<QString> refused = checkGpuHourPrice(*inputs.gpuHourPrice))
            return refused;
    if (inputs.gpuPowerWatts && (!std::isfinite(*inputs.gpuPowerWatts) || *inputs.gpuPowerWatts <= 0))
        return QStringLiteral("the GPU power must be a finite number of watts above 0");
    return std::nullopt;
}

GpuPower gpuPower(const CostInputs& inputs, const GpuSpec& gpu)
{
    if (inputs.gpuPowerWatts)
        return GpuPower{*inputs.gpuPowerWatts, false};
    return GpuPower{gpu.tdpWatts > 0 ? gpu.tdpWatts : 0.0, gpu.tdpWatts > 0};
}

CostInputs withCatalogPrice(CostInputs inputs, const GpuSpec& gpu)
{
    if (inputs.gpuHourPrice)
        return inputs;
    const auto usable = [](double usd) { return std::isfinite(usd) && usd > 0; };
    if (usable(gpu.gpuHourPrice)) {
        inputs.gpuHourPrice = gpu.gpuHourPrice;
        inputs.priceSource = PriceSource::UserCatalog;
    } else if (usable(gpu.examplePrice.usdPerGpuHour)) {
        inputs.gpuHourPrice = gpu.examplePrice.usdPerGpuHour;
        inputs.priceSource = PriceSource::Example;
        inputs.exampleOf = QStringLiteral("%1 %2").arg(gpu.examplePrice.provider, gpu.examplePrice.date);
    }
    return inputs;
}

namespace {

// Each source as the user reads it and as --json writes it: one table, so the two never disagree.
struct PriceSourceNames {
    const char* text;
    const char* key;
};

PriceSourceNames namesOf(PriceSource source)
{
    switch (source) {
        case PriceSource::Given:
            return {"given", "given"};
        case PriceSource::UserCatalog:
            return {"your catalog", "catalog"};
        case PriceSource::Example:
            return {"example price, %1", "example"};
    }
    return {"given", "given"};
}

}  // namespace

QString priceSourceText(const CostInputs& inputs)
{
    if (!inputs.gpuHourPrice)
        return {};
    const QString text = QString::fromLatin1(namesOf(inputs.priceSource).text);
    return inputs.priceSource == PriceSource::Example ? text.arg(inputs.exampleOf) : text;
}

QString priceText(const CostInputs& inputs)
{
    if (!inputs.gpuHourPrice)
        return {};
    const QString price = QStringLiteral("%1 per GPU-hour").arg(formatDollars(*inputs.gpuHourPrice));
    return inputs.priceSource == PriceSource::Given ? price : price + QStringLiteral(", ") + priceSourceText(inputs);
}

QString priceSourceKey(const CostInputs& inputs)
{
    return inputs.gpuHourPrice ? QString::fromLatin1(namesOf(inputs.priceSource).key) : QString();
}

QString powerText(const GpuPower& power)
{
    if (power.watts <= 0)
        return QStringLiteral("unknown");
    const QString watts = QString::number(power.watts, 'g', 6);
    return power.fromCatalog ? QStringLiteral("board power %1 W, catalog").arg(watts)
                             : QStringLiteral("%1 W, given").arg(watts);
}

TokenCost tokenCost(const TokenRates& rates, const std::optional<double>& gpuHourPrice, const GpuPower& power)
{
    TokenCost cost;
    if (rates.outputPerSecondPerGpu <= 0 || !std::isfinite(rates.outputPerSecondPerGpu))
        return cost;
    const std::optional<double> perSecond = gpuHourPrice ? std::optional(*gpuHourPrice / 3600.0) : std::nullopt;
    if (perSecond) {
        cost.perMillionOutput = *perSecond / rates.outputPerSecondPerGpu * 1e6;
        if (rates.inputPerSecondPerGpu > 0)
            cost.perMillionInput = *perSecond * rates.prefillShare / rates.inputPerSecondPerGpu * 1e6;
    }
    if (power.watts > 0)
        cost.joulesPerOutputToken = power.watts / rates.outputPerSecondPerGpu;
    return cost;
}

TokenRates reportRates(const LlmModel& model, const InferenceReport& report)
{
    const InferenceConfig& c = model.config();
    const double gpus = c.tensorParallel;
    TokenRates rates;
    if (report.serving) {
        rates.outputPerSecondPerGpu = report.serving->outputTokensPerSecond / gpus;
        rates.inputPerSecondPerGpu =
            rates.outputPerSecondPerGpu * static_cast<double>(c.prompt) / static_cast<double>(c.output);
        rates.prefillShare = prefillTimeShare(model, c.batch, c.prompt, c.output);
    } else {
        rates.outputPerSecondPerGpu = report.tokensPerSecond / gpus;
    }
    return rates;
}

}  // namespace ridgeline
