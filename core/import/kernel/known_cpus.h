#pragma once
// The roofs of CPUs that likwid kernels are often measured on, from their vendors' datasheets, so that kernels
// recorded on another machine are drawn against that machine and never against this one. A CPU the table lacks has
// no roofs at all: a guess from a neighbour would be as wrong as this machine's.
//
// Every figure is one socket at the base clock (likwid-perfctr names the CPU model, not how many sockets the run
// used, nor the clock it ran at): FP64 peak = cores x base GHz x DP FLOPs per cycle per core (two FMA pipes of the
// core's vector width), FP32 twice that, DRAM = channels x MT/s x 8 bytes.

#include "core/session/session.h"

#include <QString>
#include <QStringView>

#include <optional>

namespace ridgeline {

struct KnownCpu {
    QString name;     // "AMD EPYC 7763", as the summary and the roofs name it
    QString pattern;  // what the normalised CPU name must contain, as whole words ("amd epyc 7763")
    QString core;     // "Zen 3"
    int cores = 0;    // per socket
    double baseGhz = 0.0;
    int dpFlopsPerCycle = 0;  // per core: FMA pipes x vector width in doubles x 2
    int memoryChannels = 0;   // per socket
    int memoryMts = 0;        // DDR transfer rate, MT/s
    QString source;           // the vendor's datasheet the figures come from

    double fp64Gflops() const { return cores * baseGhz * dpFlopsPerCycle; }
    double fp32Gflops() const { return 2.0 * fp64Gflops(); }
    double dramGbps() const { return memoryChannels * memoryMts * 8.0 / 1000.0; }
};

// "Intel(R) Xeon(R)  Platinum 8380 CPU @ 2.30GHz" -> "intel xeon platinum 8380 cpu @ 2.30ghz": lower case, (R) and
// (TM) dropped, runs of spaces and tabs one space. Two names of one CPU model compare equal after this.
QString normalizedCpuName(QStringView name);
bool sameCpuName(QStringView a, QStringView b);

// The table's entry for a CPU name as likwid prints it (the kernel's "model name"); nullopt when the table lacks it.
std::optional<KnownCpu> knownCpu(QStringView cpuName);

// `session` (new, for kernels measured on its machine's CPU model) with that machine's roofs from the table (FP64,
// FP32 and DRAM, each named "one socket, base clock" and citing its source in a note), or none when the table lacks
// it (a note says "no roofs known for <CPU>").
Session withKnownCpuRoofs(Session session);

}  // namespace ridgeline
