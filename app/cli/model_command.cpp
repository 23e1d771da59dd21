// `ridgeline model`: the analytical LLM inference model for one configuration, as a table or JSON.
#include "app/cli/commands.h"

#include "app/cli/command_line.h"
#include "app/cli/frontier_output.h"
#include "app/cli/model_config_option.h"
#include "app/cli/model_options.h"
#include "app/cli/model_output.h"
#include "app/cli/option_values.h"
#include "app/cli/serving_options.h"
#include "app/cli/serving_output.h"
#include "app/cli/split_options.h"
#include "app/cli/split_output.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/llm_model.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>

namespace ridgeline::cli {

namespace {

int fail(Streams io, const QString& message)
{
    return refuseArguments(io, u"model", message);
}

// Every option of `ridgeline model` with its help text; app/cli/model_options.cpp reads them.
void addModelOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "The analytical LLM inference model: memory, decode step, prefill, serving under load, tensor and expert "
        "parallelism, speculative decoding on a GPU, and where each step's time goes.\n"
        "Defaults: batch 1, context 8192, bf16 weights and KV, the measured engine terms (shares of what the card "
        "sustains, fixed times per layer and per sequence; fitted on published measurements, "
        "tests/data/README.md). --plain: the plain roofline (bandwidth 0.75, compute 0.6 of the datasheet); "
        "--ideal: the datasheet."));
    parser.addHelpOption();
    auto option = [&](const char* name, const char* help, const char* valueName = nullptr) {
        addOption(parser, name, help, valueName);
    };
    option("model", "model id from `ridgeline catalog models`, or custom (with --layers ...)", "ID");
    option("params", "a rough model of this many parameters, e.g. 7e9", "N");
    option("model-config",
           "a Hugging Face config.json, or the model's folder holding one: dense, GQA, MoE and MLA shapes; its "
           "quantization_config or torch_dtype gives the default --weights and --kv",
           "FILE");
    option("gpu", "GPU id from `ridgeline catalog gpus`, or custom", "ID");
    option("peak-tflops", "custom GPU: dense peak TFLOP/s", "T");
    option("bandwidth-tbs", "custom GPU: memory bandwidth, TB/s", "B");
    option("memory-gib", "custom GPU: memory, GiB", "G");
    option("batch", "sequences decoded together (1-65536)", "B");
    option("context", "tokens each sequence attends to (1-10M)", "S");
    option("prompt", "prompt tokens per sequence: adds prefill and time to first token", "P");
    option("output", "tokens generated after the prompt: adds end-to-end latency and throughput", "O");
    option("weights",
           "weight precision: fp32, bf16, fp16, fp8, int8, int4 (4.25 bits with scales), fp4 (NVFP4, 4.5 bits), "
           "mxfp4 (4.25 bits)",
           "P");
    option("kv", "KV cache precision", "P");
    option("attention-weights", "precision of the attention projections (default: --weights)", "P");
    option("head-weights", "precision of embeddings and LM head (default: 16-bit when --weights is below)", "P");
    option("ep", "expert-parallel degree: MoE experts spread over this many of the --tp GPUs", "E");
    option("spec-tokens", "speculative decoding: draft tokens proposed per step", "K");
    option("spec-acceptance", "mean tokens gained per step, accepted drafts plus one (1 to K + 1)", "A");
    option("decode-attention",
           "the engine's decode attention with grouped KV heads: grouped (default: FlashAttention, FlashInfer, "
           "XQA) or per-head (one thread block per query head, TensorRT-LLM's masked MHA through 0.9)",
           "KERNEL");
    option("network", "link between nodes when --tp exceeds a node (default: the card's own)", "L");
    option("gpus-per-node", "GPUs per node (default: the card's interconnect domain, 8 on HGX boards)", "N");
    option("tp", "tensor-parallel degree", "T");
    option("link",
           "link between the GPUs: nvlink3/4/5, pcie4/5, infiniband-hdr/ndr, ethernet-100g/400g, infinity-fabric", "L");
    option("engine",
           "the serving engine whose terms to use: generic (default: the measured defaults), vllm, sglang, "
           "tensorrt-llm, llama.cpp, mlc-llm, exllamav2, lmdeploy, tgi; NAME@VERSION names a version (see "
           "`ridgeline catalog engines`)",
           "NAME[@VERSION]");
    option("all-reduce",
           "the engine's all-reduce kernels inside a node: nccl (default: NCCL's ring) or custom (also the one-shot "
           "and two-shot kernels of vLLM, SGLang and TensorRT-LLM over a peer-to-peer link, each message by the "
           "fastest; one step of latency for small messages)",
           "KERNELS");
    option("ideal", "datasheet peaks: every share 1, no fixed times");
    option("plain", "the plain roofline: bandwidth 0.75 and compute 0.6 of the datasheet, no fixed times");
    option("term", "set one engine term, e.g. layer_seconds=40e-6 or weight_bandwidth.fp8=0.8 (repeatable)",
           "NAME=VALUE");
    option("bandwidth-efficiency", "share of datasheet bandwidth reached (0-1]", "E");
    option("compute-efficiency", "share of dense peak reached (0-1]", "E");
    option("layers", "custom model: layers", "N");
    option("hidden", "custom model: hidden size", "N");
    option("heads", "custom model: query heads", "N");
    option("kv-heads", "custom model: KV heads (default = heads)", "N");
    option("head-dim", "custom model: head dimension (default hidden / heads)", "N");
    option("ffn", "custom model: FFN inner size (default 8/3 hidden, SwiGLU)", "N");
    option("vocab", "custom model: vocabulary (default 32000)", "N");
    option("window", "custom model: sliding attention window", "N");
    option("experts", "custom model: routed experts per MoE layer (every layer; --ffn is the expert width)", "N");
    option("active-experts", "custom model: experts each token is routed to", "K");
    option("shared-experts", "custom model: experts every token uses, of the same width", "S");
    addServingOptions(parser);
    addSplitOptions(parser);
    option("json", "print JSON instead of a table");
}

