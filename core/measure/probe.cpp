#include "core/measure/probe.h"

#include "core/measure/parallel.h"

#include <cblas.h>
#include <cpuid.h>

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSysInfo>

#include <algorithm>
#include <utility>

namespace ridgeline {

namespace {

QString readTrimmed(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

// "32K", "1024K", "32M" -> bytes
std::int64_t parseCacheSize(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d+)\\s*([KMG]?)"));
    const auto match = pattern.match(text);
    if (!match.hasMatch())
        return 0;
    std::int64_t value = match.captured(1).toLongLong();
    const QString unit = match.captured(2);
    if (unit == QLatin1String("K"))
        value *= 1024;
    else if (unit == QLatin1String("M"))
        value *= 1024 * 1024;
    else if (unit == QLatin1String("G"))
        value *= 1024LL * 1024 * 1024;
    return value;
}

// "0-1", "0,2,4-7" -> number of CPUs
int countCpuList(const QString& list)
{
    int count = 0;
    for (const QString& part : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList range = part.split(QLatin1Char('-'));
        if (range.size() == 2)
            count += range[1].toInt() - range[0].toInt() + 1;
        else
            count += 1;
    }
    return std::max(count, 1);
}

QString cpuModelName()
{
    QFile file(QStringLiteral("/proc/cpuinfo"));
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (line.startsWith("model name")) {
                const qsizetype colon = line.indexOf(':');
                if (colon >= 0)
                    return QString::fromUtf8(line.mid(colon + 1)).trimmed();
            }
        }
    }
    return QSysInfo::currentCpuArchitecture();
}

std::int64_t memoryAvailableBytes()
{
    QFile file(QStringLiteral("/proc/meminfo"));
    if (file.open(QIODevice::ReadOnly)) {
        for (const QByteArray& line : file.readAll().split('\n')) {
            if (line.startsWith("MemAvailable:")) {
                const QList<QByteArray> parts = line.simplified().split(' ');
                if (parts.size() >= 2)
                    return parts[1].toLongLong() * 1024;
            }
        }
    }
    return 1LL << 30;  // unknown: assume 1 GiB so the budget stays modest
}

bool isZen4()
{
    // AMD family 19h with AVX-512 is Zen 4: 512-bit FMAs issue as two 256-bit halves.
    // Family 1Ah (Zen 5) has full 512-bit pipes.
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx))
        return false;
    const unsigned family = ((eax >> 8) & 0xF) + ((eax >> 20) & 0xFF);
    __builtin_cpu_init();
    return __builtin_cpu_is("amd") && family == 0x19 && __builtin_cpu_supports("avx512f");
}

QString openblasVersion(const QString& config)
{
    static const QRegularExpression pattern(QStringLiteral("OpenBLAS\\s+([0-9][0-9.]*)"));
    const auto match = pattern.match(config);
    return match.hasMatch() ? match.captured(1) : QStringLiteral("unknown");
}

}  // namespace

QString isaName(Isa isa)
{
    switch (isa) {
        case Isa::Scalar:
            return QStringLiteral("scalar");
        case Isa::Avx2:
            return QStringLiteral("avx2");
        case Isa::Avx512:
            return QStringLiteral("avx512");
    }
    return {};
}

QString precisionName(Precision precision)
{
    return precision == Precision::Fp32 ? QStringLiteral("fp32") : QStringLiteral("fp64");
}

int bytesPerElement(Precision precision)
{
    return precision == Precision::Fp32 ? 4 : 8;
}

std::vector<Isa> supportedFmaIsas()
{
    __builtin_cpu_init();
    std::vector<Isa> isas;
    if (__builtin_cpu_supports("fma")) {
        isas.push_back(Isa::Scalar);
        if (__builtin_cpu_supports("avx2"))
            isas.push_back(Isa::Avx2);
        if (__builtin_cpu_supports("avx512f"))
            isas.push_back(Isa::Avx512);
    }
    return isas;
}

double fmaFlopsPerCycle(Isa isa, Precision precision)
{
    const double lanesPer256 = precision == Precision::Fp32 ? 8.0 : 4.0;
    switch (isa) {
        case Isa::Scalar:
            return 2.0 * 1.0 * 2.0;  // two pipes, one lane, FMA = 2 FLOPs
        case Isa::Avx2:
            return 2.0 * lanesPer256 * 2.0;  // two 256-bit pipes
        case Isa::Avx512:
            return (isZen4() ? 1.0 : 2.0) * 2.0 * lanesPer256 * 2.0;
    }
    return 0.0;
}

std::vector<CacheInfo> probeCaches()
{
    std::vector<CacheInfo> caches;
    const QDir cacheDir(QStringLiteral("/sys/devices/system/cpu/cpu0/cache"));
    const QStringList entries =
        cacheDir.entryList({QStringLiteral("index*")}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString& entry : entries) {
        const QString base = cacheDir.filePath(entry) + QLatin1Char('/');
        CacheInfo cache;
        cache.type = readTrimmed(base + QStringLiteral("type"));
        if (cache.type == QLatin1String("Instruction"))
            continue;
        cache.level = readTrimmed(base + QStringLiteral("level")).toInt();
        cache.sizeBytes = parseCacheSize(readTrimmed(base + QStringLiteral("size")));
        cache.sharedByCpus = countCpuList(readTrimmed(base + QStringLiteral("shared_cpu_list")));
        if (cache.level > 0 && cache.sizeBytes > 0)
            caches.push_back(cache);
    }
    std::sort(caches.begin(), caches.end(), [](const CacheInfo& a, const CacheInfo& b) { return a.level < b.level; });
    return caches;
}

MachineInfo probeMachine()
{
    MachineInfo machine;
    machine.cpuModel = cpuModelName();
    machine.hostname = QSysInfo::machineHostName();
    machine.os = QSysInfo::prettyProductName() + QStringLiteral(" / Linux ") + QSysInfo::kernelVersion();
    machine.cores = static_cast<int>(allowedCpus().size());

    __builtin_cpu_init();
    // __builtin_cpu_supports takes only literals, hence one entry per flag.
    const std::pair<const char*, bool> flags[] = {
        {"sse2", __builtin_cpu_supports("sse2")},         {"sse4.2", __builtin_cpu_supports("sse4.2")},
        {"avx", __builtin_cpu_supports("avx")},           {"fma", __builtin_cpu_supports("fma")},
        {"avx2", __builtin_cpu_supports("avx2")},         {"avx512f", __builtin_cpu_supports("avx512f")},
        {"avx512bw", __builtin_cpu_supports("avx512bw")}, {"avx512vl", __builtin_cpu_supports("avx512vl")},
    };
    for (const auto& [name, has] : flags)
        if (has)
            machine.isa.append(QString::fromLatin1(name));

    machine.caches = probeCaches();
    machine.openblasConfig = QString::fromLatin1(openblas_get_config()).trimmed();
    machine.openblasVersion = openblasVersion(machine.openblasConfig);
    machine.openblasCore = QString::fromLatin1(openblas_get_corename()).trimmed();
    machine.openblasThreads = openblas_get_num_threads();
    machine.memoryAvailableBytes = memoryAvailableBytes();
    return machine;
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
