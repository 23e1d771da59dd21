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

constexpr int kSchemaVersion = 1;

Error parseError(const QString& message)
{
    return makeError(Error::Code::Parse, message);
}

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
