#include "core/model/catalog/catalog_json.h"

#include "core/json/strict_reader.h"
#include "core/physical_limits.h"

#include <QDate>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <algorithm>
#include <set>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

namespace {

const QString kGpuFormat = u"ridgeline-gpu-catalog"_s;
const QString kModelFormat = u"ridgeline-model-catalog"_s;

// Bounds past which a figure is a typo, not a card or a model (a thousand times beyond any of 2026).
constexpr qsizetype kMaxCatalogEntries = 10'000;
constexpr double kMaxTflops = 1e6;
constexpr double kMaxBandwidthTbs = 1e4;
constexpr double kMaxMemoryGib = 1e7;
constexpr double kMaxLinkGbs = 1e6;
constexpr double kMaxWatts = 1e5;
constexpr int kMaxScaleUpGpus = 1'000'000;
constexpr int kMaxSmCount = 100000;  // the largest GPUs have a few hundred
constexpr int kMaxShape = 1'000'000'000;
constexpr qsizetype kMaxDeviceNames = 64;

void requirePositive(ObjectReader& in, QLatin1StringView key, double value)
{
    if (!in.problem().found() && !(value > 0))
        in.problem().report(Error::Code::Range, in.where(key) + u" must be above 0"_s);
}

// The physical rule (core/physical_limits.h) in the catalog's units, TB/s and TFLOP/s: a card whose ridge
// or times would not be finite numbers is a typo.
void requirePhysical(Problem& problem, const QString& where, double value, PhysicalQuantity quantity)
{
    const bool bandwidth = quantity == PhysicalQuantity::BandwidthGbps;
    if (problem.found())
        return;
    if (const std::optional<QString> bad = physicalProblem(quantity, value, 1000.0, bandwidth ? u"TB/s" : u"TFLOP/s"))
        problem.report(Error::Code::Range, where + u' ' + *bad);
}

void requireNonEmpty(ObjectReader& in, QLatin1StringView key, const QString& value)
{
    if (!in.problem().found() && value.isEmpty())
        in.problem().report(Error::Code::Schema, in.where(key) + u" must not be empty"_s);
}

QString tensorPrecisionNames()
{
    QStringList names;
    for (NumberFormat precision : kAllNumberFormats)
        if (tensorPrecisionOf(precision) == precision)
            names.append(numberFormatName(precision));
    return names.join(u", "_s);
}

// dense_tflops: a peak above 0 for each tensor-core precision the card has ("bf16": 989.4); never a sparse one.
void readDensePeaks(ObjectReader& in, GpuSpec& gpu)
{
    const JsonNode* peaks = in.object("dense_tflops"_L1, Need::Required);
    if (!peaks)
        return;
    for (const JsonNode::Member& peak : peaks->members()) {
        if (in.problem().found())
            break;
        const QString where = in.where("dense_tflops"_L1) + u'.' + shortKey(peak.first);
        const std::optional<NumberFormat> precision = parseNumberFormat(peak.first);
        if (!precision || tensorPrecisionOf(*precision) != *precision || numberFormatName(*precision) != peak.first) {
            in.problem().report(Error::Code::Schema, where + u" is not a tensor-core precision; expected one of: "_s +
                                                         tensorPrecisionNames() + u" (dense peaks only)"_s);
            return;
        }
        const double tflops = ObjectReader::checkedNumber(peak.second, where, kMaxTflops, in.problem());
        if (!in.problem().found() && !(tflops > 0))
            in.problem().report(Error::Code::Range, where + u" must be above 0 (leave out what the card lacks)"_s);
        requirePhysical(in.problem(), where, tflops, PhysicalQuantity::ComputeGflops);
        gpu.setPeakTflops(*precision, tflops);
    }
    if (!in.problem().found() && !(gpu.peakTflops(NumberFormat::Bf16) > 0) && !(gpu.peakTflops(NumberFormat::Fp16) > 0))
        in.problem().report(Error::Code::Schema, in.where("dense_tflops"_L1) + u" needs a bf16 or fp16 peak"_s);
}

void readMeasuredBandwidth(ObjectReader& in, GpuSpec& gpu)
{
    gpu.measuredBandwidthTbs = in.number("triad_tbs"_L1, kMaxBandwidthTbs, Need::Required);
    gpu.measuredBandwidthSource = in.text("source"_L1, Need::Required);
    requirePositive(in, "triad_tbs"_L1, gpu.measuredBandwidthTbs);
    requirePhysical(in.problem(), in.where("triad_tbs"_L1), gpu.measuredBandwidthTbs, PhysicalQuantity::BandwidthGbps);
    requireNonEmpty(in, "source"_L1, gpu.measuredBandwidthSource);
    if (!in.problem().found() && gpu.measuredBandwidthTbs > gpu.bandwidthTbs)
        in.problem().report(Error::Code::Range,
                            in.where("triad_tbs"_L1) + u" is above the datasheet's bandwidth_tbs"_s);
}

// cache_bandwidth: L2 and L1 read bandwidths (TB/s), at least one, with where they were measured.
void readCacheBandwidth(ObjectReader& in, GpuSpec& gpu)
{
    for (const auto& [key, slot] : {std::pair{"l2_tbs"_L1, &gpu.l2Tbs}, std::pair{"l1_tbs"_L1, &gpu.l1Tbs}})
        if (in.has(key)) {
            *slot = in.number(key, kMaxBandwidthTbs);
            requirePositive(in, key, *slot);
            requirePhysical(in.problem(), in.where(key), *slot, PhysicalQuantity::BandwidthGbps);
        }
    gpu.cacheBandwidthSource = in.text("source"_L1, Need::Required);
    requireNonEmpty(in, "source"_L1, gpu.cacheBandwidthSource);
    if (!in.problem().found() && !(gpu.l2Tbs > 0) && !(gpu.l1Tbs > 0))
        in.problem().report(Error::Code::Schema, in.where("l2_tbs"_L1) + u" or l1_tbs is needed"_s);
    // A cache slower than the memory behind it is a typo.
    if (!in.problem().found() && ((gpu.l2Tbs > 0 && gpu.l2Tbs < gpu.bandwidthTbs) ||
                                  (gpu.l1Tbs > 0 && gpu.l1Tbs < std::max(gpu.l2Tbs, gpu.bandwidthTbs))))
        in.problem().report(Error::Code::Range,
                            in.where("l2_tbs"_L1) + u": L1 >= L2 >= bandwidth_tbs (the memory) is expected"_s);
}

// A price per GPU-hour in US dollars: above 0 and below kMaxGpuHourPrice.
double readPrice(ObjectReader& in, QLatin1StringView key, Need need)
{
    const double usd = in.number(key, kMaxGpuHourPrice, need);
    if (!in.problem().found() && !(usd > 0.0))
        in.problem().report(Error::Code::Range,
                            in.where(key) + u" must be a number of US dollars above 0 (leave it out for none)"_s);
    return usd;
}

// gpu_hour_price_example: one provider's published on-demand price, with who, when (the day the page was read,
// YYYY-MM-DD) and where; each is required, so an example never reaches the screen without its source.
void readExamplePrice(ObjectReader& in, GpuSpec::ExamplePrice& example)
{
    example.usdPerGpuHour = readPrice(in, "usd"_L1, Need::Required);
    example.provider = in.text("provider"_L1, Need::Required);
    requireNonEmpty(in, "provider"_L1, example.provider);
    example.date = in.text("date"_L1, Need::Required);
    if (!in.problem().found() && !QDate::fromString(example.date, Qt::ISODate).isValid())
        in.problem().report(Error::Code::Schema,
                            in.where("date"_L1) + u" must be a day as YYYY-MM-DD, got "_s + describeText(example.date));
    example.source = in.text("source"_L1, Need::Required);
    requireNonEmpty(in, "source"_L1, example.source);
}

GpuSpec gpuFrom(ObjectReader& in)
{
    GpuSpec gpu;
    gpu.id = in.text("id"_L1, Need::Required);
    requireNonEmpty(in, "id"_L1, gpu.id);
    gpu.name = in.text("name"_L1, Need::Required);
    requireNonEmpty(in, "name"_L1, gpu.name);
    gpu.vendor = in.text("vendor"_L1);
    gpu.memoryType = in.text("memory_type"_L1);
    gpu.memoryGib = in.number("memory_gib"_L1, kMaxMemoryGib, Need::Required);
    requirePositive(in, "memory_gib"_L1, gpu.memoryGib);
    gpu.memoryDatasheet = in.text("memory_datasheet"_L1);
    gpu.bandwidthTbs = in.number("bandwidth_tbs"_L1, kMaxBandwidthTbs, Need::Required);
    requirePositive(in, "bandwidth_tbs"_L1, gpu.bandwidthTbs);
    requirePhysical(in.problem(), in.where("bandwidth_tbs"_L1), gpu.bandwidthTbs, PhysicalQuantity::BandwidthGbps);
    readObject(in, "measured_bandwidth"_L1, [&gpu](ObjectReader& m) { readMeasuredBandwidth(m, gpu); });
    readDensePeaks(in, gpu);
    readObject(in, "interconnect"_L1, [&gpu](ObjectReader& link) {
        gpu.interconnect = link.text("link"_L1);
        gpu.interconnectName = link.text("name"_L1);
        gpu.scaleUpGpus = link.smallInteger("gpus"_L1, 0, kMaxScaleUpGpus, 0);
        gpu.interconnectGbPerDirection = link.number("gb_s_per_direction"_L1, kMaxLinkGbs);
    });
    readObject(in, "network"_L1, [&gpu](ObjectReader& link) { gpu.networkLink = link.text("link"_L1); });
    readObject(in, "host_link"_L1, [&gpu](ObjectReader& link) {
        gpu.hostLink = link.text("link"_L1);
        gpu.hostLinkGbPerDirection = link.number("gb_s_per_direction"_L1, kMaxLinkGbs);
    });
    gpu.tdpWatts = in.number("tdp_w"_L1, kMaxWatts);
    gpu.smCount = in.smallInteger("sm_count"_L1, 0, kMaxSmCount, 0);
    if (in.has("gpu_hour_price"_L1))
        gpu.gpuHourPrice = readPrice(in, "gpu_hour_price"_L1, Need::Optional);
    readObject(in, "gpu_hour_price_example"_L1, [&gpu](ObjectReader& e) { readExamplePrice(e, gpu.examplePrice); });
    gpu.source = in.text("source"_L1, Need::Required);
    requireNonEmpty(in, "source"_L1, gpu.source);
    if (in.has("fp64_tflops"_L1)) {
        gpu.fp64Tflops = in.number("fp64_tflops"_L1, kMaxTflops);
        requirePositive(in, "fp64_tflops"_L1, gpu.fp64Tflops);
    }
    readObject(in, "cache_bandwidth"_L1, [&gpu](ObjectReader& c) { readCacheBandwidth(c, gpu); });
    gpu.deviceNames = textListFromJson(in, "device_names"_L1, kMaxDeviceNames);
    for (qsizetype i = 0; i < gpu.deviceNames.size() && !in.problem().found(); ++i)
        if (gpu.deviceNames[i].trimmed().isEmpty())
            in.problem().report(Error::Code::Schema, indexedPath(in.where("device_names"_L1), i) + u" is empty"_s);
    return gpu;
}

// A word from a fixed set, e.g. ffn_kind "swiglu" or "gelu"; the first is the default.
QString oneOf(ObjectReader& in, QLatin1StringView key, const QStringList& words)
{
    if (!in.has(key))
        return words.constFirst();
    const QString word = in.text(key);
    if (!in.problem().found() && !words.contains(word))
        in.problem().report(Error::Code::Schema,
                            in.where(key) + u" must be "_s + words.join(u" or "_s) + u", got "_s + describeText(word));
    return word;
}

void readMoe(ObjectReader& in, ModelSpec& m)
{
    m.experts = in.smallInteger("experts"_L1, 0, kMaxShape, 0, Need::Required);
    m.activeExperts = in.smallInteger("active"_L1, 0, kMaxShape, 0, Need::Required);
    m.sharedExperts = in.smallInteger("shared"_L1, 0, kMaxShape, 0);
    m.moeFfn = in.smallInteger("expert_ffn"_L1, 0, kMaxShape, 0, Need::Required);
    m.sharedExpertFfn = in.smallInteger("shared_ffn"_L1, 0, kMaxShape, 0);
    m.denseLayers = in.smallInteger("dense_layers"_L1, 0, kMaxShape, 0);
    m.routerBias = in.boolean("router_bias"_L1, false);
}

void readMla(ObjectReader& in, ModelSpec& m)
{
    m.qLoraRank = in.smallInteger("q_lora_rank"_L1, 0, kMaxShape, 0);
    m.kvLoraRank = in.smallInteger("kv_lora_rank"_L1, 0, kMaxShape, 0, Need::Required);
    m.qkNopeHeadDim = in.smallInteger("qk_nope_head_dim"_L1, 0, kMaxShape, 0, Need::Required);
    m.qkRopeHeadDim = in.smallInteger("qk_rope_head_dim"_L1, 0, kMaxShape, 0, Need::Required);
    m.vHeadDim = in.smallInteger("v_head_dim"_L1, 0, kMaxShape, 0, Need::Required);
}

ModelSpec modelFrom(ObjectReader& in)
{
    ModelSpec m;
    m.id = in.text("id"_L1, Need::Required);
    requireNonEmpty(in, "id"_L1, m.id);
    m.name = in.text("name"_L1, Need::Required);
    requireNonEmpty(in, "name"_L1, m.name);
    m.source = in.text("source"_L1, Need::Required);
    requireNonEmpty(in, "source"_L1, m.source);
    // Latent attention (DeepSeek) replaces the KV heads and the head dimension.
    const Need unlessMla = in.has("mla"_L1) ? Need::Optional : Need::Required;
    m.layers = in.smallInteger("layers"_L1, 0, kMaxShape, 0, Need::Required);
    m.hidden = in.smallInteger("hidden"_L1, 0, kMaxShape, 0, Need::Required);
    m.heads = in.smallInteger("heads"_L1, 0, kMaxShape, 0, Need::Required);
    m.kvHeads = in.smallInteger("kv_heads"_L1, 0, kMaxShape, 0, unlessMla);
    m.headDim = in.smallInteger("head_dim"_L1, 0, kMaxShape, 0, unlessMla);
    m.ffn = in.smallInteger("ffn"_L1, 0, kMaxShape, 0, Need::Required);
    m.vocab = in.smallInteger("vocab"_L1, 0, kMaxShape, 0, Need::Required);
    m.learnedPositions = in.smallInteger("learned_positions"_L1, 0, kMaxShape, 0);
    m.slidingWindow = in.smallInteger("sliding_window"_L1, 0, kMaxShape, 0);
    m.maxContext = in.smallInteger("max_context"_L1, 0, kMaxShape, 0);
    m.allReducesPerLayer = in.smallInteger("all_reduces_per_layer"_L1, 1, 2, 2);
    m.tiedEmbeddings = in.boolean("tied_embeddings"_L1, false);
    m.gatedFfn = oneOf(in, "ffn_kind"_L1, {u"swiglu"_s, u"gelu"_s}) == u"swiglu"_s;
    m.qkvBias = in.boolean("qkv_bias"_L1, false);
    m.linearBias = in.boolean("linear_bias"_L1, false);
    m.norm = oneOf(in, "norm"_L1, {u"rms"_s, u"layer"_s}) == u"rms"_s ? NormKind::Rms : NormKind::Layer;
    readObject(in, "moe"_L1, [&m](ObjectReader& moe) { readMoe(moe, m); });
    readObject(in, "mla"_L1, [&m](ObjectReader& mla) { readMla(mla, m); });
    if (!in.problem().found())
        if (const Result<ParamCounts> counts = countParams(m); !counts)
            in.problem().report(Error::Code::Schema, counts.error().message);
    return m;
}

// A catalog file: its header, its notes and its list of entries, each read by readEntry; ids are unique.
template <typename Spec, typename ReadEntry>
Result<std::vector<Spec>> readCatalog(const QByteArray& json, const QString& format, const QString& kind,
                                      QLatin1StringView listKey, ReadEntry readEntry)
{
    const Result<JsonNode> root = parseStrictObject(json);
    if (!root)
        return root.error();
    Problem problem;
    ObjectReader in(root.value(), QString(), problem);
    readHeader(in, format, kind, kCatalogSchemaVersion);
    in.text("notes"_L1);
    std::vector<Spec> entries = readEntries<Spec>(in, listKey, kMaxCatalogEntries, Need::Required, readEntry);
    in.rejectUnknownKeys();
    std::set<QString> ids;
    for (std::size_t i = 0; i < entries.size() && !problem.found(); ++i)
        if (!ids.insert(entries[i].id).second)
            problem.report(Error::Code::Schema, indexedPath(QString(listKey), static_cast<qsizetype>(i)) + u".id \""_s +
                                                    entries[i].id + u"\" is used twice"_s);
    if (problem.found())
        return problem.error();
    return entries;
}

QJsonObject linkToJson(const QString& link, double gbPerDirection)
{
    QJsonObject object{{u"link"_s, link}};
    if (gbPerDirection > 0)
        object.insert("gb_s_per_direction"_L1, gbPerDirection);
    return object;
}

QJsonObject gpuToJson(const GpuSpec& g)
{
    QJsonObject peaks;
    for (NumberFormat precision : kAllNumberFormats)
        if (g.denseTflops[formatIndex(precision)] > 0)
            peaks.insert(numberFormatName(precision), g.denseTflops[formatIndex(precision)]);
    QJsonObject o{{u"id"_s, g.id},
                  {u"name"_s, g.name},
                  {u"memory_gib"_s, g.memoryGib},
                  {u"bandwidth_tbs"_s, g.bandwidthTbs},
                  {u"dense_tflops"_s, peaks},
                  {u"source"_s, g.source}};
    const std::pair<QLatin1StringView, const QString&> texts[] = {
        {"vendor"_L1, g.vendor}, {"memory_type"_L1, g.memoryType}, {"memory_datasheet"_L1, g.memoryDatasheet}};
    for (const auto& [key, text] : texts)
        if (!text.isEmpty())
            o.insert(key, text);
    if (g.measuredBandwidthTbs > 0)
        o.insert("measured_bandwidth"_L1,
                 QJsonObject{{u"triad_tbs"_s, g.measuredBandwidthTbs}, {u"source"_s, g.measuredBandwidthSource}});
    if (!g.interconnect.isEmpty() || !g.interconnectName.isEmpty() || g.interconnectGbPerDirection > 0) {
        QJsonObject link = linkToJson(g.interconnect, g.interconnectGbPerDirection);
        if (!g.interconnectName.isEmpty())
            link.insert("name"_L1, g.interconnectName);
        if (g.scaleUpGpus > 0)
            link.insert("gpus"_L1, g.scaleUpGpus);
        o.insert("interconnect"_L1, link);
    }
    if (!g.networkLink.isEmpty())
        o.insert("network"_L1, linkToJson(g.networkLink, 0));
    if (!g.hostLink.isEmpty())
        o.insert("host_link"_L1, linkToJson(g.hostLink, g.hostLinkGbPerDirection));
    if (g.tdpWatts > 0)
        o.insert("tdp_w"_L1, g.tdpWatts);
    if (g.smCount > 0)
        o.insert("sm_count"_L1, g.smCount);
    if (g.gpuHourPrice > 0)
        o.insert("gpu_hour_price"_L1, g.gpuHourPrice);
    if (g.examplePrice.usdPerGpuHour > 0)
        o.insert("gpu_hour_price_example"_L1, QJsonObject{{"usd"_L1, g.examplePrice.usdPerGpuHour},
                                                          {"provider"_L1, g.examplePrice.provider},
                                                          {"date"_L1, g.examplePrice.date},
                                                          {"source"_L1, g.examplePrice.source}});
    if (!g.deviceNames.isEmpty())
        o.insert("device_names"_L1, QJsonArray::fromStringList(g.deviceNames));
    if (g.fp64Tflops > 0)
        o.insert("fp64_tflops"_L1, g.fp64Tflops);
    if (g.l2Tbs > 0 || g.l1Tbs > 0) {
        QJsonObject caches{{u"source"_s, g.cacheBandwidthSource}};
        if (g.l2Tbs > 0)
            caches.insert("l2_tbs"_L1, g.l2Tbs);
        if (g.l1Tbs > 0)
            caches.insert("l1_tbs"_L1, g.l1Tbs);
        o.insert("cache_bandwidth"_L1, caches);
    }
    return o;
}

// Writes a field only when it differs from what the reader assumes without it.
void insertIfSet(QJsonObject& o, QLatin1StringView key, int value)
{
    if (value != 0)
        o.insert(key, value);
}

QJsonObject modelToJson(const ModelSpec& m)
{
    QJsonObject o{{u"id"_s, m.id},         {u"name"_s, m.name},   {u"source"_s, m.source}, {u"layers"_s, m.layers},
                  {u"hidden"_s, m.hidden}, {u"heads"_s, m.heads}, {u"ffn"_s, m.ffn},       {u"vocab"_s, m.vocab}};
    // Latent attention (MLA) needs neither; the reader keeps them when given.
    if (!m.isMla() || m.kvHeads != 0)
        o.insert("kv_heads"_L1, m.kvHeads);
    if (!m.isMla() || m.headDim != 0)
        o.insert("head_dim"_L1, m.headDim);
    insertIfSet(o, "learned_positions"_L1, m.learnedPositions);
    insertIfSet(o, "sliding_window"_L1, m.slidingWindow);
    insertIfSet(o, "max_context"_L1, m.maxContext);
    if (m.allReducesPerLayer != 2)
        o.insert("all_reduces_per_layer"_L1, m.allReducesPerLayer);
    o.insert("tied_embeddings"_L1, m.tiedEmbeddings);
    o.insert("ffn_kind"_L1, m.gatedFfn ? u"swiglu"_s : u"gelu"_s);
    o.insert("norm"_L1, m.norm == NormKind::Rms ? u"rms"_s : u"layer"_s);
    if (m.qkvBias)
        o.insert("qkv_bias"_L1, true);
    if (m.linearBias)
        o.insert("linear_bias"_L1, true);
    if (m.isMoe()) {
        QJsonObject moe{{u"experts"_s, m.experts}, {u"active"_s, m.activeExperts}, {u"expert_ffn"_s, m.moeFfn}};
        insertIfSet(moe, "shared"_L1, m.sharedExperts);
        insertIfSet(moe, "shared_ffn"_L1, m.sharedExpertFfn);
        insertIfSet(moe, "dense_layers"_L1, m.denseLayers);
        if (m.routerBias)
            moe.insert("router_bias"_L1, true);
        o.insert("moe"_L1, moe);
    }
    if (m.isMla()) {
        QJsonObject mla{{u"kv_lora_rank"_s, m.kvLoraRank},
                        {u"qk_nope_head_dim"_s, m.qkNopeHeadDim},
                        {u"qk_rope_head_dim"_s, m.qkRopeHeadDim},
                        {u"v_head_dim"_s, m.vHeadDim}};
        insertIfSet(mla, "q_lora_rank"_L1, m.qLoraRank);
        o.insert("mla"_L1, mla);
    }
    return o;
}

}  // namespace