// One configuration's serving latency (with a prompt and two output tokens or more) and its cost and energy.
struct ServingFigures {
    std::optional<ServingLatency> latency;
    TokenCost cost;
    GpuPower power;
};

Result<ServingFigures> servingFigures(const ServingOptions& serving, const InferenceConfig& config,
                                      const InferenceReport& report)
{
    const Result<LlmModel> model = LlmModel::create(config);
    if (!model)
        return model.error();
    ServingFigures figures;
    if (report.serving) {
        const RequestMix mix{config.prompt, config.output, config.batch, serving.arrivalRate};
        const Result<ServingLatency> latency = servingLatency(model.value(), mix, serving.scheduler.policy);
        if (latency)
            figures.latency = latency.value();
        else if (serving.arrivalRate > 0)  // else the table already says the request does not fit
            return makeError(latency.error().code, QStringLiteral("--arrival-rate: ") + latency.error().message);
    }
    figures.power = gpuPower(serving.cost, config.gpu);
    TokenRates rates = reportRates(model.value(), report);
    if (figures.latency && serving.arrivalRate > 0) {  // the GPUs idle between arrivals: only what arrives pays
        const double gpus = config.tensorParallel;
        rates = TokenRates{figures.latency->outputTokensPerSecond / gpus, figures.latency->inputTokensPerSecond / gpus,
                           figures.latency->prefillShare};
    }
    figures.cost = tokenCost(rates, serving.cost.gpuHourPrice, figures.power);
    return figures;
}

