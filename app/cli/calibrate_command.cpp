// `ridgeline calibrate FILE...`: imports the user's own benchmark results (vLLM, SGLang, GuideLLM, llama-bench),
// fits the model's engine terms to them (core/model/llm/calibration.h) and prints the fit with each point's
// measured and predicted values.
#include "app/cli/commands.h"

#include "app/cli/calibrate_output.h"
#include "app/cli/command_line.h"
#include "core/bench/bench_importer.h"
#include "core/bench/calibration/calibration_engine.h"
#include "core/bench/calibration/calibration_points.h"
#include "core/bench/calibration/calibration_record_builder.h"
#include "core/bench/calibration/calibration_run.h"
#include "core/message_text.h"
#include "core/model/llm/calibration.h"
#include "core/model/llm/engine_catalog.h"
#include "core/model/llm/engine_terms.h"
#include "core/session/format/session_json.h"

#include <QCommandLineParser>
#include <QJsonDocument>

#include <optional>
#include <vector>

namespace ridgeline::cli {

namespace {

int fail(Streams io, int code, const QString& message)
{
    io.err << "ridgeline calibrate: " << oneLine(message) << '\n';
    if (code == kExitBadInput)
        io.err << "(see `ridgeline calibrate --help`)\n";
    return code;
}

std::optional<std::int64_t> wholeOption(const QCommandLineParser& parser, const QString& name, std::int64_t max,
                                        QString& error)
{
    if (!parser.isSet(name))
        return std::nullopt;
    bool ok = false;
    const QString text = parser.value(name);
    const qlonglong value = text.toLongLong(&ok);
    if (!ok || value < 1 || value > max) {
        error = QStringLiteral("--%1 must be a whole number from 1 to %2, got \"%3\"").arg(name).arg(max).arg(text);
        return std::nullopt;
    }
    return value;
}

// "N" for every file or "N,N,..." with one value per file, in the order given; nothing when the option is not set.
std::vector<std::optional<std::int64_t>> perFileOption(const QCommandLineParser& parser, const QString& name,
                                                       std::int64_t max, std::size_t files, QString& error)
{
    auto values = perFileCounts(parser.value(name), max, files, QStringLiteral("--") + name);
    if (!values) {
        error = values.error().message;
        return std::vector<std::optional<std::int64_t>>(files);
    }
    return std::move(values).value();
}

std::optional<NumberFormat> formatOption(const QCommandLineParser& parser, const QString& name, QString& error)
{
    if (!parser.isSet(name))
        return std::nullopt;
    const auto format = parseNumberFormat(parser.value(name));
    if (!format || !isStorageFormat(*format)) {
        error = QStringLiteral("--%1: \"%2\" is not a storage format (bf16, fp16, fp8, int8, int4, fp4, mxfp4, fp32)")
                    .arg(name, parser.value(name));
        return std::nullopt;
    }
    return format;
}

// Every option of `ridgeline calibrate` with its help text.
void addCalibrateOptions(QCommandLineParser& parser)
{
    parser.setApplicationDescription(QStringLiteral(
        "Fit the LLM model's engine terms (fixed times per layer and step, shares of datasheet bandwidth and peak) "
        "to your own benchmark results: vllm bench serve / benchmark_serving.py and benchmark_latency.py JSON, "
        "SGLang bench_serving JSONL, GuideLLM reports, llama-bench JSON or CSV. Prints the fitted terms and each "
        "run's measured and predicted figures. Facts a file does not record are given with the options below; a "
        "fact a file records is never overridden."));
    parser.addHelpOption();
    parser.addPositionalArgument(QStringLiteral("calibrate"), QStringLiteral("the command"));
    parser.addPositionalArgument(QStringLiteral("files"), QStringLiteral("benchmark result files"),
                                 QStringLiteral("FILE..."));
    const auto option = [&parser](const char* name, const char* help, const char* value) {
        parser.addOption(QCommandLineOption(QLatin1String(name), QLatin1String(help), QLatin1String(value)));
    };
    option("format",
           "auto (default), vllm-serve, vllm-latency, sglang, guidellm, llama-bench-json or llama-bench-csv; applies "
           "to every file",
           "FORMAT");
    option("model", "the catalog model that ran (default: matched from the file's model name)", "ID");
    option("gpu", "the catalog GPU it ran on (default: matched from the file's GPU name)", "ID");
    option("tp", "tensor parallel size, when the file does not record it", "N");
    option("weights", "weight format (bf16, fp16, fp8, int8, int4, fp4, mxfp4), when the file does not record it",
           "FORMAT");
    option("kv", "KV-cache format, when the file does not record it (default bf16)", "FORMAT");
    option("batch",
           "the batch size of a static-batch run (vLLM benchmark_latency.py records none); N for every file or "
           "N,N,... one per file in order (five files run at five batch sizes: --batch 1,4,16,64,128)",
           "N[,N...]");
    option("input-len", "prompt tokens per sequence of a static-batch run (one, or one per file)", "N[,N...]");
    option("output-len", "generated tokens per sequence of a static-batch run (one, or one per file)", "N[,N...]");
    option("fit",
           "comma-separated terms to fit (see `ridgeline model --help`); default: every term the runs tell apart",
           "TERMS");
    option("out", "write a session holding the fit, its terms and every point's residual (see --into)", "NEW.json");
    option("into", "with --out: start from a copy of this session and add the fit to it (it is not modified)",
           "SESSION.json");
    option("save-engine",
           "save the fitted terms as an engine profile of your own under this id, in engines.json beside your "
           "catalog's GPUs and models; then `ridgeline model --engine ID`, `ridgeline catalog engines` and the "
           "window's batching tab offer it",
           "ID");
    parser.addOption(QCommandLineOption(QStringLiteral("json"), QStringLiteral("print the fit as JSON")));
}

// --save-engine ID: the fit as the user's own engine; the path written, or why nothing was.
Result<QString> saveEngine(const Calibration& record, const QString& id)
{
    const Result<EngineProfile> engine = engineFromCalibration(record, id);
    if (!engine)
        return engine.error();
    return saveUserEngine(engine.value());
}

// The facts each file's runs do not record, from the options: one set per file (--batch, --input-len and
// --output-len may give one value per file). `error` names the first option at fault.
std::vector<RunFacts> readRunFacts(const QCommandLineParser& parser, std::size_t fileCount, QString& error)
{
    RunFacts facts;
    facts.modelId = parser.value(QStringLiteral("model"));
    facts.gpuId = parser.value(QStringLiteral("gpu"));
    if (const auto tp = wholeOption(parser, QStringLiteral("tp"), kMaxRunTensorParallel, error))
        facts.tensorParallel = static_cast<int>(*tp);
    facts.weights = formatOption(parser, QStringLiteral("weights"), error);
    facts.kv = formatOption(parser, QStringLiteral("kv"), error);
    const auto batches = perFileOption(parser, QStringLiteral("batch"), kMaxBatch, fileCount, error);
    const auto inputs = perFileOption(parser, QStringLiteral("input-len"), kMaxRunTokens, fileCount, error);
    const auto outputs = perFileOption(parser, QStringLiteral("output-len"), kMaxRunTokens, fileCount, error);
    std::vector<RunFacts> perFile(fileCount, facts);
    for (std::size_t i = 0; i < fileCount; ++i) {
        perFile[i].batch = batches[i];
        perFile[i].inputTokens = inputs[i];
        perFile[i].outputTokens = outputs[i];
    }
    return perFile;
}

// --fit TERMS: the terms to fit (none given: every term the runs tell apart), with the user's prior weight.
std::optional<QString> readFitOptions(const QCommandLineParser& parser, FitOptions& options)
{
    options.priorWeight = kUserFitPriorWeight;
    if (!parser.isSet(QStringLiteral("fit")))
        return std::nullopt;
    for (const QString& name : parser.value(QStringLiteral("fit")).split(u',', Qt::SkipEmptyParts)) {
        const auto term = parseTermName(name.trimmed());
        if (!term)
            return QStringLiteral(
                       "--fit: \"%1\" is no engine term (layer_seconds, step_seconds, "
                       "collective_seconds, sequence_seconds, prefill_seconds, expert_share, "
                       "overlap, weight_bandwidth.FORMAT, kv_bandwidth.FORMAT, compute.FORMAT)")
                .arg(name.trimmed());
        options.free.push_back(*term);
    }
    return std::nullopt;
}

}  // namespace

int runCalibrate(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
    addCalibrateOptions(parser);
    if (const std::optional<int> answered = parseCommandLine(parser, arguments, u"calibrate", io))
        return *answered;
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty())
        return fail(io, kExitBadInput, QStringLiteral("give at least one benchmark result file"));
    const auto format =
        benchFormatFromName(parser.value(QStringLiteral("format")).isEmpty() ? QStringLiteral("auto")
                                                                             : parser.value(QStringLiteral("format")));
    if (!format)
        return fail(io, kExitBadInput,
                    QStringLiteral("--format: \"%1\" is none of auto, vllm-serve, vllm-latency, sglang, guidellm, "
                                   "llama-bench-json, llama-bench-csv")
                        .arg(parser.value(QStringLiteral("format"))));

