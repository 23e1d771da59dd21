#pragma once
// What buildRooflinePlot (roofline_plot.h) takes and gives, as plain data: the sessions and options in, every roof,
// region and kernel group out, in data coordinates with pens and colours. Its own header so that the parts the plot
// is built from (roofline_devices.h) fill it without needing the builder.

#include "core/model/roofline.h"
#include "core/model/units.h"
#include "core/session/session.h"
#include "ui/plots/layout/chart_theme.h"
#include "ui/plots/layout/log_scale.h"
#include "ui/plots/roofline/kernel_comparison.h"

#include <QColor>
#include <QPen>
#include <QPointF>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>
#include <vector>

namespace ridgeline::ui {

struct ChartOptions {
    ThemeKind theme = ThemeKind::Light;
    bool shadeRegions = false;   // memory-bound (left of the ridge) vs compute-bound
    bool isoEfficiency = false;  // 50 % and 80 % of the primary roof
    bool kernelLabels = true;
    bool errorBars = true;
    bool ridgeMarker = true;  // dotted line and label at the primary roof's ridge
    // Imported kernels: dot area in proportion to the kernel's share of its import's total time.
    bool sizeByTimeShare = false;
    // Every kernel's name on the chart where it has room, not only those of the points that matter.
    bool allKernelNames = false;
    // The roof legend and the notes in a strip beside the plot, never over the data; off: in the plot's least
    // crowded corner.
    bool legendBeside = true;
    // Precisions whose compute roofs and kernels are not drawn: the legend's precision entries toggle
    // them; the memory roofs and the ridge then follow the best precision still shown.
    QStringList hiddenPrecisions;
};

// Labelling thousands of dots is both slow and unreadable; past this only the dots are drawn.
inline constexpr int kMaxKernelLabels = 150;
// Before/after arrows drawn at most; more pairs than this get a hint to filter instead.
inline constexpr int kMaxArrows = 40;

struct KernelRef {
    int session = -1;
    int kernel = -1;
    bool operator==(const KernelRef&) const = default;
};

// Device kinds: the roofs of the catalog GPU a session's GPU kernels ran on (roofline_devices.h).
enum class RoofKind { Compute, Bandwidth, Extra, Iso, DeviceCompute, DeviceBandwidth };

// One roof line: a compute ceiling (flat), a bandwidth ceiling (up to its ridge), a GPU's whole roof, or an
// iso-efficiency line of the primary roof.
struct PlotRoof {
    RoofKind kind = RoofKind::Compute;
    int session = -1;               // compute and bandwidth roofs; -1 otherwise
    int extra = -1;                 // index into the extra roofs, for RoofKind::Extra
    QString name;                   // "fp32 avx512 x2 threads", "DRAM", "L2 triad", "H100 SXM (bf16)"
    QString level;                  // bandwidth roofs: "L2"
    double value = 0.0;             // GFLOP/s (compute, extra: the peak), GB/s (bandwidth), fraction (iso: 0.5)
    double bandwidthGbps = 0.0;     // extra roofs: the GPU's bandwidth
    std::vector<QPointF> vertices;  // data coordinates, drawn beyond the default range (zooming out shows no end)
    QPen pen;
    QString legendName;  // the legend entry when inLegend (overlays name their session there)
    bool inLegend = false;
    QString device;  // device roofs: the catalog GPU id ("a100-40gb-sxm"); their level stays "" (no staircase link)
    // A session of several precisions: the best roof of each carries the legend entry that shows or hides that
    // precision ("bf16"); see RooflinePlot::hiddenPrecisionEntries for the hidden ones.
    QString precisionEntry;
    bool countsOperations = false;  // compute roofs of an integer precision: "TOP/s", not "TFLOP/s"
    // The roof that binds: each shown precision's best compute roof, the memory roof, a GPU's best compute and DRAM
    // roofs, every extra roof. Those are named at their lines; the lower ones are drawn thin and keyed beside the plot.
    bool binding = true;
};

// A shaded region under the primary roof: memory-bound left of the ridge, compute-bound right of it.
struct PlotRegion {
    std::vector<QPointF> upper;  // the roof's vertices over the region
    double floor = 0.0;          // GFLOP/s the region is filled down to
    QColor color;
    QString name;
};

enum class MarkerShape { Circle, Rectangle, RotatedRectangle, Triangle, Pentagon };

// One scatter series: a session's kernels of one kind and one dot size (or its kernels the filter fades out).
struct KernelGroup {
    int session = 0;
    QString kind;  // "sgemm"; "" for the faded group
    QString name;  // the legend text
    bool dimmed = false;
    MarkerShape shape = MarkerShape::Circle;
    double markerSize = 13.0;
    QColor color;
    QColor border;
    std::vector<QPointF> points;                      // (intensity, GFLOP/s)
    std::vector<KernelRef> refs;                      // the kernel of each point (empty for the faded group)
    std::vector<std::pair<int, QColor>> pointColors;  // points whose colour differs from the group's
    bool carriesLegend = false;  // the first group of its kind: its legend entry stands for all of them
    bool legendVisible = false;
    // GPU kernels are drawn as one marker per memory level, its shape the level's: `level` names it.
    // A group of the kernels' other levels (not their own point) is not `primary`: no labels, not a kernel count.
    QString level;
    bool primary = true;
};

struct RidgeMarker {
    double intensity = 0.0;  // FLOP/byte
    double peakGflops = 0.0;
    QString precision;  // named in the label when the session has roofs of several precisions
};

struct RooflinePlot {
    PlotRange defaultRange;  // tight around everything, at least a few labelled decades
    FlopRateUnit yUnit;      // the performance axis's unit: GFLOP/s, or TFLOP/s and PFLOP/s beside GPU roofs
    QString title;           // the sessions' names, "A  vs  B"
    bool legendVisible = false;
    std::vector<PlotRegion> regions;   // drawn first
    std::vector<PlotRoof> roofs;       // iso lines, each session's compute then bandwidth roofs, extra roofs
    std::vector<KernelGroup> groups;   // each session's faded group first, then its kinds in order of appearance
    std::optional<RidgeMarker> ridge;  // of the primary roof, when options ask for it
    // The ridges of the primary session's other shown precisions: each one's best ceiling over the same
    // memory roof, so bf16's ridge sits right of fp32's by the ratio of their peaks.
    std::vector<RidgeMarker> precisionRidges;
    QStringList notes;                   // said on the chart: machines mixed on it, GPU kernels without a roof
    QStringList hiddenPrecisionEntries;  // precisions hidden by the options: legend entries without a roof
    // Per session and kernel: dot diameter (px), own colour (invalid: its kind's or session's), whether it is the
    // "before" end of a before/after arrow; and per session its before/after pairs.
    std::vector<std::vector<double>> markerSizes;
    std::vector<std::vector<QColor>> kernelColors;
    std::vector<std::vector<bool>> isBefore;
    std::vector<std::vector<KernelChange>> changes;

    double markerSize(KernelRef ref, double fallback) const;
    bool beforeKernel(KernelRef ref) const;
};

struct RooflineInput {
    const std::vector<Session>* sessions = nullptr;  // the first is primary
    const std::vector<NamedRoof>* extraRoofs = nullptr;
    ChartOptions options;
    QString highlightedLevel;  // "L2": that bandwidth roof bold, the others faded
    QString kernelFilter;      // kernels whose name does not contain it fade to grey dots
};

}  // namespace ridgeline::ui
