// `ridgeline calibrate FILE...`: imports the user's own benchmark results (vLLM, SGLang, GuideLLM, llama-bench),
// fits the model's engine terms to them (core/model/calibration.h) and prints the fit with each point's
// measured and predicted values.
#include "app/cli/commands.h"

#include "core/bench/bench_importer.h"
#include "core/bench/calibration_curves.h"
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

// "N" for every file or "N,N,..." with one value per file, in the order given; nothing when the option is not set.
std::vector<std::optional<std::int64_t>> perFileOption(const QCommandLineParser& parser, const QString& name,
                                                       std::int64_t max, std::size_t files, QString& error)
{
    std::vector<std::optional<std::int64_t>> values(files);
    if (!parser.isSet(name))
        return values;
    const QStringList texts = parser.value(name).split(u',');
    if (texts.size() != 1 && static_cast<std::size_t>(texts.size()) != files) {
        error = QStringLiteral("--%1 gives %2 values for %3 files: give one for every file, or one per file in order")
                    .arg(name)
                    .arg(texts.size())
                    .arg(files);
        return values;
    }
    for (std::size_t i = 0; i < files; ++i) {
        const QString text = texts[texts.size() == 1 ? 0 : static_cast<qsizetype>(i)].trimmed();
        bool ok = false;
        const qlonglong value = text.toLongLong(&ok);
        if (!ok || value < 1 || value > max) {
            error = QStringLiteral(
                        "--%1 must be a whole number from 1 to %2 (or one per file, comma-separated), got "
                        "\"%3\"")
                        .arg(name)
                        .arg(max)
                        .arg(text);
            return values;
        }
        values[i] = value;
    }
    return values;
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

// "Llama 3.1 70B on AMD Instinct MI300X x8, fp8 weights, fp8 KV cache"
QString setupName(const InferenceConfig& c)
{
    QString setup = c.model.name + u" on "_s + c.gpu.name;
    if (c.tensorParallel > 1)
        setup += u" x"_s + QString::number(c.tensorParallel);
    return setup + u", "_s + numberFormatName(c.weights) + u" weights, "_s + numberFormatName(c.kv) + u" KV cache"_s;
}

// Each series of two or more measured batches as the model's curve along the batch, before and after the fit,
// with the measured figures where there are some: what the batching tab draws, as a table.
void printCurves(QTextStream& out, const Calibration& record)
{
    for (const CalibrationSeries& series : calibrationSeries(record)) {
        if (series.batches.size() < 2)
            continue;
        const auto samples = seriesCurve(record, series, curveBatches(series));
        const auto config = configOf(series.setup, EngineTerms::measured());
        if (!samples || !config)
            continue;  // the points were evaluated moments ago: this does not happen
        const CalibrationPoint& s = series.setup;
        out << "\nModel curve: " << quantityName(series.quantity) << " (" << oneLine(series.statistic) << ") vs batch, "
            << setupName(config.value()) << ", prompt " << s.prompt << ", output " << s.output << '\n';
        out << "  from "
            << oneLine(series.files.size() <= 3 ? series.files.join(u", "_s)
                                                : series.files.first() + u" ... "_s + series.files.last() + u" ("_s +
                                                      QString::number(series.files.size()) + u" files)"_s)
            << '\n';
        out << "  " << QStringLiteral("batch").rightJustified(7) << QStringLiteral("measured").rightJustified(13)
            << QStringLiteral("before").rightJustified(13) << QStringLiteral("after").rightJustified(13)
            << QStringLiteral("residual").rightJustified(10) << '\n';
        for (const CurveSample& sample : samples.value()) {
            out << "  " << QString::number(sample.batch).rightJustified(7)
                << (sample.measured ? formatValue(series.quantity, *sample.measured) : u"-"_s).rightJustified(13);
            if (sample.after) {
                out << formatValue(series.quantity, *sample.before).rightJustified(13)
                    << formatValue(series.quantity, *sample.after).rightJustified(13)
                    << (sample.measured ? percent(*sample.after / *sample.measured - 1) : QString()).rightJustified(10);
                if (!sample.fitsInMemory)
                    out << "  (does not fit in memory)";
            } else {
                out << "  not predicted: " << oneLine(sample.refused);
            }
            out << '\n';
        }
    }
}

void printText(QTextStream& out, const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
               const EngineTerms& start, const CalibrationFit& fit, const std::vector<PointResidual>& before,
               const Calibration& record)
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
        const QString setup = setupName(p.config);
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

    // One table for all points; with several files, each run is named with its file. The run column is as wide as
    // its longest name.
    const bool severalFiles = imports.size() > 1;
    std::vector<std::size_t> runsOf;  // per point: how many runs its file has
    for (const PointOrigin& origin : prepared.origins) {
        const auto file = std::find_if(imports.begin(), imports.end(),
                                       [&](const BenchImport& i) { return i.fileName == origin.file; });
        runsOf.push_back(file == imports.end() ? 0 : file->points.size());
    }
    // "2 concurrency 4" for one file; "sweep.json:2 concurrency 4" or "batch_4.json: one batch" for several.
    const auto runName = [&](std::size_t i) {
        const PointOrigin& origin = prepared.origins[i];
        if (!severalFiles)
            return oneLine(QString::number(origin.record) + u' ' + origin.label);
        return oneLine(origin.file + (runsOf[i] == 1 ? u": "_s : u':' + QString::number(origin.record) + u' ') +
                       origin.label);
    };
    qsizetype runWidth = 4;
    for (std::size_t i = 0; i < prepared.origins.size(); ++i)
        runWidth = std::max(runWidth, runName(i).size() + 2);
    out << "\nPredicted vs measured"
        << (severalFiles ? QString() : u": "_s + oneLine(imports.empty() ? QString() : imports.front().fileName))
        << '\n';
    out << "  " << QStringLiteral("run").leftJustified(runWidth) << QStringLiteral("figure").leftJustified(23)
        << QStringLiteral("statistic").leftJustified(16) << QStringLiteral("measured").rightJustified(13)
        << QStringLiteral("before").rightJustified(13) << QStringLiteral("after").rightJustified(13)
        << QStringLiteral("residual").rightJustified(10) << '\n';
    for (std::size_t i = 0; i < fit.residuals.size(); ++i) {
        const PointResidual& r = fit.residuals[i];
        const PointOrigin& origin = prepared.origins[i];
        out << "  " << runName(i).leftJustified(runWidth) << quantityName(origin.quantity).leftJustified(23)
            << origin.statistic.leftJustified(16) << formatValue(origin.quantity, r.measured).rightJustified(13)
            << formatValue(origin.quantity, before[i].predicted).rightJustified(13)
            << formatValue(origin.quantity, r.predicted).rightJustified(13)
            << percent(r.relativeError()).rightJustified(10) << '\n';
    }
    printCurves(out, record);
    QStringList notes = prepared.notes;
    notes << fit.notes;
    // A run's notes, each said once with the runs it concerns: "sweep.json (runs 1, 3): ...", or with the files
    // when it concerns runs of several: "batch_1.json, batch_4.json: ...".
    QStringList texts;
    std::vector<QStringList> where;  // per text: "FILE (run N)" or "FILE (runs N, M)"
    for (const BenchImport& file : imports) {
        QStringList fileTexts;
        std::vector<QStringList> runs;
        for (const BenchPoint& point : file.points) {
            for (const QString& note : point.notes) {
                const qsizetype at = fileTexts.indexOf(note);
                if (at >= 0) {
                    runs[static_cast<std::size_t>(at)] << QString::number(point.record);
                } else {
                    fileTexts << note;
                    runs.push_back({QString::number(point.record)});
                }
            }
        }
        for (qsizetype i = 0; i < fileTexts.size(); ++i) {
            const QStringList& which = runs[static_cast<std::size_t>(i)];
            const QString place =
                oneLine(file.fileName) + (file.points.size() == 1 ? QString()
                                          : which.size() == 1     ? u" (run "_s + which.front() + u')'
                                                                  : u" (runs "_s + which.join(u", "_s) + u')');
            const qsizetype at = texts.indexOf(fileTexts[i]);
            if (at >= 0) {
                where[static_cast<std::size_t>(at)] << place;
            } else {
                texts << fileTexts[i];
                where.push_back({place});
            }
        }
    }
    for (qsizetype i = 0; i < texts.size(); ++i)
        notes << where[static_cast<std::size_t>(i)].join(u", "_s) + u": "_s + texts[i];
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

QJsonArray curvesJson(const Calibration& record)
{
    QJsonArray curves;
    for (const CalibrationSeries& series : calibrationSeries(record)) {
        const auto samples = seriesCurve(record, series, curveBatches(series));
        if (!samples)
            continue;
        QJsonArray rows;
        for (const CurveSample& sample : samples.value()) {
            QJsonObject row{{QStringLiteral("batch"), static_cast<qint64>(sample.batch)},
                            {QStringLiteral("fits_in_memory"), sample.fitsInMemory}};
            if (sample.measured)
                row.insert(QStringLiteral("measured"), *sample.measured);
            if (sample.after) {
                row.insert(QStringLiteral("predicted_before"), *sample.before);
                row.insert(QStringLiteral("predicted"), *sample.after);
            } else {
                row.insert(QStringLiteral("not_predicted"), sample.refused);
            }
            rows.append(row);
        }
        const CalibrationPoint& s = series.setup;
        curves.append(QJsonObject{{QStringLiteral("quantity"), quantityName(series.quantity)},
                                  {QStringLiteral("statistic"), series.statistic},
                                  {QStringLiteral("files"), QJsonArray::fromStringList(series.files)},
                                  {QStringLiteral("model"), s.model},
                                  {QStringLiteral("gpu"), s.gpu},
                                  {QStringLiteral("tensor_parallel"), s.tensorParallel},
                                  {QStringLiteral("weights_precision"), s.weights},
                                  {QStringLiteral("kv_precision"), s.kv},
                                  {QStringLiteral("prompt"), static_cast<qint64>(s.prompt)},
                                  {QStringLiteral("output"), static_cast<qint64>(s.output)},
                                  {QStringLiteral("samples"), rows}});
    }
    return curves;
}

QJsonObject fitJson(const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                    const EngineTerms& start, const CalibrationFit& fit, const std::vector<PointResidual>& before,
                    const Calibration& record)
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
            {QStringLiteral("curves"), curvesJson(record)},
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
    const auto fileCount = static_cast<std::size_t>(files.size());
    const auto batches = perFileOption(parser, QStringLiteral("batch"), kMaxBatch, fileCount, error);
    const auto inputs = perFileOption(parser, QStringLiteral("input-len"), 10'000'000, fileCount, error);
    const auto outputs = perFileOption(parser, QStringLiteral("output-len"), 10'000'000, fileCount, error);
    if (!error.isEmpty())
        return fail(io, kBadArguments, error);
    std::vector<RunFacts> perFile(fileCount, facts);
    for (std::size_t i = 0; i < fileCount; ++i) {
        perFile[i].batch = batches[i];
        perFile[i].inputTokens = inputs[i];
        perFile[i].outputTokens = outputs[i];
    }

    std::vector<BenchImport> imports;
    for (const QString& file : files) {
        auto imported = importBenchFile(file, *format);
        if (!imported)
            return fail(io, kFailed, imported.error().message);
        imports.push_back(std::move(imported).value());
    }
    const auto prepared = calibrationPointsPerFile(imports, perFile);
    if (!prepared)
        return fail(io, prepared.error().code == Error::Code::InvalidArgument ? kBadArguments : kFailed,
                    prepared.error().message);

    FitOptions options;
    options.priorWeight = kUserFitPriorWeight;
    if (parser.isSet(QStringLiteral("fit"))) {
        for (const QString& name : parser.value(QStringLiteral("fit")).split(u',', Qt::SkipEmptyParts)) {
            const auto term = parseTermName(name.trimmed());
            if (!term)
                return fail(io, kBadArguments,
                            QStringLiteral("--fit: \"%1\" is no engine term (layer_seconds, step_seconds, "
                                           "collective_seconds, sequence_seconds, prefill_seconds, expert_share, "
                                           "overlap, weight_bandwidth.FORMAT, kv_bandwidth.FORMAT, compute.FORMAT)")
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

    // What --out keeps is also what the curves are drawn from, so the table shows what a loaded session redraws.
    const Calibration record = calibrationRecord(imports, prepared.value(), start, fit.value(), before.value(),
                                                 QStringLiteral("ridgeline " RIDGELINE_VERSION " calibrate"));
    if (parser.isSet(QStringLiteral("out"))) {
        const QString out = parser.value(QStringLiteral("out"));
        if (const auto saved = saveSession(sessionWithCalibration(base, record), out))
            return fail(io, kFailed, saved->message);
    }
    if (parser.isSet(QStringLiteral("json")))
        io.out << QJsonDocument(fitJson(imports, prepared.value(), start, fit.value(), before.value(), record))
                      .toJson(QJsonDocument::Indented);
    else
        printText(io.out, imports, prepared.value(), start, fit.value(), before.value(), record);
    if (parser.isSet(QStringLiteral("out")) && !parser.isSet(QStringLiteral("json")))
        io.out << "\nWrote " << parser.value(QStringLiteral("out")) << " (the fit, its terms and "
               << fit.value().residuals.size() << " residuals"
               << (base ? QStringLiteral(", added to a copy of ") + parser.value(QStringLiteral("into")) : QString())
               << ")\n";
    return 0;
}

}  // namespace ridgeline::cli
