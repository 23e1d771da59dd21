#include "ui/models/point_explanation.h"

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
    e.memoryLevel = memoryLevelFor(session, kernel.bytes);
    const std::optional<SessionRoof> roof = roofFor(session, kernel.precision, e.memoryLevel);
    if (!roof || kernel.intensity <= 0.0)
        return e;
    const ComputeCeiling* compute = roof->compute;
    const BandwidthCeiling* memory = roof->memory;
    e.memoryLevel = memory->level;
    e.valid = true;
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
    if (!e.valid)
        return tr("<p>This session has no ceilings to compare <b>%1</b> with yet.</p>")
            .arg(e.kernelName.toHtmlEscaped());
    QString html;
    html += QStringLiteral("<h3>%1</h3>").arg(e.kernelName.toHtmlEscaped());
    html +=
        tr("<p><b>%1 GFLOP/s</b> at <b>%2 FLOP/byte</b>.</p>").arg(formatCompact(e.gflops), formatCompact(e.intensity));
    html +=
        tr("<p>Binding ceiling: <b>%1</b> — %2-bound.<br>Its data lives in %3, so the roof above it is "
           "min(%4 GFLOP/s, %5 FLOP/byte × %6 GB/s) = <b>%7 GFLOP/s</b>.</p>")
            .arg(e.bindingCeiling.toHtmlEscaped(), boundName(e.bound), e.memoryLevel, formatCompact(e.roof.peakGflops),
                 formatCompact(e.intensity), formatCompact(e.roof.bandwidthGbps), formatCompact(e.attainableGflops));
    html += tr("<p>Reaches <b>%1 %</b> of attainable; headroom <b>%2 GFLOP/s</b>.</p>")
                .arg(formatCompact(e.percentOfAttainable), formatCompact(e.headroomGflops));
    if (e.percentOfAttainable > 105.0)
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
    if (e.valid)
        html += tr("<br>%1 % of attainable, %2-bound (%3)")
                    .arg(formatCompact(e.percentOfAttainable), boundName(e.bound), e.bindingCeiling.toHtmlEscaped());
    return html;
}

}  // namespace ridgeline::ui
