#include "ui/plots/roofline/point_explanation.h"

#include "core/model/units.h"
#include "core/session/session_roof.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <map>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("PointExplanation", text);
}

}  // namespace

QString memoryLevelFor(const Session& session, double bytes)
{
    // Total capacity per level: per-instance size times the number of instances this process can use.
    std::map<int, double> capacity;
    const int cpus = std::max(1, session.machine.cores);
    for (const CacheInfo& cache : session.machine.caches) {
        if (cache.type == QLatin1String("Instruction"))
            continue;
        const int instances = std::max(1, cpus / std::max(1, cache.sharedByCpus));
        capacity[cache.level] = std::max(capacity[cache.level], double(cache.sizeBytes) * instances);
    }
    for (const auto& [level, size] : capacity) {
        const QString name = QStringLiteral("L%1").arg(level);
        const bool measured = std::any_of(session.bandwidthCeilings.begin(), session.bandwidthCeilings.end(),
                                          [&](const BandwidthCeiling& b) { return b.level == name; });
        if (measured && bytes <= size)
            return name;
    }
    return QStringLiteral("DRAM");
}

PointExplanation explainKernel(const Session& session, const KernelResult& kernel)
{
    PointExplanation e;
    e.kernelName = kernel.name;
    e.intensity = kernel.intensity;
    e.gflops = kernel.gflops;
    e.precision = kernel.precision;
    e.gpuKernel = kernel.device.isGpu();
    // A GPU kernel's bytes are those of the level its profiler counted; a CPU kernel's level is guessed from the
    // caches its bytes fit in.
    e.memoryLevel = e.gpuKernel ? (kernel.level.isEmpty() ? kDramLevel.toString() : kernel.level)
                                : memoryLevelFor(session, kernel.bytes);
    if (e.gpuKernel) {
        const Session* gpu = catalogGpuCeilings(kernel.device.gpu);
        e.machine = gpu ? gpu->machine.cpuModel : QString();
        if (!gpu)
            e.noRoof = kernel.device.gpu.isEmpty()
                           ? (kernel.device.name.isEmpty()
                                  ? tr("it ran on a GPU its profile does not name")
                                  : tr("it ran on %1, which is not in the GPU catalog").arg(kernel.device.name))
                           : tr("its GPU \"%1\" is not in this build's catalog").arg(kernel.device.gpu);
    }
    const std::optional<SessionRoof> roof = kernelRoof(session, kernel, e.memoryLevel);
    if (!roof || kernel.intensity <= 0.0)
        return e;
    const ComputeCeiling* compute = roof->compute;
    const BandwidthCeiling* memory = roof->memory;
    e.memoryLevel = memory->level;
    e.valid = true;
    e.precisionFallback = !kernel.precision.isEmpty() && compute->precision != kernel.precision;
    e.computeCeiling = compute->name;
    e.roof = roof->roof();
    e.bound = boundAt(e.roof, kernel.intensity);
    e.attainableGflops = attainableGflops(e.roof, kernel.intensity);
    e.bindingCeiling = e.bound == Bound::Memory
                           ? QStringLiteral("%1 %2 GB/s").arg(memory->level, formatCompact(memory->gbps))
                           : QStringLiteral("%1 (%2 GFLOP/s)").arg(compute->name, formatCompact(compute->gflops));
    e.percentOfAttainable = e.attainableGflops > 0.0 ? 100.0 * kernel.gflops / e.attainableGflops : 0.0;
    e.headroomGflops = std::max(0.0, e.attainableGflops - kernel.gflops);
    e.ridgeIntensity = ridgeIntensity(e.roof);
    e.intensityFactorToRidge = e.ridgeIntensity / kernel.intensity;
    return e;
}

