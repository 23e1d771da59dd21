#include "app/cli/model_options.h"

#include "app/cli/model_config_option.h"
#include "app/cli/option_values.h"
#include "core/model/catalog/catalog.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/llm/llm_model.h"
#include "core/physical_limits.h"

#include <cmath>

namespace ridgeline::cli {

namespace {

using Refusal = std::optional<QString>;  // the message naming the option at fault, or nothing when all is well

// One dimension of a custom model's shape: a whole number from `min` to 1e8.
std::optional<int> shapeOption(const QCommandLineParser& parser, const char* name, std::int64_t fallback,
                               QString& error, std::int64_t min = 0)
{
    const std::optional<std::int64_t> v = integerOption(parser, QLatin1String(name), fallback, error);
    if (!v)
        return std::nullopt;
    if (*v < min || *v > 100'000'000) {
        error = QStringLiteral("--%1 must be between %2 and 1e8, got %3").arg(QLatin1String(name)).arg(min).arg(*v);
        return std::nullopt;
    }
    return static_cast<int>(*v);
}

// --experts, --active-experts and --shared-experts of a custom model: every layer a MoE layer, --ffn one expert.
Refusal readCustomExperts(const QCommandLineParser& parser, ModelSpec& m)
{
    QString error;
    const std::optional<int> experts = shapeOption(parser, "experts", 0, error),
                             active = shapeOption(parser, "active-experts", 0, error),
                             shared = shapeOption(parser, "shared-experts", 0, error);
    if (!experts || !active || !shared)
        return error;
    if (*experts == 0 && (*active > 0 || *shared > 0))
        return QStringLiteral("--active-experts and --shared-experts need --experts");
    if (*experts > 0) {
        if (*active < 1 || *active > *experts)
            return QStringLiteral("--active-experts must be between 1 and the %1 experts, got %2")
                .arg(*experts)
                .arg(*active);
        m.experts = *experts;
        m.activeExperts = *active;
        m.sharedExperts = *shared;
        m.moeFfn = m.ffn;  // every layer is a MoE layer; --ffn is one expert's inner size
    }
    return std::nullopt;
}

// --model custom: the shape from --layers, --hidden, --heads and the options that default from them.
Refusal readCustomModel(const QCommandLineParser& parser, InferenceRequest& request)
{
    QString error;
    ModelSpec m;
    m.id = kCustomId;
    m.name = QStringLiteral("Custom model");
    m.source = QStringLiteral("given on the command line");
    for (const char* name : {"layers", "hidden", "heads"})
        if (!parser.isSet(QLatin1String(name)))
            return QStringLiteral("--model custom needs --layers, --hidden and --heads");
    const std::optional<int> layers = shapeOption(parser, "layers", 0, error, 1),
                             hidden = shapeOption(parser, "hidden", 0, error, 1),
                             heads = shapeOption(parser, "heads", 0, error, 1);
    if (!layers || !hidden || !heads)
        return error;
    // As a config.json without head_dim: the heads split the hidden size evenly, or --head-dim says how wide.
    if (!parser.isSet(QStringLiteral("head-dim")) && *hidden % *heads != 0)
        return QStringLiteral(
                   "--hidden %1 is not a multiple of --heads %2 (give --head-dim for heads of another "
                   "width)")
            .arg(*hidden)
            .arg(*heads);
    const std::optional<int> kvHeads = shapeOption(parser, "kv-heads", *heads, error),
                             headDim = shapeOption(parser, "head-dim", *hidden / *heads, error),
                             ffn = shapeOption(parser, "ffn", (8LL * *hidden) / 3, error),
                             vocab = shapeOption(parser, "vocab", 32000, error),
                             window = shapeOption(parser, "window", 0, error);
    if (!kvHeads || !headDim || !ffn || !vocab || !window)
        return error;
    m.layers = *layers;
    m.hidden = *hidden;
    m.heads = *heads;
    m.kvHeads = *kvHeads;
    m.headDim = *headDim;
    m.ffn = *ffn;
    m.vocab = *vocab;
    m.slidingWindow = *window;
    if (Refusal refused = readCustomExperts(parser, m))
        return refused;
    request.modelId = kCustomId;
    request.customShape = m;
    return std::nullopt;
}

// The model: --model-config FILE, --params N, --model custom with its shape, or --model ID from the catalog.
Refusal readModel(const QCommandLineParser& parser, ModelOptions& options)
{
    InferenceRequest& request = options.request;
    const QString modelId = parser.value(QStringLiteral("model"));
    if (parser.isSet(QStringLiteral("model-config"))) {
        for (const char* name : {"model", "params", "layers", "hidden", "heads", "kv-heads", "head-dim", "ffn", "vocab",
                                 "window", "experts", "active-experts", "shared-experts"})
            if (parser.isSet(QLatin1String(name)))
                return QStringLiteral("--model-config gives the model; --%1 cannot go with it")
                    .arg(QLatin1String(name));
        Result<HfModelConfig> loaded = loadHfConfig(parser.value(QStringLiteral("model-config")));
        if (!loaded)
            return loaded.error().message;
        options.modelConfig = std::move(loaded).value();
        return std::nullopt;
    }
    if (parser.isSet(QStringLiteral("params"))) {
        if (!modelId.isEmpty())
            return QStringLiteral("give either --model or --params, not both");
        QString error;
        const std::optional<double> params = numberOption(parser, QStringLiteral("params"), error);
        if (!params)
            return error;
        request.modelId = kCustomId;
        request.customParams = *params;
        return std::nullopt;
    }
    if (modelId == kCustomId)
        return readCustomModel(parser, request);
    if (modelId.isEmpty())
        return QStringLiteral(
            "give --model ID (see `ridgeline catalog models`), --model custom, "
            "--model-config FILE or --params N");
    for (const char* name : {"experts", "active-experts", "shared-experts"})
        if (parser.isSet(QLatin1String(name)))
            return QStringLiteral("--%1 shapes a --model custom; %2 has its own").arg(QLatin1String(name), modelId);
    request.modelId = modelId;
    return std::nullopt;
}

// The GPU: --gpu ID from the catalog, or --gpu custom (or no --gpu) with its three datasheet numbers.
Refusal readGpu(const QCommandLineParser& parser, InferenceRequest& request)
{
    const QString gpuId = parser.value(QStringLiteral("gpu"));
    const bool customNumbers = parser.isSet(QStringLiteral("peak-tflops")) ||
                               parser.isSet(QStringLiteral("bandwidth-tbs")) ||
                               parser.isSet(QStringLiteral("memory-gib"));
    if (gpuId == kCustomId || (gpuId.isEmpty() && customNumbers)) {
        if (!parser.isSet(QStringLiteral("peak-tflops")) || !parser.isSet(QStringLiteral("bandwidth-tbs")) ||
            !parser.isSet(QStringLiteral("memory-gib")))
            return QStringLiteral("--gpu custom needs --peak-tflops, --bandwidth-tbs and --memory-gib");
        QString error;
        const std::optional<double> peak = numberOption(parser, QStringLiteral("peak-tflops"), error);
        const std::optional<double> bandwidth =
            peak ? numberOption(parser, QStringLiteral("bandwidth-tbs"), error) : std::nullopt;
        const std::optional<double> memory =
            bandwidth ? numberOption(parser, QStringLiteral("memory-gib"), error) : std::nullopt;
        if (!memory)
            return error;
        // The physical rule of every roof, named by the option: a ridge of "inf" is no answer.
        if (const auto bad = physicalProblem(PhysicalQuantity::ComputeGflops, *peak, 1000.0, u"TFLOP/s"))
            return QStringLiteral("--peak-tflops %1").arg(*bad);
        if (const auto bad = physicalProblem(PhysicalQuantity::BandwidthGbps, *bandwidth, 1000.0, u"TB/s"))
            return QStringLiteral("--bandwidth-tbs %1").arg(*bad);
        request.gpuId = kCustomId;
        request.customPeakTflops = *peak;
        request.customBandwidthTbs = *bandwidth;
        request.customMemoryGib = *memory;
        return std::nullopt;
    }
    if (gpuId.isEmpty())
        return QStringLiteral("give --gpu ID (see `ridgeline catalog gpus`) or --gpu custom");
    if (customNumbers)
        return QStringLiteral("--peak-tflops, --bandwidth-tbs and --memory-gib go with --gpu custom");
    request.gpuId = gpuId;
    return std::nullopt;
}

// The workload: --batch, --context, --prompt, --output and the tensor-parallel degree --tp.
Refusal readWorkload(const QCommandLineParser& parser, InferenceRequest& request)
{
    QString error;
    const std::optional<std::int64_t> batch = integerOption(parser, QStringLiteral("batch"), 1, error);
    const std::optional<std::int64_t> context =
        batch ? integerOption(parser, QStringLiteral("context"), kDefaultContext, error) : std::nullopt;
    const std::optional<std::int64_t> prompt =
        context ? integerOption(parser, QStringLiteral("prompt"), 0, error) : std::nullopt;
    const std::optional<std::int64_t> output =
        prompt ? integerOption(parser, QStringLiteral("output"), 0, error) : std::nullopt;
    const std::optional<std::int64_t> tp =
        output ? integerOption(parser, QStringLiteral("tp"), 1, error) : std::nullopt;
    if (!tp)
        return error;
    request.batch = *batch;
    request.context = *context;
    request.prompt = *prompt;
    request.output = *output;
    if (*tp < 1 || *tp > kMaxTensorParallel)
        return QStringLiteral("--tp must be between 1 and %1").arg(kMaxTensorParallel);
    request.gpus = static_cast<int>(*tp);
    return std::nullopt;
}

// The storage formats (--weights, --kv, --attention-weights, --head-weights), the links (--link, --network) and how
// the GPUs all-reduce over them (--all-reduce).
Refusal readFormatsAndLinks(const QCommandLineParser& parser, InferenceRequest& request)
{
    for (const char* name : {"weights", "kv", "attention-weights", "head-weights"}) {
        if (!parser.isSet(QLatin1String(name)))
            continue;
        const std::optional<NumberFormat> precision = parseNumberFormat(parser.value(QLatin1String(name)));
        if (!precision || !isStorageFormat(*precision))
            return QStringLiteral("--%1 must be one of %2; got \"%3\"%4")
                .arg(QLatin1String(name), storageFormatNames(), parser.value(QLatin1String(name)),
                     precision ? QStringLiteral(", a compute mode, not a storage format") : QString());
        const QLatin1String which(name);
        if (which == QLatin1String("weights"))
            request.weights = *precision;
        else if (which == QLatin1String("kv"))
            request.kv = *precision;
        else if (which == QLatin1String("attention-weights"))
            request.attentionWeights = *precision;
        else
            request.headWeights = *precision;
    }
    request.linkId = parser.value(QStringLiteral("link"));  // empty: the card's own
    request.networkLinkId = parser.value(QStringLiteral("network"));
    if (parser.isSet(QStringLiteral("all-reduce"))) {
        const QString kernels = parser.value(QStringLiteral("all-reduce"));
        const std::optional<AllReduceKernels> parsed = parseAllReduceKernels(kernels);
        if (!parsed)
            return QStringLiteral("--all-reduce must be nccl or custom; got \"%1\"").arg(kernels);
        request.allReduce = *parsed;
    }
    return std::nullopt;
}

// Expert parallelism (--ep), the node size (--gpus-per-node), speculative decoding (--spec-tokens with
// --spec-acceptance) and the decode attention kernel (--decode-attention).
Refusal readExpertsAndSpeculation(const QCommandLineParser& parser, InferenceRequest& request)
{
    QString error;
    const std::optional<std::int64_t> ep = integerOption(parser, QStringLiteral("ep"), 1, error);
    const std::optional<std::int64_t> perNode =
        ep ? integerOption(parser, QStringLiteral("gpus-per-node"), -1, error) : std::nullopt;
    const std::optional<std::int64_t> specTokens =
        perNode ? integerOption(parser, QStringLiteral("spec-tokens"), 0, error) : std::nullopt;
    if (!specTokens)
        return error;
    if (*ep < 1 || *ep > kMaxTensorParallel)
        return QStringLiteral("--ep must be between 1 and %1").arg(kMaxTensorParallel);
    if (parser.isSet(QStringLiteral("gpus-per-node")) && (*perNode < 1 || *perNode > kMaxTensorParallel))
        return QStringLiteral("--gpus-per-node must be between 1 and %1").arg(kMaxTensorParallel);
    if (*specTokens < 0 || *specTokens > kMaxSpeculativeTokens)
        return QStringLiteral("--spec-tokens must be between 0 and %1").arg(kMaxSpeculativeTokens);
    request.expertParallel = static_cast<int>(*ep);
    request.gpusPerNode = static_cast<int>(*perNode);
    if (parser.isSet(QStringLiteral("spec-tokens")) != parser.isSet(QStringLiteral("spec-acceptance")))
        return QStringLiteral("speculative decoding needs both --spec-tokens and --spec-acceptance");
    if (*specTokens > 0) {
        const std::optional<double> acceptance = numberOption(parser, QStringLiteral("spec-acceptance"), error);
        if (!acceptance)
            return error;
        request.speculative = SpeculativeDecoding{static_cast<int>(*specTokens), *acceptance};
    }
    if (parser.isSet(QStringLiteral("decode-attention"))) {
        const QString kernel = parser.value(QStringLiteral("decode-attention"));
        const std::optional<DecodeAttention> parsed = parseDecodeAttention(kernel);
        if (!parsed)
            return QStringLiteral("--decode-attention must be grouped or per-head; got \"%1\"").arg(kernel);
        request.decodeAttention = *parsed;
    }
    return std::nullopt;
}

// Each --term NAME=VALUE, to be set on top of the starting terms.
Refusal readTermAssignments(const QCommandLineParser& parser, std::vector<std::pair<EngineTerm, double>>& edits)
{
    for (const QString& assignment : parser.values(QStringLiteral("term"))) {
        const qsizetype equals = assignment.indexOf(QLatin1Char('='));
        const std::optional<EngineTerm> term =
            equals > 0 ? parseTermName(QStringView(assignment).left(equals)) : std::nullopt;
        if (!term) {
            QStringList names;
            for (const EngineTerm& known : allTerms())
                names << termName(known);
            return QStringLiteral("--term takes NAME=VALUE with a NAME of %1; got \"%2\"")
                .arg(names.join(QStringLiteral(", ")), assignment);
        }
        bool ok = false;
        const double value = assignment.mid(equals + 1).toDouble(&ok);
        if (!ok || !std::isfinite(value))
            return QStringLiteral("--term %1 needs a number, got \"%2\"")
                .arg(termName(*term), assignment.mid(equals + 1));
        edits.emplace_back(*term, value);
    }
    return std::nullopt;
}

// --engine NAME[@VERSION]: that engine's terms for the card's memory family and its all-reduce kernels over the link. A
// GPU the catalog lacks is left for resolveInference to name; its terms are the profile's for no family until then.
Refusal readEngine(const QCommandLineParser& parser, ModelOptions& options)
{
    Result<EngineSelection> selected = selectEngine(parser.value(QStringLiteral("engine")));
    if (!selected)
        return QStringLiteral("--engine: ") + selected.error().message;
    options.engine = selected.value();
    options.engineGiven = true;
    // Generic is the measured defaults, as without --engine; any other engine is named in the request, so that its
    // collectives run at the shares its kernels reach, as in the batching tab.
    if (options.engine.profile->id != kGenericEngineId)
        options.request.engine = parser.value(QStringLiteral("engine"));
    const InferenceRequest& r = options.request;
    const Result<GpuSpec> gpu = r.gpuId == kCustomId
                                    ? customGpu(r.customPeakTflops, r.customBandwidthTbs, r.customMemoryGib)
                                    : findGpu(r.gpuId);
    options.request.efficiency = Efficiency{};
    options.request.terms = options.engine.profile->termsFor(gpu ? gpu.value() : GpuSpec{});
    options.request.allReduce = engineAllReduce(options.request, options.engine);
    options.request.decodeSplitsKv = options.engine.splitsDecodeAttention();
    return std::nullopt;
}

// Engine terms: the measured defaults (or --engine's) unless the plain roofline, the datasheet or its two shares are
// asked for; then each --term on top.
Refusal readEngineTerms(const QCommandLineParser& parser, ModelOptions& options)
{
    InferenceRequest& request = options.request;
    const bool twoShares =
        parser.isSet(QStringLiteral("bandwidth-efficiency")) || parser.isSet(QStringLiteral("compute-efficiency"));
    const bool engine = parser.isSet(QStringLiteral("engine"));
    if (parser.isSet(QStringLiteral("ideal")) + parser.isSet(QStringLiteral("plain")) + twoShares + engine > 1)
        return QStringLiteral("give one of --engine, --ideal, --plain and --bandwidth/compute-efficiency");
    QString error;
    Efficiency shares;
    if (parser.isSet(QStringLiteral("bandwidth-efficiency"))) {
        const std::optional<double> e = numberOption(parser, QStringLiteral("bandwidth-efficiency"), error);
        if (!e)
            return error;
        shares.bandwidth = *e;
    }
    if (parser.isSet(QStringLiteral("compute-efficiency"))) {
        const std::optional<double> e = numberOption(parser, QStringLiteral("compute-efficiency"), error);
        if (!e)
            return error;
        shares.compute = *e;
    }
    setEngineChoice(request,
                    parser.isSet(QStringLiteral("ideal"))                ? EngineChoice::Ideal
                    : parser.isSet(QStringLiteral("plain")) || twoShares ? EngineChoice::Plain
                                                                         : kDefaultEngineChoice,
                    shares);
    if (engine)
        if (Refusal refused = readEngine(parser, options))
            return refused;
    return readTermAssignments(parser, request.termEdits);
}

}  // namespace

std::optional<QString> readModelOptions(const QCommandLineParser& parser, ModelOptions& options)
{
    InferenceRequest& request = options.request;
    if (Refusal refused = readModel(parser, options))
        return refused;
    for (Refusal (*read)(const QCommandLineParser&, InferenceRequest&) :
         {readGpu, readWorkload, readFormatsAndLinks, readExpertsAndSpeculation})
        if (Refusal refused = read(parser, request))
            return refused;
    if (Refusal refused = readEngineTerms(parser, options))
        return refused;
    if (options.modelConfig)
        return applyModelConfig(*options.modelConfig, parser, request);
    return std::nullopt;
}

}  // namespace ridgeline::cli
