#include "core/model/catalog/gpu_roofs.h"
#include "core/model/catalog/user_catalog.h"

#include <QCoreApplication>
#include <QStringList>

namespace ridgeline {

std::optional<NamedRoof> gpuRoof(const GpuSpec& gpu, NumberFormat format)
{
    const double tflops = gpu.peakTflops(format);
    if (tflops <= 0.0 || gpu.bandwidthTbs <= 0.0)
        return std::nullopt;
    return NamedRoof{QStringLiteral("%1 (%2)").arg(gpu.name, numberFormatName(format)),
                     Roof{tflops * 1000.0, gpu.bandwidthTbs * 1000.0}};
}

Result<NamedRoof> catalogGpuRoof(const QString& id, NumberFormat format)
{
    const Result<GpuSpec> gpu = findGpu(id);
    if (!gpu)
        return gpu.error();
    if (std::optional<NamedRoof> roof = gpuRoof(gpu.value(), format))
        return *roof;
    return makeError(Error::Code::Unsupported,
                     QCoreApplication::translate("GpuRoofs", "%1 has no dense %2 peak in the catalog.")
                         .arg(gpu.value().name, numberFormatName(format)));
}

}  // namespace ridgeline