QString explanationHtml(const PointExplanation& e)
{
    if (!e.valid && !e.noRoof.isEmpty())
        return tr("<p><b>%1</b> has no roof to compare with: %2. It is never compared with this machine's roof. "
                  "Import it again and choose its GPU (or <tt>ridgeline import --device ID</tt>).</p>")
            .arg(e.kernelName.toHtmlEscaped(), e.noRoof.toHtmlEscaped());
    if (!e.valid)
        return tr("<p>This session has no ceilings to compare <b>%1</b> with yet.</p>")
            .arg(e.kernelName.toHtmlEscaped());
    QString html;
    html += QStringLiteral("<h3>%1</h3>").arg(e.kernelName.toHtmlEscaped());
    html +=
        tr("<p><b>%1 GFLOP/s</b> at <b>%2 FLOP/byte</b>.</p>").arg(formatCompact(e.gflops), formatCompact(e.intensity));
    if (!e.machine.isEmpty())
        html += tr("<p>It ran on <b>%1</b>: compared with that GPU's catalog roof (dense datasheet peaks, datasheet "
                   "memory bandwidth, published cache measurements), not with this machine's.</p>")
                    .arg(e.machine.toHtmlEscaped());
    html +=
        tr("<p>Binding ceiling: <b>%1</b> — %2-bound.<br>Its data lives in %3, so the roof above it is "
           "min(%4 GFLOP/s, %5 FLOP/byte × %6 GB/s) = <b>%7 GFLOP/s</b>.</p>")
            .arg(e.bindingCeiling.toHtmlEscaped(), boundName(e.bound), e.memoryLevel, formatCompact(e.roof.peakGflops),
                 formatCompact(e.intensity), formatCompact(e.roof.bandwidthGbps), formatCompact(e.attainableGflops));
    if (e.precisionFallback)
        html += tr("<p><i>There is no %1 peak to compare with, so the roof is the best one there is (%2): an upper "
                   "bound, not this kernel's own.</i></p>")
                    .arg(e.precision.toHtmlEscaped(), e.computeCeiling.toHtmlEscaped());
    html += tr("<p>Reaches <b>%1 %</b> of attainable; headroom <b>%2 GFLOP/s</b>.</p>")
                .arg(formatCompact(e.percentOfAttainable), formatCompact(e.headroomGflops));
    if (e.percentOfAttainable > 105.0 && e.gpuKernel)
        html +=
            tr("<p><i>Above its GPU's catalog roof: the catalog's figures are a datasheet's or another card's "
               "measurement, not this run's. Check that the GPU is the one it ran on (a faster card or clock), "
               "and which counters gave the bytes.</i></p>");
    else if (e.percentOfAttainable > 105.0)
        html +=
            tr("<p><i>Above its roof, which the physics does not allow: the ceiling was probably measured "
               "while the machine was busy, or the data stayed in a faster level than assumed. Measure again "
               "on a quiet machine.</i></p>");
    if (e.bound == Bound::Memory) {
        html += tr("<p>The ridge is at <b>%1 FLOP/byte</b>: it needs <b>%2×</b> more arithmetic per byte "
                   "(batching, fusion, blocking) before more FLOPs would help.</p>")
                    .arg(formatCompact(e.ridgeIntensity), formatCompact(e.intensityFactorToRidge));
    } else {
        html += tr("<p>Past the ridge (%1 FLOP/byte): more bandwidth buys nothing here; only a faster compute "
                   "path (wider vectors, lower precision, more threads) moves it.</p>")
                    .arg(formatCompact(e.ridgeIntensity));
    }
    return html;
}

QString kernelTooltipHtml(const Session& session, const KernelResult& kernel)
{
    const PointExplanation e = explainKernel(session, kernel);
    QString html = QStringLiteral("<b>%1</b> (%2)<br>%3 GFLOP/s at %4 FLOP/byte")
                       .arg(kernel.name.toHtmlEscaped(), kernel.size.toHtmlEscaped(), formatCompact(kernel.gflops),
                            formatCompact(kernel.intensity));
    if (e.valid && !e.machine.isEmpty())
        html += tr("<br>%1 % of attainable on %2, %3-bound (%4)")
                    .arg(formatCompact(e.percentOfAttainable), e.machine.toHtmlEscaped(), boundName(e.bound),
                         e.bindingCeiling.toHtmlEscaped());
    else if (e.valid)
        html += tr("<br>%1 % of attainable, %2-bound (%3)")
                    .arg(formatCompact(e.percentOfAttainable), boundName(e.bound), e.bindingCeiling.toHtmlEscaped());
    else if (!e.noRoof.isEmpty())
        html += tr("<br>no roof: %1").arg(e.noRoof.toHtmlEscaped());
    return html;
}

}  // namespace ridgeline::ui
