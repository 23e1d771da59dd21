#include "core/model/catalog/gpu_device_names.h"

#include <QStringList>

namespace ridgeline {

using namespace Qt::Literals::StringLiterals;

QString normalizedDeviceName(QStringView name)
{
    static const QStringList brandWords = {u"NVIDIA"_s, u"AMD"_s, u"INSTINCT"_s, u"GEFORCE"_s, u"TESLA"_s, u"RADEON"_s};
    QString spaced;
    spaced.reserve(name.size());
    for (const QChar c : name)
        spaced += c.isLetterOrNumber() ? c.toUpper() : u' ';
    QStringList words = spaced.split(u' ', Qt::SkipEmptyParts);
    words.removeIf([](const QString& word) { return brandWords.contains(word); });
    return words.join(u' ');
}

std::optional<GpuSpec> gpuForDeviceName(QStringView deviceName, const std::vector<GpuSpec>& gpus)
{
    const QString wanted = normalizedDeviceName(deviceName);
    if (wanted.isEmpty())
        return std::nullopt;
    for (const GpuSpec& gpu : gpus) {
        QStringList names = gpu.deviceNames;
        names << gpu.id << gpu.name;
        for (const QString& name : std::as_const(names))
            if (normalizedDeviceName(name) == wanted)
                return gpu;
    }
    return std::nullopt;
}

std::optional<GpuSpec> catalogGpuForDeviceName(QStringView deviceName)
{
    const Result<std::vector<GpuSpec>>& gpus = builtinGpus();
    if (!gpus)
        return std::nullopt;
    return gpuForDeviceName(deviceName, gpus.value());
}

}  // namespace ridgeline
