#pragma once
// The links between accelerators, for tensor parallelism: per-direction bandwidth and a per-hop latency.
// Bandwidths are the datasheet figures; latencies are order-of-magnitude assumptions (see links.cpp).

#include "core/result.h"

#include <QString>
#include <QStringView>

#include <optional>
#include <vector>

namespace ridgeline {

struct LinkSpec {
    QString id;                       // "nvlink4", "infiniband-ndr", ...
    QString name;                     // "NVLink 4 (H100)"
    double gbPerSecPerDirection = 0;  // GB/s (1e9 bytes/s) one way, per GPU
    double latencyUs = 0;             // per ring hop, microseconds
    bool insideBox = true;            // a link between cards in one machine, or a network between machines
    QString source;
};

const std::vector<LinkSpec>& linkCatalog();
Result<LinkSpec> findLink(QStringView id);

// How the GPUs of one node all-reduce. Ring: NCCL's ring, 2 (g-1) hops. OneShot: a custom kernel in which every
// GPU reads (or pushes) its peers' buffers directly over peer-to-peer, one hop of latency and (g-1) x bytes over its
// link; engines dispatch it for small messages only, so the model takes whichever of the two is faster.
enum class AllReduceAlgorithm { Ring, OneShot };
QString allReduceAlgorithmName(AllReduceAlgorithm algorithm);  // "ring", "one-shot"
std::optional<AllReduceAlgorithm> parseAllReduceAlgorithm(QStringView name);

// All-reduce over `gpus` GPUs of which `gpusPerNode` share a node (0: all in one node). Inside a node a ring
// over `inside` (or the one-shot kernel where it is faster); across nodes the hierarchical scheme NCCL uses:
// reduce-scatter inside each node, a ring all-reduce of each GPU's 1/gpusPerNode share across the nodes over
// `between` (every GPU has its own NIC), all-gather inside the node.
double allReduceSeconds(const LinkSpec& inside, const LinkSpec& between, int gpus, int gpusPerNode, double bytes,
                        AllReduceAlgorithm algorithm = AllReduceAlgorithm::Ring);

// One-shot all-reduce of `bytes` inside one node: one hop of latency plus (g-1) x bytes over the per-direction
// bandwidth. Zero for one GPU.
double oneShotAllReduceSeconds(const LinkSpec& link, int gpus, double bytes);

// Time of one ring all-reduce of `bytes` over `gpus` GPUs: 2 (g-1) hops of latency plus
// 2 (g-1)/g x bytes over the per-direction bandwidth. Zero for one GPU.
double ringAllReduceSeconds(const LinkSpec& link, int gpus, double bytes);

}  // namespace ridgeline
