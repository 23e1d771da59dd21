#include "core/model/catalog.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <cmath>
#include <limits>

// Q_INIT_RESOURCE must be used outside any namespace. The resources live in ridgeline_core (a static
// library), so nothing references them unless we do: without this a linker may drop them.
static void initCatalogResources()
{
    Q_INIT_RESOURCE(catalogs);
}

namespace ridgeline {

namespace {

constexpr double kMaxParams = 1e13;
constexpr int kSchemaVersion = 1;

Error parseError(const QString& message)
{
    return makeError(Error::Code::Parse, message);
}

template <typename T>
struct ParamCountsT {
    T total{}, embedding{}, lmHead{}, positional{}, perExpert{}, routedExperts{}, activePerToken{};
    T attention{}, denseFfn{}, sharedExperts{}, router{}, norms{};
};

// Reads a non-negative integer field; `required` fields must be present and >= 1.
bool readInt(const QJsonObject& object, const char* key, int& out, bool required, QString& error, const QString& where)
{
    const QJsonValue value = object.value(QLatin1String(key));
    if (value.isUndefined()) {
        if (required) {
            error = QStringLiteral("%1: missing \"%2\"").arg(where, QLatin1String(key));
            return false;
        }
        return true;
    }
    const double number = value.toDouble(-1.0);
    if (!value.isDouble() || number < 0 || number != std::floor(number) || number > 1e9) {
        error = QStringLiteral("%1: \"%2\" must be a non-negative integer").arg(where, QLatin1String(key));
        return false;
    }
    out = static_cast<int>(number);
    return true;
}

}  // namespace

std::int64_t GpuSpec::memoryBytes() const
{
    return std::llround(memoryGib * 1073741824.0);
}

double GpuSpec::sustainedBandwidthTbs() const
{
    return measuredBandwidthTbs > 0 ? measuredBandwidthTbs : bandwidthTbs * kTypicalSustainedShare;
}

Result<GpuSpec> customGpu(double peakTflops, double bandwidthTbs, double memoryGib)
{
    // Sanity caps: a thousand times beyond any card of 2026 is a typo, not a GPU.
    if (!(peakTflops > 0) || !std::isfinite(peakTflops) || peakTflops > 1e6)
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("peak must be a positive number of TFLOP/s up to 1e6, got %1").arg(peakTflops));
    if (!(bandwidthTbs > 0) || !std::isfinite(bandwidthTbs) || bandwidthTbs > 1e4)
        return makeError(
            Error::Code::InvalidArgument,
            QStringLiteral("bandwidth must be a positive number of TB/s up to 1e4, got %1").arg(bandwidthTbs));
    if (!(memoryGib > 0) || !std::isfinite(memoryGib) || memoryGib > 1e7)
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("memory must be a positive number of GiB up to 1e7, got %1").arg(memoryGib));
    GpuSpec gpu;
    gpu.id = QStringLiteral("custom");
    gpu.name =
        QStringLiteral("Custom GPU (%1 TFLOP/s, %2 TB/s, %3 GiB)").arg(peakTflops).arg(bandwidthTbs).arg(memoryGib);
    gpu.vendor = QStringLiteral("custom");
    gpu.memoryGib = memoryGib;
    gpu.memoryDatasheet = QStringLiteral("%1 GiB").arg(memoryGib);
    gpu.bandwidthTbs = bandwidthTbs;
    for (NumberFormat precision : kAllNumberFormats)
        gpu.setPeakTflops(precision, peakTflops);
    gpu.source = QStringLiteral("given on the command line");
    return gpu;
}

