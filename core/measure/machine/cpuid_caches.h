#pragma once
// Caches as the CPU itself describes them (cpuid), for systems whose sysfs has no cache description: some
// hypervisors leave /sys/devices/system/cpu/cpu0/cache out (seen on a 2-vCPU Zen 5 KVM guest), and without
// sizes no bandwidth plateau could be labelled L1, L2 or L3. Pure decoding of register values, so that the
// tests describe CPUs they do not run on; the one live cpuid call is in system_facts_linux.cpp.
//
// Leaves read, as Intel's SDM (vol. 2A, CPUID) and AMD's APM (vol. 3, appendix E) document them:
// - leaf 4 (Intel) and 0x8000001D (AMD with TopologyExtensions): one subleaf per cache; size = ways x
//   partitions x line size x sets; type 1 data, 2 instruction, 3 unified.
// - AMD without TopologyExtensions (what that KVM guest offers): 0x80000005 ECX[31:24] L1d KiB,
//   0x80000006 ECX[31:16] L2 KiB and EDX[31:18] L3 in 512 KiB units.
// How many CPUs share an instance comes from the topology /proc/cpuinfo gives (cpuid's own field counts
// addressable IDs, not CPUs): L1 per core, L2 per core unless cpuid says a cluster shares it, the last
// level per package.

#include "core/session/session.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace ridgeline {

struct CpuidRegisters {
    std::uint32_t eax = 0;
    std::uint32_t ebx = 0;
    std::uint32_t ecx = 0;
    std::uint32_t edx = 0;
};

// cpuid(leaf, subleaf); a leaf the CPU lacks answers zeros.
using CpuidQuery = std::function<CpuidRegisters(std::uint32_t leaf, std::uint32_t subleaf)>;

struct CpuTopology {
    int threadsPerCore = 1;  // /proc/cpuinfo: siblings / cpu cores
    int cpusPerPackage = 1;  // /proc/cpuinfo: siblings
};

struct CpuidCaches {
    std::vector<CacheInfo> caches;  // data and unified caches, ordered by level; empty when cpuid has none
    QString source;                 // which leaves they came from, for the session's notes
};

// `vendor` is cpuid's vendor string ("GenuineIntel", "AuthenticAMD", "HygonGenuine").
CpuidCaches cachesFromCpuid(const QString& vendor, const CpuidQuery& cpuid, const CpuTopology& topology);

}  // namespace ridgeline
