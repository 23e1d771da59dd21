#include "core/bench/calibration/calibration_points.h"

#include "core/message_text.h"
#include "core/model/catalog/catalog.h"
#include "core/model/llm/inference_request.h"

#include <QRegularExpression>

#include <cmath>
#include <utility>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

QString squeezed(QString text)
{
    static const QRegularExpression notAlnum(u"[^a-z0-9]"_s);
    return text.toLower().remove(notAlnum);
}

QString modelKey(const QString& name)
{
    QString text = name.trimmed();
    const qsizetype slash = text.lastIndexOf(u'/');
    if (slash >= 0)
        text = text.mid(slash + 1);  // "meta-llama/Llama-3.1-8B-Instruct": the organisation is not the model
    static const QRegularExpression suffix(u"([-_ ](instruct|chat|hf|it|base))+$"_s,
                                           QRegularExpression::CaseInsensitiveOption);
    text.remove(suffix);
    return squeezed(text);
}

QString gpuKey(const QString& name)
{
    QString text = name.toLower();
    for (const QString& vendor : {u"nvidia"_s, u"amd"_s, u"geforce"_s, u"instinct"_s, u"radeon"_s})
        text.replace(vendor, QString());
    return squeezed(text);
}

template <typename Spec, typename Key>
QString uniqueMatch(const std::vector<Spec>& catalog, const QString& name, Key key)
{
    const QString wanted = key(name);
    if (wanted.isEmpty())
        return {};
    QString found;
    for (const Spec& spec : catalog) {
        if (key(spec.id) == wanted || key(spec.name) == wanted) {
            if (!found.isEmpty() && found != spec.id)
                return {};  // two catalog entries answer to the name: the user chooses
            found = spec.id;
        }
    }
    return found;
}

enum class RunKind { Serving, StaticBatch, Prefill, Decode };

RunKind kindOf(const BenchPoint& point)
{
    if (point.load != BenchLoad::StaticBatch)
        return RunKind::Serving;
    if (!point.prefill.empty())
        return RunKind::Prefill;
    if (!point.tpot.empty() && point.outputTokensPerSecond)
        return RunKind::Decode;
    return RunKind::StaticBatch;
}

// The facts of one run: recorded ones first, then the user's; the names of what is still missing.
struct Facts {
    QString modelId;
    QString gpuId;
    std::optional<int> tp;
    std::optional<NumberFormat> weights;
    NumberFormat kv = NumberFormat::Bf16;
    bool kvAssumed = false;
    std::optional<std::int64_t> batch;
    std::optional<double> input;
    std::optional<double> output;
    QStringList missing;  // "the GPU", ...
    QStringList options;  // "--gpu ID", ...
    std::optional<QString> conflict;
};

Facts factsOf(const BenchPoint& point, const RunFacts& given, QStringList& notes)
{
    Facts f;
    const auto need = [&f](const QString& what, const QString& option) {
        f.missing << what;
        f.options << option;
    };
    f.modelId = given.modelId;
    if (f.modelId.isEmpty()) {
        f.modelId = matchCatalogModel(point.model);
        if (f.modelId.isEmpty())
            need(point.model.isEmpty()
                     ? u"the model"_s
                     : u"the model (\""_s + oneLine(point.model.left(60)) + u"\" is not in the catalog)"_s,
                 u"--model ID"_s);
        else
            notes << u"model \""_s + oneLine(point.model.left(60)) + u"\" taken as the catalog's "_s + f.modelId;
    }
    f.gpuId = given.gpuId;
    if (f.gpuId.isEmpty()) {
        f.gpuId = matchCatalogGpu(point.gpu);
        if (f.gpuId.isEmpty())
            need(point.gpu.isEmpty() ? u"the GPU"_s
                                     : u"the GPU (\""_s + oneLine(point.gpu.left(60)) + u"\" is not in the catalog)"_s,
                 u"--gpu ID"_s);
        else
            notes << u"GPU \""_s + oneLine(point.gpu.left(60)) + u"\" taken as the catalog's "_s + f.gpuId;
    }
    f.tp = point.tensorParallel;
    if (f.tp && given.tensorParallel && *given.tensorParallel != *f.tp)
        f.conflict = u"the file records tensor parallel size "_s + QString::number(*f.tp) + u"; --tp "_s +
                     QString::number(*given.tensorParallel) + u" disagrees"_s;
    if (!f.tp)
        f.tp = given.tensorParallel;
    if (!f.tp)
        need(u"the tensor parallel size"_s, u"--tp N"_s);
    f.weights = formatFromFileName(point.weightFormat);
    if (f.weights && given.weights && *given.weights != *f.weights)
        f.conflict = u"the file records the weights as \""_s + oneLine(point.weightFormat.left(40)) +
                     u"\"; --weights "_s + numberFormatName(*given.weights) + u" disagrees"_s;
    if (!f.weights)
        f.weights = given.weights;
    if (!f.weights)
        need(point.weightFormat.isEmpty() || point.weightFormat == u"auto"
                 ? u"the weight format"_s
                 : u"the weight format (\""_s + oneLine(point.weightFormat.left(40)) + u"\" is none of the model's)"_s,
             u"--weights FORMAT"_s);
    if (const auto kv = formatFromFileName(point.kvFormat))
        f.kv = *kv;
    else if (given.kv)
        f.kv = *given.kv;
    else
        f.kvAssumed = true;
    if (kindOf(point) == RunKind::StaticBatch) {
        f.batch = point.batch ? point.batch : given.batch;
        f.input = point.inputTokens   ? point.inputTokens
                  : given.inputTokens ? std::optional<double>(static_cast<double>(*given.inputTokens))
                                      : std::nullopt;
        f.output = point.outputTokens   ? point.outputTokens
                   : given.outputTokens ? std::optional<double>(static_cast<double>(*given.outputTokens))
                                        : std::nullopt;
        if (!f.batch)
            need(u"the batch size"_s, u"--batch N"_s);
        if (!f.input)
            need(u"the input length"_s, u"--input-len N"_s);
        if (!f.output)
            need(u"the output length"_s, u"--output-len N"_s);
    } else {
        f.batch = point.batch;
        f.input = point.inputTokens;
        f.output = point.outputTokens;
    }
    return f;
}