Result<ParamCounts> countParams(const ModelSpec& m)
{
    const QString where = m.id.isEmpty() ? QStringLiteral("model") : QStringLiteral("model %1").arg(m.id);
    auto invalid = [&](const QString& what) {
        return makeError(Error::Code::InvalidArgument, QStringLiteral("%1: %2").arg(where, what));
    };
    if (m.layers < 1 || m.hidden < 1 || m.heads < 1 || m.vocab < 1)
        return invalid(QStringLiteral("layers, hidden size, heads and vocabulary must all be at least 1"));
    if (m.isMla()) {
        if (m.qkNopeHeadDim < 1 || m.qkRopeHeadDim < 1 || m.vHeadDim < 1 || m.qLoraRank < 0)
            return invalid(QStringLiteral("latent attention needs positive nope, rope and value head dimensions"));
    } else {
        if (m.kvHeads < 1 || m.headDim < 1)
            return invalid(QStringLiteral("KV heads and head dimension must be at least 1"));
        if (m.kvHeads > m.heads || m.heads % m.kvHeads != 0)
            return invalid(
                QStringLiteral("%1 query heads cannot be shared by %2 KV heads").arg(m.heads).arg(m.kvHeads));
    }
    if (m.isMoe()) {
        if (m.activeExperts < 1 || m.activeExperts > m.experts)
            return invalid(QStringLiteral("active experts must be between 1 and %1").arg(m.experts));
        if (m.moeFfn < 1 || m.sharedExperts < 0 || m.sharedExpertFfn < 0 || m.denseLayers < 0 ||
            m.denseLayers > m.layers)
            return invalid(QStringLiteral("expert FFN size must be positive and dense layers at most the layer count"));
    } else if (m.experts < 0 || m.activeExperts != 0) {
        return invalid(QStringLiteral("active experts given without experts"));
    }
    const int denseFfnLayers = m.isMoe() ? m.denseLayers : m.layers;
    if (denseFfnLayers > 0 && m.ffn < 1)
        return invalid(QStringLiteral("FFN size must be at least 1"));
    if (m.slidingWindow < 0 || m.learnedPositions < 0 || m.paramsOverride < 0)
        return invalid(QStringLiteral("sliding window, positions and parameter count cannot be negative"));

    // Count in double first: every term is a product of positive integers, so if the double total is
    // within 1e13 every term is exact below 2^53 and the int64 count below cannot overflow.
    auto count = [&](auto zero) {
        using T = decltype(zero);
        const T h = m.hidden, L = m.layers, V = m.vocab, H = m.heads;
        const T norm = m.norm == NormKind::Rms ? h : 2 * h;
        T attention = 0;
        if (m.isMla()) {
            const T nope = m.qkNopeHeadDim, rope = m.qkRopeHeadDim, v = m.vHeadDim, q = m.qLoraRank, kv = m.kvLoraRank;
            attention += q > 0 ? h * q + q + q * H * (nope + rope) : h * H * (nope + rope);
            attention += h * (kv + rope) + kv + kv * H * (nope + v) + H * v * h;
        } else {
            const T K = m.kvHeads, d = m.headDim;
            attention = h * H * d + 2 * h * K * d + H * d * h;
            if (m.qkvBias || m.linearBias)
                attention += H * d + 2 * K * d;
            if (m.linearBias)
                attention += h;
        }
        const T matrices = m.gatedFfn ? 3 : 2;
        T denseFfn = matrices * h * T(m.ffn);
        if (m.linearBias)
            denseFfn += T(m.ffn) + h;
        const T perExpert = m.isMoe() ? matrices * h * T(m.moeFfn) : 0;
        const T perShared = m.isMoe() ? matrices * h * T(m.sharedExpertFfn > 0 ? m.sharedExpertFfn : m.moeFfn) : 0;
        const T experts = m.experts, moeLayers = m.moeLayers();
        ParamCountsT<T> c;
        c.embedding = V * h;
        c.lmHead = m.tiedEmbeddings ? 0 : V * h;
        c.positional = T(m.learnedPositions) * h;
        c.perExpert = perExpert;
        c.routedExperts = moeLayers * experts * perExpert;
        c.attention = L * attention;
        c.denseFfn = T(denseFfnLayers) * denseFfn;
        c.sharedExperts = moeLayers * T(m.sharedExperts) * perShared;
        c.router = m.isMoe() ? moeLayers * (h * experts + (m.routerBias ? experts : 0)) : 0;
        c.norms = L * 2 * norm + norm;
        c.total = c.embedding + c.lmHead + c.positional + c.attention + c.denseFfn + c.sharedExperts + c.routedExperts +
                  c.router + c.norms;
        c.activePerToken = c.total - moeLayers * (experts - T(m.activeExperts)) * perExpert;
        return c;
    };
    const auto estimate = count(0.0);
    if (!(estimate.total <= kMaxParams))
        return makeError(
            Error::Code::Range,
            QStringLiteral("%1: %2 parameters is beyond the supported 1e13").arg(where).arg(estimate.total, 0, 'g', 3));
    const auto exact = count(std::int64_t{0});
    ParamCounts counts{exact.total,     exact.embedding,     exact.lmHead,         exact.positional,
                       exact.perExpert, exact.routedExperts, exact.activePerToken, exact.attention,
                       exact.denseFfn,  exact.sharedExperts, exact.router,         exact.norms};
    if (m.paramsOverride > 0) {
        if (static_cast<double>(m.paramsOverride) > kMaxParams)
            return makeError(Error::Code::Range, QStringLiteral("%1: parameter count beyond 1e13").arg(where));
        counts.total = m.paramsOverride;
        counts.activePerToken = m.paramsOverride;
        counts.routedExperts = 0;
    }
    return counts;
}

