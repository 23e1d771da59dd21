// Which catalog GPU a profiler's device name means (core/model/catalog/gpu_device_names.h): the names drivers
// really report (nvidia-smi, Nsight Compute's device__attribute_display_name, rocm-smi) map to one GPU each, and
// a card the catalog lacks maps to none, never to a neighbour.

#include "core/model/catalog/gpu_device_names.h"

#include <gtest/gtest.h>

#include <map>

using namespace ridgeline;

namespace {

QString idFor(const char* name)
{
    const std::optional<GpuSpec> gpu = catalogGpuForDeviceName(QString::fromUtf8(name));
    return gpu ? gpu->id : QString();
}

}  // namespace

TEST(GpuDeviceNames, NamesDriversReportFindTheirCatalogGpu)
{
    const std::map<const char*, const char*> expected = {
        {"NVIDIA A100-SXM4-40GB", "a100-40gb-sxm"},
        {"NVIDIA A100-SXM4-80GB", "a100-80gb-sxm"},
        {"A100-SXM4-40GB", "a100-40gb-sxm"},  // without the vendor, as older drivers report it
        {"NVIDIA A100 80GB PCIe", "a100-80gb-pcie"},
        {"NVIDIA H100 80GB HBM3", "h100-sxm"},  // as the H100 SXM5 reports itself
        {"NVIDIA H100 PCIe", "h100-pcie"},
        {"NVIDIA H200", "h200"},
        {"NVIDIA B200", "b200"},
        {"NVIDIA B300 SXM6 AC", "b300"},
        {"NVIDIA L4", "l4"},
        {"NVIDIA L40S", "l40s"},
        {"NVIDIA GeForce RTX 4090", "rtx-4090"},
        {"NVIDIA RTX PRO 6000 Blackwell Server Edition", "rtx-pro-6000"},
        {"AMD Instinct MI300X", "mi300x"},
        {"NVIDIA GeForce RTX 3090", "rtx-3090"},
        {"NVIDIA GeForce RTX 3090 Ti", "rtx-3090-ti"},
        {"NVIDIA RTX 6000 Ada Generation", "rtx-6000-ada"},
        {"NVIDIA L40", "l40"},
        {"Tesla T4", "t4"},
        {"Tesla V100-SXM2-32GB", "v100-sxm2-32gb"},
        {"AMD Instinct MI250X", "mi250x"},  // each of its two GCDs reports this name
        {"AMD Radeon RX 7900 XTX", "rx-7900-xtx"},
        {"Apple M2 Ultra", "m2-ultra"},              // Metal's device name
        {"nvidia a100-sxm4-40gb", "a100-40gb-sxm"},  // any case and punctuation
        {"h100-sxm", "h100-sxm"},                    // the catalog's own id and name
        {"NVIDIA H100 SXM5 80GB", "h100-sxm"},
    };
    for (const auto& [name, id] : expected)
        EXPECT_EQ(idFor(name), QString::fromLatin1(id)) << name;
}

TEST(GpuDeviceNames, CardsTheCatalogLacksMatchNoNeighbour)
{
    for (const char* name :
         {"NVIDIA H100 NVL", "NVIDIA H200 NVL", "NVIDIA A100-PCIE-40GB", "Tesla V100-SXM2-16GB", "NVIDIA A10G",
          "NVIDIA GeForce RTX 4090 D", "NVIDIA GeForce RTX 4070 Ti SUPER", "NVIDIA GeForce GTX 1650",
          "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition", "AMD Instinct MI250", "", "NVIDIA", "0"})
        EXPECT_EQ(idFor(name), QString()) << name;
}

TEST(GpuDeviceNames, NoTwoCatalogGpusShareANormalizedName)
{
    std::map<QString, QString> owner;
    for (const GpuSpec& gpu : builtinGpus().value()) {
        QStringList names = gpu.deviceNames;
        names << gpu.id << gpu.name;
        for (const QString& name : names) {
            const QString key = normalizedDeviceName(name);
            const auto [it, inserted] = owner.emplace(key, gpu.id);
            EXPECT_TRUE(inserted || it->second == gpu.id)
                << key.toStdString() << " names both " << it->second.toStdString() << " and " << gpu.id.toStdString();
        }
    }
    EXPECT_EQ(normalizedDeviceName(u"NVIDIA A100-SXM4-40GB"), QStringLiteral("A100 SXM4 40GB"));
    EXPECT_EQ(normalizedDeviceName(u"AMD Instinct MI300X"), QStringLiteral("MI300X"));
}
