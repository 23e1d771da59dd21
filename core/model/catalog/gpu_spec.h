#pragma once
// One GPU as the catalogs describe it: memory, bandwidth, dense peaks per format, links and their sources. Plain data,
// shared by the bundled catalog (catalog.h), its file format (catalog_json.h) and the user's own (user_catalog.h).

#include "core/model/number_format.h"

#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>

namespace ridgeline {

// STREAM triad over datasheet bandwidth of the HBM cards measured alike (A100 80GB 1.70 / 2.039, H100 SXM
// 2.97 / 3.35, H200 4.15 / 4.8 TB/s; samuel-bohman/AI-benchmarking-guide, Azure_Results): the share a card without a
// published measurement is taken to sustain.
inline constexpr double kTypicalSustainedShare = 0.862;

// US dollars per GPU-hour past which a price is a typo (3990 for 3.99), wherever one is read: the dearest on-demand
// GPU-hour the bundled examples cite is $10.50 (GB200).
inline constexpr double kMaxGpuHourPrice = 1000.0;

struct GpuSpec {
    QString id;
    QString name;
    QString vendor;
    QString memoryType;               // "HBM3", "GDDR6X"
    double memoryGib = 0;             // capacity in GiB (2^30 bytes): vendors' "80GB" of HBM is 80 GiB
    QString memoryDatasheet;          // the capacity as the datasheet writes it
    double bandwidthTbs = 0;          // TB/s, 1e12 bytes/s, as the datasheet writes it
    double measuredBandwidthTbs = 0;  // STREAM triad as published for this card (0 = none found), TB/s
    QString measuredBandwidthSource;
    std::array<double, kAllNumberFormats.size()> denseTflops{};  // by NumberFormat; 0 = not supported. Never sparse.
    QString interconnect;                                        // link id for GPU-to-GPU ("nvlink4"), empty when none
    QString interconnectName;                                    // as the datasheet names it ("NVLink 4")
    double interconnectGbPerDirection = 0;
    int scaleUpGpus = 0;  // GPUs one interconnect domain joins (8 in an HGX node, 72 in an NVL72 rack); 0 = none
    QString networkLink;  // link id between nodes, one NIC per GPU ("infiniband-ndr"); empty when not stated
    QString hostLink;     // "pcie5"
    double hostLinkGbPerDirection = 0;
    double tdpWatts = 0;
    // Streaming multiprocessors (NVIDIA) or compute units (AMD): how many thread blocks run at once at one a unit,
    // for a decode attention kernel that does not split a sequence over blocks; 0 = not given (no such limit).
    int smCount = 0;
    // US dollars per GPU-hour, the user's own figure saved with a GPU of their catalog (user_catalog.h); 0 = none.
    double gpuHourPrice = 0;
    // One provider's published on-demand price for this card, an example only: prices differ by provider,
    // commitment and month. The bundled catalog gives one where a provider's page could be cited.
    struct ExamplePrice {
        double usdPerGpuHour = 0;  // 0 = none
        QString provider;          // "Lambda"
        QString date;              // the day the page was read, YYYY-MM-DD
        QString source;            // the page, the offer and how a per-GPU figure was had from it
    } examplePrice;
    QString source;
    // For imported GPU kernels' rooflines; 0 where no source was found, and that level or precision is
    // left out rather than guessed.
    double fp64Tflops = 0;  // FP64 on the vector (CUDA-core) units, never the FP64 tensor/matrix rate
    double l2Tbs = 0;       // L2 read bandwidth, TB/s, as measured by a published microbenchmark
    double l1Tbs = 0;       // L1 / shared-memory read bandwidth of all SMs together, TB/s
    QString cacheBandwidthSource;
    // The names drivers and profilers report for this card (nvidia-smi, Nsight Compute's
    // device__attribute_display_name, rocm-smi), e.g. "NVIDIA A100-SXM4-40GB"; see
    // core/model/catalog/gpu_device_names.h.
    QStringList deviceNames;

    std::int64_t memoryBytes() const;  // memoryGib x 2^30
    // What streaming kernels can reach: the measured STREAM triad, or the datasheet figure x kTypicalSustainedShare.
    double sustainedBandwidthTbs() const;
    // The dense tensor peak a stored format multiplies at (mxfp4 at the fp4 rate); 0 when the card has none.
    double peakTflops(NumberFormat precision) const { return denseTflops[formatIndex(tensorPrecisionOf(precision))]; }
    void setPeakTflops(NumberFormat precision, double tflops)
    {
        denseTflops[static_cast<std::size_t>(precision)] = tflops;
    }
};

}  // namespace ridgeline