QString pointId(const BenchImport& file, const BenchPoint& point)
{
    return file.fileName + u':' + QString::number(point.record) + u' ' + point.label;
}

std::optional<std::pair<double, QString>> typicalOf(const LatencyStat& stat)
{
    if (stat.median)
        return std::pair{*stat.median, u"median"_s};
    if (stat.mean)
        return std::pair{*stat.mean, u"mean"_s};
    return std::nullopt;
}

}  // namespace

std::optional<NumberFormat> formatFromFileName(const QString& name)
{
    const QString text = name.trimmed().toLower();
    if (text.isEmpty() || text == u"auto")
        return std::nullopt;
    if (const auto parsed = parseNumberFormat(text))
        return parsed;
    static const std::pair<QStringView, NumberFormat> words[] = {
        {u"bfloat16", NumberFormat::Bf16},  {u"float16", NumberFormat::Fp16}, {u"half", NumberFormat::Fp16},
        {u"f16", NumberFormat::Fp16},       {u"float32", NumberFormat::Fp32}, {u"f32", NumberFormat::Fp32},
        {u"fp8_e4m3", NumberFormat::Fp8},   {u"fp8_e5m2", NumberFormat::Fp8}, {u"float8", NumberFormat::Fp8},
        {u"fp8_e4m3fn", NumberFormat::Fp8}, {u"w8a8", NumberFormat::Int8},    {u"q8_0", NumberFormat::Int8},
        {u"awq", NumberFormat::Int4},       {u"gptq", NumberFormat::Int4},    {u"nvfp4", NumberFormat::Fp4},
    };
    for (const auto& [word, format] : words) {
        if (text == word)
            return format;
    }
    // llama.cpp's 4-bit types: Q4_0, Q4_1, Q4_K - Small / Medium, IQ4_XS, IQ4_NL.
    static const QRegularExpression fourBit(u"^i?q4(_[a-z0-9]+)*( - (small|medium|large))?$"_s);
    if (fourBit.match(text).hasMatch())
        return NumberFormat::Int4;
    return std::nullopt;
}

QString matchCatalogModel(const QString& name)
{
    const auto& models = builtinModels();
    return models.ok() ? uniqueMatch(models.value(), name, modelKey) : QString();
}

QString matchCatalogGpu(const QString& name)
{
    const auto& gpus = builtinGpus();
    return gpus.ok() ? uniqueMatch(gpus.value(), name, gpuKey) : QString();
}

