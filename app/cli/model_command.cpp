// `ridgeline model`: the analytical LLM inference model for one configuration, as a table or JSON.
#include "app/cli/commands.h"

#include "core/model/catalog.h"
#include "core/model/inference_request.h"
#include "core/model/llm_model.h"
#include "core/model/units.h"

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

QJsonValue optionalNumber(const std::optional<double>& value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}

QJsonObject reportJson(const InferenceConfig& config, const InferenceReport& r)
{
    QJsonObject o;
    o[QStringLiteral("model")] = config.model.id;
    o[QStringLiteral("gpu")] = config.gpu.id;
    o[QStringLiteral("batch")] = static_cast<qint64>(config.batch);
    o[QStringLiteral("context")] = static_cast<qint64>(config.context);
    o[QStringLiteral("weights_precision")] = numberFormatName(config.weights);
    o[QStringLiteral("kv_precision")] = numberFormatName(config.kv);
    o[QStringLiteral("compute_precision")] = numberFormatName(r.computePrecision);
    o[QStringLiteral("tensor_parallel")] = r.gpus;
    o[QStringLiteral("link")] = config.tensorParallel > 1 ? QJsonValue(config.link.id) : QJsonValue();
    o[QStringLiteral("params")] = static_cast<qint64>(r.params);
    o[QStringLiteral("active_params")] = static_cast<qint64>(r.activeParams);
    o[QStringLiteral("weights_bytes")] = static_cast<qint64>(r.weightsBytes);
    o[QStringLiteral("kv_bytes_per_token")] = static_cast<qint64>(r.kvBytesPerToken);
    o[QStringLiteral("kv_tokens_per_sequence")] = static_cast<qint64>(r.kvTokensPerSequence);
    o[QStringLiteral("kv_bytes_per_sequence")] = static_cast<qint64>(r.kvBytesPerSequence);
    o[QStringLiteral("kv_bytes_total")] = static_cast<qint64>(r.kvBytesTotal);
    o[QStringLiteral("memory_required_bytes")] = static_cast<qint64>(r.memory.requiredPerGpu);
    o[QStringLiteral("gpu_memory_bytes")] = static_cast<qint64>(r.memory.capacityPerGpu);
    o[QStringLiteral("fits")] = r.memory.fits;
    o[QStringLiteral("max_batch")] = static_cast<qint64>(r.maxBatch);
    o[QStringLiteral("flops_per_step")] = r.step.flops;
    o[QStringLiteral("bytes_per_step")] = r.step.bytes;
    o[QStringLiteral("weight_bytes_per_step")] = r.step.weightBytes;
    o[QStringLiteral("kv_bytes_per_step")] = r.step.kvBytes;
    o[QStringLiteral("compute_time_s")] = r.step.computeSeconds;
    o[QStringLiteral("memory_time_s")] = r.step.memorySeconds;
    o[QStringLiteral("comm_time_s")] = r.step.commSeconds;
    o[QStringLiteral("step_time_s")] = r.step.seconds;
    o[QStringLiteral("tokens_per_s")] = r.tokensPerSecond;
    o[QStringLiteral("tokens_per_s_per_sequence")] = r.tokensPerSecondPerSequence;
    o[QStringLiteral("arithmetic_intensity")] = r.step.intensity;
    o[QStringLiteral("weights_only_intensity")] = r.weightsOnlyIntensity;
    o[QStringLiteral("attention_intensity")] = r.step.attentionIntensity();
    o[QStringLiteral("bound")] = boundName(r.step.bound);
    o[QStringLiteral("ridge_flop_per_byte")] = r.ridgeFlopPerByte;
    o[QStringLiteral("datasheet_ridge_flop_per_byte")] = r.datasheetRidgeFlopPerByte;
    o[QStringLiteral("peak_tflops")] = r.peakTflops;
    o[QStringLiteral("bandwidth_tbs")] = config.gpu.bandwidthTbs;
    o[QStringLiteral("knee_batch")] = r.kneeBatch ? QJsonValue(static_cast<qint64>(*r.kneeBatch)) : QJsonValue();
    o[QStringLiteral("bandwidth_efficiency")] = r.efficiency.bandwidth;
    o[QStringLiteral("compute_efficiency")] = r.efficiency.compute;
    o[QStringLiteral("comm_fraction")] = r.commFraction;
    if (config.model.isMoe())
        o[QStringLiteral("experts_touched_per_layer")] = r.step.expertsTouched;
    if (config.prompt > 0) {
        o[QStringLiteral("prompt")] = static_cast<qint64>(config.prompt);
        o[QStringLiteral("output")] = static_cast<qint64>(config.output);
        o[QStringLiteral("prefill_flops")] = r.prefill->flops;
        o[QStringLiteral("ttft_s")] = optionalNumber(r.ttftSeconds);
        o[QStringLiteral("e2e_latency_s")] = optionalNumber(r.e2eLatencySeconds);
        o[QStringLiteral("throughput_tokens_per_s")] = optionalNumber(r.throughputTokensPerSecond);
    }
    o[QStringLiteral("notes")] = QJsonValue::fromVariant(r.notes);
    return o;
}

