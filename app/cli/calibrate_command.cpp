// `ridgeline calibrate FILE...`: imports the user's own benchmark results (vLLM, SGLang, GuideLLM, llama-bench),
// fits the model's engine terms to them (core/model/calibration.h) and prints the fit with each point's
// measured and predicted values.
#include "app/cli/commands.h"

#include "core/bench/bench_importer.h"
#include "core/bench/calibration_points.h"
#include "core/bench/calibration_record_builder.h"
#include "core/message_text.h"
#include "core/model/calibration.h"
#include "core/model/engine_terms.h"
#include "core/model/units.h"
#include "core/session/session_json.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace ridgeline::cli {

using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kBadArguments = 2;
constexpr int kFailed = 1;
constexpr double kPriorWeight = 0.05;  // keeps terms a handful of points hardly see near their measured defaults

int fail(Streams io, int code, const QString& message)
{
    io.err << "ridgeline calibrate: " << oneLine(message) << '\n';
    if (code == kBadArguments)
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

QString formatValue(MeasuredQuantity quantity, double value)
{
    if (isRate(quantity))
        return formatSignificant(value, 4) + QStringLiteral(" tok/s");
    return formatSeconds(value);
}

QString formatTerm(EngineTerm term, double value)
{
    return term.isShare() ? QString::number(value, 'f', 3) : formatSeconds(value);
}

QString percent(double relative)
{
    return (relative >= 0 ? QStringLiteral("+") : QString()) + QString::number(relative * 100.0, 'f', 1) +
           QStringLiteral(" %");
}

QString summaryLine(const ErrorSummary& s)
{
    return QStringLiteral("median %1 %, worst %2 %")
        .arg(s.medianAbs * 100.0, 0, 'f', 1)
        .arg(s.worstAbs * 100.0, 0, 'f', 1);
}

QJsonObject summaryJson(const ErrorSummary& s)
{
    return {{QStringLiteral("points"), s.points},          {QStringLiteral("median_abs_error"), s.medianAbs},
            {QStringLiteral("mean_abs_error"), s.meanAbs}, {QStringLiteral("worst_abs_error"), s.worstAbs},
            {QStringLiteral("rms_log_error"), s.rmsLog},   {QStringLiteral("worst_point"), s.worstId}};
}

void printText(QTextStream& out, const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
               const EngineTerms& start, const CalibrationFit& fit, const std::vector<PointResidual>& before)
{
    out << "Benchmark results\n";
    for (const BenchImport& file : imports) {
        out << "  " << oneLine(file.fileName) << ": " << describeBenchFormat(file.format) << ", " << file.points.size()
            << (file.points.size() == 1 ? " run" : " runs");
        if (!file.skipped.empty())
            out << " (" << file.skipped.size() << " skipped)";
        out << '\n';
        for (const QString& version : file.versions)
            out << "    " << version << '\n';
        for (const BenchSkip& skip : file.skipped)
            out << "    skipped " << skip.what << ": " << skip.reason << '\n';
    }
    // The setups the points ran, each once: "Llama 3.1 8B on NVIDIA H100 SXM5 80GB, bf16 weights, bf16 KV (6 figures)".
    QStringList setups;
    std::vector<int> counts;
    for (const MeasuredPoint& p : prepared.points) {
        QString setup = p.config.model.name + u" on "_s + p.config.gpu.name;
        if (p.config.tensorParallel > 1)
            setup += u" x"_s + QString::number(p.config.tensorParallel);
        setup += u", "_s + numberFormatName(p.config.weights) + u" weights, "_s + numberFormatName(p.config.kv) +
                 u" KV cache"_s;
        const qsizetype at = setups.indexOf(setup);
        if (at >= 0) {
            ++counts[static_cast<std::size_t>(at)];
        } else {
            setups << setup;
            counts.push_back(1);
        }
    }
    out << '\n';
    for (qsizetype i = 0; i < setups.size(); ++i)
        out << "Model " << setups[i] << " (" << counts[static_cast<std::size_t>(i)]
            << (counts[static_cast<std::size_t>(i)] == 1 ? " figure)\n" : " figures)\n");
    out << "\nFit: least squares on the log error, " << prepared.points.size() << " measured figures, "
        << fit.free.size() << " free terms, " << fit.iterations << " iterations"
        << (fit.converged ? "" : " (not converged)") << '\n';
    out << "  " << QStringLiteral("term").leftJustified(26) << QStringLiteral("start").rightJustified(11)
        << QStringLiteral("fitted").rightJustified(11) << '\n';
    for (EngineTerm term : fit.free) {
        out << "  " << termName(term).leftJustified(26) << formatTerm(term, termValue(start, term)).rightJustified(11)
            << formatTerm(term, termValue(fit.terms, term)).rightJustified(11) << '\n';
    }
    out << "  error: " << summaryLine(fit.before) << " before, " << summaryLine(fit.after) << " after";
    if (!fit.after.worstId.isEmpty())
        out << " (worst: " << oneLine(fit.after.worstId) << ')';
    out << '\n';

    // One table per file; the run column is as wide as its longest label.
    qsizetype runWidth = 4;
    for (const PointOrigin& origin : prepared.origins)
        runWidth = std::max(runWidth, oneLine(QString::number(origin.record) + u' ' + origin.label).size() + 2);
    QString shownFile;
    for (std::size_t i = 0; i < fit.residuals.size(); ++i) {
        const PointResidual& r = fit.residuals[i];
        const PointOrigin& origin = prepared.origins[i];
        if (i == 0 || origin.file != shownFile) {
            shownFile = origin.file;
            out << "\nPredicted vs measured: " << oneLine(shownFile) << '\n';
            out << "  " << QStringLiteral("run").leftJustified(runWidth) << QStringLiteral("figure").leftJustified(23)
                << QStringLiteral("statistic").leftJustified(16) << QStringLiteral("measured").rightJustified(13)
                << QStringLiteral("before").rightJustified(13) << QStringLiteral("after").rightJustified(13)
                << QStringLiteral("residual").rightJustified(10) << '\n';
        }
        out << "  " << oneLine(QString::number(origin.record) + u' ' + origin.label).leftJustified(runWidth)
            << quantityName(origin.quantity).leftJustified(23) << origin.statistic.leftJustified(16)
            << formatValue(origin.quantity, r.measured).rightJustified(13)
            << formatValue(origin.quantity, before[i].predicted).rightJustified(13)
            << formatValue(origin.quantity, r.predicted).rightJustified(13)
            << percent(r.relativeError()).rightJustified(10) << '\n';
    }
    QStringList notes = prepared.notes;
    notes << fit.notes;
    // A run's notes, each said once per file with the runs it concerns: "sweep.json (runs 1, 3): ...".
    for (const BenchImport& file : imports) {
        QStringList texts;
        std::vector<QStringList> runs;
        for (const BenchPoint& point : file.points) {
            for (const QString& note : point.notes) {
                const qsizetype at = texts.indexOf(note);
                if (at >= 0) {
                    runs[static_cast<std::size_t>(at)] << QString::number(point.record);
                } else {
                    texts << note;
                    runs.push_back({QString::number(point.record)});
                }
            }
        }
        for (qsizetype i = 0; i < texts.size(); ++i) {
            const QStringList& which = runs[static_cast<std::size_t>(i)];
            notes << oneLine(file.fileName) + (which.size() == 1 ? u" (run "_s : u" (runs "_s) + which.join(u", "_s) +
                         u"): "_s + texts[i];
        }
    }
    if (!prepared.unused.empty()) {
        out << "\nNot fitted\n";
        for (const BenchSkip& skip : prepared.unused)
            out << "  " << oneLine(skip.what) << ": " << skip.reason << '\n';
    }
    if (!notes.isEmpty()) {
        out << "\nNotes\n";
        for (const QString& note : notes)
            out << "  " << oneLine(note) << '\n';
    }
}

QJsonObject fitJson(const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                    const EngineTerms& start, const CalibrationFit& fit, const std::vector<PointResidual>& before)
{
    QJsonArray files;
    for (const BenchImport& file : imports) {
        QJsonArray skipped;
        for (const BenchSkip& skip : file.skipped)
            skipped.append(QJsonObject{{QStringLiteral("run"), skip.record},
                                       {QStringLiteral("what"), skip.what},
                                       {QStringLiteral("reason"), skip.reason}});
        files.append(QJsonObject{{QStringLiteral("file"), file.fileName},
                                 {QStringLiteral("format"), benchFormatName(file.format)},
                                 {QStringLiteral("engine"), file.engine},
                                 {QStringLiteral("versions"), QJsonArray::fromStringList(file.versions)},
                                 {QStringLiteral("runs"), static_cast<int>(file.points.size())},
                                 {QStringLiteral("skipped"), skipped}});
    }
    QJsonObject terms;
    for (EngineTerm term : fit.free)
        terms[termName(term)] = QJsonObject{{QStringLiteral("start"), termValue(start, term)},
                                            {QStringLiteral("fitted"), termValue(fit.terms, term)}};
    QJsonArray points;
    for (std::size_t i = 0; i < fit.residuals.size(); ++i) {
        const PointResidual& r = fit.residuals[i];
        const PointOrigin& origin = prepared.origins[i];
        const MeasuredPoint& p = prepared.points[i];
        points.append(QJsonObject{
            {QStringLiteral("id"), r.id},
            {QStringLiteral("file"), origin.file},
            {QStringLiteral("run"), origin.record},
            {QStringLiteral("label"), origin.label},
            {QStringLiteral("quantity"), quantityName(origin.quantity)},
            {QStringLiteral("statistic"), origin.statistic},
            {QStringLiteral("model"), p.config.model.id},
            {QStringLiteral("gpu"), p.config.gpu.id},
            {QStringLiteral("tensor_parallel"), p.config.tensorParallel},
            {QStringLiteral("weights_precision"), numberFormatName(p.config.weights)},
            {QStringLiteral("kv_precision"), numberFormatName(p.config.kv)},
            {QStringLiteral("batch"), static_cast<qint64>(p.config.batch)},
            {QStringLiteral("prompt"), static_cast<qint64>(p.config.prompt)},
            {QStringLiteral("output"), static_cast<qint64>(p.config.output)},
            {QStringLiteral("measured"), r.measured},
            {QStringLiteral("predicted_before"), before[i].predicted},
            {QStringLiteral("predicted"), r.predicted},
            {QStringLiteral("log_error"), r.logError},
            {QStringLiteral("relative_error"), r.relativeError()},
        });
    }
    QJsonArray unused;
    for (const BenchSkip& skip : prepared.unused)
        unused.append(QJsonObject{{QStringLiteral("what"), skip.what}, {QStringLiteral("reason"), skip.reason}});
    QStringList notes = prepared.notes;
    notes << fit.notes;
    return {{QStringLiteral("files"), files},
            {QStringLiteral("terms"), terms},
            {QStringLiteral("iterations"), fit.iterations},
            {QStringLiteral("converged"), fit.converged},
            {QStringLiteral("before"), summaryJson(fit.before)},
            {QStringLiteral("after"), summaryJson(fit.after)},
            {QStringLiteral("points"), points},
            {QStringLiteral("not_fitted"), unused},
            {QStringLiteral("notes"), QJsonArray::fromStringList(notes)}};
}

}  // namespace

