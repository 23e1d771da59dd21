#include "ui/plots/roofline/roofline_devices.h"
#include "ui/plots/roofline/kernel_presentation.h"

#include "core/model/catalog/catalog.h"
#include "core/model/catalog/user_catalog.h"
#include "core/model/units.h"
#include "core/session/session_roof.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ridgeline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("RooflineChart", text);
}

// One catalog GPU of a session's kernels: its ceilings and the compute ceilings its kernels are held to.
struct Device {
    QString id;
    const Session* ceilings = nullptr;
    std::vector<const ComputeCeiling*> compute;  // highest first
};

bool hasOwnCeilings(const Session& session)
{
    return !session.computeCeilings.empty() || !session.bandwidthCeilings.empty();
}

std::vector<Device> devicesOf(const Session& session)
{
    std::vector<Device> devices;
    for (const KernelResult& kernel : session.kernels) {
        if (!kernel.device.isGpu())
            continue;
        const Session* ceilings = catalogGpuCeilings(kernel.device.gpu);
        if (!ceilings)
            continue;
        auto device =
            std::find_if(devices.begin(), devices.end(), [&](const Device& d) { return d.id == kernel.device.gpu; });
        if (device == devices.end())
            device = devices.insert(devices.end(), Device{kernel.device.gpu, ceilings, {}});
        const std::optional<SessionRoof> roof = kernelRoof(session, kernel, kDramLevel);
        if (roof && std::find(device->compute.begin(), device->compute.end(), roof->compute) == device->compute.end())
            device->compute.push_back(roof->compute);
    }
    for (Device& device : devices) {
        if (device.compute.empty())  // only kernels without FLOP/s: the GPU's best peak still bounds the chart
            if (const ComputeCeiling* best = bestComputeCeiling(*device.ceilings))
                device.compute.push_back(best);
        std::sort(device.compute.begin(), device.compute.end(),
                  [](const ComputeCeiling* a, const ComputeCeiling* b) { return a->gflops > b->gflops; });
    }
    devices.erase(std::remove_if(devices.begin(), devices.end(), [](const Device& d) { return d.compute.empty(); }),
                  devices.end());
    return devices;
}

// The DRAM roof is named after the card's memory ("A100 40GB SXM4 HBM2"), the caches after their level.
QString levelRoofName(const QString& gpuId, const QString& gpuName, const QString& level)
{
    if (level != kDramLevel)
        return gpuName + u' ' + (level == QLatin1String("L1") ? tr("L1/shared") : level);
    const Result<GpuSpec> spec = findGpu(gpuId);
    const QString memory = spec && !spec.value().memoryType.isEmpty() ? spec.value().memoryType : level;
    return gpuName + u' ' + memory;
}

QString levelLegendName(const QString& level)
{
    if (level == kDramLevel)
        return tr("GPU kernels: bytes at DRAM/HBM");
    if (level == QLatin1String("L1"))
        return tr("GPU kernels: bytes at L1/shared");
    return tr("GPU kernels: bytes at %1").arg(level);
}

}  // namespace

QString shortGpuName(QString name)
{
    for (const QLatin1String prefix :
         {QLatin1String("NVIDIA "), QLatin1String("AMD Instinct "), QLatin1String("AMD "), QLatin1String("GeForce ")})
        if (name.startsWith(prefix))
            name.remove(0, prefix.size());
    if (const qsizetype open = name.indexOf(u'('); open > 0)
        name.truncate(open);
    return name.trimmed();
}

MarkerShape levelMarkerShape(const QString& level)
{
    if (level == QLatin1String("L2"))
        return MarkerShape::Rectangle;
    if (level == QLatin1String("L1"))
        return MarkerShape::Triangle;
    return MarkerShape::Circle;
}

void addDeviceExtents(const Session& session, std::vector<double>& xs, std::vector<double>& ys)
{
    for (const Device& device : devicesOf(session)) {
        const double peak = device.compute.front()->gflops;
        for (const ComputeCeiling* compute : device.compute)
            ys.push_back(compute->gflops);
        for (const BandwidthCeiling& bandwidth : device.ceilings->bandwidthCeilings)
            xs.push_back(peak / bandwidth.gbps);
    }
}