namespace {

// The figures one run measured, each with the statistic it is ("median TPOT").
using MeasuredFigures = std::vector<std::pair<MeasuredQuantity, std::pair<double, QString>>>;

// Why a run gives no point (it is listed as not fitted), or nothing when it gives one.
using NotComparable = std::optional<QString>;

// Serving under load: the requests in flight (the cap, else the measured mean), the mean lengths, TPOT (else ITL)
// and the output throughput.
NotComparable servingRun(const BenchPoint& point, std::int64_t prompt, std::int64_t output, const QString& id,
                         InferenceRequest& request, MeasuredFigures& measured, QStringList& notes)
{
    std::int64_t inFlight = 0;
    if (point.load == BenchLoad::Concurrency && point.concurrency) {
        inFlight = *point.concurrency;
    } else if (point.achievedConcurrency && *point.achievedConcurrency >= 0.5) {
        inFlight = std::llround(*point.achievedConcurrency);
        notes << id + u": requests in flight taken as the measured mean, "_s + QString::number(inFlight);
    } else {
        return u"no cap on requests in flight and no measured concurrency: the batch the engine ran "
               "is not known"_s;
    }
    if (prompt < 1 || output < 2)
        return u"the mean lengths (input "_s + QString::number(prompt) + u", output "_s + QString::number(output) +
               u") give no decode phase to compare"_s;
    request.batch = inFlight;
    request.prompt = prompt;
    request.output = output;
    request.context = prompt + output / 2;
    if (auto tpot = typicalOf(point.tpot))
        measured.push_back({MeasuredQuantity::ServingTpot, {tpot->first, tpot->second + u" TPOT"_s}});
    else if (auto itl = typicalOf(point.itl))
        measured.push_back({MeasuredQuantity::ServingTpot, {itl->first, itl->second + u" ITL"_s}});
    if (point.outputTokensPerSecond)
        measured.push_back({MeasuredQuantity::ServingThroughput, {*point.outputTokensPerSecond, u"output tok/s"_s}});
    return std::nullopt;
}

// A static batch (vLLM benchmark_latency, llama-bench pp+tg): its end-to-end latency.
NotComparable staticBatchRun(const BenchPoint& point, std::int64_t batch, std::int64_t prompt, std::int64_t output,
                             InferenceRequest& request, MeasuredFigures& measured)
{
    if (prompt < 1 || output < 1)
        return u"a static batch needs an input and an output of at least one token"_s;
    request.batch = batch;
    request.prompt = prompt;
    request.output = output;
    request.context = prompt + output;
    if (auto latency = typicalOf(point.latency))
        measured.push_back({MeasuredQuantity::EndToEnd, {latency->first, latency->second + u" latency"_s}});
    return std::nullopt;
}

// llama-bench pp: the prefill of one sequence from an empty cache, as the time to first token.
NotComparable prefillRun(const BenchPoint& point, std::int64_t prompt, InferenceRequest& request,
                         MeasuredFigures& measured)
{
    if (point.contextDepth.value_or(0) > 0)
        return u"a prefill after "_s + QString::number(*point.contextDepth) +
               u" tokens already in the cache (the model's prefill starts from an empty cache)"_s;
    request.batch = point.batch.value_or(1);
    request.prompt = prompt;
    request.context = prompt;
    if (auto time = typicalOf(point.prefill))
        measured.push_back({MeasuredQuantity::Ttft, {time->first, time->second + u" prefill"_s}});
    return std::nullopt;
}

// llama-bench tg: the decode rate after n_depth tokens.
NotComparable decodeRun(const BenchPoint& point, std::int64_t output, InferenceRequest& request,
                        MeasuredFigures& measured)
{
    if (output < 2)
        return u"fewer than two generated tokens: no decode rate"_s;
    request.batch = point.batch.value_or(1);
    request.prompt = std::max<std::int64_t>(1, point.contextDepth.value_or(0));
    request.output = output;
    request.context = request.prompt + output;
    measured.push_back({MeasuredQuantity::StaticDecodeRate, {*point.outputTokensPerSecond, u"mean tok/s"_s}});
    return std::nullopt;
}

// The run's facts with their notes (each said once), or the conflict or what is missing as an error.
Result<Facts> checkedFacts(const BenchImport& file, const BenchPoint& point, const RunFacts& given, QStringList& notes)
{
    QStringList found;
    Facts facts = factsOf(point, given, found);
    for (const QString& note : found) {
        if (!notes.contains(note))
            notes << note;
    }
    if (facts.conflict)
        return makeError(Error::Code::InvalidArgument,
                         file.fileName + u": run "_s + QString::number(point.record) + u": "_s + *facts.conflict);
    if (!facts.missing.isEmpty())
        return makeError(Error::Code::InvalidArgument, file.fileName + u": the file does not record "_s +
                                                           facts.missing.join(u", "_s) + u"; give "_s +
                                                           facts.options.join(u", "_s));
    return facts;
}

// The question the run asked the model and the figures it measured, or why it cannot be compared.
NotComparable workloadOf(const BenchPoint& point, const Facts& facts, const QString& id, InferenceRequest& request,
                         MeasuredFigures& measured, QStringList& notes)
{
    if (point.acceptLength)
        return u"speculative decoding (accept length "_s + QString::number(*point.acceptLength, 'g', 3) +
               u"): the number of draft tokens is not recorded"_s;
    request.modelId = facts.modelId;
    request.gpuId = facts.gpuId;
    request.weights = *facts.weights;
    request.kv = facts.kv;
    request.gpus = *facts.tp;
    const auto tokens = [](std::optional<double> value) {
        return value ? static_cast<std::int64_t>(std::llround(*value)) : std::int64_t{0};
    };
    const std::int64_t prompt = tokens(facts.input);
    const std::int64_t output = tokens(facts.output);
    NotComparable refused;
    switch (kindOf(point)) {
        case RunKind::Serving:
            refused = servingRun(point, prompt, output, id, request, measured, notes);
            break;
        case RunKind::StaticBatch:
            refused = staticBatchRun(point, *facts.batch, prompt, output, request, measured);
            break;
        case RunKind::Prefill:
            refused = prefillRun(point, prompt, request, measured);
            break;
        case RunKind::Decode:
            refused = decodeRun(point, output, request, measured);
            break;
    }
    if (!refused && measured.empty())
        return u"none of the figures a model predicts (TPOT, throughput, latency) is in the run"_s;
    return refused;
}

// One run's points (one per measured figure), or the runs it gives none listed with the reason; an error when the
// run's facts conflict or are missing, or the model refuses its configuration.
std::optional<Error> addRun(const BenchImport& file, const BenchPoint& point, const RunFacts& given,
                            CalibrationPoints& result, bool& kvAssumed)
{
    const Result<Facts> facts = checkedFacts(file, point, given, result.notes);
    if (!facts)
        return facts.error();
    kvAssumed = kvAssumed || facts.value().kvAssumed;
    const QString id = pointId(file, point);
    const auto unused = [&](const QString& reason) {
        result.unused.push_back(
            {point.record, point.line,
             file.fileName + u' ' + u"run "_s + QString::number(point.record) + u" (" + point.label + u')', reason});
    };
    InferenceRequest request;
    MeasuredFigures measured;
    if (const NotComparable refused = workloadOf(point, facts.value(), id, request, measured, result.notes)) {
        unused(*refused);
        return std::nullopt;
    }
    Result<InferenceConfig> config = resolveInference(request);
    if (!config)
        return makeError(config.error().code, id + u": "_s + config.error().message);
    for (const auto& [quantity, value] : measured) {
        if (!(value.first > 0)) {  // a measured 0 (nothing streamed) has no log error
            unused(quantityName(quantity) + u" is 0 in the file ("_s + value.second +
                   u"): nothing to compare a prediction with"_s);
            continue;
        }
        MeasuredPoint p;
        p.id = id;
        p.config = config.value();
        p.quantity = quantity;
        p.value = value.first;
        result.points.push_back(std::move(p));
        result.origins.push_back({file.fileName, point.record, point.label, quantity, value.second});
    }
    return std::nullopt;
}

}  // namespace

