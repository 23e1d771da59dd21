#include "core/model/catalog.h"

#include "core/model/catalog_json.h"
#include "core/model/physical_limits.h"
#include "core/model/user_catalog.h"

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
    // The physical rule of every roof (core/model/physical_limits.h), in TFLOP/s and TB/s: a peak or bandwidth
    // outside it would make the ridge, the times or the chart's axes overflow.
    if (const auto bad = physicalProblem(PhysicalQuantity::ComputeGflops, peakTflops, 1000.0, u"TFLOP/s"))
        return makeError(Error::Code::InvalidArgument, QStringLiteral("peak %1").arg(*bad));
    if (const auto bad = physicalProblem(PhysicalQuantity::BandwidthGbps, bandwidthTbs, 1000.0, u"TB/s"))
        return makeError(Error::Code::InvalidArgument, QStringLiteral("bandwidth %1").arg(*bad));
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

// The bundled entries, then the user's (user_catalog.h); an unknown id lists every known one and says why the
// user's file was not read when it was refused.
template <typename Spec>
Result<Spec> findIn(const Result<std::vector<Spec>>& bundled, const std::vector<Spec>& user,
                    const QStringList& userProblems, QStringView id, const char* what)
{
    if (!bundled)
        return bundled.error();
    QStringList known;
    for (const std::vector<Spec>* list : {&bundled.value(), &user})
        for (const Spec& spec : *list) {
            if (id.compare(spec.id, Qt::CaseInsensitive) == 0)
                return spec;
            known << spec.id;
        }
    QString message = QStringLiteral("unknown %1 \"%2\"; known: %3")
                          .arg(QLatin1String(what), id.toString(), known.join(QStringLiteral(", ")));
    for (const QString& problem : userProblems)
        message += QStringLiteral("; your catalog was not read: ") + problem;
    return makeError(Error::Code::NotFound, message);
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
    const std::shared_ptr<const UserCatalogs> user = userCatalogs();
    return findIn(builtinGpus(), user->gpus, user->problems, id, "GPU");
}
Result<ModelSpec> findModel(QStringView id)
{
    const std::shared_ptr<const UserCatalogs> user = userCatalogs();
    return findIn(builtinModels(), user->models, user->problems, id, "model");
}

}  // namespace ridgeline
