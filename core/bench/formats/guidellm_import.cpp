#include "core/bench/formats/guidellm_import.h"

#include "core/bench/formats/serving_fields.h"
#include "core/json/json_reader.h"
#include "core/json/strict_reader.h"
#include "core/message_text.h"

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

constexpr int kNewestSchema = 2;

struct Summary {
    std::optional<double> mean;
    std::optional<double> median;
    std::optional<double> p99;
    std::optional<double> totalSum;
};

// metrics.<name>.successful, a distribution summary; null or absent when no request succeeded.
Summary readSummary(ObjectReader& metrics, QStringView name, Quantity quantity)
{
    Summary summary;
    const JsonNode* byStatus = metrics.object(name);
    if (!byStatus)
        return summary;
    ObjectReader status = metrics.nested(*byStatus, name);
    const JsonNode* successful = status.object(u"successful");
    if (!successful)
        return summary;
    ObjectReader values = status.nested(*successful, u"successful");
    summary.mean = values.quantity(u"mean", quantity);
    summary.median = values.quantity(u"median", quantity);
    if (quantity == Quantity::Tokens)
        summary.totalSum = values.quantity(u"total_sum", quantity);
    if (const JsonNode* percentiles = values.object(u"percentiles")) {
        ObjectReader byPercent = values.nested(*percentiles, u"percentiles");
        summary.p99 = byPercent.quantity(u"p99", quantity);
    }
    return summary;
}

LatencyStat latencyOf(const Summary& summary)
{
    return {summary.mean, summary.median, summary.p99};
}

// The scheduling strategy into the point's load; false (with a reason) for one that gives no load point.
bool readStrategy(ObjectReader& strategy, BenchPoint& point, QString& kind, QString& reason)
{
    kind = strategy.text(u"type_");
    const std::optional<std::int64_t> cap = strategy.count(u"max_concurrency", 1 << 24);
    if (kind == u"synchronous") {
        point.load = BenchLoad::Concurrency;
        point.concurrency = 1;
        point.label = u"synchronous"_s;
    } else if (kind == u"concurrent") {
        const std::optional<std::int64_t> streams = strategy.count(u"streams", 1 << 24);
        if (!streams || *streams < 1) {
            if (!strategy.failed())
                strategy.refuseMissing(u"streams", u"a concurrent run's number of streams, at least 1"_s);
            return false;
        }
        point.load = BenchLoad::Concurrency;
        point.concurrency = streams;
        point.label = u"concurrent "_s + QString::number(*streams);
    } else if (kind == u"throughput") {
        point.load = cap && *cap > 0 ? BenchLoad::Concurrency : BenchLoad::AllAtOnce;
        if (cap && *cap > 0)
            point.concurrency = cap;
        point.label = u"throughput"_s + (cap && *cap > 0 ? u" (max "_s + QString::number(*cap) + u')' : QString());
    } else if (kind == u"constant" || kind == u"poisson") {
        const std::optional<double> rate = strategy.quantity(u"rate", Quantity::RequestsPerSecond);
        if (!rate || *rate <= 0) {
            if (!strategy.failed())
                strategy.refuseMissing(u"rate", u"a "_s + kind + u" run's requests per second, above 0"_s);
            return false;
        }
        point.requestRate = rate;
        point.load = cap && *cap > 0 ? BenchLoad::Concurrency : BenchLoad::RequestRate;
        if (cap && *cap > 0)
            point.concurrency = cap;
        point.label = kind + u' ' + shortNumber(*rate) + u" req/s"_s;
    } else if (kind == u"trace") {
        point.load = BenchLoad::Trace;
        point.label = u"trace replay"_s;
    } else {
        reason = u"an unknown scheduling strategy \""_s + oneLine(kind.left(40)) +
                 u"\" (known: synchronous, concurrent, throughput, constant, poisson, trace)"_s;
        return false;
    }
    return !strategy.failed();
}

QString reportVersion(ObjectReader& root)
{
    const JsonNode* metadata = root.object(u"metadata");
    if (!metadata) {
        return root.has(u"args") ? u"GuideLLM v0.4 (report args, no metadata)"_s
                                 : u"GuideLLM v0.2-v0.3 (benchmarks only)"_s;
    }
    ObjectReader meta = root.nested(*metadata, u"metadata");
    const std::optional<std::int64_t> version = meta.count(u"version", 1000);
    const QString guidellm = meta.text(u"guidellm_version");
    if (!version) {
        if (!root.failed())
            root.refuseMissing(u"metadata.version", u"the report schema's version"_s);
        return {};
    }
    if (*version < 1 || *version > kNewestSchema) {
        root.refuse(*metadata->find(u"version"), u"\"metadata.version\" is "_s + QString::number(*version) +
                                                     u": this importer knows GuideLLM report schemas 1 and 2 "
                                                     "(GuideLLM v0.5-v0.7); a newer GuideLLM wrote this file"_s);
        return {};
    }
    QString text =
        *version == 1 ? u"GuideLLM v0.5-v0.6 (report schema 1)"_s : u"GuideLLM v0.7 or later (report schema 2)"_s;
    if (!guidellm.isEmpty())
        text += u", guidellm "_s + oneLine(guidellm.left(30));
    return text;
}