Result<CalibrationPoints> calibrationPoints(const std::vector<BenchImport>& imports, const RunFacts& facts)
{
    return calibrationPointsPerFile(imports, std::vector<RunFacts>(imports.size(), facts));
}

Result<CalibrationPoints> calibrationPointsPerFile(const std::vector<BenchImport>& imports,
                                                   const std::vector<RunFacts>& perFile)
{
    if (perFile.size() != imports.size())
        return makeError(Error::Code::InvalidArgument, u"the facts name "_s + QString::number(perFile.size()) +
                                                           u" files for "_s + QString::number(imports.size()));
    CalibrationPoints result;
    bool kvAssumed = false;
    for (std::size_t fileIndex = 0; fileIndex < imports.size(); ++fileIndex) {
        for (const BenchPoint& point : imports[fileIndex].points) {
            if (std::optional<Error> failed = addRun(imports[fileIndex], point, perFile[fileIndex], result, kvAssumed))
                return *failed;
        }
    }
    if (kvAssumed)
        result.notes << u"the KV cache format is not recorded; taken as bf16 (give --kv to change it)"_s;
    if (result.points.empty()) {
        QString why;
        if (!result.unused.empty())
            why = u": "_s + result.unused.front().what + u": "_s + result.unused.front().reason;
        return makeError(Error::Code::InvalidArgument, u"no run gives a point to fit"_s + why);
    }
    return result;
}

}  // namespace ridgeline
