#include "ui/plots/batching/batching_warnings.h"

#include "core/model/units.h"

#include <QCoreApplication>

#include <array>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ridgeline::ui::BatchingPanel", text);
}

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr std::array kPanelGpuCounts = {1, 2, 4, 8, 16, 32, 64};
// Smaller weight formats to suggest, the most widely supported first at each width.
constexpr std::array kSmallerFormats = {NumberFormat::Int8, NumberFormat::Fp8, NumberFormat::Int4, NumberFormat::Mxfp4,
                                        NumberFormat::Fp4};

// One sequence at the request's context fits: the question "would it fit" asks.
bool oneSequenceFits(InferenceRequest request)
{
    request.batch = 1;
    Result<InferenceConfig> config = resolveInference(request);
    if (!config)
        return false;
    Result<LlmModel> model = LlmModel::create(config.value());
    if (!model)
        return false;
    Result<MemoryUse> use = model.value().memory(1, config.value().context);
    return use && use.value().fits;
}

QString gib(double value)
{
    return formatSignificant(value, value >= 100.0 ? 4 : 3) + QStringLiteral(" GiB");
}

}  // namespace

QString FitAdvice::text() const
{
    QStringList options;
    if (gpus)
        options << (*gpus == 1 ? tr("1 GPU") : tr("%1 GPUs").arg(*gpus));
    if (weights)
        options << numberFormatName(*weights);
    const QString need =
        tr("the weights alone need %1 per GPU, the card holds %2").arg(gib(weightsGibPerGpu), gib(capacityGibPerGpu));
    if (options.isEmpty())
        return tr("%1: neither up to 64 GPUs nor a smaller weight format would fit").arg(need);
    return tr("%1: %2 would fit").arg(need, options.join(tr(" or ")));
}

std::optional<FitAdvice> adviseFit(const BatchingScenario& scenario, const InferenceRequest& request)
{
    if (scenario.error)
        return std::nullopt;
    const MemoryUse& memory = scenario.report.memory;
    if (memory.weightsPerGpu <= memory.capacityPerGpu)
        return std::nullopt;
    FitAdvice advice;
    advice.weightsGibPerGpu = double(memory.weightsPerGpu) / kGiB;
    advice.capacityGibPerGpu = double(memory.capacityPerGpu) / kGiB;
    for (const int gpus : kPanelGpuCounts) {
        if (gpus <= request.gpus)
            continue;
        InferenceRequest more = request;
        more.gpus = gpus;
        if (oneSequenceFits(more)) {
            advice.gpus = gpus;
            break;
        }
    }
    const double bits = storageBitsPerElement(request.weights);
    for (const NumberFormat format : kSmallerFormats) {
        if (storageBitsPerElement(format) >= bits)
            continue;
        InferenceRequest smaller = request;
        smaller.weights = format;
        if (oneSequenceFits(smaller)) {
            advice.weights = format;
            break;
        }
    }
    return advice;
}

QStringList batchingWarnings(const BatchingScenario& scenario, const InferenceRequest& request)
{
    QStringList warnings;
    if (scenario.error)
        return warnings;
    const InferenceReport& r = scenario.report;
    const InferenceConfig& c = scenario.config;
    if (const std::optional<FitAdvice> advice = adviseFit(scenario, request)) {
        QString text = advice->text();
        text[0] = text[0].toUpper();
        warnings << text + QLatin1Char('.');
    }
    if (c.model.maxContext > 0 && c.context > c.model.maxContext)
        warnings << tr("Context %1 is beyond the %2 tokens %3 was trained on.")
                        .arg(formatGrouped(c.context), formatGrouped(std::int64_t(c.model.maxContext)), c.model.name);
    if (c.gpu.scaleUpGpus > 0 && c.tensorParallel > c.gpu.scaleUpGpus) {
        const QString domain = c.gpu.interconnectName.isEmpty() ? tr("interconnect") : c.gpu.interconnectName;
        const QString network = c.network.name.isEmpty() ? tr("the network") : c.network.name;
        warnings << tr("%1 GPUs are more than one %2 domain joins (%3): the all-reduces also cross %4 between "
                       "%5 nodes.")
                        .arg(c.tensorParallel)
                        .arg(domain)
                        .arg(c.gpu.scaleUpGpus)
                        .arg(network)
                        .arg(r.nodes);
    }
    if (r.maxBatch >= kMaxBatch)
        warnings << tr("Largest batch: at least %1, where the model stops counting (its batch limit); more would "
                       "still fit.")
                        .arg(formatGrouped(kMaxBatch));
    return warnings;
}

}  // namespace ridgeline::ui
