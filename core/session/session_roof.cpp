#include "core/session/session_roof.h"

namespace ridgeline {

namespace {

bool isRead(const BandwidthCeiling& ceiling)
{
    return ceiling.mix == QLatin1String("read");
}

}  // namespace

const ComputeCeiling* bestComputeCeiling(const Session& session, QStringView precision)
{
    // Any precision means any floating-point one: int8 ceilings count operations, not FLOPs, so they are a
    // roof of their own, asked for by name (a session of int8 ceilings only still has that one).
    const auto eligible = [&](const ComputeCeiling& c, bool floatingOnly) {
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

}  // namespace ridgeline
