#include "ui/plots/roofline/scene_content.h"

#include "core/model/units.h"

#include <QCoreApplication>

#include <algorithm>

namespace ridgeline::ui {

// The session's kernels named by the scene; the fusion pair also by kind, as older sessions name it differently.
std::vector<KernelResult> highlightedKernels(const Scene& scene, const Session& session)
{
    std::vector<KernelResult> kernels;
    for (const QString& name : scene.highlight) {
        auto found = std::find_if(session.kernels.begin(), session.kernels.end(),
                                  [&](const KernelResult& k) { return k.name == name; });
        if (found == session.kernels.end() && scene.kind == QLatin1String("fusion")) {
            const QString kind = name.contains(QLatin1String("fused"), Qt::CaseInsensitive) &&
                                         !name.contains(QLatin1String("pass"), Qt::CaseInsensitive)
                                     ? QStringLiteral("fusion-fused")
                                     : QStringLiteral("fusion-unfused");
            found = std::find_if(session.kernels.begin(), session.kernels.end(),
                                 [&](const KernelResult& k) { return k.kind == kind; });
        }
        if (found != session.kernels.end() &&
            std::none_of(kernels.begin(), kernels.end(), [&](const KernelResult& k) { return k.name == found->name; }))
            kernels.push_back(*found);
    }
    return kernels;
}

// The two kinds of the first scene: matrix multiplications (compute-bound) and adds (memory-bound); the
// decode and fusion kernels have scenes of their own.
std::vector<KernelResult> twoKindsKernels(const Session& session)
{
    std::vector<KernelResult> kernels;
    for (const KernelResult& k : session.kernels)
        if (k.kind == QLatin1String("sgemm") || k.kind == QLatin1String("dgemm") || k.kind == QLatin1String("add"))
            kernels.push_back(k);
    return kernels.empty() ? session.kernels : kernels;
}

// The source text's table on a GPU (intensityTableFor): the GPU is the machine, each row a kernel at what
// its roof allows, labelled with its intensity so the table is on the slide.
Session intensityTableSession(const IntensityTable& table)
{
    Session s;
    s.title = table.gpu.name;
    s.machine.cpuModel = table.gpu.name;
    ComputeCeiling peak;
    peak.name = QCoreApplication::translate("ridgeline::ui::SceneView", "bf16 peak");
    peak.precision = QStringLiteral("bf16");
    peak.gflops = table.gpu.roof.peakGflops;
    peak.theoreticalGflops = table.gpu.roof.peakGflops;
    s.computeCeilings.push_back(peak);
    BandwidthCeiling memory;
    memory.level = QStringLiteral("DRAM");
    memory.mix = QStringLiteral("read");
    memory.gbps = table.gpu.roof.bandwidthGbps;
    s.bandwidthCeilings.push_back(memory);
    for (const IntensityTable::Row& row : table.rows) {
        KernelResult k;
        k.name = QStringLiteral("%1: %2").arg(row.name, formatGrouped(row.intensity, row.intensity < 1.0 ? 2 : 0));
        k.kind = row.kind;
        k.precision = QStringLiteral("bf16");
        k.flops = row.count.flops;
        k.bytes = row.count.bytes;
        k.intensity = row.intensity;
        k.gflops = row.attainableGflops;
        k.gbps = k.intensity > 0.0 ? k.gflops / k.intensity : 0.0;
        k.seconds = k.gflops > 0.0 ? row.count.flops / (k.gflops * 1e9) : 0.0;
        s.kernels.push_back(k);
    }
    return s;
}

// The zoom a scene saved; an axis it does not give keeps the chart's default.
PlotRange sceneRange(const Scene& scene)
{
    PlotRange range;
    if (scene.intensityRange) {
        range.xMin = scene.intensityRange->min;
        range.xMax = scene.intensityRange->max;
    }
    if (scene.performanceRange) {
        range.yMin = scene.performanceRange->min;
        range.yMax = scene.performanceRange->max;
    }
    return range;
}

}  // namespace ridgeline::ui
