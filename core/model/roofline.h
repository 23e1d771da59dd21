#pragma once
// The roofline model itself: attainable performance is bounded by compute or by bandwidth x intensity.

#include <QPointF>
#include <QString>

#include <vector>

namespace ridgeline {

struct Roof {
    double peakGflops = 0.0;     // compute ceiling, GFLOP/s
    double bandwidthGbps = 0.0;  // memory ceiling, GB/s (1e9 bytes/s)
};

// A roof that is not measured: a GPU from the catalog or one typed in by hand.
struct NamedRoof {
    QString name;  // "H100 SXM (bf16)"
    Roof roof;     // GFLOP/s and GB/s, like every other roof on the chart
};

// min(peak, intensity x bandwidth), in GFLOP/s; intensity in FLOP/byte.
double attainableGflops(const Roof& roof, double intensityFlopPerByte);

// The intensity where the bandwidth line meets the compute ceiling: peak / bandwidth, FLOP/byte.
double ridgeIntensity(const Roof& roof);

enum class Bound { Memory, Compute };
Bound boundAt(const Roof& roof, double intensityFlopPerByte);
QString boundName(Bound bound);

// The exact vertices of one roof between two intensities: the bandwidth line, the ridge vertex
// (when it lies inside the range) and the flat compute line. Never a sampled chord.
std::vector<QPointF> roofVertices(const Roof& roof, double minIntensity, double maxIntensity);

}  // namespace ridgeline
