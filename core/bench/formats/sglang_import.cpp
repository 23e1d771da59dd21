#include "core/bench/formats/sglang_import.h"

#include "core/bench/formats/serving_fields.h"
#include "core/json/json_reader.h"
#include "core/json/strict_reader.h"
#include "core/message_text.h"

#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

QString versionOf(const ObjectReader& fields)
{
    if (fields.get(u"server_info"))
        return u"sglang.bench_serving of 2025 (server_info, max_output_tokens_per_s)"_s;
    if (fields.get(u"max_concurrency"))
        return u"sglang.bench_serving of late 2024 (max_concurrency, accept_length)"_s;
    return u"sglang.bench_serving of mid-2024 (short record: no max_concurrency)"_s;
}

// The server's own arguments, as /get_server_info returned them when the run ended.
void readServerInfo(ObjectReader& fields, BenchPoint& point)
{
    const JsonNode* info = fields.object(u"server_info");
    if (!info)
        return;
    ObjectReader server = fields.nested(*info, u"server_info");
    const QString model = server.text(u"served_model_name");
    const QString path = server.text(u"model_path");
    if (point.model.isEmpty())
        point.model = (path.isEmpty() ? model : path).left(200);
    if (const std::optional<std::int64_t> tp = server.count(u"tp_size", 4096)) {
        if (*tp >= 1)
            point.tensorParallel = static_cast<int>(*tp);
        else
            server.refuse(*server.get(u"tp_size"), u"\"server_info.tp_size\" is 0; expected at least 1"_s);
    }
    const QString quantization = server.text(u"quantization");
    const QString dtype = server.text(u"dtype");
    point.weightFormat = (quantization.isEmpty() ? dtype : quantization).left(80);
    point.kvFormat = server.text(u"kv_cache_dtype").left(80);
    const QString version = server.text(u"version");
    if (!version.isEmpty())
        point.notes << u"SGLang "_s + oneLine(version.left(40)) + u" (server_info.version)"_s;
}

bool looksLikeSglang(const ObjectReader& fields)
{
    for (QStringView key : {u"completed", u"output_throughput", u"total_output_tokens_retokenized", u"median_itl_ms",
                            u"request_throughput"}) {
        if (fields.get(key))
            return true;
    }
    return false;
}

}  // namespace

Result<BenchImport> parseSglang(const QByteArray& utf8)
{
    JsonReadOptions options;
    options.skipKeys = servingPerRequestKeys();
    options.skipKeys << u"internal_states"_s;
    auto values = readJsonValues(utf8, options);
    if (!values)
        return values.error();

    BenchImport result;
    result.format = BenchFormat::SglangServe;
    result.engine = u"SGLang"_s;
    int record = 0;
    for (const JsonNode& run : values.value()) {
        ++record;
        const QString what = u"run "_s + QString::number(record);
        if (!run.isObject())
            return makeError(Error::Code::Schema, run.location() + what + u" is "_s + run.describe() +
                                                      u"; an SGLang result file holds one JSON object per line"_s);
        Problem problem;
        ObjectReader fields(run, QString(), problem, ReadMode::Located);
        if (!looksLikeSglang(fields))
            return makeError(Error::Code::Schema,
                             run.location() + what +
                                 u" has none of the keys of an sglang.bench_serving result (completed, "
                                 "output_throughput, median_itl_ms); is it another tool's file?"_s);
        const QString version = versionOf(fields);
        if (!result.versions.contains(version))
            result.versions << version;

        BenchPoint point;
        point.record = record;
        point.line = run.line();
        point.backend = fields.text(u"backend").left(80);
        readServingLoad(fields, point);
        readServerInfo(fields, point);
        const std::optional<std::int64_t> completed = fields.count(u"completed");
        const std::optional<double> duration = fields.quantity(u"duration", Quantity::Seconds);
        point.outputTokensPerSecond = fields.quantity(u"output_throughput", Quantity::TokensPerSecond);
        readServingLengths(fields, point, completed.value_or(0));
        point.ttft = readLatencyMs(fields, u"ttft");
        point.tpot = readLatencyMs(fields, u"tpot");
        point.itl = readLatencyMs(fields, u"itl");
        point.latency = readLatencyMs(fields, u"e2e_latency");
        point.achievedConcurrency = fields.quantity(u"concurrency", Quantity::Ratio);
        point.acceptLength = fields.quantity(u"accept_length", Quantity::Ratio);
        const std::optional<double> rangeRatio = fields.quantity(u"random_range_ratio", Quantity::Ratio);
        const QString dataset = fields.text(u"dataset_name");
        const QString tag = fields.text(u"tag");
        if (!completed && !fields.failed())
            fields.refuseMissing(u"completed", u"the number of requests that completed"_s);
        if (fields.failed())
            return fields.error();

        point.requests = completed;
        point.label = loadLabel(point);
        if (!tag.isEmpty())
            point.label += u" ["_s + oneLine(tag.left(40)) + u']';
        if (*completed == 0) {
            result.skipped.push_back(
                {record, run.line(), what + u" ("_s + point.label + u')', u"no request completed"_s});
            continue;
        }
        if (!point.achievedConcurrency && duration && *duration > 0 && point.latency.mean)
            point.achievedConcurrency = static_cast<double>(*completed) * *point.latency.mean / *duration;
        if (dataset.startsWith(u"random"_s) && rangeRatio && *rangeRatio < 1)
            point.notes << u"lengths are means over the requests: random_range_ratio "_s + shortNumber(*rangeRatio) +
                               u" drew them between that share of random_input_len / random_output_len and the "
                               "full length"_s;
        if (point.load == BenchLoad::AllAtOnce)
            point.notes << u"every request was sent at once: the server's own limit (max_running_requests) set "
                           "how many ran together"_s;
        const QString nans = nanNote(fields);
        if (!nans.isEmpty())
            point.notes << nans;
        listUnknownServingSetup(point);  // SGLang's result records no GPU: always asked for
        if (!point.hasMeasurement()) {
            result.skipped.push_back({record, run.line(), what + u" ("_s + point.label + u')',
                                      u"no throughput and no latency in the run"_s});
            continue;
        }
        result.points.push_back(std::move(point));
    }
    return result;
}

}  // namespace ridgeline