// The report as JSON (--json) or as the table, each with what --model-config read and from where.
void printModelReport(Streams io, const QCommandLineParser& parser, const ModelOptions& options,
                      const ServingOptions& serving, const ServingFigures& figures, const InferenceConfig& config,
                      const InferenceReport& report)
{
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonObject json = modelReportJson(config, report);
        if (figures.latency)
            addServingLatencyJson(json, *figures.latency, serving);
        addCostJson(json, figures.cost, serving.cost, figures.power);
        if (options.modelConfig)
            json.insert(QStringLiteral("model_config"), modelConfigJson(*options.modelConfig, parser));
        json.insert(QStringLiteral("engine"), engineJson(options.engine, config.gpu));
        io.out << QJsonDocument(json).toJson(QJsonDocument::Indented);
    } else {
        if (options.modelConfig)
            io.out << modelConfigLines(*options.modelConfig, parser).join(u'\n') << "\n\n";
        if (options.engineGiven)
            io.out << engineLine(options.engine, config.gpu) << "\n\n";
        printModelTable(io.out, config, report);
        if (figures.latency) {
            io.out << "\nServing latency ("
                   << (serving.arrivalRate > 0 ? "random arrivals" : "requests always in flight") << ")\n";
            printServingLatency(io.out, *figures.latency, serving);
        }
        printCost(io.out, figures.cost, serving.cost, figures.power);
    }
}

// What is wrong with --ttft-target or --itl-target against the least each can be, naming the option, or nothing.
std::optional<QString> refusedTargets(const FrontierTargets& targets, const TargetMinimums& minimums)
{
    if (const std::optional<QString> refused =
            checkTargets(FrontierTargets{targets.ttftSeconds, std::nullopt}, minimums))
        return QStringLiteral("--ttft-target: ") + *refused;
    if (const std::optional<QString> refused =
            checkTargets(FrontierTargets{std::nullopt, targets.itlSeconds}, minimums))
        return QStringLiteral("--itl-target: ") + *refused;
    return std::nullopt;
}

// --frontier: the points over the batch, the targets checked against what one request alone reaches.
int runFrontier(Streams io, const QCommandLineParser& parser, const ServingOptions& serving,
                const InferenceConfig& config)
{
    const Result<LlmModel> model = LlmModel::create(config);
    if (!model)
        return fail(io, model.error().message);
    const Result<TargetMinimums> minimums =
        targetMinimums(model.value(), config.prompt, config.output, serving.scheduler.policy);
    if (!minimums)
        return fail(io, minimums.error().message);
    if (const std::optional<QString> refused = refusedTargets(serving.targets, minimums.value()))
        return fail(io, *refused);
    const Result<std::vector<FrontierPoint>> points =
        servingFrontier(model.value(), config.prompt, config.output, serving.scheduler.policy, serving.targets);
    if (!points)
        return fail(io, points.error().message);
    const FrontierView view{config, serving, minimums.value(), gpuPower(serving.cost, config.gpu), points.value()};
    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(frontierJson(view)).toJson(QJsonDocument::Indented);
    else
        printFrontierTable(io.out, view);
    return 0;
}

// The pools of --split or every split of --split-sweep, with colocated serving on the same GPUs.
Result<SplitSweep> evaluateSplits(const LlmModel& model, const RequestMix& mix, const SplitOptions& split,
                                  const SplitInputs& inputs, const FrontierTargets& targets)
{
    if (split.sweep) {
        return splitSweep(model, mix, split.totalGpus, inputs, targets);
    }
    const QString ratio = QStringLiteral("--split %1:%2: ").arg(inputs.prefillGpus).arg(inputs.decodeGpus);
    const Result<SplitServing> one = splitServing(model, mix, inputs);
    if (!one)
        return makeError(one.error().code, ratio + one.error().message);
    if (!one.value().keepsUp)
        return makeError(Error::Code::Range,
                         QStringLiteral("--arrival-rate: %1 requests/s is more than the split %2:%3 serves: at most "
                                        "%4 requests/s, bounded by its %5")
                             .arg(mix.arrivalRate, 0, 'g', 4)
                             .arg(inputs.prefillGpus)
                             .arg(inputs.decodeGpus)
                             .arg(one.value().maxRequestsPerSecond, 0, 'g', 4)
                             .arg(one.value().bottleneck == QLatin1String("link")
                                      ? QStringLiteral("KV link")
                                      : one.value().bottleneck + QStringLiteral(" pool")));
    const Result<ColocatedServing> colocated = colocatedServing(model, mix, split.totalGpus, inputs.policy);
    if (!colocated)
        return makeError(colocated.error().code, ratio + colocated.error().message);
    SplitSweep sweep;
    sweep.splits.push_back(one.value());
    sweep.splits.front().meetsTargets = meetsTargets(one.value(), targets);
    sweep.colocated = colocated.value();
    return sweep;
}

