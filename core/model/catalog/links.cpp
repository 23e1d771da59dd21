#include "core/model/catalog/links.h"

#include <QStringList>

#include <algorithm>
#include <array>
#include <initializer_list>

namespace ridgeline {

namespace {

// What the collectives reach of NVLink's datasheet rate, fitted on vLLM's own microbenchmark on H100 (TP 4 and
// 6, 0.5-4 MiB, vllm-project/vllm#24111; tests/data/collectives/all_reduce_microbench.csv): with the 6.5 us
// start-up and 1 us hops, the one-stage kernel moves its (g-1) x bytes at 0.80 of 450 GB/s, the two-stage its
// 2 (g-1)/g x bytes at 0.45 and NCCL its ring's at 0.45, the same at TP 4 and 6. NCCL's Simple protocol, which
// it takes for large messages, reaches 370 of 450 GB/s of bus bandwidth (0.82: NCCL's maintainer in
// NVIDIA/nccl-tests#212, "with the protocol overhead (~20%)"), 1.8 us later and 2.8 us longer a hop than the
// mid-size protocols (NCCL src/graph/tuning.cc, ring over NVLink). Every NVLink generation takes the H100's
// shares: the kernels and protocols are the same, and no other generation's table was found. An engine's
// collectives run at these (inference_request.cpp); without an engine, and in the training step, at the datasheet
// rate the default terms were fitted with (atDatasheetRates).
constexpr AllReduceShares kNvlinkShares{0.45, 0.82, 0.80, 0.45};
// Over PCIe NCCL's Simple protocol reaches 0.80 of the line rate: four RTX 4090s with peer-to-peer, 25.7 GB/s of bus
// bandwidth at 256 MB (tinygrad/open-gpu-kernel-modules#36). NCCL's own topology model says about as much: it
// prices a PCIe Gen3 x16 path at 12 of its 16 GB/s (PCI_BW, NVIDIA/nccl src/graph/topo.h) and a Gen4 one at 24 of
// 32 ("PCI[24.0]" in its topology logs, NVIDIA/nccl-tests#307).
constexpr AllReduceShares kPcieShares{1.0, 0.80, 1.0, 1.0};
// An eight-GPU PCIe server is two CPU sockets of four GPUs each (NVIDIA's 8x L20/L40S node: two NUMA domains, four
// GPUs a PCIe switch, the link between the sockets the eight-GPU bottleneck; TensorRT-LLM
// docs/source/advanced/lowprecision-pcie-allreduce.md), and traffic between the sockets crosses their link at the
// rate NCCL's topology model gives it: 16 GB/s on AMD EPYC, every generation (AMD_BW; Intel: 10 GB/s Skylake to Ice
// Lake, 22 Sapphire Rapids, 40 Emerald Rapids; topo.h). Measured: eight RTX 5090s over two Xeon 8480+ reach 28 GB/s
// of bus bandwidth, four of them 35 (NVIDIA/nccl#1639).
constexpr int kPcieGpusPerSocket = 4;
constexpr double kSocketGbPerSec = 16.0;

}  // namespace

const std::vector<LinkSpec>& linkCatalog()
{
    // Latency per hop (one step of NCCL's ring), net of the collective's start-up: that is the engine's fixed time
    // per collective (engine_terms.h), counted there once. NCCL's own cost model (src/graph/tuning.cc) has the same
    // split, a base latency once per collective (ring, LL protocol: 6.6 us) plus 2 (g-1) hops, so a published
    // small-message time minus 6.6 us, divided by the hops, is the hop:
    // - PCIe with peer-to-peer, 2.0 us: four V100s behind one PCIe 3 switch, NCCL inside a CUDA graph, 19.4 us at
    //   4 KB (haohervchb/sglang-V100#2) = 6.6 + 6 hops of 2.0 + 4 KB over LL's half of the link; its rise to 24.2 us
    //   at 32 KB is the LL protocol's 8 GB/s (half of 16 GB/s), as modelled. NCCL's tuning.cc prices the hop at
    //   1.0 us; the measurement is taken.
    // - PCIe through host memory (no peer-to-peer), 2.5 us: eight RTX 4090s, nccl-tests all_reduce_perf, 42.1 us at
    //   8 bytes (NVIDIA/nccl#1530) = 6.6 + 14 hops of 2.5 us (eight RTX 3090s: 54.2 us, 3.4 us a hop,
    //   NVIDIA/nccl#1439).
    // NVLink and Infinity Fabric, 1 us: custom one-step kernels take 3.7-5.9 us on H100 NVLink at 512 B-32 KB,
    // TP 2-8, launch included (sgl-project/sglang#2904), 6.3 us on MI355X at 24 KB TP 8 (vllm-project/vllm#39080),
    // of which the engine's fixed time per collective is most. InfiniBand ~5 us and RoCE ~10 us including NIC and
    // NCCL proxy: assumptions; they matter only for small messages across nodes.
    static const std::vector<LinkSpec> links = {
        {QStringLiteral("nvlink2"), QStringLiteral("NVLink 2 (V100 SXM2)"), 150.0, 1.0, true,
         QStringLiteral("NVIDIA V100 datasheet: NVLink 300 GB/s bidirectional = 150 GB/s per direction"), true, false,
         kNvlinkShares},
        {QStringLiteral("nvlink3"), QStringLiteral("NVLink 3 (A100)"), 300.0, 1.0, true,
         QStringLiteral("NVIDIA A100 datasheet: NVLink 600 GB/s bidirectional = 300 GB/s per direction"), true, false,
         kNvlinkShares},
        {QStringLiteral("nvlink3-bridge"), QStringLiteral("NVLink bridge, 2 GPUs (GA102: RTX 3090, RTX A6000, A40)"),
         56.25, 1.0, true,
         QStringLiteral(
             "NVIDIA A40 and RTX A6000 datasheets, GA102 whitepaper: NVLink 112.5 GB/s bidirectional = 56.25 GB/s "
             "per direction"),
         true, false, kNvlinkShares},
        {QStringLiteral("nvlink4"), QStringLiteral("NVLink 4 (H100/H200)"), 450.0, 1.0, true,
         QStringLiteral("NVIDIA H100 datasheet: NVLink 900 GB/s bidirectional = 450 GB/s per direction"), true, false,
         kNvlinkShares},
        {QStringLiteral("nvlink5"), QStringLiteral("NVLink 5 (B200)"), 900.0, 1.0, true,
         QStringLiteral("NVIDIA DGX B200 datasheet: NVLink 1.8 TB/s per GPU bidirectional = 900 GB/s per direction"),
         true, false, kNvlinkShares},
        {QStringLiteral("infinity-fabric"), QStringLiteral("AMD Infinity Fabric (MI300X, 7 links)"), 448.0, 1.0, true,
         QStringLiteral("AMD Instinct MI300X data sheet: 7 links x 128 GB/s bidirectional = 448 GB/s per direction")},
        {QStringLiteral("infinity-fabric-4"), QStringLiteral("AMD Infinity Fabric (MI355X, 7 links)"), 537.6, 1.0, true,
         QStringLiteral("AMD Instinct MI355X data sheet: 7 links x 153.6 GB/s bidirectional = 537.6 GB/s per "
                        "direction")},
        {QStringLiteral("pcie3"), QStringLiteral("PCIe 3.0 x16"), 16.0, 2.0, true,
         QStringLiteral(
             "PCI-SIG: 8 GT/s x16 = 32 GB/s bidirectional (NVIDIA T4 and V100 datasheets), 16 GB/s per direction"
             "; hop 2.0 us: four V100s behind a PCIe switch, 19.4 us at 4 KB inside a CUDA graph "
             "(haohervchb/sglang-V100#2), less NCCL's 6.6 us start-up (NVIDIA/nccl src/graph/tuning.cc), over 6 hops"),
         true, true, kPcieShares, kPcieGpusPerSocket, kSocketGbPerSec},
        {QStringLiteral("pcie4"), QStringLiteral("PCIe 4.0 x16"), 32.0, 2.0, true,
         QStringLiteral(
             "PCI-SIG: 16 GT/s x16 = 64 GB/s bidirectional (NVIDIA datasheets), 32 GB/s per direction"
             "; hop 2.0 us: four V100s behind a PCIe switch, 19.4 us at 4 KB inside a CUDA graph "
             "(haohervchb/sglang-V100#2), less NCCL's 6.6 us start-up (NVIDIA/nccl src/graph/tuning.cc), over 6 hops"),
         true, true, kPcieShares, kPcieGpusPerSocket, kSocketGbPerSec},
        {QStringLiteral("pcie4-host"), QStringLiteral("PCIe 4.0 x16 through the host (no peer-to-peer)"), 32.0, 2.5,
         true,
         QStringLiteral("PCIe 4.0 x16 as pcie4; the RTX 4090 lacks the mailbox "
                        "peer-to-peer hardware and NVIDIA's driver does not offer it (tinygrad/open-gpu-kernel-modules "
                        "README), so NCCL stages through host memory and no custom all-reduce kernel runs"
                        "; hop 2.5 us: eight RTX 4090s, nccl-tests 42.1 us at 8 bytes (NVIDIA/nccl#1530), less NCCL's "
                        "6.6 us start-up, over 14 hops"),
         false, true, kPcieShares, kPcieGpusPerSocket, kSocketGbPerSec},
        {QStringLiteral("pcie5"), QStringLiteral("PCIe 5.0 x16"), 64.0, 2.0, true,
         QStringLiteral(
             "PCI-SIG: 32 GT/s x16 = 128 GB/s bidirectional (NVIDIA datasheets), 64 GB/s per direction"
             "; hop 2.0 us: four V100s behind a PCIe switch, 19.4 us at 4 KB inside a CUDA graph "
             "(haohervchb/sglang-V100#2), less NCCL's 6.6 us start-up (NVIDIA/nccl src/graph/tuning.cc), over 6 hops"),
         true, true, kPcieShares, kPcieGpusPerSocket, kSocketGbPerSec},
        {QStringLiteral("pcie5-host"), QStringLiteral("PCIe 5.0 x16 through the host (no peer-to-peer)"), 64.0, 2.5,
         true,
         QStringLiteral("PCIe 5.0 x16 as pcie5, without peer-to-peer (GeForce RTX 50): NCCL through host memory, no "
                        "custom all-reduce kernels"
                        "; hop 2.5 us: eight RTX 4090s, nccl-tests 42.1 us at 8 bytes (NVIDIA/nccl#1530), less NCCL's "
                        "6.6 us start-up, over 14 hops"),
         false, true, kPcieShares, kPcieGpusPerSocket, kSocketGbPerSec},
        {QStringLiteral("pcie6"), QStringLiteral("PCIe 6.0 x16"), 128.0, 2.0, true,
         QStringLiteral(
             "PCI-SIG: 64 GT/s x16 = 256 GB/s bidirectional, 128 GB/s per direction"
             "; hop 2.0 us: four V100s behind a PCIe switch, 19.4 us at 4 KB inside a CUDA graph "
             "(haohervchb/sglang-V100#2), less NCCL's 6.6 us start-up (NVIDIA/nccl src/graph/tuning.cc), over 6 hops"),
         true, true, kPcieShares, kPcieGpusPerSocket, kSocketGbPerSec},
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

LinkSpec atDatasheetRates(LinkSpec link)
{
    link.shares = AllReduceShares{};
    link.gpusPerSocket = 0;
    return link;
}

bool crossesSockets(const LinkSpec& link, int gpus)
{
    return link.gpusPerSocket > 0 && gpus > link.gpusPerSocket && link.socketGbPerSec > 0;
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

namespace {

constexpr std::array kKernels = {AllReduceKernels::Nccl, AllReduceKernels::Custom};

// NCCL's protocols over PCIe (LL128 runs over NVLink only): LL sends 8-byte lines of 4 data bytes and a flag, so
// half of the link carries data, at the hop latency of the link; Simple carries the whole link, but each hop waits
// for a whole chunk and its flag, 4.7 us longer, and it starts 1.8 us later (NCCL src/graph/tuning.cc, ring over
// PCI: hwLat LL 1.0 us, Simple 5.7 us; baseLat LL 6.6 us, Simple 8.4 us; the start-up LL shares with the engine's
// time per collective is counted there, only Simple's extra here). NCCL's tuner runs each message with the faster.
constexpr double kLlPayloadShare = 0.5;
constexpr double kSimpleExtraHopUs = 4.7;
constexpr double kSimpleExtraStartUs = 1.8;
// Over NVLink NCCL's Simple waits 2.8 us longer a hop than LL and starts 1.8 us later (tuning.cc, ring over NVLink:
// hwLat LL 0.6 us, Simple 3.4 us; baseLat LL 6.6 us, Simple 8.4 us); its rate is the link's shares.ncclSimple.
constexpr double kNvlinkSimpleExtraHopUs = 2.8;

double hopsAndBytes(double steps, double hopUs, double linkBytes, double gbPerSec)
{
    return steps * hopUs * 1e-6 + linkBytes / (gbPerSec * 1e9);
}

int ceilLog2(int n)
{
    int steps = 0;
    while ((1 << steps) < n)
        ++steps;
    return steps;
}

// The fastest of `candidates` for one all-reduce over `link`.
AllReduceAlgorithm fastestOf(std::initializer_list<AllReduceAlgorithm> candidates, const LinkSpec& link, int gpus,
                             double bytes)
{
    AllReduceAlgorithm best = *candidates.begin();
    for (AllReduceAlgorithm a : candidates)
        if (allReduceAlgorithmSeconds(a, link, gpus, bytes) < allReduceAlgorithmSeconds(best, link, gpus, bytes))
            best = a;
    return best;
}

}  // namespace

double allReduceAlgorithmSeconds(AllReduceAlgorithm algorithm, const LinkSpec& link, int gpus, double bytes)
{
    if (gpus <= 1)
        return 0.0;
    const double g = gpus;
    const bool twoSockets = crossesSockets(link, gpus);
    double steps = 0, linkBytes = 0, socketBytes = 0;
    switch (algorithm) {
        case AllReduceAlgorithm::Ring:
            steps = 2.0 * (g - 1);
            linkBytes = 2.0 * (g - 1) / g * bytes;
            break;
        case AllReduceAlgorithm::Tree:
            steps = 2.0 * ceilLog2(gpus);
            linkBytes = 2.0 * bytes;
            break;
        case AllReduceAlgorithm::OneShot:
            steps = 1.0;
            linkBytes = (g - 1) * bytes;
            socketBytes = g * g / 4.0 * bytes;
            break;
        case AllReduceAlgorithm::TwoShot:
            steps = 2.0;
            linkBytes = 2.0 * (g - 1) / g * bytes;
            socketBytes = g / 2.0 * bytes;
            break;
    }
    double share = link.shares.ncclMidSize;
    if (algorithm == AllReduceAlgorithm::OneShot)
        share = link.shares.oneShot;
    else if (algorithm == AllReduceAlgorithm::TwoShot)
        share = link.shares.twoShot;
    const double fullLink = hopsAndBytes(steps, link.latencyUs, linkBytes, share * link.gbPerSecPerDirection);
    if (algorithm != AllReduceAlgorithm::Ring || !link.insideBox)
        return twoSockets ? std::max(fullLink, socketBytes / (link.socketGbPerSec * 1e9)) : fullLink;
    if (!link.pcie) {
        const double simple =
            kSimpleExtraStartUs * 1e-6 + hopsAndBytes(steps, link.latencyUs + kNvlinkSimpleExtraHopUs, linkBytes,
                                                      link.shares.ncclSimple * link.gbPerSecPerDirection);
        return std::min(fullLink, simple);
    }
    // The ring crosses between the sockets once each way, carrying what every hop carries: its slowest hop.
    const double ringRate =
        twoSockets ? std::min(link.gbPerSecPerDirection, link.socketGbPerSec) : link.gbPerSecPerDirection;
    const double ll = hopsAndBytes(steps, link.latencyUs, linkBytes, kLlPayloadShare * ringRate);
    const double simple = kSimpleExtraStartUs * 1e-6 +
                          hopsAndBytes(steps, link.latencyUs + kSimpleExtraHopUs, linkBytes,
                                       std::min(link.shares.ncclSimple * link.gbPerSecPerDirection, ringRate));
    return std::min(ll, simple);
}

double ringAllReduceSeconds(const LinkSpec& link, int gpus, double bytes)
{
    return allReduceAlgorithmSeconds(AllReduceAlgorithm::Ring, link, gpus, bytes);
}

QString allReduceAlgorithmName(AllReduceAlgorithm algorithm)
{
    switch (algorithm) {
        case AllReduceAlgorithm::Ring:
            return QStringLiteral("ring");
        case AllReduceAlgorithm::Tree:
            return QStringLiteral("tree");
        case AllReduceAlgorithm::OneShot:
            return QStringLiteral("one-shot");
        case AllReduceAlgorithm::TwoShot:
            return QStringLiteral("two-shot");
    }
    return {};
}

QString allReduceKernelsName(AllReduceKernels kernels)
{
    return kernels == AllReduceKernels::Custom ? QStringLiteral("custom") : QStringLiteral("nccl");
}

std::optional<AllReduceKernels> parseAllReduceKernels(QStringView name)
{
    for (AllReduceKernels k : kKernels)
        if (name.compare(allReduceKernelsName(k), Qt::CaseInsensitive) == 0)
            return k;
    // The names of the earlier choice between NCCL's ring and a one-shot kernel, so scripts written for them run.
    if (name.compare(QLatin1String("ring"), Qt::CaseInsensitive) == 0)
        return AllReduceKernels::Nccl;
    if (name.compare(QLatin1String("one-shot"), Qt::CaseInsensitive) == 0)
        return AllReduceKernels::Custom;
    return std::nullopt;
}

AllReduceAlgorithm fastestAllReduce(const LinkSpec& link, int gpus, double bytes, AllReduceKernels kernels)
{
    if (!link.insideBox)
        return fastestOf({AllReduceAlgorithm::Ring, AllReduceAlgorithm::Tree}, link, gpus, bytes);
    if (kernels == AllReduceKernels::Custom && link.peerToPeer)
        return fastestOf({AllReduceAlgorithm::Ring, AllReduceAlgorithm::OneShot, AllReduceAlgorithm::TwoShot}, link,
                         gpus, bytes);
    return AllReduceAlgorithm::Ring;
}

double allReduceSeconds(const LinkSpec& inside, const LinkSpec& between, int gpus, int gpusPerNode, double bytes,
                        AllReduceKernels kernels)
{
    auto fastest = [&](const LinkSpec& link, int g, double b) {
        return allReduceAlgorithmSeconds(fastestAllReduce(link, g, b, kernels), link, g, b);
    };
    if (gpusPerNode <= 0 || gpusPerNode >= gpus)
        return fastest(inside, gpus, bytes);
    const int nodes = gpus / gpusPerNode;
    // Reduce-scatter plus all-gather inside the node is one ring all-reduce's worth of steps and bytes.
    return ringAllReduceSeconds(inside, gpusPerNode, bytes) + fastest(between, nodes, bytes / gpusPerNode);
}

}  // namespace ridgeline
