// The one file that asks the operating system for the probe and the measurement: Linux sysfs and procfs, and, on the
// live machine only, the scheduler's affinity (and pinning threads) and, when /proc/cpuinfo or sysfs's caches are
// missing, cpuid; on ARM64 the hwcaps (getauxval) and MIDR_EL1.
#include "core/measure/arm64/arm64_cpu.h"
#include "core/measure/machine/cpuid_caches.h"
#include "core/measure/machine/system_facts.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSysInfo>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__aarch64__)
#include "core/measure/machine/isa.h"
#endif
#if defined(__linux__)
#include <sched.h>
#include <sys/auxv.h>
#endif

#include <algorithm>
#include <cmath>

namespace ridgeline {

namespace {

QString readTrimmed(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).trimmed();
}

// "32K", "1024K", "32M" -> bytes; sysfs writes K with no space.
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

// "0-1", "0,2,4-7" -> number of CPUs; 0 for an empty or unreadable list.
int countCpuList(const QString& list)
{
    int count = 0;
    for (const QString& part : list.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList range = part.trimmed().split(QLatin1Char('-'));
        bool okFirst = false;
        bool okLast = false;
        const int first = range.value(0).toInt(&okFirst);
        const int last = range.size() == 2 ? range[1].toInt(&okLast) : first;
        if (okFirst && (range.size() == 1 || okLast) && last >= first)
            count += last - first + 1;
    }
    return count;
}

std::vector<CacheInfo> readCaches(const QString& cpuDir, QStringList& notes)
{
    std::vector<CacheInfo> caches;
    const QDir cacheDir(cpuDir + QStringLiteral("/cpu0/cache"));
    if (!cacheDir.exists()) {
        notes.append(QStringLiteral("sysfs has no cache description (%1)").arg(cacheDir.path()));
        return caches;
    }
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
        cache.sharedByCpus = std::max(countCpuList(readTrimmed(base + QStringLiteral("shared_cpu_list"))), 1);
        if (cache.level > 0 && cache.sizeBytes > 0)
            caches.push_back(cache);
    }
    std::sort(caches.begin(), caches.end(), [](const CacheInfo& a, const CacheInfo& b) { return a.level < b.level; });
    return caches;
}

// "key : value" of the first processor block; x86 and ARM spell the keys differently.
void readCpuinfo(const QString& path, SystemFacts& facts)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        facts.notes.append(QStringLiteral("cannot read %1").arg(path));
        return;
    }
    const QByteArray text = file.readAll();
    int processors = 0;
    bool firstBlock = true;
    for (const QByteArray& rawLine : text.split('\n')) {
        const qsizetype colon = rawLine.indexOf(':');
        if (colon < 0) {
            if (rawLine.trimmed().isEmpty() && processors > 0)
                firstBlock = false;
            continue;
        }
        const QString key = QString::fromUtf8(rawLine.left(colon)).trimmed();
        const QString value = QString::fromUtf8(rawLine.mid(colon + 1)).trimmed();
        if (key == QLatin1String("processor"))
            ++processors;
        if (!firstBlock)
            continue;
        if (key == QLatin1String("model name"))
            facts.cpuModel = value;
        else if (key == QLatin1String("vendor_id") || key == QLatin1String("CPU implementer"))
            facts.vendor = value;
        else if (key == QLatin1String("cpu family"))
            facts.family = value.toInt();
        else if (key == QLatin1String("model"))
            facts.model = value.toInt();
        else if (key == QLatin1String("CPU part"))  // ARM64: the core, in hexadecimal
            facts.model = value.toInt(nullptr, 0);
        else if (key == QLatin1String("stepping"))
            facts.stepping = value.toInt();
        else if (key == QLatin1String("siblings"))
            facts.siblings = value.toInt();
        else if (key == QLatin1String("cpu cores"))
            facts.coresPerPackage = value.toInt();
        else if (key == QLatin1String("cpu MHz"))
            facts.cpuinfoMhz = value.toDouble();
        else if (key == QLatin1String("flags") || key == QLatin1String("Features"))
            facts.flags = value.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    }
    if (facts.onlineCpus == 0)
        facts.onlineCpus = processors;
    // ARM64 prints no "model name" (a few vendors' kernels do): name the cores from implementer and part.
    if (facts.cpuModel.isEmpty() && facts.vendor.startsWith(QLatin1String("0x")))
        facts.cpuModel = arm64CpuModel(parseArm64Cpuinfo(QString::fromUtf8(text)));
}

