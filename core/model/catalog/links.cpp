#include "core/model/catalog/links.h"

#include <QStringList>

#include <algorithm>

namespace ridgeline {

const std::vector<LinkSpec>& linkCatalog()
{
    // Latency per hop: NVLink/Infinity Fabric ~1 us, PCIe ~3 us (through a switch or the root complex),
    // InfiniBand ~5 us and RoCE Ethernet ~10 us including NIC and NCCL proxy. Assumptions, not datasheet
    // figures; they only matter for small messages (decode at small batch).
    static const std::vector<LinkSpec> links = {
        {QStringLiteral("nvlink2"), QStringLiteral("NVLink 2 (V100 SXM2)"), 150.0, 1.0, true,
         QStringLiteral("NVIDIA V100 datasheet: NVLink 300 GB/s bidirectional = 150 GB/s per direction")},
        {QStringLiteral("nvlink3"), QStringLiteral("NVLink 3 (A100)"), 300.0, 1.0, true,
         QStringLiteral("NVIDIA A100 datasheet: NVLink 600 GB/s bidirectional = 300 GB/s per direction")},
        {QStringLiteral("nvlink3-bridge"), QStringLiteral("NVLink bridge, 2 GPUs (GA102: RTX 3090, RTX A6000, A40)"),
         56.25, 1.0, true,
         QStringLiteral(
             "NVIDIA A40 and RTX A6000 datasheets, GA102 whitepaper: NVLink 112.5 GB/s bidirectional = 56.25 GB/s "
             "per direction")},
        {QStringLiteral("nvlink4"), QStringLiteral("NVLink 4 (H100/H200)"), 450.0, 1.0, true,
         QStringLiteral("NVIDIA H100 datasheet: NVLink 900 GB/s bidirectional = 450 GB/s per direction")},
        {QStringLiteral("nvlink5"), QStringLiteral("NVLink 5 (B200)"), 900.0, 1.0, true,
         QStringLiteral("NVIDIA DGX B200 datasheet: NVLink 1.8 TB/s per GPU bidirectional = 900 GB/s per direction")},
        {QStringLiteral("infinity-fabric"), QStringLiteral("AMD Infinity Fabric (MI300X, 7 links)"), 448.0, 1.0, true,
         QStringLiteral("AMD Instinct MI300X data sheet: 7 links x 128 GB/s bidirectional = 448 GB/s per direction")},
        {QStringLiteral("infinity-fabric-4"), QStringLiteral("AMD Infinity Fabric (MI355X, 7 links)"), 537.6, 1.0, true,
         QStringLiteral("AMD Instinct MI355X data sheet: 7 links x 153.6 GB/s bidirectional = 537.6 GB/s per "
                        "direction")},
        {QStringLiteral("pcie3"), QStringLiteral("PCIe 3.0 x16"), 16.0, 3.0, true,
         QStringLiteral(
             "PCI-SIG: 8 GT/s x16 = 32 GB/s bidirectional (NVIDIA T4 and V100 datasheets), 16 GB/s per direction")},
        {QStringLiteral("pcie4"), QStringLiteral("PCIe 4.0 x16"), 32.0, 3.0, true,
         QStringLiteral("PCI-SIG: 16 GT/s x16 = 64 GB/s bidirectional (NVIDIA datasheets), 32 GB/s per direction")},
        {QStringLiteral("pcie5"), QStringLiteral("PCIe 5.0 x16"), 64.0, 3.0, true,
         QStringLiteral("PCI-SIG: 32 GT/s x16 = 128 GB/s bidirectional (NVIDIA datasheets), 64 GB/s per direction")},
        {QStringLiteral("pcie6"), QStringLiteral("PCIe 6.0 x16"), 128.0, 3.0, true,
         QStringLiteral("PCI-SIG: 64 GT/s x16 = 256 GB/s bidirectional, 128 GB/s per direction")},
        {QStringLiteral("infiniband-hdr"), QStringLiteral("InfiniBand HDR 200 Gb/s"), 25.0, 5.0, false,
         QStringLiteral("NVIDIA ConnectX-6: HDR 200 Gb/s per port = 25 GB/s per direction")},
        {QStringLiteral("infiniband-ndr"), QStringLiteral("InfiniBand NDR 400 Gb/s"), 50.0, 5.0, false,
         QStringLiteral("NVIDIA ConnectX-7: NDR 400 Gb/s per port = 50 GB/s per direction")},
        {QStringLiteral("infiniband-xdr"), QStringLiteral("InfiniBand XDR 800 Gb/s"), 100.0, 5.0, false,
         QStringLiteral("NVIDIA ConnectX-8 SuperNIC: 800 Gb/s per GPU (HGX B300, GB300) = 100 GB/s per direction")},
        {QStringLiteral("ethernet-100g"), QStringLiteral("100 Gb Ethernet (RoCE)"), 12.5, 10.0, false,
         QStringLiteral("IEEE 802.3 100GBASE: 100 Gb/s = 12.5 GB/s per direction")},
        {QStringLiteral("ethernet-400g"), QStringLiteral("400 Gb Ethernet (RoCE)"), 50.0, 10.0, false,
         QStringLiteral("IEEE 802.3 400GBASE: 400 Gb/s = 50 GB/s per direction")},
    };
    return links;
}

Result<LinkSpec> findLink(QStringView id)
{
    QStringList known;
    for (const LinkSpec& link : linkCatalog()) {
        if (id.compare(link.id, Qt::CaseInsensitive) == 0)
            return link;
        known << link.id;
    }
    return makeError(
        Error::Code::NotFound,
        QStringLiteral("unknown link \"%1\"; known links: %2").arg(id.toString(), known.join(QStringLiteral(", "))));
}

double ringAllReduceSeconds(const LinkSpec& link, int gpus, double bytes)
{
    if (gpus <= 1)
        return 0.0;
    const double hops = 2.0 * (gpus - 1);
    const double latency = hops * link.latencyUs * 1e-6;
    const double transfer = hops / gpus * bytes / (link.gbPerSecPerDirection * 1e9);
    return latency + transfer;
}

double oneShotAllReduceSeconds(const LinkSpec& link, int gpus, double bytes)
{
    if (gpus <= 1)
        return 0.0;
    return link.latencyUs * 1e-6 + (gpus - 1) * bytes / (link.gbPerSecPerDirection * 1e9);
}

QString allReduceAlgorithmName(AllReduceAlgorithm algorithm)
{
    return algorithm == AllReduceAlgorithm::OneShot ? QStringLiteral("one-shot") : QStringLiteral("ring");
}

std::optional<AllReduceAlgorithm> parseAllReduceAlgorithm(QStringView name)
{
    for (AllReduceAlgorithm a : {AllReduceAlgorithm::Ring, AllReduceAlgorithm::OneShot})
        if (name.compare(allReduceAlgorithmName(a), Qt::CaseInsensitive) == 0)
            return a;
    return std::nullopt;
}

double allReduceSeconds(const LinkSpec& inside, const LinkSpec& between, int gpus, int gpusPerNode, double bytes,
                        AllReduceAlgorithm algorithm)
{
    auto inNode = [&](int g) {
        const double ring = ringAllReduceSeconds(inside, g, bytes);
        return algorithm == AllReduceAlgorithm::OneShot ? std::min(ring, oneShotAllReduceSeconds(inside, g, bytes))
                                                        : ring;
    };
    if (gpusPerNode <= 0 || gpusPerNode >= gpus)
        return inNode(gpus);
    const int nodes = gpus / gpusPerNode;
    // Reduce-scatter plus all-gather inside the node is one ring all-reduce's worth of hops and bytes.
    return ringAllReduceSeconds(inside, gpusPerNode, bytes) + ringAllReduceSeconds(between, nodes, bytes / gpusPerNode);
}

}  // namespace ridgeline
