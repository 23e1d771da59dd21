#include "core/session/session_roof.h"

#include "core/model/number_format.h"

#include <map>

namespace ridgeline {

namespace {

bool isRead(const BandwidthCeiling& ceiling)
{
    return ceiling.mix == QLatin1String("read");
}

}  // namespace

const ComputeCeiling* bestComputeCeiling(const Session& session, QStringView precision)
{
    return bestComputeCeilingWithout(session, precision, {});
}

const ComputeCeiling* bestComputeCeilingWithout(const Session& session, QStringView precision,
                                                const QStringList& hidden)
{
    // Any precision means any floating-point one: int8 ceilings count operations, not FLOPs, so they are a
    // roof of their own, asked for by name (a session of int8 ceilings only still has that one).
    const auto eligible = [&](const ComputeCeiling& c, bool floatingOnly) {
        if (hidden.contains(c.precision))
            return false;
        if (!precision.isEmpty())
            return c.precision == precision;
        return !floatingOnly || c.precision != QLatin1String("int8");
    };
    for (bool floatingOnly : {true, false}) {
        const ComputeCeiling* best = nullptr;
        for (const ComputeCeiling& c : session.computeCeilings)
            if (c.gflops > 0.0 && eligible(c, floatingOnly) && (!best || c.gflops > best->gflops))
                best = &c;
        if (best || !precision.isEmpty())
            return best;
    }
    return nullptr;
}

const BandwidthCeiling* memoryCeiling(const Session& session, QStringView level)
{
    const BandwidthCeiling* found = nullptr;
    for (const BandwidthCeiling& b : session.bandwidthCeilings) {
        if (b.level != level || !(b.gbps > 0.0))
            continue;
        // A read ceiling beats any other mix; among equals, the faster one.
        const bool better =
            !found || (isRead(b) && !isRead(*found)) || (isRead(b) == isRead(*found) && b.gbps > found->gbps);
        if (better)
            found = &b;
    }
    return found;
}

const BandwidthCeiling* slowestBandwidthCeiling(const Session& session)
{
    const BandwidthCeiling* slowest = nullptr;
    for (const BandwidthCeiling& b : session.bandwidthCeilings)
        if (b.gbps > 0.0 && (!slowest || b.gbps < slowest->gbps))
            slowest = &b;
    return slowest;
}

const BandwidthCeiling* fastestBandwidthCeiling(const Session& session)
{
    const BandwidthCeiling* fastest = nullptr;
    for (const BandwidthCeiling& b : session.bandwidthCeilings)
        if (b.gbps > 0.0 && (!fastest || b.gbps > fastest->gbps))
            fastest = &b;
    return fastest;
}

std::optional<SessionRoof> primaryRoof(const Session& session)
{
    SessionRoof roof;
    roof.compute = bestComputeCeiling(session);
    roof.memory = memoryCeiling(session, kDramLevel);
    if (!roof.memory)
        roof.memory = slowestBandwidthCeiling(session);
    if (!roof.compute || !roof.memory)
        return std::nullopt;
    return roof;
}

std::optional<SessionRoof> roofFor(const Session& session, QStringView precision, QStringView level)
{
    SessionRoof roof;
    roof.compute = bestComputeCeiling(session, precision);
    if (!roof.compute)
        roof.compute = bestComputeCeiling(session);
    roof.memory = memoryCeiling(session, level);
    if (!roof.memory)
        roof.memory = slowestBandwidthCeiling(session);
    if (!roof.compute || !roof.memory)
        return std::nullopt;
    return roof;
}

namespace {

ComputeCeiling gpuCompute(const QString& name, const QString& precision, const QString& isa, double tflops)
{
    ComputeCeiling ceiling;
    ceiling.name = name;
    ceiling.precision = precision;
    ceiling.isa = isa;
    ceiling.gflops = tflops * 1000.0;
    ceiling.theoreticalGflops = ceiling.gflops;
    return ceiling;
}

BandwidthCeiling gpuBandwidth(const QString& level, const QString& mix, double tbs)
{
    BandwidthCeiling ceiling;
    ceiling.level = level;
    ceiling.mix = mix;
    ceiling.gbps = tbs * 1000.0;
    return ceiling;
}

}  // namespace

Session gpuCeilings(const GpuSpec& gpu)
{
    Session session;
    session.title = gpu.name;
    session.machine.cpuModel = gpu.name;
    session.machine.cores = 1;
    if (gpu.fp64Tflops > 0.0)
        session.computeCeilings.push_back(
            gpuCompute(QStringLiteral("fp64"), QStringLiteral("fp64"), QStringLiteral("vector"), gpu.fp64Tflops));
    for (const NumberFormat format : kAllNumberFormats) {
        const double tflops = gpu.denseTflops[formatIndex(format)];
        if (!(tflops > 0.0))
            continue;
        const QString name = numberFormatName(format);
        if (format == NumberFormat::Fp32)  // the catalog's fp32 is the vector units' (FFMA), as ncu counts it
            session.computeCeilings.push_back(gpuCompute(name, name, QStringLiteral("vector"), tflops));
        else if (format == NumberFormat::Int8)
            session.computeCeilings.push_back(
                gpuCompute(name + QStringLiteral(" tensor"), name, QStringLiteral("tensor"), tflops));
        else
            session.computeCeilings.push_back(gpuCompute(
                name + QStringLiteral(" tensor"), QStringLiteral("tensor-") + name, QStringLiteral("tensor"), tflops));
    }
    session.bandwidthCeilings.push_back(
        gpuBandwidth(kDramLevel.toString(), QStringLiteral("datasheet"), gpu.bandwidthTbs));
    if (gpu.l2Tbs > 0.0)
        session.bandwidthCeilings.push_back(gpuBandwidth(QStringLiteral("L2"), QStringLiteral("read"), gpu.l2Tbs));
    if (gpu.l1Tbs > 0.0)
        session.bandwidthCeilings.push_back(gpuBandwidth(QStringLiteral("L1"), QStringLiteral("read"), gpu.l1Tbs));
    return session;
}

const Session* catalogGpuCeilings(QStringView id)
{
    // Built once from the built-in catalog, which never changes while the program runs.
    static const std::map<QString, Session> all = [] {
        std::map<QString, Session> built;
        if (const Result<std::vector<GpuSpec>>& gpus = builtinGpus(); gpus)
            for (const GpuSpec& gpu : gpus.value())
                built.emplace(gpu.id, gpuCeilings(gpu));
        return built;
    }();
    const auto found = all.find(id.toString());
    return found == all.end() ? nullptr : &found->second;
}

std::optional<SessionRoof> kernelRoof(const Session& session, const KernelResult& kernel, QStringView level)
{
    if (!kernel.device.isGpu())
        return roofFor(session, kernel.precision, level);
    const Session* gpu = catalogGpuCeilings(kernel.device.gpu);
    if (!gpu)
        return std::nullopt;
    return roofFor(*gpu, kernel.precision, kernel.level.isEmpty() ? kDramLevel : QStringView(kernel.level));
}

}  // namespace ridgeline