Result<std::vector<GpuSpec>> parseGpuCatalog(const QByteArray& json)
{
    return readCatalog<GpuSpec>(json, kGpuFormat, u"GPU catalog"_s, "gpus"_L1, gpuFrom);
}

Result<std::vector<ModelSpec>> parseModelCatalog(const QByteArray& json)
{
    return readCatalog<ModelSpec>(json, kModelFormat, u"model catalog"_s, "models"_L1, modelFrom);
}

QByteArray gpuCatalogToJson(const std::vector<GpuSpec>& gpus)
{
    QJsonArray list;
    for (const GpuSpec& gpu : gpus)
        list.append(gpuToJson(gpu));
    const QJsonObject root{{u"format"_s, kGpuFormat},
                           {u"schema_version"_s, kCatalogSchemaVersion},
                           {u"notes"_s,
                            u"Dense peaks only, never with sparsity: dense_tflops in TFLOP/s (TOPS for "
                            "int8); bandwidth_tbs in TB/s = 1e12 bytes/s; memory_gib in GiB = 2^30 bytes; "
                            "links in GB/s per direction."_s},
                           {u"gpus"_s, list}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QByteArray modelCatalogToJson(const std::vector<ModelSpec>& models)
{
    QJsonArray list;
    for (const ModelSpec& model : models)
        list.append(modelToJson(model));
    const QJsonObject root{{u"format"_s, kModelFormat},
                           {u"schema_version"_s, kCatalogSchemaVersion},
                           {u"notes"_s,
                            u"Exact shapes; parameter counts are computed from them. ffn = the dense FFN inner size; "
                            "kv_heads < heads is grouped-query attention; moe.expert_ffn = one routed expert's "
                            "inner size."_s},
                           {u"models"_s, list}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

}  // namespace ridgeline
