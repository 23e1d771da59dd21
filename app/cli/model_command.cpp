// `ridgeline model`: the analytical LLM inference model for one configuration, as a table or JSON.
#include "app/cli/commands.h"

#include "app/cli/model_config_option.h"
#include "app/cli/model_output.h"
#include "core/model/catalog.h"
#include "core/model/inference_request.h"
#include "core/model/llm_model.h"
#include "core/model/units.h"
#include "core/model/user_catalog.h"

#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <optional>

namespace ridgeline::cli {

namespace {

constexpr int kBadArguments = 2;

// An integer option: digits or scientific notation ("8192", "1e6"); NaN, fractions and huge values refused.
std::optional<std::int64_t> integerOption(const QCommandLineParser& parser, const QString& name, std::int64_t fallback,
                                          QString& error)
{
    if (!parser.isSet(name))
        return fallback;
    bool ok = false;
    const QString text = parser.value(name);
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value) || value != std::floor(value) || std::fabs(value) > 1e15) {
        error = QStringLiteral("--%1 must be a whole number, got \"%2\"").arg(name, text);
        return std::nullopt;
    }
    return static_cast<std::int64_t>(value);
}

std::optional<double> numberOption(const QCommandLineParser& parser, const QString& name, QString& error)
{
    bool ok = false;
    const QString text = parser.value(name);
    const double value = text.toDouble(&ok);
    if (!ok || !std::isfinite(value)) {
        error = QStringLiteral("--%1 must be a number, got \"%2\"").arg(name, text);
        return std::nullopt;
    }
    return value;
}

int fail(Streams io, const QString& message)
{
    io.err << "ridgeline model: " << message << "\n(see `ridgeline model --help`)\n";
    return kBadArguments;
}

}  // namespace