// The run's settings ("config" since v0.4; "args" and "worker" before): its load point from the scheduling
// strategy, and the model it ran. False when the run gives no load point (`reason` says why) or on an error, which
// `fields` then holds. `inConfig`: the v0.4+ layout.
bool readSettings(ObjectReader& fields, BenchPoint& point, QString& reason, bool& inConfig)
{
    const JsonNode* config = fields.object(u"config");
    inConfig = config != nullptr;
    const JsonNode* args = config ? nullptr : fields.object(u"args");
    if (!config && !args && !fields.failed())
        fields.refuseMissing(u"config", u"the run's settings: \"config\" since v0.4, \"args\" before"_s);
    if (fields.failed())
        return false;
    ObjectReader settings = fields.nested(config ? *config : *args, config ? u"config" : u"args");
    const JsonNode* strategyNode = settings.object(u"strategy");
    if (!strategyNode && !settings.failed())
        settings.refuseMissing(u"strategy", u"how the requests were scheduled"_s);
    if (fields.failed())
        return false;
    ObjectReader strategy = settings.nested(*strategyNode, u"strategy");
    QString kind;
    const bool loadPoint = readStrategy(strategy, point, kind, reason);
    if (fields.failed() || !loadPoint)
        return false;
    if (config) {
        if (const JsonNode* backend = settings.object(u"backend")) {
            ObjectReader backendFields = settings.nested(*backend, u"backend");
            point.model = backendFields.text(u"model").left(200);
        }
    } else if (const JsonNode* worker = fields.object(u"worker")) {
        ObjectReader workerFields = fields.nested(*worker, u"worker");
        point.model = workerFields.text(u"backend_model").left(200);
        point.backend = workerFields.text(u"backend_type").left(80);
    }
    return true;
}

// What a run measured, before it becomes the point's figures.
struct RunMetrics {
    std::optional<std::int64_t> successful;  // requests
    std::optional<double> duration;          // seconds
    Summary output;                          // tokens per request
    Summary prompt;
    Summary outputRate;
    Summary concurrency;
};

// The run's metrics: request totals (under "metrics" since v0.4, beside it before), the token counts, rates and
// the latency distributions into the point. An error stays in `fields`.
RunMetrics readMetrics(ObjectReader& fields, bool inConfig, BenchPoint& point)
{
    RunMetrics m;
    const JsonNode* metricsNode = fields.object(u"metrics");
    if (!metricsNode && !fields.failed())
        fields.refuseMissing(u"metrics", u"what the run measured"_s);
    if (fields.failed())
        return m;
    ObjectReader metrics = fields.nested(*metricsNode, u"metrics");
    const JsonNode* totalsNode = inConfig ? metrics.object(u"request_totals") : fields.object(u"request_totals");
    if (totalsNode) {
        ObjectReader totals = (inConfig ? metrics : fields).nested(*totalsNode, u"request_totals");
        m.successful = totals.count(u"successful");
        const std::optional<std::int64_t> errored = totals.count(u"errored");
        const std::optional<std::int64_t> incomplete = totals.count(u"incomplete");
        if (errored || incomplete)
            point.failedRequests = errored.value_or(0) + incomplete.value_or(0);
    }
    m.duration = fields.quantity(u"duration", Quantity::Seconds);
    m.output = readSummary(metrics, u"output_token_count", Quantity::Tokens);
    m.prompt = readSummary(metrics, u"prompt_token_count", Quantity::Tokens);
    m.outputRate = readSummary(metrics, u"output_tokens_per_second", Quantity::TokensPerSecond);
    m.concurrency = readSummary(metrics, u"request_concurrency", Quantity::Ratio);
    point.ttft = latencyOf(readSummary(metrics, u"time_to_first_token_ms", Quantity::Milliseconds));
    point.tpot = latencyOf(readSummary(metrics, u"time_per_output_token_ms", Quantity::Milliseconds));
    point.itl = latencyOf(readSummary(metrics, u"inter_token_latency_ms", Quantity::Milliseconds));
    point.latency = latencyOf(readSummary(metrics, u"request_latency", Quantity::Seconds));
    return m;
}

