#include "core/model/catalog/catalog.h"

#include "core/model/catalog/catalog_json.h"
#include "core/physical_limits.h"

#include <QFile>
#include <QStringList>

#include <cmath>

// Q_INIT_RESOURCE must be used outside any namespace. The resources live in ridgeline_core (a static
// library), so nothing references them unless we do: without this a linker may drop them.
static void initCatalogResources()
{
    Q_INIT_RESOURCE(catalogs);
}

namespace ridgeline {

Result<GpuSpec> customGpu(double peakTflops, double bandwidthTbs, double memoryGib)
{
    // The physical rule of every roof (core/physical_limits.h), in TFLOP/s and TB/s: a peak or bandwidth
    // outside it would make the ridge, the times or the chart's axes overflow.
    if (const auto bad = physicalProblem(PhysicalQuantity::ComputeGflops, peakTflops, 1000.0, u"TFLOP/s"))
        return makeError(Error::Code::InvalidArgument, QStringLiteral("peak %1").arg(*bad));
    if (const auto bad = physicalProblem(PhysicalQuantity::BandwidthGbps, bandwidthTbs, 1000.0, u"TB/s"))
        return makeError(Error::Code::InvalidArgument, QStringLiteral("bandwidth %1").arg(*bad));
    if (!(memoryGib > 0) || !std::isfinite(memoryGib) || memoryGib > 1e7)
        return makeError(Error::Code::InvalidArgument,
                         QStringLiteral("memory must be a positive number of GiB up to 1e7, got %1").arg(memoryGib));
    GpuSpec gpu;
    gpu.id = kCustomId;
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

}  // namespace ridgeline