int runModel(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The analytical LLM inference model: memory, decode step, prefill, serving under load, tensor and expert "
        "parallelism, speculative decoding on a GPU, and where each step's time goes.\n"
        "Defaults: batch 1, context 8192, bf16 weights and KV, the measured engine terms (shares of what the card "
        "sustains, fixed times per layer and per sequence; fitted on published measurements, "
        "tests/data/README.md). --plain: the plain roofline (bandwidth 0.75, compute 0.6 of the datasheet); "
        "--ideal: the datasheet."));
    parser.addHelpOption();
    auto option = [&](const char* name, const char* help, const char* valueName = nullptr) {
        parser.addOption(valueName
                             ? QCommandLineOption(QLatin1String(name), QLatin1String(help), QLatin1String(valueName))
                             : QCommandLineOption(QLatin1String(name), QLatin1String(help)));
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
    option("network", "link between nodes when --tp exceeds a node (default: the card's own)", "L");
    option("gpus-per-node", "GPUs per node (default: the card's interconnect domain, 8 on HGX boards)", "N");
    option("tp", "tensor-parallel degree", "T");
    option("link",
           "link between the GPUs: nvlink3/4/5, pcie4/5, infiniband-hdr/ndr, ethernet-100g/400g, infinity-fabric", "L");
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
    option("json", "print JSON instead of a table");
    if (!parser.parse(arguments.mid(1)))
        return fail(io, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        io.out << parser.helpText();
        return 0;
    }
    if (!parser.positionalArguments().isEmpty())
        return fail(io, QStringLiteral("unexpected argument \"%1\"").arg(parser.positionalArguments().constFirst()));

    QString error;
    InferenceRequest request;

    // Model
    const QString modelId = parser.value(QStringLiteral("model"));
    std::optional<HfModelConfig> modelConfig;
    if (parser.isSet(QStringLiteral("model-config"))) {
        for (const char* name : {"model", "params", "layers", "hidden", "heads", "kv-heads", "head-dim", "ffn", "vocab",
                                 "window", "experts", "active-experts", "shared-experts"})
            if (parser.isSet(QLatin1String(name)))
                return fail(
                    io,
                    QStringLiteral("--model-config gives the model; --%1 cannot go with it").arg(QLatin1String(name)));
        Result<HfModelConfig> loaded = loadHfConfig(parser.value(QStringLiteral("model-config")));
        if (!loaded)
            return fail(io, loaded.error().message);
        modelConfig = std::move(loaded).value();
    } else if (parser.isSet(QStringLiteral("params"))) {
        if (!modelId.isEmpty())
            return fail(io, QStringLiteral("give either --model or --params, not both"));
        const std::optional<double> params = numberOption(parser, QStringLiteral("params"), error);
        if (!params)
            return fail(io, error);
        request.modelId = kCustomId;
        request.customParams = *params;
    } else if (modelId == kCustomId) {
        ModelSpec m;
        m.id = kCustomId;
        m.name = QStringLiteral("Custom model");
        m.source = QStringLiteral("given on the command line");
        auto shape = [&](const char* name, std::int64_t fallback) -> std::optional<int> {
            const std::optional<std::int64_t> v = integerOption(parser, QLatin1String(name), fallback, error);
            if (!v)
                return std::nullopt;
            if (*v < 0 || *v > 100'000'000) {
                error = QStringLiteral("--%1 must be between 0 and 1e8").arg(QLatin1String(name));
                return std::nullopt;
            }
            return static_cast<int>(*v);
        };
        const std::optional<int> layers = shape("layers", 0), hidden = shape("hidden", 0), heads = shape("heads", 0);
        if (!layers || !hidden || !heads)
            return fail(io, error);
        if (*layers == 0 || *hidden == 0 || *heads == 0)
            return fail(io, QStringLiteral("--model custom needs --layers, --hidden and --heads"));
        const std::optional<int> kvHeads = shape("kv-heads", *heads), headDim = shape("head-dim", *hidden / *heads),
                                 ffn = shape("ffn", (8LL * *hidden) / 3), vocab = shape("vocab", 32000),
                                 window = shape("window", 0);
        if (!kvHeads || !headDim || !ffn || !vocab || !window)
            return fail(io, error);
        m.layers = *layers;
        m.hidden = *hidden;
        m.heads = *heads;
        m.kvHeads = *kvHeads;
        m.headDim = *headDim;
        m.ffn = *ffn;
        m.vocab = *vocab;
        m.slidingWindow = *window;
        const std::optional<int> experts = shape("experts", 0), active = shape("active-experts", 0),
                                 shared = shape("shared-experts", 0);
        if (!experts || !active || !shared)
            return fail(io, error);
        if (*experts == 0 && (*active > 0 || *shared > 0))
            return fail(io, QStringLiteral("--active-experts and --shared-experts need --experts"));
        if (*experts > 0) {
            if (*active < 1 || *active > *experts)
                return fail(io, QStringLiteral("--active-experts must be between 1 and the %1 experts, got %2")
                                    .arg(*experts)
                                    .arg(*active));
            m.experts = *experts;
            m.activeExperts = *active;
            m.sharedExperts = *shared;
            m.moeFfn = m.ffn;  // every layer is a MoE layer; --ffn is one expert's inner size
        }
        request.modelId = kCustomId;
        request.customShape = m;
    } else if (!modelId.isEmpty()) {
        for (const char* name : {"experts", "active-experts", "shared-experts"})
            if (parser.isSet(QLatin1String(name)))
                return fail(
                    io,
                    QStringLiteral("--%1 shapes a --model custom; %2 has its own").arg(QLatin1String(name), modelId));
        request.modelId = modelId;
    } else {
        return fail(io, QStringLiteral("give --model ID (see `ridgeline catalog models`), --model custom, "
                                       "--model-config FILE or --params N"));
    }

    // GPU
    const QString gpuId = parser.value(QStringLiteral("gpu"));
    const bool customNumbers = parser.isSet(QStringLiteral("peak-tflops")) ||
                               parser.isSet(QStringLiteral("bandwidth-tbs")) ||
                               parser.isSet(QStringLiteral("memory-gib"));
    if (gpuId == kCustomId || (gpuId.isEmpty() && customNumbers)) {
        if (!parser.isSet(QStringLiteral("peak-tflops")) || !parser.isSet(QStringLiteral("bandwidth-tbs")) ||
            !parser.isSet(QStringLiteral("memory-gib")))
            return fail(io, QStringLiteral("--gpu custom needs --peak-tflops, --bandwidth-tbs and --memory-gib"));
        const std::optional<double> peak = numberOption(parser, QStringLiteral("peak-tflops"), error);
        const std::optional<double> bandwidth =
            peak ? numberOption(parser, QStringLiteral("bandwidth-tbs"), error) : std::nullopt;
        const std::optional<double> memory =
            bandwidth ? numberOption(parser, QStringLiteral("memory-gib"), error) : std::nullopt;
        if (!memory)
            return fail(io, error);
        request.gpuId = kCustomId;
        request.customPeakTflops = *peak;
        request.customBandwidthTbs = *bandwidth;
        request.customMemoryGib = *memory;
    } else if (!gpuId.isEmpty()) {
        if (customNumbers)
            return fail(io, QStringLiteral("--peak-tflops, --bandwidth-tbs and --memory-gib go with --gpu custom"));
        request.gpuId = gpuId;
    } else {
        return fail(io, QStringLiteral("give --gpu ID (see `ridgeline catalog gpus`) or --gpu custom"));
    }

    // Workload
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
        return fail(io, error);
    request.batch = *batch;
    request.context = *context;
    request.prompt = *prompt;
    request.output = *output;
    if (*tp < 1 || *tp > kMaxTensorParallel)
        return fail(io, QStringLiteral("--tp must be between 1 and %1").arg(kMaxTensorParallel));
    request.gpus = static_cast<int>(*tp);
    for (const char* name : {"weights", "kv", "attention-weights", "head-weights"}) {
        if (!parser.isSet(QLatin1String(name)))
            continue;
        const std::optional<NumberFormat> precision = parseNumberFormat(parser.value(QLatin1String(name)));
        if (!precision || !isStorageFormat(*precision))
            return fail(io, QStringLiteral("--%1 must be one of %2; got \"%3\"%4")
                                .arg(QLatin1String(name), storageFormatNames(), parser.value(QLatin1String(name)),
                                     precision ? QStringLiteral(", a compute mode, not a storage format") : QString()));
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
    {
        const std::optional<std::int64_t> ep = integerOption(parser, QStringLiteral("ep"), 1, error);
        const std::optional<std::int64_t> perNode =
            ep ? integerOption(parser, QStringLiteral("gpus-per-node"), -1, error) : std::nullopt;
        const std::optional<std::int64_t> specTokens =
            perNode ? integerOption(parser, QStringLiteral("spec-tokens"), 0, error) : std::nullopt;
        if (!specTokens)
            return fail(io, error);
        if (*ep < 1 || *ep > kMaxTensorParallel)
            return fail(io, QStringLiteral("--ep must be between 1 and %1").arg(kMaxTensorParallel));
        if (parser.isSet(QStringLiteral("gpus-per-node")) && (*perNode < 1 || *perNode > kMaxTensorParallel))
            return fail(io, QStringLiteral("--gpus-per-node must be between 1 and %1").arg(kMaxTensorParallel));
        if (*specTokens < 0 || *specTokens > kMaxSpeculativeTokens)
            return fail(io, QStringLiteral("--spec-tokens must be between 0 and %1").arg(kMaxSpeculativeTokens));
        request.expertParallel = static_cast<int>(*ep);
        request.gpusPerNode = static_cast<int>(*perNode);
        if (parser.isSet(QStringLiteral("spec-tokens")) != parser.isSet(QStringLiteral("spec-acceptance")))
            return fail(io, QStringLiteral("speculative decoding needs both --spec-tokens and --spec-acceptance"));
        if (*specTokens > 0) {
            const std::optional<double> acceptance = numberOption(parser, QStringLiteral("spec-acceptance"), error);
            if (!acceptance)
                return fail(io, error);
            request.speculative = SpeculativeDecoding{static_cast<int>(*specTokens), *acceptance};
        }
    }
    // Engine terms: the measured defaults unless the plain roofline, the datasheet or its two shares are asked for.
    const bool twoShares =
        parser.isSet(QStringLiteral("bandwidth-efficiency")) || parser.isSet(QStringLiteral("compute-efficiency"));
    if (parser.isSet(QStringLiteral("ideal")) + parser.isSet(QStringLiteral("plain")) + twoShares > 1)
        return fail(io, QStringLiteral("give one of --ideal, --plain and --bandwidth/compute-efficiency"));
    Efficiency shares;
    if (parser.isSet(QStringLiteral("bandwidth-efficiency"))) {
        const std::optional<double> e = numberOption(parser, QStringLiteral("bandwidth-efficiency"), error);
        if (!e)
            return fail(io, error);
        shares.bandwidth = *e;
    }
    if (parser.isSet(QStringLiteral("compute-efficiency"))) {
        const std::optional<double> e = numberOption(parser, QStringLiteral("compute-efficiency"), error);
        if (!e)
            return fail(io, error);
        shares.compute = *e;
    }
    setEngineChoice(request,
                    parser.isSet(QStringLiteral("ideal"))                ? EngineChoice::Ideal
                    : parser.isSet(QStringLiteral("plain")) || twoShares ? EngineChoice::Plain
                                                                         : kDefaultEngineChoice,
                    shares);
    EngineTerms terms = *request.terms;
    for (const QString& assignment : parser.values(QStringLiteral("term"))) {
        const qsizetype equals = assignment.indexOf(QLatin1Char('='));
        const std::optional<EngineTerm> term =
            equals > 0 ? parseTermName(QStringView(assignment).left(equals)) : std::nullopt;
        if (!term) {
            QStringList names;
            for (const EngineTerm& known : allTerms())
                names << termName(known);
            return fail(io, QStringLiteral("--term takes NAME=VALUE with a NAME of %1; got \"%2\"")
                                .arg(names.join(QStringLiteral(", ")), assignment));
        }
        bool ok = false;
        const double value = assignment.mid(equals + 1).toDouble(&ok);
        if (!ok || !std::isfinite(value))
            return fail(io, QStringLiteral("--term %1 needs a number, got \"%2\"")
                                .arg(termName(*term), assignment.mid(equals + 1)));
        setTermValue(terms, *term, value);
    }
    request.terms = terms;
    if (modelConfig)
        if (const std::optional<QString> refused = applyModelConfig(*modelConfig, parser, request))
            return fail(io, *refused);

    const Result<InferenceConfig> resolved = resolveInference(request);
    if (!resolved)
        return fail(io, resolved.error().message);
    for (const QString& problem : userCatalogs()->problems)  // used without it: say so, never silently
        io.err << "ridgeline model: your catalog was not read: " << problem << '\n';
    const InferenceConfig& config = resolved.value();
    Result<InferenceReport> report = evaluateInference(config);
    if (!report)
        return fail(io, report.error().message);
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonObject json = modelReportJson(config, report.value());
        if (modelConfig)
            json.insert(QStringLiteral("model_config"), modelConfigJson(*modelConfig, parser));
        io.out << QJsonDocument(json).toJson(QJsonDocument::Indented);
    } else {
        if (modelConfig)
            io.out << modelConfigLines(*modelConfig, parser).join(u'\n') << "\n\n";
        printModelTable(io.out, config, report.value());
    }
    return 0;
}

}  // namespace ridgeline::cli
