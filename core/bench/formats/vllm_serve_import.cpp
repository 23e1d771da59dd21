#include "core/bench/formats/vllm_serve_import.h"

#include "core/bench/formats/serving_fields.h"
#include "core/json/json_reader.h"
#include "core/json/strict_reader.h"
#include "core/message_text.h"

#include <array>
#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

// --metadata KEY=VALUE pairs are merged into the top level as strings; these names are read as run facts.
const std::array<QStringView, 5> kGpuKeys = {u"gpu", u"gpu_type", u"gpu_name", u"hardware", u"device"};
const std::array<QStringView, 4> kTpKeys = {u"tp", u"tp_size", u"tensor_parallel_size", u"tensor_parallel"};
const std::array<QStringView, 3> kWeightKeys = {u"quantization", u"dtype", u"precision"};
const std::array<QStringView, 2> kKvKeys = {u"kv_cache_dtype", u"kv_dtype"};

QString versionOf(const ObjectReader& fields)
{
    if (fields.get(u"request_inthroughput"))
        return u"benchmark_serving.py of early 2024 (\"request_inthroughput\", input_throughput)"_s;
    if (fields.get(u"request_goodput:"))
        return u"benchmark_serving.py or vllm bench serve before mid-2025 (\"request_goodput:\" with a stray colon, "
               "vLLM issue #20274)"_s;
    if (fields.get(u"max_output_tokens_per_s") || fields.get(u"endpoint_type"))
        return u"vllm bench serve, 2025 or later (max_output_tokens_per_s)"_s;
    return u"benchmark_serving.py of 2024 (request_throughput)"_s;
}

template <std::size_t N>
const JsonNode* firstKey(const ObjectReader& fields, const std::array<QStringView, N>& keys, QString& name)
{
    for (QStringView key : keys) {
        const JsonNode* node = fields.get(key);
        if (node && !node->isNull()) {
            name = key.toString();
            return node;
        }
    }
    return nullptr;
}

// A --metadata string ("H100", "8") or, when the user wrote the file by hand, a number.
void readMetadata(ObjectReader& fields, BenchPoint& point)
{
    QString key;
    if (const JsonNode* gpu = firstKey(fields, kGpuKeys, key)) {
        point.gpu = fields.text(key);
        if (!point.gpu.isEmpty())
            point.notes << u"GPU \""_s + oneLine(point.gpu.left(80)) + u"\" read from the key \""_s + key +
                               u"\" (a --metadata entry)"_s;
        (void)gpu;
    }
    if (const JsonNode* tp = firstKey(fields, kTpKeys, key)) {
        bool ok = false;
        int value = 0;
        if (tp->isString())
            value = tp->string().trimmed().toInt(&ok);
        else if (tp->isInteger() && tp->number() >= 1 && tp->number() <= 4096) {
            value = static_cast<int>(tp->number());
            ok = true;
        }
        if (!ok || value < 1 || value > 4096)
            fields.refuse(*tp, u"\""_s + key + u"\" is "_s + tp->describe() +
                                   u"; a tensor parallel size is a whole number from 1 to 4096"_s);
        else {
            point.tensorParallel = value;
            point.notes << u"tensor parallel size "_s + QString::number(value) + u" read from the key \""_s + key +
                               u"\" (a --metadata entry)"_s;
        }
    }
    if (firstKey(fields, kWeightKeys, key))
        point.weightFormat = fields.text(key).left(80);
    if (firstKey(fields, kKvKeys, key))
        point.kvFormat = fields.text(key).left(80);
}

bool looksLikeVllmServe(const ObjectReader& fields)
{
    for (QStringView key : {u"completed", u"output_throughput", u"request_throughput", u"request_inthroughput"}) {
        if (fields.get(key))
            return true;
    }
    return false;
}

// The run's totals that decide whether it is a load point at all.
struct RunTotals {
    std::optional<std::int64_t> completed;  // requests
    std::optional<double> duration;         // seconds
    bool pooling = false;                   // an embedding benchmark: nothing generated
    QString rampUp;                         // ramp_up_strategy: the rate changes during the run
};

// Every field of one run into the point, in the order an error is looked for; an error stays in `fields`.
RunTotals readRun(ObjectReader& fields, BenchPoint& point)
{
    RunTotals t;
    point.model = fields.text(u"model_id").left(200);
    point.backend = fields.text(u"backend").left(80);
    readServingLoad(fields, point);
    readMetadata(fields, point);
    t.completed = fields.count(u"completed");
    point.failedRequests = fields.count(u"failed");
    t.duration = fields.quantity(u"duration", Quantity::Seconds);
    point.outputTokensPerSecond = fields.quantity(u"output_throughput", Quantity::TokensPerSecond);
    readServingLengths(fields, point, t.completed.value_or(0));
    point.ttft = readLatencyMs(fields, u"ttft");
    point.tpot = readLatencyMs(fields, u"tpot");
    point.itl = readLatencyMs(fields, u"itl");
    point.latency = readLatencyMs(fields, u"e2el");
    point.acceptLength = fields.quantity(u"spec_decode_acceptance_length", Quantity::Ratio);
    t.pooling = !fields.has(u"output_throughput") && fields.has(u"input_sequence_throughput");
    t.rampUp = fields.text(u"ramp_up_strategy");
    if (!t.completed && !fields.failed())
        fields.refuseMissing(u"completed", u"the number of requests that completed"_s);
    if (!t.duration && !fields.failed() && !fields.problem().nanKeys().contains(u"duration"_s))
        fields.refuseMissing(u"duration", u"the run's length in seconds"_s);
    return t;
}