void addDeviceRoofs(const Session& session, int index, bool mixed, double xLow, double xHigh, const ChartTheme& theme,
                    RooflinePlot& plot)
{
    const std::vector<Device> devices = devicesOf(session);
    for (std::size_t d = 0; d < devices.size(); ++d) {
        const Device& device = devices[d];
        const QString name = shortGpuName(device.ceilings->machine.cpuModel);
        const double peak = device.compute.front()->gflops;
        const BandwidthCeiling* fastest = fastestBandwidthCeiling(*device.ceilings);
        const QColor own = theme.extraRoofColor(static_cast<int>(d));
        for (const ComputeCeiling* compute : device.compute) {
            const bool best = compute == device.compute.front();
            PlotRoof roof;
            roof.kind = RoofKind::DeviceCompute;
            roof.session = index;
            roof.device = device.id;
            roof.name = name + u' ' + compute->name;
            roof.value = compute->gflops;
            roof.countsOperations = countsOperations(compute->precision);
            const double start = fastest ? std::max(xLow, compute->gflops / fastest->gbps) : xLow;
            roof.vertices = {QPointF(start, compute->gflops), QPointF(xHigh, compute->gflops)};
            QColor color = mixed ? own : theme.computeRoof;
            if (!best)
                color.setAlphaF(0.6f);
            roof.pen = QPen(color, best ? theme.boldRoofWidth : theme.roofWidth, best ? Qt::SolidLine : Qt::DashLine);
            roof.binding = best;
            roof.pen.setCapStyle(Qt::FlatCap);
            plot.roofs.push_back(std::move(roof));
        }
        for (const BandwidthCeiling& bandwidth : device.ceilings->bandwidthCeilings) {
            const Roof line{peak, bandwidth.gbps};
            const double ridge = ridgeIntensity(line);
            std::vector<QPointF> points = roofVertices(line, xLow, xHigh);
            points.erase(std::remove_if(points.begin(), points.end(),
                                        [ridge](const QPointF& p) { return p.x() > ridge * (1.0 + 1e-12); }),
                         points.end());
            const bool dram = bandwidth.level == kDramLevel;
            // Mixed with another machine, one colour says which GPU and the line style which level.
            const Qt::PenStyle style = !mixed || dram                           ? Qt::SolidLine
                                       : bandwidth.level == QLatin1String("L2") ? Qt::DashLine
                                                                                : Qt::DotLine;
            PlotRoof roof;
            roof.kind = RoofKind::DeviceBandwidth;
            roof.session = index;
            roof.device = device.id;
            roof.name = levelRoofName(device.id, name, bandwidth.level);
            roof.value = bandwidth.gbps;
            roof.vertices = std::move(points);
            roof.pen = QPen(mixed ? own : theme.bandwidthColor(bandwidth.level),
                            dram ? theme.boldRoofWidth : theme.roofWidth, style);
            roof.binding = dram;
            roof.pen.setCapStyle(Qt::FlatCap);
            plot.roofs.push_back(std::move(roof));
        }
    }
}

bool drawnAsGpuKernel(const KernelResult& kernel)
{
    return kernel.device.isGpu();
}