Result<ModelSpec> modelFromParamCount(double params)
{
    if (!(params >= 1e6) || !std::isfinite(params) || params > kMaxParams)
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("parameter count must be between 1e6 and 1e13, got %1").arg(params));
    const double perLayerUnit = 12.0 * 128.0 * 128.0;  // 12 h^2 per layer with h = 128 L
    const int layers = std::max(1, static_cast<int>(std::lround(std::cbrt(params / perLayerUnit))));
    const int heads = std::max(1, static_cast<int>(std::lround(std::sqrt(params / (12.0 * layers)) / 128.0)));
    ModelSpec m;
    m.id = QStringLiteral("custom");
    m.name = QStringLiteral("Custom model (~%1 parameters)").arg(params, 0, 'g', 3);
    m.source = QStringLiteral("shapes derived from the parameter count: MHA, head dim 128, 12 h^2 per layer");
    m.layers = layers;
    m.hidden = heads * 128;
    m.heads = heads;
    m.kvHeads = heads;
    m.headDim = 128;
    m.ffn = static_cast<int>(std::lround(8.0 * m.hidden / 3.0));
    m.vocab = 32000;
    m.paramsOverride = std::llround(params);
    return m;
}

namespace {

Result<QJsonArray> openCatalog(const QByteArray& json, const char* format, const char* listKey)
{
    QJsonParseError parse;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parse);
    if (document.isNull())
        return parseError(
            QStringLiteral("catalog is not valid JSON: %1 at offset %2").arg(parse.errorString()).arg(parse.offset));
    const QJsonObject root = document.object();
    if (root.value(QLatin1String("format")).toString() != QLatin1String(format))
        return makeError(Error::Code::Schema, QStringLiteral("not a %1 file").arg(QLatin1String(format)));
    const int version = root.value(QLatin1String("schema_version")).toInt(-1);
    if (version != kSchemaVersion)
        return makeError(Error::Code::Schema,
                         QStringLiteral("%1 schema_version %2 is not supported (this build reads %3)")
                             .arg(QLatin1String(format))
                             .arg(version)
                             .arg(kSchemaVersion));
    const QJsonValue list = root.value(QLatin1String(listKey));
    if (!list.isArray())
        return parseError(
            QStringLiteral("%1: \"%2\" must be an array").arg(QLatin1String(format), QLatin1String(listKey)));
    return list.toArray();
}

}  // namespace