// --split and --split-sweep: the link between the pools, then the splits as JSON or a table.
int runSplit(Streams io, const QCommandLineParser& parser, const ServingOptions& serving, const SplitOptions& split,
             const InferenceConfig& config)
{
    const Result<LlmModel> model = LlmModel::create(config);
    if (!model)
        return fail(io, model.error().message);
    const Result<LinkSpec> link = splitLink(split, config.gpu);
    if (!link)
        return fail(io, link.error().message);
    SplitInputs inputs = split.inputs;
    inputs.link = link.value();
    inputs.policy = serving.scheduler.policy;
    const RequestMix mix{config.prompt, config.output, split.concurrency, serving.arrivalRate};
    SplitInputs alone = inputs;  // the least each target can be does not depend on the split
    alone.prefillGpus = alone.decodeGpus = config.tensorParallel;
    const Result<TargetMinimums> minimums = splitTargetMinimums(model.value(), mix, alone);
    if (!minimums)
        return fail(io, minimums.error().message);
    if (const std::optional<QString> refused = refusedTargets(serving.targets, minimums.value()))
        return fail(io, *refused);
    const Result<SplitSweep> sweep = evaluateSplits(model.value(), mix, split, inputs, serving.targets);
    if (!sweep)
        return fail(io, sweep.error().message);
    const SplitView view{config,       serving, split, link.value(), minimums.value(), model.value().effectiveRoof(),
                         sweep.value()};
    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(splitJson(view)).toJson(QJsonDocument::Indented);
    else
        printSplitTable(io.out, view);
    return 0;
}

}  // namespace

int runModel(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    addModelOptions(parser);
    if (const std::optional<int> answered = parseCommandLine(parser, arguments.mid(1), u"model", io))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return fail(io, QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst()));

    ModelOptions options;
    if (const std::optional<QString> refused = readModelOptions(parser, options))
        return fail(io, *refused);
    if (!options.engine.fallbackNote.isEmpty())
        io.err << "ridgeline model: --engine " << parser.value(QStringLiteral("engine")) << ": "
               << options.engine.fallbackNote << '\n';
    SplitOptions split;  // before the serving options: it sets the lengths --arrival-rate needs
    if (const std::optional<QString> refused = readSplitOptions(parser, split, options.request))
        return fail(io, *refused);
    ServingOptions serving;
    if (const std::optional<QString> refused = readServingOptions(parser, serving, options.request))
        return fail(io, *refused);
    if (const std::optional<QString> refused = chooseServingScheduler(serving, *options.engine.profile))
        return fail(io, *refused);
    const Result<InferenceConfig> resolved = resolveInference(options.request);
    if (!resolved)
        return fail(io, resolved.error().message);
    for (const QString& problem : userCatalogs()->problems)  // used without it: say so, never silently
        io.err << "ridgeline model: your catalog was not read: " << problem << '\n';
    serving.cost = withCatalogPrice(serving.cost, resolved.value().gpu);  // --gpu-hour-price wins
    if (split.active())
        return runSplit(io, parser, serving, split, resolved.value());
    if (serving.frontier)
        return runFrontier(io, parser, serving, resolved.value());
    const Result<InferenceReport> report = evaluateInference(resolved.value());
    if (!report)
        return fail(io, report.error().message);
    const Result<ServingFigures> figures = servingFigures(serving, resolved.value(), report.value());
    if (!figures)
        return fail(io, figures.error().message);
    printModelReport(io, parser, options, serving, figures.value(), resolved.value(), report.value());
    return 0;
}

}  // namespace ridgeline::cli