void addGpuKernelGroups(const RooflineInput& in, int index, const ChartTheme& theme, RooflinePlot& plot)
{
    const Session& s = (*in.sessions)[static_cast<std::size_t>(index)];
    // The key names the session only when GPU kernels of another session share the chart: alone, "(session)" would
    // say nothing and wrap a slide's key onto four rows.
    const bool overlay = std::count_if(in.sessions->begin(), in.sessions->end(), [](const Session& other) {
                             return std::any_of(other.kernels.begin(), other.kernels.end(), drawnAsGpuKernel);
                         }) > 1;
    QStringList levels{kDramLevel.toString(), QStringLiteral("L2"), QStringLiteral("L1")};
    // (level, own point first, dot diameter) -> the group; std::map keeps that order.
    std::map<std::tuple<int, int, long>, KernelGroup> groups;
    const auto add = [&](const QString& level, bool primary, long diameter, double intensity, KernelRef ref) {
        if (!levels.contains(level))
            levels.append(level);
        KernelGroup& group = groups[{static_cast<int>(levels.indexOf(level)), primary ? 0 : 1, diameter}];
        group.points.emplace_back(intensity, s.kernels[static_cast<std::size_t>(ref.kernel)].gflops);
        group.refs.push_back(ref);
        QColor color = kernelColorOf(plot, *in.sessions, theme, ref);
        if (plot.beforeKernel(ref))
            color.setAlphaF(0.4f);
        group.pointColors.emplace_back(static_cast<int>(group.points.size()) - 1, color);
        group.level = level;
        group.primary = primary;
        group.kind = s.kernels[static_cast<std::size_t>(ref.kernel)].kind;
        group.markerSize = primary ? static_cast<double>(diameter) / 10.0 : theme.markerSize * 0.85;
    };
    for (int k = 0; k < static_cast<int>(s.kernels.size()); ++k) {
        const KernelResult& kernel = s.kernels[static_cast<std::size_t>(k)];
        if (!drawnAsGpuKernel(kernel) || kernel.intensity <= 0.0 || kernel.gflops <= 0.0 ||
            !matchesKernelFilter(kernel, in.kernelFilter))
            continue;
        // Whole tenths of a pixel: Qt 6.4 drops points given a size of their own, so sizes are groups.
        const long diameter = std::lround(plot.markerSize({index, k}, theme.markerSize) * 10.0);
        add(kernel.level.isEmpty() ? kDramLevel.toString() : kernel.level, true, diameter, kernel.intensity,
            {index, k});
        // A level within 10 % of the kernel's own intensity is under its dot (the label names it there).
        for (const LevelPoint& point : kernel.levels)
            if (point.intensity > 0.0 && std::abs(std::log10(point.intensity / kernel.intensity)) > std::log10(1.1))
                add(point.level, false, 0, point.intensity, {index, k});
    }
    QStringList named;
    for (auto& entry : groups) {
        KernelGroup& group = entry.second;
        group.session = index;
        group.name = levelLegendName(group.level);
        if (overlay)
            group.name += QStringLiteral(" (%1)").arg(sessionLabel(s));
        group.shape = levelMarkerShape(group.level);
        group.color = theme.mutedText;  // the legend's marker; every dot has its kernel's colour
        group.border = theme.background;
        group.legendVisible = !named.contains(group.name);
        named.append(group.name);
        plot.groups.push_back(std::move(group));
    }
}

bool mixesMachines(const Session& session)
{
    const std::size_t devices = devicesOf(session).size();
    return devices >= 2 || (devices == 1 && hasOwnCeilings(session));
}

QStringList deviceNotes(const std::vector<Session>& sessions)
{
    QStringList notes;
    for (const Session& session : sessions) {
        const std::vector<Device> devices = devicesOf(session);
        QStringList gpus;
        for (const Device& device : devices)
            gpus << shortGpuName(device.ceilings->machine.cpuModel);
        if (mixesMachines(session)) {
            const QString machines =
                hasOwnCeilings(session)
                    ? tr("%1 (measured) and %2 (catalog)").arg(sessionLabel(session), gpus.join(QStringLiteral(", ")))
                    : gpus.join(QStringLiteral(" and "));
            notes
                << tr("Machines mixed on one chart: %1. Each kernel is held to its own machine's roofs.").arg(machines);
        }
        int roofless = 0;
        for (const KernelResult& kernel : session.kernels)
            roofless += kernel.device.isGpu() && !catalogGpuCeilings(kernel.device.gpu) ? 1 : 0;
        if (roofless > 0)
            notes << (roofless == 1 ? tr("1 GPU kernel without a roof")
                                    : tr("%1 GPU kernels without a roof").arg(roofless)) +
                         tr(": the GPU is not named or not in the catalog (choose it on import).");
        // Dots of a session without ceilings (likwid's kernels of a CPU Ridgeline has no roofs for) have nothing to be
        // held to: beside other sessions they would seem to belong to a neighbour's roofs, and alone (the window with
        // that session open, `ridgeline render` of its file) a chart of dots without a roof needs the reason as much.
        const auto cpuKernels = std::count_if(session.kernels.begin(), session.kernels.end(),
                                              [](const KernelResult& kernel) { return !kernel.device.isGpu(); });
        if (cpuKernels > 0 && !hasOwnCeilings(session))
            notes << tr("%1: %2 without a roof, no roofs known for that machine")
                         .arg(sessionLabel(session),
                              cpuKernels == 1 ? tr("1 kernel") : tr("%1 kernels").arg(cpuKernels));
    }
    notes.removeDuplicates();
    return notes;
}

std::optional<Roof> soleDeviceRoof(const Session& session)
{
    if (hasOwnCeilings(session))
        return std::nullopt;
    const std::vector<Device> devices = devicesOf(session);
    if (devices.size() != 1)
        return std::nullopt;
    const std::optional<SessionRoof> roof = primaryRoof(*devices.front().ceilings);
    return roof ? std::optional<Roof>(roof->roof()) : std::nullopt;
}

}  // namespace ridgeline::ui