Result<std::vector<GpuSpec>> parseGpuCatalog(const QByteArray& json)
{
    Result<QJsonArray> array = openCatalog(json, "ridgeline-gpu-catalog", "gpus");
    if (!array)
        return array.error();
    std::vector<GpuSpec> gpus;
    for (const QJsonValue& entry : array.value()) {
        const QJsonObject o = entry.toObject();
        GpuSpec gpu;
        gpu.id = o.value(QLatin1String("id")).toString();
        const QString where = QStringLiteral("gpu %1").arg(gpu.id);
        gpu.name = o.value(QLatin1String("name")).toString();
        gpu.vendor = o.value(QLatin1String("vendor")).toString();
        gpu.memoryType = o.value(QLatin1String("memory_type")).toString();
        gpu.memoryGib = o.value(QLatin1String("memory_gib")).toDouble();
        gpu.memoryDatasheet = o.value(QLatin1String("memory_datasheet")).toString();
        gpu.bandwidthTbs = o.value(QLatin1String("bandwidth_tbs")).toDouble();
        const QJsonObject measured = o.value(QLatin1String("measured_bandwidth")).toObject();
        gpu.measuredBandwidthTbs = measured.value(QLatin1String("triad_tbs")).toDouble(0.0);
        gpu.measuredBandwidthSource = measured.value(QLatin1String("source")).toString();
        if (!measured.isEmpty() && (!(gpu.measuredBandwidthTbs > 0) || gpu.measuredBandwidthTbs > gpu.bandwidthTbs ||
                                    gpu.measuredBandwidthSource.isEmpty()))
            return parseError(QStringLiteral("gpu %1: measured_bandwidth needs triad_tbs (positive, at most the "
                                             "datasheet's) and a source")
                                  .arg(gpu.id));
        const QJsonObject interconnect = o.value(QLatin1String("interconnect")).toObject();
        gpu.interconnect = interconnect.value(QLatin1String("link")).toString();
        gpu.interconnectGbPerDirection = interconnect.value(QLatin1String("gb_s_per_direction")).toDouble();
        gpu.scaleUpGpus = interconnect.value(QLatin1String("gpus")).toInt(0);
        gpu.networkLink = o.value(QLatin1String("network")).toObject().value(QLatin1String("link")).toString();
        gpu.hostLink = o.value(QLatin1String("host_link")).toObject().value(QLatin1String("link")).toString();
        gpu.tdpWatts = o.value(QLatin1String("tdp_w")).toDouble();
        gpu.source = o.value(QLatin1String("source")).toString();
        if (gpu.id.isEmpty() || gpu.name.isEmpty() || gpu.source.isEmpty())
            return parseError(QStringLiteral("%1: id, name and source are required").arg(where));
        if (!(gpu.memoryGib > 0) || !(gpu.bandwidthTbs > 0))
            return parseError(QStringLiteral("%1: memory_gib and bandwidth_tbs must be positive").arg(where));
        const QJsonObject peaks = o.value(QLatin1String("dense_tflops")).toObject();
        for (auto it = peaks.begin(); it != peaks.end(); ++it) {
            const std::optional<NumberFormat> precision = parseNumberFormat(it.key());
            if (!precision || tensorPrecisionOf(*precision) != *precision || !(it.value().toDouble() > 0))
                return parseError(QStringLiteral("%1: dense_tflops has a bad entry \"%2\"").arg(where, it.key()));
            gpu.setPeakTflops(*precision, it.value().toDouble());
        }
        if (!(gpu.peakTflops(NumberFormat::Bf16) > 0) && !(gpu.peakTflops(NumberFormat::Fp16) > 0))
            return parseError(QStringLiteral("%1: a 16-bit dense peak is required").arg(where));
        gpus.push_back(gpu);
    }
    return gpus;
}

