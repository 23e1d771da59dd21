#include "core/measure/machine/probe.h"

#include <cblas.h>

#include <QRegularExpression>
#include <QSysInfo>

#include <algorithm>

namespace ridgeline {

namespace {

// The feature flags a session keeps: what the ceilings and kernels depend on (x86 and ARM64 names).
const QStringList& sessionFlags()
{
    static const QStringList flags{
        QStringLiteral("sse2"),        QStringLiteral("sse4_2"),      QStringLiteral("avx"),
        QStringLiteral("fma"),         QStringLiteral("avx2"),        QStringLiteral("avx512f"),
        QStringLiteral("avx512bw"),    QStringLiteral("avx512vl"),    QStringLiteral("avx512_vnni"),
        QStringLiteral("avx512_bf16"), QStringLiteral("avx512_fp16"), QStringLiteral("avx_vnni"),
        QStringLiteral("amx_tile"),    QStringLiteral("amx_bf16"),    QStringLiteral("amx_int8"),
        QStringLiteral("asimd"),       QStringLiteral("asimdhp"),     QStringLiteral("asimddp"),
        QStringLiteral("bf16"),        QStringLiteral("i8mm"),        QStringLiteral("sve"),
        QStringLiteral("sve2"),        QStringLiteral("svebf16"),     QStringLiteral("svei8mm"),
    };
    return flags;
}

QString openblasVersion(const QString& config)
{
    static const QRegularExpression pattern(QStringLiteral("OpenBLAS\\s+([0-9][0-9.]*)"));
    const auto match = pattern.match(config);
    return match.hasMatch() ? match.captured(1) : QStringLiteral("unknown");
}

}  // namespace

MachineInfo machineFromFacts(const SystemFacts& facts)
{
    MachineInfo machine;
    machine.cpuModel = facts.cpuModel;
    machine.vendor = facts.vendor;
    machine.family = facts.family;
    machine.model = facts.model;
    machine.hypervisor = facts.hypervisor;
    machine.cores = facts.allowedCpus;
    for (const QString& flag : sessionFlags())
        if (facts.flags.contains(flag))
            machine.isa.append(flag);
    machine.caches = facts.caches;
    machine.memoryAvailableBytes = facts.memoryAvailableBytes;
    const CoreModel core = identifyCore(facts.vendor, facts.family, facts.model, facts.flags);
    machine.coreName = core.name;
    machine.coreBasis = core.basis;
    return machine;
}

MachineInfo probeMachine(const ProbeSources& sources, QStringList* notes)
{
    const SystemFacts facts = readSystemFacts(sources);
    if (notes)
        *notes = facts.notes;
    MachineInfo machine = machineFromFacts(facts);
    if (sources.live) {
        machine.hostname = QSysInfo::machineHostName();
        machine.os = QSysInfo::prettyProductName() + QStringLiteral(" / Linux ") + QSysInfo::kernelVersion();
    }
    machine.openblasConfig = QString::fromLatin1(openblas_get_config()).trimmed();
    machine.openblasVersion = openblasVersion(machine.openblasConfig);
    machine.openblasCore = QString::fromLatin1(openblas_get_corename()).trimmed();
    machine.openblasThreads = openblas_get_num_threads();
    return machine;
}

CpuArch machineArch(const MachineInfo& machine)
{
    return machine.vendor.startsWith(QLatin1String("0x")) ? CpuArch::Arm64 : CpuArch::X86_64;
}

CoreModel coreOf(const MachineInfo& machine)
{
    return identifyCore(machine.vendor, machine.family, machine.model, machine.isa);
}

std::int64_t measurementMemoryBudget(const MachineInfo& machine)
{
    return machine.memoryAvailableBytes / 4;
}

std::int64_t aggregateCacheBytes(const CacheInfo& cache, int threads)
{
    const int instances = (threads + cache.sharedByCpus - 1) / cache.sharedByCpus;
    return cache.sizeBytes * std::max(instances, 1);
}

}  // namespace ridgeline
