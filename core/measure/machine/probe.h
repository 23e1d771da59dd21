#pragma once
// What this machine is: CPU model and core, SIMD ISAs, caches, memory, OpenBLAS build and kernel. The
// operating system is read through readSystemFacts (system_facts.h), so a fixture of any real machine can
// stand in for this one.

#include "core/measure/machine/isa.h"
#include "core/measure/machine/known_cores.h"
#include "core/measure/machine/system_facts.h"
#include "core/session/session.h"

#include <cstdint>

namespace ridgeline {

// Fills everything except the clock and the effective last-level cache, which the measurement supplies.
// `notes`, when given, receives what the system did not say or said elsewhere (no sysfs caches: read from
// cpuid), for the session's findings.
MachineInfo probeMachine(const ProbeSources& sources = {}, QStringList* notes = nullptr);

// The same from facts already read (the engine keeps them for the clock's references).
MachineInfo machineFromFacts(const SystemFacts& facts);

// The architecture a machine description is of: ARM64 when its vendor is an implementer code ("0x41"), as the
// probe writes it for ARM64 (system_facts.h), else x86-64.
CpuArch machineArch(const MachineInfo& machine);

// The table entry for this machine's CPU.
CoreModel coreOf(const MachineInfo& machine);

// Bytes of memory this process may use for one measurement: a quarter of what is available.
std::int64_t measurementMemoryBudget(const MachineInfo& machine);

// Aggregate capacity of one cache level as seen by `threads` threads, each on its own CPU.
std::int64_t aggregateCacheBytes(const CacheInfo& cache, int threads);

}  // namespace ridgeline
