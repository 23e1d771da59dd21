#include "core/import/kernel/import_device.h"

#include "core/model/catalog/gpu_device_names.h"

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

KernelDevice gpuDeviceNamed(const QString& profilerName)
{
    KernelDevice device;
    device.kind = u"gpu"_s;
    device.name = profilerName;
    if (const auto gpu = catalogGpuForDeviceName(profilerName)) {
        device.gpu = gpu->id;
        device.basis = u"the profiler's device name"_s;
    }
    return device;
}

int kernelsWithoutGpu(const std::vector<ImportResult>& imports)
{
    int count = 0;
    for (const ImportResult& import : imports)
        for (const KernelResult& kernel : import.kernels)
            count += kernel.device.isGpu() && kernel.device.gpu.isEmpty() ? 1 : 0;
    return count;
}

QStringList unmatchedDeviceNames(const std::vector<ImportResult>& imports)
{
    QStringList names;
    for (const ImportResult& import : imports)
        for (const KernelResult& kernel : import.kernels)
            if (kernel.device.isGpu() && kernel.device.gpu.isEmpty() && !names.contains(kernel.device.name))
                names.append(kernel.device.name);
    return names;
}

int assignGpu(std::vector<ImportResult>& imports, const GpuSpec& gpu, const QString& how)
{
    int total = 0;
    for (ImportResult& import : imports) {
        int changed = 0;
        for (KernelResult& kernel : import.kernels) {
            if (!kernel.device.isGpu() || !kernel.device.gpu.isEmpty())
                continue;
            kernel.device.gpu = gpu.id;
            kernel.device.basis = how;
            ++changed;
        }
        if (changed > 0)
            import.notes.append(QString::number(changed) + (changed == 1 ? u" kernel"_s : u" kernels"_s) +
                                u" drawn on the roofline of "_s + gpu.name + u" ("_s + how + u')');
        total += changed;
    }
    return total;
}

QString missingGpuNote(int kernels, const QString& deviceName)
{
    const QString which = deviceName.isEmpty()
                              ? u"a GPU the file does not name (Nsight Compute's device__attribute_display_name was "
                                "not collected)"_s
                              : u"\""_s + deviceName + u"\", which is not in the GPU catalog"_s;
    return QString::number(kernels) + (kernels == 1 ? u" kernel ran on "_s : u" kernels ran on "_s) + which +
           u": without a catalog GPU they are drawn without a roof; `ridgeline import --device ID` (ids: "
           "`ridgeline catalog gpus`) or the window's question on import gives them one"_s;
}

}  // namespace ridgeline
