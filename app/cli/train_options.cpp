#include "app/cli/train_options.h"

#include "app/cli/option_values.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/inference_request.h"

namespace ridgeline::cli {

namespace {

using Refusal = std::optional<QString>;

void option(QCommandLineParser& parser, const char* name, const char* help, const char* valueName = nullptr)
{
    parser.addOption(valueName ? QCommandLineOption(QLatin1String(name), QLatin1String(help), QLatin1String(valueName))
                               : QCommandLineOption(QLatin1String(name), QLatin1String(help)));
}

// The model: --model-config FILE, --params N or --model ID, resolved as `ridgeline model` resolves them.
Refusal readModel(const QCommandLineParser& parser, TrainOptions& options)
{
    const bool byId = parser.isSet(QStringLiteral("model")), byCount = parser.isSet(QStringLiteral("params")),
               byFile = parser.isSet(QStringLiteral("model-config"));
    if (byId + byCount + byFile > 1)
        return QStringLiteral("give one of --model, --params and --model-config");
    if (byFile) {
        Result<HfModelConfig> loaded = loadHfConfig(parser.value(QStringLiteral("model-config")));
        if (!loaded)
            return loaded.error().message;
        options.config.model = loaded.value().shape;
        options.modelConfig = std::move(loaded).value();
        return std::nullopt;
    }
    InferenceRequest request;
    if (byCount) {
        QString error;
        const std::optional<double> params = numberOption(parser, QStringLiteral("params"), error);
        if (!params)
            return error;
        request.modelId = kCustomId;
        request.customParams = *params;
    } else if (byId && parser.value(QStringLiteral("model")) != kCustomId) {
        request.modelId = parser.value(QStringLiteral("model"));
    } else {
        return QStringLiteral("give --model ID (see `ridgeline catalog models`), --params N or --model-config FILE");
    }
    Result<ModelSpec> model = resolveModelSpec(request);
    if (!model)
        return model.error().message;
    options.config.model = std::move(model).value();
    return std::nullopt;
}

Refusal readGpuAndLinks(const QCommandLineParser& parser, TrainingConfig& config)
{
    const QString gpuId = parser.value(QStringLiteral("gpu"));
    if (gpuId.isEmpty())
        return QStringLiteral("give --gpu ID (see `ridgeline catalog gpus`)");
    Result<GpuSpec> gpu = findGpu(gpuId);
    if (!gpu)
        return gpu.error().message;
    config.gpu = std::move(gpu).value();
    if (std::optional<Error> error =
            resolveTrainingLinks(config, parser.value(QStringLiteral("link")), parser.value(QStringLiteral("network"))))
        return error->message;
    return std::nullopt;
}

// A whole-number option that must lie in [low, high].
Refusal readBounded(const QCommandLineParser& parser, const char* name, std::int64_t fallback, std::int64_t low,
                    std::int64_t high, std::int64_t& value)
{
    QString error;
    const std::optional<std::int64_t> read = integerOption(parser, QLatin1String(name), fallback, error);
    if (!read)
        return error;
    if (*read < low || *read > high)
        return QStringLiteral("--%1 must be between %2 and %3, got %4")
            .arg(QLatin1String(name))
            .arg(low)
            .arg(high)
            .arg(*read);
    value = *read;
    return std::nullopt;
}

// The batch and the layout. The global batch defaults to one micro-batch per data-parallel rank (no accumulation).
Refusal readBatchAndLayout(const QCommandLineParser& parser, TrainingConfig& config)
{
    std::int64_t perNode = 1, nodes = 1, tp = 1, pp = 1, zero = 0;
    struct Bounded {
        const char* name;
        std::int64_t fallback, low, high;
        std::int64_t* value;
    };
    const std::int64_t gpus = kMaxTrainingGpus;
    for (const Bounded& b :
         {Bounded{"gpus-per-node", 1, 1, gpus, &perNode}, Bounded{"nodes", 1, 1, gpus, &nodes},
          Bounded{"tp", 1, 1, gpus, &tp}, Bounded{"pp", 1, 1, gpus, &pp}, Bounded{"zero", 0, 0, 3, &zero},
          Bounded{"seq", 4096, 1, kMaxTrainingSequence, &config.sequence},
          Bounded{"micro-batch", 1, 1, kMaxTrainingBatch, &config.microBatch}})
        if (Refusal refused = readBounded(parser, b.name, b.fallback, b.low, b.high, *b.value))
            return refused;
    if (perNode * nodes > kMaxTrainingGpus)
        return QStringLiteral("--gpus-per-node x --nodes must be at most %1 GPUs, got %2")
            .arg(kMaxTrainingGpus)
            .arg(perNode * nodes);
    config.gpusPerNode = static_cast<int>(perNode);
    config.nodes = static_cast<int>(nodes);
    config.tensorParallel = static_cast<int>(tp);
    config.pipelineParallel = static_cast<int>(pp);
    config.zeroStage = static_cast<int>(zero);
    const std::int64_t dataParallel =
        (tp * pp > 0 && (perNode * nodes) % (tp * pp) == 0) ? perNode * nodes / (tp * pp) : 1;
    return readBounded(parser, "global-batch", config.microBatch * dataParallel, 1, kMaxTrainingBatch,
                       config.globalBatch);
}

// --precision, --optimizer, --checkpointing and --attention: one word each.
Refusal readPolicies(const QCommandLineParser& parser, TrainingConfig& config)
{
    if (parser.isSet(QStringLiteral("precision"))) {
        const std::optional<PrecisionPolicy> p = parsePrecisionPolicy(parser.value(QStringLiteral("precision")));
        if (!p)
            return QStringLiteral("--precision must be fp32, bf16-mixed or fp16-mixed; got \"%1\"")
                .arg(parser.value(QStringLiteral("precision")));
        config.precision = *p;
    }
    if (parser.isSet(QStringLiteral("optimizer"))) {
        const std::optional<Optimizer> o = parseOptimizer(parser.value(QStringLiteral("optimizer")));
        if (!o)
            return QStringLiteral("--optimizer must be adamw, sgd or adam8bit; got \"%1\"")
                .arg(parser.value(QStringLiteral("optimizer")));
        config.optimizer = *o;
    }
    if (parser.isSet(QStringLiteral("checkpointing"))) {
        const std::optional<Checkpointing> c = parseCheckpointing(parser.value(QStringLiteral("checkpointing")));
        if (!c)
            return QStringLiteral("--checkpointing must be none, selective, full or selective-op; got \"%1\"")
                .arg(parser.value(QStringLiteral("checkpointing")));
        config.checkpointing = *c;
    }
    if (parser.isSet(QStringLiteral("attention"))) {
        const std::optional<AttentionKernel> a = parseAttentionKernel(parser.value(QStringLiteral("attention")));
        if (!a)
            return QStringLiteral("--attention must be flash or materialised; got \"%1\"")
                .arg(parser.value(QStringLiteral("attention")));
        config.attention = *a;
    }
    if (parser.isSet(QStringLiteral("overlap"))) {
        QString error;
        const std::optional<double> overlap = numberOption(parser, QStringLiteral("overlap"), error);
        if (!overlap)
            return error;
        if (*overlap < 0.0 || *overlap > 1.0)
            return QStringLiteral("--overlap must be between 0 and 1, got %1").arg(*overlap);
        config.dataParallelOverlap = *overlap;
    }
    return std::nullopt;
}

}  // namespace

void addTrainOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "One training step of a transformer on GPUs: memory per GPU (weights, gradients, optimizer state, "
        "activations), whether it fits, the step's time (compute, recompute, communication, pipeline bubble), "
        "tokens/s and MFU, and the cheapest move that makes it fit: mixed precision, gradient accumulation, "
        "checkpointing, then sharding within the box, then across boxes.\n"
        "Defaults: one GPU, sequence 4096, micro-batch 1, global batch one micro-batch per data-parallel rank, "
        "bf16-mixed, adamw, no checkpointing, flash attention, no parallelism."));
    parser.addHelpOption();
    option(parser, "model", "model id from `ridgeline catalog models`", "ID");
    option(parser, "params", "a rough model of this many parameters, e.g. 7e9", "N");
    option(parser, "model-config", "a Hugging Face config.json, or the model's folder holding one", "FILE");
    option(parser, "gpu", "GPU id from `ridgeline catalog gpus`", "ID");
    option(parser, "gpus-per-node", "GPUs used in each node (1-100000)", "N");
    option(parser, "nodes", "nodes (1-100000)", "N");
    option(parser, "seq", "tokens per sequence (1-1e7)", "S");
    option(parser, "micro-batch", "sequences per GPU per forward and backward", "B");
    option(parser, "global-batch", "sequences per optimizer step over all GPUs: micro-batch x accumulation x dp", "G");
    option(parser, "precision", "fp32, bf16-mixed or fp16-mixed (16-bit with fp32 master weights)", "P");
    option(parser, "optimizer", "adamw, sgd (with momentum) or adam8bit", "O");
    option(parser, "checkpointing",
           "activation checkpointing: none, selective (attention), full, or selective-op (torchtitan's: every "
           "other matmul's output kept)",
           "C");
    option(parser, "attention",
           "flash (default: a fused kernel, no scores in memory) or materialised (the s x s scores written and kept)",
           "A");
    option(parser, "tp", "tensor-parallel degree (divides the heads)", "T");
    option(parser, "pp", "pipeline-parallel degree (at most the layers)", "P");
    option(parser, "zero", "ZeRO stage over the data-parallel ranks: 0, 1 (optimizer), 2 (+ gradients), 3 (+ weights)",
           "Z");
    option(parser, "link", "link between the GPUs of a node (default: the card's own, e.g. nvlink4)", "L");
    option(parser, "network", "link between nodes (default: the card's own, else infiniband-ndr)", "L");
    option(parser, "overlap",
           "share of the last micro-batch's backward the data-parallel collectives hide under (0-1, default 0.8)", "O");
    option(parser, "json", "print JSON instead of a table");
}

std::optional<QString> readTrainOptions(const QCommandLineParser& parser, TrainOptions& options)
{
    if (Refusal refused = readModel(parser, options))
        return refused;
    for (Refusal (*read)(const QCommandLineParser&, TrainingConfig&) :
         {readGpuAndLinks, readBatchAndLayout, readPolicies})
        if (Refusal refused = read(parser, options.config))
            return refused;
    return std::nullopt;
}

}  // namespace ridgeline::cli