Result<std::vector<ModelSpec>> parseModelCatalog(const QByteArray& json)
{
    Result<QJsonArray> array = openCatalog(json, "ridgeline-model-catalog", "models");
    if (!array)
        return array.error();
    std::vector<ModelSpec> models;
    for (const QJsonValue& entry : array.value()) {
        const QJsonObject o = entry.toObject();
        ModelSpec m;
        m.id = o.value(QLatin1String("id")).toString();
        m.name = o.value(QLatin1String("name")).toString();
        m.source = o.value(QLatin1String("source")).toString();
        const QString where = QStringLiteral("model %1").arg(m.id);
        if (m.id.isEmpty() || m.name.isEmpty() || m.source.isEmpty())
            return parseError(QStringLiteral("%1: id, name and source are required").arg(where));
        QString error;
        const QJsonObject mla = o.value(QLatin1String("mla")).toObject();
        const QJsonObject moe = o.value(QLatin1String("moe")).toObject();
        const bool isMla = !mla.isEmpty();
        const bool ok =
            readInt(o, "layers", m.layers, true, error, where) && readInt(o, "hidden", m.hidden, true, error, where) &&
            readInt(o, "heads", m.heads, true, error, where) &&
            readInt(o, "kv_heads", m.kvHeads, !isMla, error, where) &&
            readInt(o, "head_dim", m.headDim, !isMla, error, where) && readInt(o, "ffn", m.ffn, true, error, where) &&
            readInt(o, "vocab", m.vocab, true, error, where) &&
            readInt(o, "learned_positions", m.learnedPositions, false, error, where) &&
            readInt(o, "sliding_window", m.slidingWindow, false, error, where) &&
            readInt(o, "max_context", m.maxContext, false, error, where) &&
            readInt(moe, "experts", m.experts, !moe.isEmpty(), error, where) &&
            readInt(moe, "active", m.activeExperts, !moe.isEmpty(), error, where) &&
            readInt(moe, "shared", m.sharedExperts, false, error, where) &&
            readInt(moe, "expert_ffn", m.moeFfn, !moe.isEmpty(), error, where) &&
            readInt(moe, "shared_ffn", m.sharedExpertFfn, false, error, where) &&
            readInt(moe, "dense_layers", m.denseLayers, false, error, where) &&
            readInt(mla, "q_lora_rank", m.qLoraRank, false, error, where) &&
            readInt(mla, "kv_lora_rank", m.kvLoraRank, isMla, error, where) &&
            readInt(mla, "qk_nope_head_dim", m.qkNopeHeadDim, isMla, error, where) &&
            readInt(mla, "qk_rope_head_dim", m.qkRopeHeadDim, isMla, error, where) &&
            readInt(mla, "v_head_dim", m.vHeadDim, isMla, error, where);
        if (!ok)
            return parseError(error);
        m.tiedEmbeddings = o.value(QLatin1String("tied_embeddings")).toBool(false);
        const QString ffnKind = o.value(QLatin1String("ffn_kind")).toString(QStringLiteral("swiglu"));
        if (ffnKind != QLatin1String("swiglu") && ffnKind != QLatin1String("gelu"))
            return parseError(QStringLiteral("%1: ffn_kind must be swiglu or gelu").arg(where));
        m.gatedFfn = ffnKind == QLatin1String("swiglu");
        m.qkvBias = o.value(QLatin1String("qkv_bias")).toBool(false);
        m.linearBias = o.value(QLatin1String("linear_bias")).toBool(false);
        const QString norm = o.value(QLatin1String("norm")).toString(QStringLiteral("rms"));
        if (norm != QLatin1String("rms") && norm != QLatin1String("layer"))
            return parseError(QStringLiteral("%1: norm must be rms or layer").arg(where));
        m.norm = norm == QLatin1String("rms") ? NormKind::Rms : NormKind::Layer;
        m.routerBias = moe.value(QLatin1String("router_bias")).toBool(false);
        Result<ParamCounts> counts = countParams(m);
        if (!counts)
            return parseError(counts.error().message);
        models.push_back(m);
    }
    return models;
}

namespace {

QByteArray readResource(const QString& path)
{
    initCatalogResources();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray();
    return file.readAll();
}

template <typename T>
Result<T> loadBuiltin(const QString& path, Result<T> (*parse)(const QByteArray&))
{
    const QByteArray bytes = readResource(path);
    if (bytes.isEmpty())
        return makeError(Error::Code::Io, QStringLiteral("built-in catalog %1 is missing from this build").arg(path));
    return parse(bytes);
}

template <typename Spec>
Result<Spec> findIn(const Result<std::vector<Spec>>& list, QStringView id, const char* what)
{
    if (!list)
        return list.error();
    QStringList known;
    for (const Spec& spec : list.value()) {
        if (id.compare(spec.id, Qt::CaseInsensitive) == 0)
            return spec;
        known << spec.id;
    }
    return makeError(Error::Code::NotFound,
                     QStringLiteral("unknown %1 \"%2\"; known: %3")
                         .arg(QLatin1String(what), id.toString(), known.join(QStringLiteral(", "))));
}

}  // namespace

const Result<std::vector<GpuSpec>>& builtinGpus()
{
    static const Result<std::vector<GpuSpec>> gpus =
        loadBuiltin(QStringLiteral(":/catalogs/gpus.json"), &parseGpuCatalog);
    return gpus;
}

const Result<std::vector<ModelSpec>>& builtinModels()
{
    static const Result<std::vector<ModelSpec>> models =
        loadBuiltin(QStringLiteral(":/catalogs/models.json"), &parseModelCatalog);
    return models;
}

Result<GpuSpec> findGpu(QStringView id)
{
    return findIn(builtinGpus(), id, "GPU");
}
Result<ModelSpec> findModel(QStringView id)
{
    return findIn(builtinModels(), id, "model");
}

}  // namespace ridgeline