void printTable(QTextStream& out, const InferenceConfig& c, const InferenceReport& r)
{
    auto row = [&](const char* label, const QString& value) {
        out << "  " << QString::fromLatin1(label).leftJustified(24) << value << '\n';
    };
    out << c.model.name << " on " << c.gpu.name
        << (r.gpus > 1 ? QStringLiteral(" x%1 over %2").arg(r.gpus).arg(c.link.name) : QString()) << '\n';
    out << "  " << numberFormatName(c.weights) << " weights, " << numberFormatName(c.kv) << " KV cache, batch "
        << formatGrouped(c.batch) << ", context " << formatGrouped(c.context) << " tokens\n";
    out << "  efficiency: bandwidth " << QString::number(r.efficiency.bandwidth, 'f', 2) << ", compute "
        << QString::number(r.efficiency.compute, 'f', 2)
        << ((r.efficiency.bandwidth == 1.0 && r.efficiency.compute == 1.0) ? " (ideal datasheet)" : "") << "\n\nMemory"
        << (r.gpus > 1 ? " (per GPU)" : "") << '\n';
    row("parameters",
        QStringLiteral("%1 (%2 B)").arg(formatGrouped(r.params)).arg(static_cast<double>(r.params) / 1e9, 0, 'f', 2) +
            (r.activeParams != r.params
                 ? QStringLiteral(", %1 B active per token").arg(static_cast<double>(r.activeParams) / 1e9, 0, 'f', 2)
                 : QString()));
    row("weights",
        QStringLiteral("%1 = %2").arg(formatGB(static_cast<double>(r.weightsBytes)),
                                      formatGiB(static_cast<double>(r.weightsBytes))) +
            (r.gpus > 1
                 ? QStringLiteral(" in all, %1 per GPU").arg(formatGiB(static_cast<double>(r.memory.weightsPerGpu)))
                 : QString()));
    row("KV cache per token",
        QStringLiteral("%1 (%2 bytes)")
            .arg(formatBinaryBytes(static_cast<double>(r.kvBytesPerToken)), formatGrouped(r.kvBytesPerToken)));
    row("KV per sequence",
        QStringLiteral("%1 (%2 tokens)")
            .arg(formatBinaryBytes(static_cast<double>(r.kvBytesPerSequence)), formatGrouped(r.kvTokensPerSequence)));
    row("KV for the batch",
        formatBinaryBytes(static_cast<double>(r.kvBytesTotal)) +
            (r.gpus > 1
                 ? QStringLiteral(" in all, %1 per GPU").arg(formatBinaryBytes(static_cast<double>(r.memory.kvPerGpu)))
                 : QString()));
    row("required / capacity", QStringLiteral("%1 of %2: %3")
                                   .arg(formatGiB(static_cast<double>(r.memory.requiredPerGpu)),
                                        formatGiB(static_cast<double>(r.memory.capacityPerGpu)),
                                        r.memory.fits ? QStringLiteral("fits") : QStringLiteral("DOES NOT FIT")));
    row("max batch that fits", formatGrouped(r.maxBatch));
    out << "\nDecode step" << (r.gpus > 1 ? " (per GPU)" : "") << '\n';
    row("FLOPs", formatCount(r.step.flops));
    row("bytes", QStringLiteral("%1 (weights %2, KV %3)")
                     .arg(formatGB(r.step.bytes), formatGB(r.step.weightBytes), formatGB(r.step.kvBytes)));
    if (c.model.isMoe())
        row("experts touched",
            QStringLiteral("%1 of %2 per layer").arg(r.step.expertsTouched, 0, 'f', 1).arg(c.model.experts));
    row("arithmetic intensity", QStringLiteral("%1 FLOP/byte (weights only: %2)")
                                    .arg(r.step.intensity, 0, 'f', 2)
                                    .arg(r.weightsOnlyIntensity, 0, 'f', 2));
    row("ridge", QStringLiteral("%1 FLOP/byte (datasheet %2, %3 TFLOP/s %4 / %5 TB/s)")
                     .arg(r.ridgeFlopPerByte, 0, 'f', 1)
                     .arg(r.datasheetRidgeFlopPerByte, 0, 'f', 1)
                     .arg(r.peakTflops)
                     .arg(numberFormatName(r.computePrecision))
                     .arg(c.gpu.bandwidthTbs));
    row("bound", boundName(r.step.bound));
    row("attention alone",
        QStringLiteral("%1 FLOP/byte over the KV cache").arg(r.step.attentionIntensity(), 0, 'f', 1));
    row("step time", QStringLiteral("%1 (compute %2, memory %3%4)")
                         .arg(formatSeconds(r.step.seconds), formatSeconds(r.step.computeSeconds),
                              formatSeconds(r.step.memorySeconds),
                              r.gpus > 1 ? QStringLiteral(", all-reduce %1 = %2 %")
                                               .arg(formatSeconds(r.step.commSeconds))
                                               .arg(r.commFraction * 100.0, 0, 'f', 0)
                                         : QString()));
    row("tokens/s", QStringLiteral("%1 aggregate, %2 per sequence")
                        .arg(r.tokensPerSecond, 0, 'f', 1)
                        .arg(r.tokensPerSecondPerSequence, 0, 'f', 1));
    row("knee (compute-bound)",
        r.kneeBatch ? QStringLiteral("batch %1%2")
                          .arg(formatGrouped(*r.kneeBatch),
                               *r.kneeBatch > r.maxBatch ? QStringLiteral(" (beyond what fits)") : QString())
                    : QStringLiteral("never at this context: KV reads grow as fast as the FLOPs"));
    if (r.ttftSeconds) {
        out << "\nPrompt " << formatGrouped(c.prompt) << " tokens, output " << formatGrouped(c.output)
            << " tokens (static batch)\n";
        row("time to first token",
            formatSeconds(*r.ttftSeconds) + QStringLiteral(" (%1-bound prefill)").arg(boundName(r.prefill->bound)));
        if (r.e2eLatencySeconds) {
            row("end-to-end latency", formatSeconds(*r.e2eLatencySeconds));
            row("throughput", QStringLiteral("%1 tokens/s").arg(*r.throughputTokensPerSecond, 0, 'f', 1));
        }
    }
    for (const QString& note : r.notes)
        out << "  note: " << note << '\n';
}

}  // namespace

