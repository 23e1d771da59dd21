#pragma once
// The links between accelerators, for tensor parallelism: per-direction bandwidth, a per-hop latency, and whether
// the GPUs reach each other's memory over it; and the all-reduce algorithms engines run over them. Bandwidths are
// the datasheet figures; latencies come from published small-message measurements (see links.cpp).

#include "core/result.h"

#include <QString>
#include <QStringView>

#include <optional>
#include <vector>

namespace ridgeline {

// The share of a link's per-direction bandwidth each all-reduce reaches in published microbenchmarks, by what runs
// it (links.cpp has the tables they are fitted on); 1 where no table was found (the datasheet rate).
struct AllReduceShares {
    double ncclMidSize = 1;  // NCCL inside a node at 0.5-16 MB, the sizes LLM steps all-reduce (LL/LL128)
    double ncclSimple = 1;   // NCCL's Simple protocol, its large-message rate (busbw over line rate)
    double oneShot = 1;      // a custom one-shot kernel: every GPU reads its peers' whole buffers
    double twoShot = 1;      // a custom two-shot kernel: reduce-scatter and all-gather over peer-to-peer
};

struct LinkSpec {
    QString id;                       // "nvlink4", "infiniband-ndr", ...
    QString name;                     // "NVLink 4 (H100)"
    double gbPerSecPerDirection = 0;  // GB/s (1e9 bytes/s) one way, per GPU, as the datasheet gives it
    double latencyUs = 0;             // per hop (a step of NCCL's ring), net of the collective's start-up, microseconds
    bool insideBox = true;            // a link between cards in one machine, or a network between machines
    QString source;
    // Whether a GPU reads and writes its peers' memory over it (CUDA peer-to-peer). Without it (GeForce cards, whose
    // driver refuses peer access) NCCL stages every transfer through host memory and custom kernels cannot run.
    bool peerToPeer = true;
    bool pcie = false;         // a PCIe link (engines that gate their own kernels on NVLink fall back to NCCL over it)
    AllReduceShares shares{};  // what the collectives reach of gbPerSecPerDirection (NVLink: measured; else 1)
    // A PCIe server's GPUs hang off two CPU sockets, this many on each (0: one domain, as on NVLink boards); a
    // collective over more crosses between the sockets at socketGbPerSec one way.
    int gpusPerSocket = 0;
    double socketGbPerSec = 0;
};

const std::vector<LinkSpec>& linkCatalog();

// The link with every collective at its datasheet rate (shares of 1) and its GPUs in one domain (no socket
// crossing): what the default terms and the training step's terms were fitted with (training_step.cpp); the measured
// shares and the sockets are those of the inference engines' collectives.
LinkSpec atDatasheetRates(LinkSpec link);
Result<LinkSpec> findLink(QStringView id);
// Whether `gpus` GPUs on `link` span two CPU sockets (LinkSpec::gpusPerSocket), crossing between them.
bool crossesSockets(const LinkSpec& link, int gpus);

// The all-reduce algorithms engines run, each priced as hops of latency plus bytes over one GPU's link (g GPUs,
// b bytes, per-direction bandwidth B, per-hop latency L). The collective's start-up (kernel launch, NCCL's base
// latency) is not here: it is the engine's fixed time per collective (engine_terms.h), counted once there.
//   Ring     NCCL's ring: 2 (g-1) steps, 2 (g-1)/g x b over the link. Over PCIe, the faster of NCCL's protocols
//            for the message: LL (half of B carries data) or Simple (shares.ncclSimple of B, each hop 4.7 us
//            longer); where the GPUs span two sockets, B is at most the path between them. Over
//            NVLink, the faster of its mid-size rate (shares.ncclMidSize of B) and Simple (shares.ncclSimple of
//            B, 1.8 us more start-up and each hop 2.8 us longer).
//   Tree     NCCL's double binary tree across nodes: 2 ceil(log2 g) steps, 2 b over the link (reduce up, broadcast
//            down). Inside a node NCCL's tree is a chain, never faster than the ring, so it is used between nodes.
//   OneShot  a custom kernel (vLLM, SGLang, TensorRT-LLM): every GPU reads its peers' whole buffers and reduces
//            them itself, one step, (g-1) x b over the link; across two sockets each half reads the other's
//            buffers, (g/2)^2 x b each way between them.
//   TwoShot  the same kernels for larger messages: a reduce-scatter and an all-gather over peer-to-peer, two
//            steps, 2 (g-1)/g x b over the link, g/2 x b each way between two sockets.
// Each moves its bytes at the share of B its kind reaches on the link (LinkSpec::shares).
enum class AllReduceAlgorithm { Ring, Tree, OneShot, TwoShot };
QString allReduceAlgorithmName(AllReduceAlgorithm algorithm);  // "ring", "tree", "one-shot", "two-shot"
double allReduceAlgorithmSeconds(AllReduceAlgorithm algorithm, const LinkSpec& link, int gpus, double bytes);

// What an engine all-reduces with inside a node: NCCL alone (its ring), or its own custom kernels besides (one-shot
// and two-shot, over a peer-to-peer link only), each message by the fastest. Across nodes it is always NCCL, ring or
// tree, whichever is faster for the message, as NCCL's tuner chooses.
enum class AllReduceKernels { Nccl, Custom };
QString allReduceKernelsName(AllReduceKernels kernels);  // "nccl", "custom"
std::optional<AllReduceKernels> parseAllReduceKernels(QStringView name);

// The algorithm the kernels run for one all-reduce of `bytes` over `gpus` GPUs on `link`.
AllReduceAlgorithm fastestAllReduce(const LinkSpec& link, int gpus, double bytes, AllReduceKernels kernels);

// All-reduce over `gpus` GPUs of which `gpusPerNode` share a node (0: all in one node). Inside a node the fastest
// algorithm the kernels have over `inside`; across nodes the hierarchical scheme NCCL uses: reduce-scatter inside
// each node, an all-reduce (ring or tree) of each GPU's 1/gpusPerNode share across the nodes over `between` (every
// GPU has its own NIC), all-gather inside the node.
double allReduceSeconds(const LinkSpec& inside, const LinkSpec& between, int gpus, int gpusPerNode, double bytes,
                        AllReduceKernels kernels = AllReduceKernels::Nccl);

// Time of one ring all-reduce (AllReduceAlgorithm::Ring). Zero for one GPU.
double ringAllReduceSeconds(const LinkSpec& link, int gpus, double bytes);

}  // namespace ridgeline
