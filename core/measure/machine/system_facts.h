#pragma once
// What the operating system says about the CPU and memory: raw facts, read in one place and judged
// elsewhere. Everything that asks the operating system lives behind this header, implemented once per system
// (system_facts_linux.cpp; macOS's sysctl hw.* would be one file more): sysfs, /proc and cpuid
// (readSystemFacts), the hwcaps of the auxiliary vector (arm64Hwcaps), and the scheduler's CPUs for this process
// (allowedCpus, pinCurrentThread).

#include "core/measure/arm64/arm64_cpu.h"
#include "core/session/session.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline {

// Where the facts come from: this machine, or a directory laid out like its root (sys/devices/system/cpu/...,
// proc/cpuinfo, proc/meminfo), which is how the tests describe real machines they do not run on.
struct ProbeSources {
    QString sysfsRoot = QStringLiteral("/sys");
    QString procRoot = QStringLiteral("/proc");
    // The running process and CPU may be asked too (scheduler affinity, cpuid); never for a fixture.
    bool live = true;
    std::optional<std::int64_t> memoryAvailableBytes;  // overrides /proc/meminfo

    static ProbeSources fixture(const QString& rootDirectory);
};

struct SystemFacts {
    QString cpuModel;  // "model name" (x86) or what the architecture's cpuinfo offers
    QString vendor;    // "GenuineIntel", "AuthenticAMD"; ARM: the implementer code
    int family = 0;
    int model = 0;
    int stepping = 0;
    QStringList flags;  // every feature flag, as /proc/cpuinfo names them ("flags" or "Features")
    bool hypervisor = false;
    std::vector<CacheInfo> caches;  // data and unified caches of CPU 0, ordered by level (sysfs, else cpuid)
    int siblings = 0;               // /proc/cpuinfo: logical CPUs per package; 0 when not said
    int coresPerPackage = 0;        // /proc/cpuinfo: "cpu cores"; 0 when not said
    int onlineCpus = 0;             // CPUs the system has online
    int allowedCpus = 0;            // CPUs this process may run on (a fixture: all online ones)
    std::int64_t memoryAvailableBytes = 0;
    std::int64_t memoryTotalBytes = 0;
    double cpuinfoMhz = 0.0;     // "cpu MHz" of the first CPU (a VM: the TSC rate; bare metal: of the moment)
    double cpufreqMaxMhz = 0.0;  // cpufreq's cpuinfo_max_freq of CPU 0; 0 when the system has no cpufreq
    QStringList notes;           // what could not be read, for the session's findings
};

SystemFacts readSystemFacts(const ProbeSources& sources);

// The one-minute load average (/proc/loadavg's first field): runnable tasks, averaged. nullopt when the file is
// missing or does not start with a non-negative number.
std::optional<double> readLoadAverage(const ProbeSources& sources);

// The hardware capabilities Linux hands an ARM64 process (getauxval(AT_HWCAP), getauxval(AT_HWCAP2)), the way the
// kernel documents for testing CPU features; read once. All zero off ARM64.
const Arm64Hwcaps& arm64Hwcaps();

// CPUs this process may run on (the scheduler's affinity mask), ascending; {0} when the system does not say.
std::vector<int> allowedCpus();
// Restricts the calling thread to `cpus` (the measurement's threads are pinned one to a CPU).
void pinCurrentThread(const std::vector<int>& cpus);

}  // namespace ridgeline
