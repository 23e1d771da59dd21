#include "core/model/llm/inference_config_check.h"

#include <cmath>

namespace ridgeline {

namespace {

Error invalid(const QString& message)
{
    return makeError(Error::Code::InvalidArgument, message);
}
Error outOfRange(const QString& message)
{
    return makeError(Error::Code::Range, message);
}

// Batch, context, prompt and output lengths.
std::optional<Error> checkLengths(const InferenceConfig& config)
{
    if (config.batch < 1 || config.batch > kMaxBatch)
        return outOfRange(QStringLiteral("batch must be between 1 and %1, got %2").arg(kMaxBatch).arg(config.batch));
    if (config.context < 1 || config.context > kMaxContext)
        return outOfRange(
            QStringLiteral("context must be between 1 and %1 tokens, got %2").arg(kMaxContext).arg(config.context));
    if (config.prompt < 0 || config.output < 0 || config.prompt > kMaxContext || config.output > kMaxContext ||
        config.prompt + config.output > kMaxContext)
        return outOfRange(
            QStringLiteral("prompt and output must be non-negative and together at most %1 tokens").arg(kMaxContext));
    if (config.output > 0 && config.prompt < 1)
        return invalid(QStringLiteral("an output length needs a prompt of at least one token"));
    return std::nullopt;
}

// Tensor parallelism: a degree that divides the query heads, a link between the GPUs and a network between nodes.
std::optional<Error> checkTensorParallel(const InferenceConfig& config)
{
    const ModelSpec& m = config.model;
    if (config.tensorParallel < 1 || config.tensorParallel > kMaxTensorParallel)
        return outOfRange(QStringLiteral("tensor-parallel degree must be between 1 and %1, got %2")
                              .arg(kMaxTensorParallel)
                              .arg(config.tensorParallel));
    if (m.heads % config.tensorParallel != 0)
        return invalid(QStringLiteral("tensor-parallel degree %1 does not divide the %2 query heads of %3")
                           .arg(config.tensorParallel)
                           .arg(m.heads)
                           .arg(m.name));
    if (config.tensorParallel > 1 && !(config.link.gbPerSecPerDirection > 0 && config.link.latencyUs >= 0))
        return invalid(
            QStringLiteral("tensor parallelism over %1 GPUs needs a link (e.g. nvlink4)").arg(config.tensorParallel));
    if (config.gpusPerNode < 0 || (config.gpusPerNode > 0 && config.tensorParallel > config.gpusPerNode &&
                                   config.tensorParallel % config.gpusPerNode != 0))
        return invalid(QStringLiteral("%1 GPUs per node does not divide the tensor-parallel degree %2")
                           .arg(config.gpusPerNode)
                           .arg(config.tensorParallel));
    const bool multiNode = config.gpusPerNode > 0 && config.tensorParallel > config.gpusPerNode;
    if (multiNode && !(config.network.gbPerSecPerDirection > 0 && config.network.latencyUs >= 0))
        return invalid(QStringLiteral("tensor parallelism over %1 nodes needs a network between them (e.g. "
                                      "infiniband-ndr)")
                           .arg(config.tensorParallel / config.gpusPerNode));
    return std::nullopt;
}

// Expert parallelism: a MoE model, a degree that divides the tensor-parallel degree and the experts.
std::optional<Error> checkExpertParallel(const InferenceConfig& config)
{
    const ModelSpec& m = config.model;
    if (config.expertParallel > 1 && !m.isMoe())
        return invalid(QStringLiteral("expert parallelism needs a mixture-of-experts model; %1 is dense").arg(m.name));
    if (config.expertParallel < 1 || config.expertParallel > config.tensorParallel ||
        config.tensorParallel % config.expertParallel != 0)
        return invalid(QStringLiteral("expert-parallel degree %1 must divide the tensor-parallel degree %2 (the "
                                      "experts are spread over the same GPUs)")
                           .arg(config.expertParallel)
                           .arg(config.tensorParallel));
    if (config.expertParallel > 1 && m.experts % config.expertParallel != 0)
        return invalid(QStringLiteral("expert-parallel degree %1 does not divide the %2 experts of %3")
                           .arg(config.expertParallel)
                           .arg(m.experts)
                           .arg(m.name));
    return std::nullopt;
}

std::optional<Error> checkSpeculative(const SpeculativeDecoding& spec)
{
    if (spec.tokens < 0 || spec.tokens > kMaxSpeculativeTokens)
        return outOfRange(QStringLiteral("speculative tokens must be between 0 and %1, got %2")
                              .arg(kMaxSpeculativeTokens)
                              .arg(spec.tokens));
    if (!std::isfinite(spec.acceptance) || spec.acceptance < 1.0 || spec.acceptance > spec.tokens + 1.0)
        return invalid(QStringLiteral("speculative acceptance (mean tokens gained per step, the accepted drafts "
                                      "plus one) must be between 1 and %1 for %2 draft tokens, got %3")
                           .arg(spec.tokens + 1)
                           .arg(spec.tokens)
                           .arg(spec.acceptance));
    return std::nullopt;
}

// Storage formats, engine terms and the GPU's own numbers.
std::optional<Error> checkFormatsTermsAndGpu(const InferenceConfig& config)
{
    for (NumberFormat format : {config.weights, config.kv, config.attentionFormat(), config.headFormat()})
        if (!isStorageFormat(format))
            return invalid(QStringLiteral("%1 is a compute mode, not a storage format for weights or KV cache")
                               .arg(numberFormatName(format)));
    if (const std::optional<QString> bad = checkTerms(config.efficiency))
        return invalid(QStringLiteral("efficiency terms: %1").arg(*bad));
    const GpuSpec& gpu = config.gpu;
    if (!(gpu.bandwidthTbs > 0) || !std::isfinite(gpu.bandwidthTbs) || !(gpu.memoryGib > 0) ||
        !std::isfinite(gpu.memoryGib))
        return invalid(QStringLiteral("GPU %1 needs a positive bandwidth and memory").arg(gpu.id));
    const NumberFormat sixteen = sixteenBitPrecision(gpu);
    if (!(gpu.peakTflops(sixteen) > 0) || !std::isfinite(gpu.peakTflops(sixteen)))
        return invalid(QStringLiteral("GPU %1 has no dense 16-bit peak").arg(gpu.id));
    return std::nullopt;
}

}  // namespace

NumberFormat sixteenBitPrecision(const GpuSpec& gpu)
{
    return gpu.peakTflops(NumberFormat::Bf16) > 0 ? NumberFormat::Bf16 : NumberFormat::Fp16;
}

std::optional<Error> checkInferenceConfig(const InferenceConfig& config)
{
    if (std::optional<Error> bad = checkLengths(config))
        return bad;
    if (std::optional<Error> bad = checkTensorParallel(config))
        return bad;
    if (std::optional<Error> bad = checkExpertParallel(config))
        return bad;
    if (std::optional<Error> bad = checkSpeculative(config.speculative))
        return bad;
    return checkFormatsTermsAndGpu(config);
}

}  // namespace ridgeline
