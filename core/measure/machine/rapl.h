#pragma once
// The CPU's energy counters (RAPL) as Linux's powercap tree shows them: /sys/class/powercap/intel-rapl:N is package N
// ("package-0"), intel-rapl:N:M its parts ("core", "uncore", "dram"). Each zone's energy_uj counts microjoules and
// wraps to 0 past max_energy_range_uj. AMD Zen CPUs are served by the same intel_rapl_msr driver under the same
// names (a package and its cores); the older amd_energy hwmon driver is another interface and is not read. Linux
// has let only root read energy_uj since CVE-2020-8694 (PLATYPUS, November 2020), and a virtual machine's guest
// normally has no tree at all. Intel's microcode updates the counters about every millisecond (QEMU's RAPL MSR
// commit 0418f908 says ~1 ms), which bounds how short a window they can measure.

#include "core/session/session.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace ridgeline {

// One zone of the tree.
struct RaplDomain {
    QString zone;                  // its directory: "intel-rapl:0", "intel-rapl:0:2"
    QString name;                  // as the kernel names it: "package-0", "core", "uncore", "dram", "psys"
    std::uint64_t maxRangeUj = 0;  // energy_uj wraps to 0 past this; 0 = unknown
};

// What the counted domains counted between two readings, in joules.
struct RaplEnergy {
    double packageJoules = 0.0;  // every package, summed (the cores, caches and memory controller of each socket)
    double dramJoules = 0.0;     // every DRAM domain, summed; 0 where there is none (client and AMD CPUs)
    bool hasDram = false;
};

// Microjoules of every counted domain at one moment, in the order of RaplCounters::counted().
using RaplReading = std::vector<std::uint64_t>;

class RaplCounters {
public:
    // Reads the tree under `sysfsRoot` (the tests' fixtures are directories laid out like /sys) and tries each
    // counter once, so that an unreadable energy_uj is known before any measurement relies on it.
    explicit RaplCounters(const QString& sysfsRoot = QStringLiteral("/sys"));

    bool available() const { return m_problem.isEmpty(); }
    // One sentence: the domains summed ("RAPL package-0 + package-1 and dram x2 ..."), or why there is no energy.
    QString basis() const;
    // The packages and DRAM domains whose energy is summed; core, uncore and psys are parts of a package or the
    // whole platform, listed in others() and never added to it.
    const std::vector<RaplDomain>& counted() const { return m_counted; }
    const std::vector<RaplDomain>& others() const { return m_others; }

    // Every counted domain's energy_uj now; nullopt when unavailable or a counter cannot be read.
    std::optional<RaplReading> read() const;
    // The energy between two readings of these counters, a counter that wrapped counted through its range;
    // nullopt when a counter went backwards with no known range or the readings are of another size.
    std::optional<RaplEnergy> between(const RaplReading& before, const RaplReading& after) const;

private:
    QString m_root;  // <sysfsRoot>/class/powercap
    std::vector<RaplDomain> m_counted;
    std::vector<RaplDomain> m_others;
    QString m_problem;  // empty when every counted energy_uj reads
};

// A decode batch's energy from what the counters counted across its runs (`seconds`) and its tokens per second:
// the mean power divided by the rate is the energy of one token at the kernel's median step. All zero when any
// input is not a positive finite number.
KernelEnergy kernelEnergy(const RaplEnergy& energy, double seconds, double tokensPerSecond);

}  // namespace ridgeline
