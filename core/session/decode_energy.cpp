#include "core/session/decode_energy.h"

#include "core/model/units.h"

#include <algorithm>

namespace ridgeline {

std::vector<const KernelResult*> decodeBatchesWithEnergy(const Session& session)
{
    std::vector<const KernelResult*> batches;
    for (const KernelResult& k : session.kernels)
        if (k.kind == QLatin1String("decode") && k.batch > 0 && k.energy.measured())
            batches.push_back(&k);
    std::stable_sort(batches.begin(), batches.end(),
                     [](const KernelResult* a, const KernelResult* b) { return a->batch < b->batch; });
    return batches;
}

QString decodeEnergyMissing(const Session& session)
{
    if (!decodeBatchesWithEnergy(session).empty())
        return {};
    const EnergySource& source = session.energy;
    if (source.basis.isEmpty())
        return QStringLiteral("energy per token: not recorded in this session");
    if (source.measured)
        return QStringLiteral("energy per token: not measured: %1, but no batch's counters could be read")
            .arg(source.basis);
    QString line = QStringLiteral("energy per token: not measured: %1").arg(source.basis);
    // A guest is the usual case of a machine without counters; KVM hands guests none unless told to.
    if (session.machine.hypervisor)
        line += QStringLiteral("; a virtual machine seldom has them");
    return line;
}

QString decodeEnergySummary(const Session& session)
{
    const std::vector<const KernelResult*> batches = decodeBatchesWithEnergy(session);
    if (batches.empty()) {
        if (session.energy.basis.isEmpty())
            return QStringLiteral("no energy per token recorded in this session");
        return QStringLiteral("no energy per token: %1").arg(session.energy.basis);
    }
    auto at = [](const KernelResult* k) {
        return QStringLiteral("%1 J at B = %2").arg(formatSignificant(k->energy.joulesPerToken, 3)).arg(k->batch);
    };
    QString line = QStringLiteral("energy per token (RAPL): ") + at(batches.front());
    if (batches.size() > 1)
        line += QStringLiteral(" \u2026 ") + at(batches.back());
    return line;
}

}  // namespace ridgeline