int runModel(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The analytical LLM inference model: memory, decode step, prefill and tensor parallelism on a GPU.\n"
        "Defaults: batch 1, context 8192, bf16 weights and KV, bandwidth efficiency 0.75 and compute efficiency 0.6 "
        "(--ideal: both 1)."));
    parser.addHelpOption();
    auto option = [&](const char* name, const char* help, const char* valueName = nullptr) {
        parser.addOption(valueName
                             ? QCommandLineOption(QLatin1String(name), QLatin1String(help), QLatin1String(valueName))
                             : QCommandLineOption(QLatin1String(name), QLatin1String(help)));
    };
    option("model", "model id from `ridgeline catalog models`, or custom (with --layers ...)", "ID");
    option("params", "a rough model of this many parameters, e.g. 7e9", "N");
    option("gpu", "GPU id from `ridgeline catalog gpus`, or custom", "ID");
    option("peak-tflops", "custom GPU: dense peak TFLOP/s", "T");
    option("bandwidth-tbs", "custom GPU: memory bandwidth, TB/s", "B");
    option("memory-gib", "custom GPU: memory, GiB", "G");
    option("batch", "sequences decoded together (1-65536)", "B");
    option("context", "tokens each sequence attends to (1-10M)", "S");
    option("prompt", "prompt tokens per sequence: adds prefill and time to first token", "P");
    option("output", "tokens generated after the prompt: adds end-to-end latency and throughput", "O");
    option("weights", "weight precision: fp32, bf16, fp16, fp8, int8, int4", "P");
    option("kv", "KV cache precision", "P");
    option("tp", "tensor-parallel degree", "T");
    option("link",
           "link between the GPUs: nvlink3/4/5, pcie4/5, infiniband-hdr/ndr, ethernet-100g/400g, infinity-fabric", "L");
    option("ideal", "datasheet peaks: bandwidth and compute efficiency 1");
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
    if (parser.isSet(QStringLiteral("params"))) {
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
        request.modelId = kCustomId;
        request.customShape = m;
    } else if (!modelId.isEmpty()) {
        request.modelId = modelId;
    } else {
        return fail(io,
                    QStringLiteral("give --model ID (see `ridgeline catalog models`), --model custom or --params N"));
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
    for (const char* name : {"weights", "kv"}) {
        if (!parser.isSet(QLatin1String(name)))
            continue;
        const std::optional<NumberFormat> precision = parseNumberFormat(parser.value(QLatin1String(name)));
        if (!precision)
            return fail(io, QStringLiteral("--%1 must be one of fp32, bf16, fp16, fp8, int8, int4; got \"%2\"")
                                .arg(QLatin1String(name), parser.value(QLatin1String(name))));
        (QLatin1String(name) == QLatin1String("weights") ? request.weights : request.kv) = *precision;
    }
    request.linkId = parser.value(QStringLiteral("link"));  // empty: the card's own
    if (parser.isSet(QStringLiteral("ideal"))) {
        if (parser.isSet(QStringLiteral("bandwidth-efficiency")) || parser.isSet(QStringLiteral("compute-efficiency")))
            return fail(io,
                        QStringLiteral("--ideal sets both efficiencies to 1; do not combine it with --*-efficiency"));
        request.efficiency = Efficiency::ideal();
    }
    if (parser.isSet(QStringLiteral("bandwidth-efficiency"))) {
        const std::optional<double> e = numberOption(parser, QStringLiteral("bandwidth-efficiency"), error);
        if (!e)
            return fail(io, error);
        request.efficiency.bandwidth = *e;
    }
    if (parser.isSet(QStringLiteral("compute-efficiency"))) {
        const std::optional<double> e = numberOption(parser, QStringLiteral("compute-efficiency"), error);
        if (!e)
            return fail(io, error);
        request.efficiency.compute = *e;
    }

    const Result<InferenceConfig> resolved = resolveInference(request);
    if (!resolved)
        return fail(io, resolved.error().message);
    const InferenceConfig& config = resolved.value();
    Result<InferenceReport> report = evaluateInference(config);
    if (!report)
        return fail(io, report.error().message);
    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(reportJson(config, report.value())).toJson(QJsonDocument::Indented);
    else
        printTable(io.out, config, report.value());
    return 0;
}

}  // namespace ridgeline::cli