    if (parser.isSet(QStringLiteral("into")) && !parser.isSet(QStringLiteral("out")))
        return fail(io, kExitBadInput, QStringLiteral("--into needs --out: the session given is never modified"));
    std::optional<Session> base;
    if (parser.isSet(QStringLiteral("into"))) {
        auto loaded = loadSession(parser.value(QStringLiteral("into")));
        if (!loaded)
            return fail(io, kExitFailed, loaded.error().message);
        base = std::move(loaded).value();
    }

    QString error;
    const std::vector<RunFacts> perFile = readRunFacts(parser, static_cast<std::size_t>(files.size()), error);
    if (!error.isEmpty())
        return fail(io, kExitBadInput, error);
    FitOptions options;
    if (const std::optional<QString> refused = readFitOptions(parser, options))
        return fail(io, kExitBadInput, *refused);
    const auto run =
        runCalibration(files, *format, perFile, options, QStringLiteral("ridgeline " RIDGELINE_VERSION " calibrate"));
    if (!run)
        return fail(io, run.error().code == Error::Code::InvalidArgument ? kExitBadInput : kExitFailed,
                    run.error().message);
    // What --out keeps is also what the curves are drawn from, so the table shows what a loaded session redraws.
    const auto& [imports, prepared, start, before, fit, record] = run.value();
    if (parser.isSet(QStringLiteral("out"))) {
        const QString out = parser.value(QStringLiteral("out"));
        if (const auto saved = saveSession(sessionWithCalibration(base, record), out))
            return fail(io, kExitFailed, saved->message);
    }
    const QString engineId = parser.value(QStringLiteral("save-engine"));
    QString engineSaved;
    if (parser.isSet(QStringLiteral("save-engine"))) {
        const Result<QString> path = saveEngine(record, engineId);
        if (!path)
            return fail(io, path.error().code == Error::Code::Io ? kExitFailed : kExitBadInput, path.error().message);
        engineSaved = QStringLiteral("Saved the fit as the engine \"%1\" in %2: `ridgeline model --engine %1`\n")
                          .arg(engineId, path.value());
    }
    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(calibrationJson(imports, prepared, start, fit, before, record))
                      .toJson(QJsonDocument::Indented);
    else
        printCalibrationText(io.out, imports, prepared, start, fit, before, record);
    if (parser.isSet(QStringLiteral("out")) && !parser.isSet(QStringLiteral("json")))
        io.out << "\nWrote " << parser.value(QStringLiteral("out")) << " (the fit, its terms and "
               << fit.residuals.size() << " residuals"
               << (base ? QStringLiteral(", added to a copy of ") + parser.value(QStringLiteral("into")) : QString())
               << ")\n";
    // With --json, stdout holds the JSON alone.
    if (!engineSaved.isEmpty() && parser.isSet(QStringLiteral("json")))
        io.err << engineSaved;
    else if (!engineSaved.isEmpty())
        io.out << '\n' << engineSaved;
    return 0;
}

}  // namespace ridgeline::cli