// Why the run is no load point to calibrate on (an embedding run, nothing completed, a ramping rate), or nothing.
std::optional<BenchSkip> unusableRun(const BenchPoint& point, const RunTotals& t, const QString& what)
{
    const QString named = what + u" ("_s + point.label + u')';
    if (t.pooling)
        return BenchSkip{point.record, point.line, named,
                         u"an embedding (pooling) benchmark: no tokens are generated"_s};
    if (*t.completed == 0)
        return BenchSkip{
            point.record, point.line, named,
            u"no request completed"_s +
                (point.failedRequests ? u" ("_s + QString::number(*point.failedRequests) + u" failed)"_s : QString())};
    if (!t.rampUp.isEmpty())
        return BenchSkip{point.record, point.line, what + u" (ramp-up)"_s,
                         u"the request rate ramps up during the run (ramp_up_strategy \""_s +
                             oneLine(t.rampUp.left(40)) + u"\"), so it is no single load point"_s};
    return std::nullopt;
}

// The mean requests in flight, what the file leaves to the reader, and what it does not record.
void addRunNotes(ObjectReader& fields, const RunTotals& t, BenchPoint& point)
{
    if (t.duration && *t.duration > 0 && point.latency.mean) {
        // Little's law: mean requests in flight = arrival rate x mean time in the system.
        point.achievedConcurrency = static_cast<double>(*t.completed) * *point.latency.mean / *t.duration;
    }
    if (point.load == BenchLoad::AllAtOnce) {
        const std::optional<std::int64_t> prompts = fields.count(u"num_prompts");
        point.notes << u"every request was sent at once"_s +
                           (prompts ? u" ("_s + QString::number(*prompts) + u" prompts)"_s : QString()) +
                           u": the engine's own limit (max_num_seqs, not recorded) set how many ran together"_s;
    }
    const QString nans = nanNote(fields);
    if (!nans.isEmpty())
        point.notes << nans;
    listUnknownServingSetup(point);
}

// One JSON value of the file: a point, or a skip with the reason; an error for what vLLM does not write.
std::optional<Error> readRunValue(const JsonNode& run, int record, BenchImport& result)
{
    const QString what = u"run "_s + QString::number(record);
    if (!run.isObject())
        return makeError(Error::Code::Schema, run.location() + what + u" is "_s + run.describe() +
                                                  u"; a vLLM serving result is one JSON object per run"_s);
    Problem problem;
    ObjectReader fields(run, QString(), problem, ReadMode::Located);
    if (!looksLikeVllmServe(fields))
        return makeError(Error::Code::Schema,
                         run.location() + what +
                             u" has none of the keys of a vLLM serving result (completed, output_throughput, "
                             "request_throughput); is it another tool's file?"_s);
    const QString version = versionOf(fields);
    if (!result.versions.contains(version))
        result.versions << version;

    BenchPoint point;
    point.record = record;
    point.line = run.line();
    const RunTotals totals = readRun(fields, point);
    if (fields.failed())
        return fields.error();
    point.requests = totals.completed;
    point.label = loadLabel(point);
    if (std::optional<BenchSkip> skip = unusableRun(point, totals, what)) {
        result.skipped.push_back(std::move(*skip));
        return std::nullopt;
    }
    addRunNotes(fields, totals, point);
    if (!point.hasMeasurement()) {
        result.skipped.push_back(
            {record, run.line(), what + u" ("_s + point.label + u')', u"no throughput and no latency in the run"_s});
        return std::nullopt;
    }
    result.points.push_back(std::move(point));
    return std::nullopt;
}

}  // namespace

Result<BenchImport> parseVllmServe(const QByteArray& utf8)
{
    JsonReadOptions options;
    options.skipKeys = servingPerRequestKeys();
    auto values = readJsonValues(utf8, options);
    if (!values)
        return values.error();

    BenchImport result;
    result.format = BenchFormat::VllmServe;
    result.engine = u"vLLM"_s;
    int record = 0;
    for (const JsonNode& run : values.value()) {
        if (std::optional<Error> failed = readRunValue(run, ++record, result))
            return *failed;
    }
    return result;
}

}  // namespace ridgeline
