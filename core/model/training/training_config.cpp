#include "core/model/training/training_config.h"

#include "core/model/llm/inference_request.h"

#include <array>

namespace ridgeline {

namespace {

template <typename Enum, std::size_t N>
std::optional<Enum> parseByName(QStringView name, const std::array<Enum, N>& all, QString (*nameOf)(Enum))
{
    for (Enum value : all)
        if (name.compare(nameOf(value), Qt::CaseInsensitive) == 0)
            return value;
    return std::nullopt;
}

Error invalid(const QString& message)
{
    return makeError(Error::Code::InvalidArgument, message);
}

std::optional<Error> checkRanges(const TrainingConfig& c)
{
    if (c.sequence < 1 || c.sequence > kMaxTrainingSequence)
        return invalid(QStringLiteral("sequence must be between 1 and %1 tokens, got %2")
                           .arg(kMaxTrainingSequence)
                           .arg(c.sequence));
    if (c.microBatch < 1 || c.microBatch > kMaxTrainingBatch)
        return invalid(QStringLiteral("micro-batch must be between 1 and %1 sequences, got %2")
                           .arg(kMaxTrainingBatch)
                           .arg(c.microBatch));
    if (c.globalBatch < 1 || c.globalBatch > kMaxTrainingBatch)
        return invalid(QStringLiteral("global batch must be between 1 and %1 sequences, got %2")
                           .arg(kMaxTrainingBatch)
                           .arg(c.globalBatch));
    if (c.gpusPerNode < 1 || c.nodes < 1 ||
        static_cast<std::int64_t>(c.gpusPerNode) * c.nodes > static_cast<std::int64_t>(kMaxTrainingGpus))
        return invalid(QStringLiteral("gpus: GPUs per node x nodes must be between 1 and %1, got %2 x %3")
                           .arg(kMaxTrainingGpus)
                           .arg(c.gpusPerNode)
                           .arg(c.nodes));
    for (const auto& [name, degree] : {std::pair{"tp", c.tensorParallel}, std::pair{"pp", c.pipelineParallel}})
        if (degree < 1 || degree > c.gpus())
            return invalid(QStringLiteral("%1 %2 needs at least as many GPUs, and GPUs per node x nodes is %3")
                               .arg(QLatin1String(name))
                               .arg(degree)
                               .arg(c.gpus()));
    if (c.zeroStage < 0 || c.zeroStage > 3)
        return invalid(QStringLiteral("zero must be 0, 1, 2 or 3, got %1").arg(c.zeroStage));
    if (!(c.dataParallelOverlap >= 0.0 && c.dataParallelOverlap <= 1.0))
        return invalid(QStringLiteral("data-parallel overlap must be between 0 and 1"));
    return std::nullopt;
}

// The layout: TP inside whole nodes or over whole nodes, TP x PP dividing the GPUs, the batch dividing evenly.
std::optional<Error> checkLayout(const TrainingConfig& c)
{
    const ModelSpec& m = c.model;
    if (m.heads % c.tensorParallel != 0)
        return invalid(QStringLiteral("tp %1 does not divide the %2 attention heads of %3")
                           .arg(c.tensorParallel)
                           .arg(m.heads)
                           .arg(m.name));
    if (c.pipelineParallel > m.layers)
        return invalid(
            QStringLiteral("pp %1 is more than the %2 layers of %3").arg(c.pipelineParallel).arg(m.layers).arg(m.name));
    if (c.gpusPerNode % c.tensorParallel != 0 && c.tensorParallel % c.gpusPerNode != 0)
        return invalid(QStringLiteral("tp %1 must divide the %2 GPUs per node, or be a multiple of them")
                           .arg(c.tensorParallel)
                           .arg(c.gpusPerNode));
    const std::int64_t modelParallel = static_cast<std::int64_t>(c.tensorParallel) * c.pipelineParallel;
    if (c.gpus() % modelParallel != 0)
        return invalid(QStringLiteral("tp %1 x pp %2 = %3 does not divide the %4 GPUs")
                           .arg(c.tensorParallel)
                           .arg(c.pipelineParallel)
                           .arg(modelParallel)
                           .arg(c.gpus()));
    const std::int64_t perStep = c.microBatch * c.dataParallel();
    if (c.globalBatch % perStep != 0)
        return invalid(QStringLiteral("global batch %1 is not a multiple of micro-batch %2 x %3 data-parallel "
                                      "ranks = %4")
                           .arg(c.globalBatch)
                           .arg(c.microBatch)
                           .arg(c.dataParallel())
                           .arg(perStep));
    return std::nullopt;
}

}  // namespace

QString precisionPolicyName(PrecisionPolicy policy)
{
    switch (policy) {
        case PrecisionPolicy::Fp32:
            return QStringLiteral("fp32");
        case PrecisionPolicy::Bf16Mixed:
            return QStringLiteral("bf16-mixed");
        case PrecisionPolicy::Fp16Mixed:
            return QStringLiteral("fp16-mixed");
    }
    return {};
}

QString optimizerName(Optimizer optimizer)
{
    switch (optimizer) {
        case Optimizer::AdamW:
            return QStringLiteral("adamw");
        case Optimizer::Sgd:
            return QStringLiteral("sgd");
        case Optimizer::Adam8bit:
            return QStringLiteral("adam8bit");
    }
    return {};
}

QString checkpointingName(Checkpointing checkpointing)
{
    switch (checkpointing) {
        case Checkpointing::None:
            return QStringLiteral("none");
        case Checkpointing::Selective:
            return QStringLiteral("selective");
        case Checkpointing::Full:
            return QStringLiteral("full");
        case Checkpointing::SelectiveOp:
            return QStringLiteral("selective-op");
    }
    return {};
}

QString attentionKernelName(AttentionKernel kernel)
{
    switch (kernel) {
        case AttentionKernel::Flash:
            return QStringLiteral("flash");
        case AttentionKernel::Materialised:
            return QStringLiteral("materialised");
    }
    return {};
}

std::optional<PrecisionPolicy> parsePrecisionPolicy(QStringView name)
{
    return parseByName(name, std::array{PrecisionPolicy::Fp32, PrecisionPolicy::Bf16Mixed, PrecisionPolicy::Fp16Mixed},
                       &precisionPolicyName);
}

std::optional<Optimizer> parseOptimizer(QStringView name)
{
    return parseByName(name, std::array{Optimizer::AdamW, Optimizer::Sgd, Optimizer::Adam8bit}, &optimizerName);
}

std::optional<Checkpointing> parseCheckpointing(QStringView name)
{
    return parseByName(
        name,
        std::array{Checkpointing::None, Checkpointing::Selective, Checkpointing::Full, Checkpointing::SelectiveOp},
        &checkpointingName);
}

std::optional<AttentionKernel> parseAttentionKernel(QStringView name)
{
    return parseByName(name, std::array{AttentionKernel::Flash, AttentionKernel::Materialised}, &attentionKernelName);
}

std::optional<Error> resolveTrainingLinks(TrainingConfig& config, const QString& linkId, const QString& networkId)
{
    Result<LinkSpec> link = findLink(linkId.isEmpty() ? defaultLinkId(config.gpu) : linkId);
    if (!link)
        return link.error();
    const QString network = !networkId.isEmpty()                ? networkId
                            : !config.gpu.networkLink.isEmpty() ? config.gpu.networkLink
                                                                : kDefaultTrainingNetworkId;
    Result<LinkSpec> between = findLink(network);
    if (!between)
        return between.error();
    config.link = std::move(link).value();
    config.network = std::move(between).value();
    return std::nullopt;
}

std::optional<Error> checkTrainingConfig(const TrainingConfig& config)
{
    if (std::optional<Error> error = checkRanges(config))
        return error;
    if (const Result<ParamCounts> counts = countParams(config.model); !counts)
        return counts.error();
    if (config.gpu.memoryGib <= 0 || config.gpu.bandwidthTbs <= 0)
        return invalid(QStringLiteral("gpu %1 has no memory or bandwidth").arg(config.gpu.name));
    if (config.link.gbPerSecPerDirection <= 0 || config.network.gbPerSecPerDirection <= 0)
        return invalid(QStringLiteral("link and network need a bandwidth"));
    return checkLayout(config);
}

}  // namespace ridgeline
