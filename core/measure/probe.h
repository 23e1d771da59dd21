#pragma once
// What this machine is: CPU model, cores, SIMD ISAs, caches (from sysfs), OpenBLAS build and kernel.

#include "core/session/session.h"

#include <cstdint>

namespace ridgeline {

enum class Isa { Scalar, Avx2, Avx512 };
enum class Precision { Fp32, Fp64 };

QString isaName(Isa isa);
QString precisionName(Precision precision);
int bytesPerElement(Precision precision);

// ISAs whose FMA kernels this CPU can run (checked at run time; the binary targets baseline x86-64).
std::vector<Isa> supportedFmaIsas();

// Peak FLOPs per cycle per core for FMA instructions of this ISA and precision on this CPU:
// FMA pipes x lanes x 2. Pipes come from the CPU family: two 256-bit pipes on every x86 core with
// FMA since Haswell / Zen 2; 512-bit: one per cycle on Zen 4 (two 256-bit halves), two elsewhere.
double fmaFlopsPerCycle(Isa isa, Precision precision);

// Fills everything except clockGhz, which the FMA measurement supplies.
MachineInfo probeMachine();

// Sysfs cache description of CPU 0, data and unified caches only, ordered by level.
std::vector<CacheInfo> probeCaches();

// Bytes of memory this process may use for one measurement: a quarter of what is available.
std::int64_t measurementMemoryBudget(const MachineInfo& machine);

// Aggregate capacity of one cache level as seen by `threads` threads, each on its own CPU.
std::int64_t aggregateCacheBytes(const CacheInfo& cache, int threads);

}  // namespace ridgeline
