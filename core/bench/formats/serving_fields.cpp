#include "core/bench/formats/serving_fields.h"

#include <cmath>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

QStringList servingPerRequestKeys()
{
    return {u"input_lens"_s,  u"output_lens"_s,       u"ttfts"_s,
            u"itls"_s,        u"latencies"_s,         u"start_times"_s,
            u"queue_times"_s, u"generated_texts"_s,   u"errors"_s,
            u"input_texts"_s, u"rps_change_events"_s, u"spec_decode_per_position_acceptance_rates"_s};
}

QString shortNumber(double value)
{
    return QString::number(value, 'g', 4);
}

void readServingLoad(ObjectReader& fields, BenchPoint& point)
{
    point.load = BenchLoad::AllAtOnce;
    const JsonNode* rate = fields.get(u"request_rate");
    if (rate && rate->isString()) {
        if (rate->string() == u"inf")
            point.load = BenchLoad::AllAtOnce;
        else if (rate->string() == u"trace")
            point.load = BenchLoad::Trace;
        else
            fields.refuse(*rate, u"\"request_rate\" is "_s + rate->describe() +
                                     u"; expected requests per second, \"inf\" or \"trace\""_s);
    } else if (rate && rate->isNumber() && std::isinf(rate->number()) && rate->number() > 0) {
        point.load = BenchLoad::AllAtOnce;  // SGLang writes float('inf') as the bare token Infinity
    } else if (rate && !rate->isNull()) {
        const std::optional<double> perSecond = fields.quantity(u"request_rate", Quantity::RequestsPerSecond);
        if (perSecond && *perSecond <= 0)
            fields.refuse(*rate, u"\"request_rate\" is 0; expected a positive rate or \"inf\""_s);
        else if (perSecond) {
            point.load = BenchLoad::RequestRate;
            point.requestRate = perSecond;
        }
    }
    const std::optional<std::int64_t> cap = fields.count(u"max_concurrency", 1 << 24);
    if (cap && *cap == 0) {
        fields.refuse(*fields.get(u"max_concurrency"), u"\"max_concurrency\" is 0; expected at least 1 or null"_s);
    } else if (cap) {
        point.concurrency = cap;
        if (point.load != BenchLoad::Trace)
            point.load = BenchLoad::Concurrency;
    }
}

LatencyStat readLatencyMs(ObjectReader& fields, QStringView name)
{
    const QString suffix = u'_' + name.toString() + u"_ms"_s;
    LatencyStat stat;
    stat.mean = fields.quantity(QString(u"mean"_s + suffix), Quantity::Milliseconds);
    stat.median = fields.quantity(QString(u"median"_s + suffix), Quantity::Milliseconds);
    stat.p99 = fields.quantity(QString(u"p99"_s + suffix), Quantity::Milliseconds);
    return stat;
}

void readServingLengths(ObjectReader& fields, BenchPoint& point, std::int64_t completed)
{
    const std::optional<double> input = fields.quantity(u"total_input_tokens", Quantity::Tokens);
    const std::optional<double> output = fields.quantity(u"total_output_tokens", Quantity::Tokens);
    if (completed <= 0)
        return;
    if (input)
        point.inputTokens = *input / static_cast<double>(completed);
    if (output)
        point.outputTokens = *output / static_cast<double>(completed);
}

QString loadLabel(const BenchPoint& point)
{
    switch (point.load) {
        case BenchLoad::StaticBatch:
            return point.batch ? u"batch "_s + QString::number(*point.batch) : u"one batch"_s;
        case BenchLoad::Concurrency: {
            QString label =
                point.concurrency ? u"concurrency "_s + QString::number(*point.concurrency) : u"concurrency ?"_s;
            if (point.requestRate)
                label += u" at "_s + shortNumber(*point.requestRate) + u" req/s"_s;
            return label;
        }
        case BenchLoad::RequestRate:
            return point.requestRate ? shortNumber(*point.requestRate) + u" req/s"_s : u"rate ?"_s;
        case BenchLoad::AllAtOnce:
            return u"all at once"_s;
        case BenchLoad::Trace:
            return u"trace replay"_s;
    }
    return {};
}

QString nanNote(const ObjectReader& fields)
{
    const QStringList& keys = fields.problem().nanKeys();
    if (keys.isEmpty())
        return {};
    return keys.join(u", "_s) + (keys.size() == 1 ? u" is"_s : u" are"_s) +
           u" NaN in the file (no value: a statistic over no requests), left out"_s;
}

void listUnknownServingSetup(BenchPoint& point)
{
    if (point.model.isEmpty())
        point.unknown << u"model"_s;
    if (point.gpu.isEmpty())
        point.unknown << u"GPU"_s;
    if (!point.tensorParallel)
        point.unknown << u"tensor parallel size"_s;
    if (point.weightFormat.isEmpty())
        point.unknown << u"weight format"_s;
    if (!point.inputTokens)
        point.unknown << u"input length"_s;
    if (!point.outputTokens)
        point.unknown << u"output length"_s;
}

}  // namespace ridgeline
