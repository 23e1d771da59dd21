#include "core/bench/formats/vllm_latency_import.h"

#include "core/bench/formats/serving_fields.h"
#include "core/json/json_reader.h"
#include "core/json/strict_reader.h"

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

Result<BenchImport> parseVllmLatency(const QByteArray& utf8)
{
    auto values = readJsonValues(utf8);
    if (!values)
        return values.error();
    if (values.value().size() > 1)
        return makeError(Error::Code::Schema, values.value()[1].location() +
                                                  u"a second JSON value after the first; benchmark_latency.py "
                                                  "writes one object per file"_s);
    const JsonNode& root = values.value().front();
    if (!root.isObject())
        return makeError(Error::Code::Schema, root.location() + u"the file holds "_s + root.describe() +
                                                  u"; a vLLM latency result is one JSON object"_s);
    Problem problem;
    ObjectReader fields(root, QString(), problem, ReadMode::Located);
    if (!fields.get(u"avg_latency"))
        return makeError(Error::Code::Schema, root.location() +
                                                  u"no \"avg_latency\": this is not a vLLM benchmark_latency.py "
                                                  "result (which holds avg_latency, latencies and percentiles)"_s);

    BenchImport result;
    result.format = BenchFormat::VllmLatency;
    result.engine = u"vLLM"_s;
    if (fields.get(u"std_latency"))
        result.versions << u"vllm bench latency / benchmark_latency.py of 2025 (std_latency)"_s;
    else if (fields.get(u"percentiles"))
        result.versions << u"benchmark_latency.py of 2024 (percentiles)"_s;
    else
        result.versions << u"benchmark_latency.py of 2023 (avg_latency and latencies only)"_s;

    BenchPoint point;
    point.record = 1;
    point.line = root.line();
    point.load = BenchLoad::StaticBatch;
    point.latency.mean = fields.quantity(u"avg_latency", Quantity::Seconds);
    if (const JsonNode* list = fields.array(u"latencies")) {
        qsizetype index = 0;
        for (const JsonNode& item : list->items()) {
            const QString key = u"latencies["_s + QString::number(index++) + u']';
            if (!item.isNumber()) {
                fields.refuse(item, u"\""_s + key + u"\" is "_s + item.describe() + u"; expected seconds (a number)"_s);
                break;
            }
            const Result<double> checked = checkQuantity(item.number(), Quantity::Seconds);
            if (!checked) {
                fields.refuse(item, u"\""_s + key + u"\" "_s + checked.error().message + u"; expected seconds"_s);
                break;
            }
        }
        point.requests = static_cast<std::int64_t>(list->size());
    }
    if (const JsonNode* percentiles = fields.object(u"percentiles")) {
        ObjectReader byPercent = fields.nested(*percentiles, u"percentiles");
        point.latency.median = byPercent.quantity(u"50", Quantity::Seconds);
        point.latency.p99 = byPercent.quantity(u"99", Quantity::Seconds);
        for (const JsonNode::Member& member : percentiles->members()) {
            bool isPercent = false;
            const double percent = member.first.toDouble(&isPercent);
            if (!isPercent || percent < 0 || percent > 100) {
                byPercent.refuse(member.second, u"\"percentiles\" has the key \""_s + member.first.left(20) +
                                                    u"\"; its keys are percents such as \"50\" and \"99\""_s);
                break;
            }
            (void)byPercent.quantity(member.first, Quantity::Seconds);
        }
        if (byPercent.failed())
            return byPercent.error();
    }
    (void)fields.quantity(u"std_latency", Quantity::Seconds);
    if (fields.failed())
        return fields.error();
    point.label = u"one batch"_s;
    point.unknown << u"model"_s << u"GPU"_s << u"batch size"_s << u"input length"_s << u"output length"_s
                  << u"tensor parallel size"_s << u"weight format"_s;
    point.notes << u"benchmark_latency.py records no batch size or lengths (its defaults are batch 8, input 32, "
                   "output 128 tokens; --n multiplies the batch)"_s;
    const QString nans = nanNote(fields);
    if (!nans.isEmpty())
        point.notes << nans;
    if (point.latency.empty()) {
        result.skipped.push_back(
            {1, root.line(), u"the batch"_s, u"avg_latency is NaN: no iteration was timed (--num-iters 0?)"_s});
        return result;
    }
    result.points.push_back(std::move(point));
    return result;
}

}  // namespace ridgeline