// The point's lengths, concurrency and output rate from the metrics, its notes and what the report does not record.
void fillPoint(BenchPoint& point, const RunMetrics& m, const ObjectReader& fields)
{
    point.requests = m.successful;
    point.inputTokens = m.prompt.mean;
    point.outputTokens = m.output.mean;
    point.achievedConcurrency = m.concurrency.mean;
    if (m.output.totalSum && m.duration && *m.duration > 0) {
        point.outputTokensPerSecond = *m.output.totalSum / *m.duration;
        point.notes << u"output tokens per second = the successful requests' output tokens over the run's "
                       "duration (GuideLLM's own mean is over a time series of rates)"_s;
    } else {
        point.outputTokensPerSecond = m.outputRate.mean;
    }
    const QString nans = nanNote(fields);
    if (!nans.isEmpty())
        point.notes << nans;
    listUnknownServingSetup(point);  // GuideLLM records no GPU, parallelism or weight format: always asked for
}

// One entry of "benchmarks": a point, or a skip with the reason; an error for what no GuideLLM writes.
std::optional<Error> readBenchmark(const JsonNode& run, int record, BenchImport& result)
{
    const QString path = u"benchmarks["_s + QString::number(record - 1) + u']';
    QString what = u"benchmark "_s + QString::number(record);
    if (!run.isObject())
        return makeError(Error::Code::Schema,
                         run.location() + u"\""_s + path + u"\" is "_s + run.describe() + u"; expected an object"_s);
    Problem problem;
    ObjectReader fields(run, path, problem, ReadMode::Located);
    const QString type = fields.text(u"type_");
    if (fields.failed())
        return fields.error();
    if (!type.isEmpty() && type != u"generative_benchmark") {
        result.skipped.push_back({record, run.line(), what,
                                  u"a \""_s + oneLine(type.left(40)) +
                                      u"\" benchmark; only generative benchmarks have tokens to calibrate on"_s});
        return std::nullopt;
    }
    BenchPoint point;
    point.record = record;
    point.line = run.line();
    QString reason;
    bool inConfig = false;
    if (!readSettings(fields, point, reason, inConfig)) {
        if (fields.failed())
            return fields.error();
        result.skipped.push_back({record, run.line(), what, reason});
        return std::nullopt;
    }
    what += u" ("_s + point.label + u')';
    const RunMetrics metrics = readMetrics(fields, inConfig, point);
    if (fields.failed())
        return fields.error();
    if (metrics.successful && *metrics.successful == 0) {
        result.skipped.push_back({record, run.line(), what, u"no request succeeded"_s});
        return std::nullopt;
    }
    fillPoint(point, metrics, fields);
    if (!point.hasMeasurement()) {
        result.skipped.push_back({record, run.line(), what, u"no throughput and no latency in the run"_s});
        return std::nullopt;
    }
    result.points.push_back(std::move(point));
    return std::nullopt;
}

}  // namespace

Result<BenchImport> parseGuideLlm(const QByteArray& utf8)
{
    JsonReadOptions options;
    options.skipKeys = {u"requests"_s, u"request_samples"_s, u"pdf"_s,   u"cumulative_distribution_function"_s,
                        u"text"_s,     u"image"_s,           u"video"_s, u"audio"_s,
                        u"tool_call"_s};
    auto values = readJsonValues(utf8, options);
    if (!values)
        return values.error();
    if (values.value().size() > 1)
        return makeError(
            Error::Code::Schema,
            values.value()[1].location() + u"a second JSON value after the report; GuideLLM writes one object"_s);
    const JsonNode& rootNode = values.value().front();
    if (!rootNode.isObject())
        return makeError(Error::Code::Schema, rootNode.location() + u"the file holds "_s + rootNode.describe() +
                                                  u"; a GuideLLM report is one JSON object with \"benchmarks\""_s);
    Problem problem;
    ObjectReader root(rootNode, QString(), problem, ReadMode::Located);
    const QString version = reportVersion(root);
    const JsonNode* benchmarks = root.array(u"benchmarks");
    if (!benchmarks && !root.failed())
        root.refuseMissing(u"benchmarks", u"the list of runs a GuideLLM report holds"_s);
    if (root.failed())
        return root.error();

    BenchImport result;
    result.format = BenchFormat::GuideLlm;
    result.engine = u"GuideLLM"_s;
    result.versions << version;
    int record = 0;
    for (const JsonNode& run : benchmarks->items()) {
        if (std::optional<Error> failed = readBenchmark(run, ++record, result))
            return *failed;
    }
    if (benchmarks->items().empty())
        result.notes << u"the report's \"benchmarks\" list is empty"_s;
    return result;
}

}  // namespace ridgeline
