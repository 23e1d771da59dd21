#include "app/cli/calibrate_output.h"

#include "core/bench/calibration/calibration_curves.h"
#include "core/bench/calibration/calibration_record_builder.h"
#include "core/message_text.h"
#include "core/model/units.h"

#include <QJsonArray>

#include <algorithm>

namespace ridgeline::cli {

using namespace Qt::Literals::StringLiterals;

namespace {

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

// The files read: format, runs, versions and what each skipped.
void printImports(QTextStream& out, const std::vector<BenchImport>& imports)
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
}

// The setups the points ran, each once: "Llama 3.1 8B on NVIDIA H100 SXM5 80GB, bf16 weights, bf16 KV (6 figures)".
void printSetups(QTextStream& out, const CalibrationPoints& prepared)
{
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
}

// The fit: its size, each free term's start and fitted value, and the error before and after.
void printFitTerms(QTextStream& out, const CalibrationPoints& prepared, const EngineTerms& start,
                   const CalibrationFit& fit)
{
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
}

// Each point's run: "2 concurrency 4" for one file; "sweep.json:2 concurrency 4" or "batch_4.json: one batch" for
// several.
QStringList runNames(const std::vector<BenchImport>& imports, const CalibrationPoints& prepared)
{
    QStringList names;
    for (const PointOrigin& origin : prepared.origins) {
        if (imports.size() <= 1) {
            names << oneLine(QString::number(origin.record) + u' ' + origin.label);
            continue;
        }
        const auto file = std::find_if(imports.begin(), imports.end(),
                                       [&](const BenchImport& i) { return i.fileName == origin.file; });
        const std::size_t runs = file == imports.end() ? 0 : file->points.size();
        names << oneLine(origin.file + (runs == 1 ? u": "_s : u':' + QString::number(origin.record) + u' ') +
                         origin.label);
    }
    return names;
}

// One table for all points; with several files, each run is named with its file. The run column is as wide as its
// longest name.
void printResiduals(QTextStream& out, const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                    const CalibrationFit& fit, const std::vector<PointResidual>& before)
{
    const QStringList names = runNames(imports, prepared);
    qsizetype runWidth = 4;
    for (const QString& name : names)
        runWidth = std::max(runWidth, name.size() + 2);
    out << "\nPredicted vs measured"
        << (imports.size() > 1 ? QString() : u": "_s + oneLine(imports.empty() ? QString() : imports.front().fileName))
        << '\n';
    out << "  " << QStringLiteral("run").leftJustified(runWidth) << QStringLiteral("figure").leftJustified(23)
        << QStringLiteral("statistic").leftJustified(16) << QStringLiteral("measured").rightJustified(13)
        << QStringLiteral("before").rightJustified(13) << QStringLiteral("after").rightJustified(13)
        << QStringLiteral("residual").rightJustified(10) << '\n';
    for (std::size_t i = 0; i < fit.residuals.size(); ++i) {
        const PointResidual& r = fit.residuals[i];
        const PointOrigin& origin = prepared.origins[i];
        out << "  " << names[static_cast<qsizetype>(i)].leftJustified(runWidth)
            << quantityName(origin.quantity).leftJustified(23) << origin.statistic.leftJustified(16)
            << formatValue(origin.quantity, r.measured).rightJustified(13)
            << formatValue(origin.quantity, before[i].predicted).rightJustified(13)
            << formatValue(origin.quantity, r.predicted).rightJustified(13)
            << percent(r.relativeError()).rightJustified(10) << '\n';
    }
}

// One file's run notes, each once with the runs it concerns: "sweep.json (runs 1, 3)" -> text, in order.
std::vector<std::pair<QString, QString>> fileRunNotes(const BenchImport& file)
{
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
    std::vector<std::pair<QString, QString>> placed;
    for (qsizetype i = 0; i < texts.size(); ++i) {
        const QStringList& which = runs[static_cast<std::size_t>(i)];
        const QString place =
            oneLine(file.fileName) + (file.points.size() == 1 ? QString()
                                      : which.size() == 1     ? u" (run "_s + which.front() + u')'
                                                              : u" (runs "_s + which.join(u", "_s) + u')');
        placed.emplace_back(place, texts[i]);
    }
    return placed;
}

// The runs' notes, each said once with the runs it concerns: "sweep.json (runs 1, 3): ...", or with the files when
// it concerns runs of several: "batch_1.json, batch_4.json: ...".
QStringList runNotes(const std::vector<BenchImport>& imports)
{
    QStringList texts;
    std::vector<QStringList> where;  // per text: "FILE (run N)" or "FILE (runs N, M)"
    for (const BenchImport& file : imports) {
        for (const auto& [place, text] : fileRunNotes(file)) {
            const qsizetype at = texts.indexOf(text);
            if (at >= 0) {
                where[static_cast<std::size_t>(at)] << place;
            } else {
                texts << text;
                where.push_back({place});
            }
        }
    }
    QStringList notes;
    for (qsizetype i = 0; i < texts.size(); ++i)
        notes << where[static_cast<std::size_t>(i)].join(u", "_s) + u": "_s + texts[i];
    return notes;
}

// What was read but not fitted, and every note: the points', the fit's and the runs'.
void printUnusedAndNotes(QTextStream& out, const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                         const CalibrationFit& fit)
{
    QStringList notes = prepared.notes;
    notes << fit.notes;
    notes << runNotes(imports);
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

}  // namespace

QJsonObject calibrationJson(const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                            const EngineTerms& start, const CalibrationFit& fit,
                            const std::vector<PointResidual>& before, const Calibration& record)
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

void printCalibrationText(QTextStream& out, const std::vector<BenchImport>& imports, const CalibrationPoints& prepared,
                          const EngineTerms& start, const CalibrationFit& fit, const std::vector<PointResidual>& before,
                          const Calibration& record)
{
    printImports(out, imports);
    printSetups(out, prepared);
    printFitTerms(out, prepared, start, fit);
    printResiduals(out, imports, prepared, fit, before);
    printCurves(out, record);
    printUnusedAndNotes(out, imports, prepared, fit);
}

}  // namespace ridgeline::cli