#if defined(__aarch64__)
// The running ARM64 CPU: features from the auxiliary vector, which the kernel documents as the way to test them.
// Under qemu-user /proc/cpuinfo (and /sys) are the host's, so without an ARM64 processor block the core comes
// from MIDR_EL1, which Linux (and qemu) let user space read where HWCAP_CPUID is set.
void readArm64Live(SystemFacts& facts)
{
    const Arm64Hwcaps& hwcaps = arm64Hwcaps();
    if (!facts.vendor.startsWith(QLatin1String("0x"))) {
        facts.notes.append(QStringLiteral("/proc/cpuinfo describes no ARM64 processor (%1, e.g. under qemu-user): "
                                          "the core is read from MIDR_EL1 and the features from the hwcaps")
                               .arg(facts.cpuModel.isEmpty() ? QStringLiteral("no model") : facts.cpuModel));
        Arm64Cpuinfo own;
        if ((hwcaps.hwcap & HWCAP_CPUID) != 0) {
            std::uint64_t midr = 0;
            asm volatile("mrs %0, midr_el1" : "=r"(midr));
            own.cpus.push_back(arm64CpuIdFromMidr(midr));
        }
        const Arm64CpuId id = own.cpus.empty() ? Arm64CpuId{} : own.cpus.front();
        facts.vendor = QStringLiteral("0x%1").arg(id.implementer, 2, 16, QLatin1Char('0'));
        facts.family = 0;
        facts.model = id.part;
        facts.stepping = 0;
        facts.cpuinfoMhz = 0.0;
        facts.cpuModel = arm64CpuModel(own);
    }
    facts.flags = arm64FeatureNames(hwcaps);
    if (const int bits = sveVectorBits(); bits > 0)
        facts.notes.append(QStringLiteral("SVE vectors are %1 bits").arg(bits));
}
#endif

void readMeminfo(const QString& path, SystemFacts& facts)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        facts.notes.append(QStringLiteral("cannot read %1").arg(path));
        return;
    }
    for (const QByteArray& line : file.readAll().split('\n')) {
        const QList<QByteArray> parts = line.simplified().split(' ');
        if (parts.size() < 2)
            continue;
        if (parts[0] == "MemAvailable:")
            facts.memoryAvailableBytes = parts[1].toLongLong() * 1024;
        else if (parts[0] == "MemTotal:")
            facts.memoryTotalBytes = parts[1].toLongLong() * 1024;
    }
}

#if defined(__x86_64__) || defined(__i386__)
// A system without /proc/cpuinfo: the CPU itself, for the flags the FMA kernels need.
void readCpuid(SystemFacts& facts)
{
    __builtin_cpu_init();
    const std::pair<const char*, bool> flags[] = {
        {"sse2", __builtin_cpu_supports("sse2")},         {"sse4_2", __builtin_cpu_supports("sse4.2")},
        {"avx", __builtin_cpu_supports("avx")},           {"fma", __builtin_cpu_supports("fma")},
        {"avx2", __builtin_cpu_supports("avx2")},         {"avx512f", __builtin_cpu_supports("avx512f")},
        {"avx512bw", __builtin_cpu_supports("avx512bw")}, {"avx512vl", __builtin_cpu_supports("avx512vl")},
    };
    for (const auto& [name, has] : flags)
        if (has)
            facts.flags.append(QString::fromLatin1(name));
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid(1, &eax, &ebx, &ecx, &edx)) {
        const unsigned baseFamily = (eax >> 8) & 0xF;
        facts.family = static_cast<int>(baseFamily + (baseFamily == 0xF ? (eax >> 20) & 0xFF : 0));
        facts.model = static_cast<int>(((eax >> 4) & 0xF) | ((baseFamily >= 6 ? (eax >> 16) & 0xF : 0) << 4));
        facts.stepping = static_cast<int>(eax & 0xF);
        facts.hypervisor = (ecx >> 31) & 1;
    }
    facts.notes.append(QStringLiteral("CPU features read with cpuid: /proc/cpuinfo is not readable"));
}