int runCalibrate(const QStringList& arguments, Streams io)
{
    QCommandLineParser parser;
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
    option("batch", "the batch size of a static-batch run (vLLM benchmark_latency.py records none)", "N");
    option("input-len", "prompt tokens per sequence of a static-batch run", "N");
    option("output-len", "generated tokens per sequence of a static-batch run", "N");
    option("fit",
           "comma-separated terms to fit (see `ridgeline model --help`); default: every term the runs tell apart",
           "TERMS");
    option("out", "write a session holding the fit, its terms and every point's residual (see --into)", "NEW.json");
    option("into", "with --out: start from a copy of this session and add the fit to it (it is not modified)",
           "SESSION.json");
    parser.addOption(QCommandLineOption(QStringLiteral("json"), QStringLiteral("print the fit as JSON")));
    if (!parser.parse(arguments))
        return fail(io, kBadArguments, parser.errorText());
    if (parser.isSet(QStringLiteral("help"))) {
        io.out << parser.helpText();
        return 0;
    }
    const QStringList files = parser.positionalArguments().mid(1);
    if (files.isEmpty())
        return fail(io, kBadArguments, QStringLiteral("give at least one benchmark result file"));
    const auto format =
        benchFormatFromName(parser.value(QStringLiteral("format")).isEmpty() ? QStringLiteral("auto")
                                                                             : parser.value(QStringLiteral("format")));
    if (!format)
        return fail(io, kBadArguments,
                    QStringLiteral("--format: \"%1\" is none of auto, vllm-serve, vllm-latency, sglang, guidellm, "
                                   "llama-bench-json, llama-bench-csv")
                        .arg(parser.value(QStringLiteral("format"))));

    if (parser.isSet(QStringLiteral("into")) && !parser.isSet(QStringLiteral("out")))
        return fail(io, kBadArguments, QStringLiteral("--into needs --out: the session given is never modified"));
    std::optional<Session> base;
    if (parser.isSet(QStringLiteral("into"))) {
        auto loaded = loadSession(parser.value(QStringLiteral("into")));
        if (!loaded)
            return fail(io, kFailed, loaded.error().message);
        base = std::move(loaded).value();
    }

    QString error;
    RunFacts facts;
    facts.modelId = parser.value(QStringLiteral("model"));
    facts.gpuId = parser.value(QStringLiteral("gpu"));
    if (const auto tp = wholeOption(parser, QStringLiteral("tp"), 4096, error))
        facts.tensorParallel = static_cast<int>(*tp);
    facts.weights = formatOption(parser, QStringLiteral("weights"), error);
    facts.kv = formatOption(parser, QStringLiteral("kv"), error);
    facts.batch = wholeOption(parser, QStringLiteral("batch"), 65536, error);
    facts.inputTokens = wholeOption(parser, QStringLiteral("input-len"), 10'000'000, error);
    facts.outputTokens = wholeOption(parser, QStringLiteral("output-len"), 10'000'000, error);
    if (!error.isEmpty())
        return fail(io, kBadArguments, error);

    std::vector<BenchImport> imports;
    for (const QString& file : files) {
        auto imported = importBenchFile(file, *format);
        if (!imported)
            return fail(io, kFailed, imported.error().message);
        imports.push_back(std::move(imported).value());
    }
    const auto prepared = calibrationPoints(imports, facts);
    if (!prepared)
        return fail(io, prepared.error().code == Error::Code::InvalidArgument ? kBadArguments : kFailed,
                    prepared.error().message);

    FitOptions options;
    options.priorWeight = kPriorWeight;
    if (parser.isSet(QStringLiteral("fit"))) {
        for (const QString& name : parser.value(QStringLiteral("fit")).split(u',', Qt::SkipEmptyParts)) {
            const auto term = parseTermName(name.trimmed());
            if (!term)
                return fail(io, kBadArguments,
                            QStringLiteral("--fit: \"%1\" is no engine term (layer_seconds, step_seconds, "
                                           "collective_seconds, weight_bandwidth.FORMAT, kv_bandwidth.FORMAT, "
                                           "compute.FORMAT)")
                                .arg(name.trimmed()));
            options.free.push_back(*term);
        }
    }
    const EngineTerms start = EngineTerms::measured();
    const auto before = evaluatePoints(prepared.value().points, start);
    if (!before)
        return fail(io, kFailed, before.error().message);
    const auto fit = fitEngineTerms(prepared.value().points, start, options);
    if (!fit)
        return fail(io, kFailed, fit.error().message);

    if (parser.isSet(QStringLiteral("out"))) {
        const QString out = parser.value(QStringLiteral("out"));
        const Session session = sessionWithCalibration(
            base, calibrationRecord(imports, prepared.value(), start, fit.value(), before.value(),
                                    QStringLiteral("ridgeline " RIDGELINE_VERSION " calibrate")));
        if (const auto saved = saveSession(session, out))
            return fail(io, kFailed, saved->message);
    }
    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(fitJson(imports, prepared.value(), start, fit.value(), before.value()))
                      .toJson(QJsonDocument::Indented);
    else
        printText(io.out, imports, prepared.value(), start, fit.value(), before.value());
    if (parser.isSet(QStringLiteral("out")) && !parser.isSet(QStringLiteral("json")))
        io.out << "\nWrote " << parser.value(QStringLiteral("out")) << " (the fit, its terms and "
               << fit.value().residuals.size() << " residuals"
               << (base ? QStringLiteral(", added to a copy of ") + parser.value(QStringLiteral("into")) : QString())
               << ")\n";
    return 0;
}

}  // namespace ridgeline::cli