// Caches from cpuid when sysfs describes none; the topology from /proc/cpuinfo (cpuid_caches.h says why).
void readCpuidCaches(SystemFacts& facts)
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    __cpuid(0, eax, ebx, ecx, edx);
    char vendor[13] = {};
    for (int i = 0; i < 4; ++i) {
        vendor[i] = static_cast<char>(ebx >> (8 * i));
        vendor[4 + i] = static_cast<char>(edx >> (8 * i));
        vendor[8 + i] = static_cast<char>(ecx >> (8 * i));
    }
    const CpuidQuery query = [](std::uint32_t leaf, std::uint32_t subleaf) {
        CpuidRegisters r;
        __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
        return r;
    };
    CpuTopology topology;
    topology.cpusPerPackage = facts.siblings > 0 ? facts.siblings : facts.onlineCpus;
    if (facts.siblings > 0 && facts.coresPerPackage > 0)
        topology.threadsPerCore = std::max(facts.siblings / facts.coresPerPackage, 1);
    const CpuidCaches found = cachesFromCpuid(QString::fromLatin1(vendor), query, topology);
    facts.caches = found.caches;
    if (!found.caches.empty())
        facts.notes.append(QStringLiteral("caches read from %1").arg(found.source));
}
#endif

}  // namespace

ProbeSources ProbeSources::fixture(const QString& rootDirectory)
{
    ProbeSources sources;
    sources.sysfsRoot = rootDirectory + QStringLiteral("/sys");
    sources.procRoot = rootDirectory + QStringLiteral("/proc");
    sources.live = false;
    return sources;
}

const Arm64Hwcaps& arm64Hwcaps()
{
#if defined(__aarch64__)
    static const Arm64Hwcaps hwcaps{getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
#else
    static const Arm64Hwcaps hwcaps{};
#endif
    return hwcaps;
}

std::vector<int> allowedCpus()
{
    cpu_set_t set;
    CPU_ZERO(&set);
    std::vector<int> cpus;
    if (sched_getaffinity(0, sizeof(set), &set) == 0) {
        for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
            if (CPU_ISSET(cpu, &set))
                cpus.push_back(cpu);
    }
    if (cpus.empty())
        cpus.push_back(0);
    return cpus;
}

void pinCurrentThread(const std::vector<int>& cpus)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : cpus)
        CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof(set), &set);
}

SystemFacts readSystemFacts(const ProbeSources& sources)
{
    SystemFacts facts;
    const QString cpuDir = sources.sysfsRoot + QStringLiteral("/devices/system/cpu");
    facts.onlineCpus = countCpuList(readTrimmed(cpuDir + QStringLiteral("/online")));
    readCpuinfo(sources.procRoot + QStringLiteral("/cpuinfo"), facts);
#if defined(__x86_64__) || defined(__i386__)
    if (sources.live && facts.flags.isEmpty())
        readCpuid(facts);
#elif defined(__aarch64__)
    if (sources.live)
        readArm64Live(facts);
#endif
    facts.hypervisor = facts.hypervisor || facts.flags.contains(QLatin1String("hypervisor"));
    if (facts.cpuModel.isEmpty())
        facts.cpuModel = sources.live ? QSysInfo::currentCpuArchitecture() : QStringLiteral("unknown CPU");
    facts.caches = readCaches(cpuDir, facts.notes);
#if defined(__x86_64__) || defined(__i386__)
    if (sources.live && facts.caches.empty())
        readCpuidCaches(facts);
#endif
    const QString maxFreq = readTrimmed(cpuDir + QStringLiteral("/cpu0/cpufreq/cpuinfo_max_freq"));
    facts.cpufreqMaxMhz = maxFreq.toDouble() / 1000.0;  // kHz in sysfs
    readMeminfo(sources.procRoot + QStringLiteral("/meminfo"), facts);
    if (sources.memoryAvailableBytes)
        facts.memoryAvailableBytes = *sources.memoryAvailableBytes;
    if (facts.memoryAvailableBytes <= 0) {
        facts.memoryAvailableBytes = 1LL << 30;  // unknown: assume 1 GiB so the budget stays modest
        facts.notes.append(QStringLiteral("available memory unknown; sized for 1 GiB"));
    }
    facts.onlineCpus = std::max(facts.onlineCpus, 1);
    facts.allowedCpus = sources.live ? static_cast<int>(allowedCpus().size()) : facts.onlineCpus;
    return facts;
}

std::optional<double> readLoadAverage(const ProbeSources& sources)
{
    const QString text = readTrimmed(sources.procRoot + QStringLiteral("/loadavg"));
    bool ok = false;
    const double load = text.section(QLatin1Char(' '), 0, 0).toDouble(&ok);
    if (!ok || !(load >= 0.0) || !std::isfinite(load))
        return std::nullopt;
    return load;
}

}  // namespace ridgeline
