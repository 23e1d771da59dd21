#pragma once
// The CPU's low-precision units: bf16 and fp16 vector FMAs, int8 dot products (VNNI) and AMX tiles. What each
// unit is, which /proc/cpuinfo flags it needs, and whether a given CPU has it. Everything here is a pure
// function of a CPU description, so any machine can be described by a fixture (tests/data/lowp_cpus);
// hostCpu() is the machine this process runs on.

#include <QSet>
#include <QString>
#include <QStringList>

#include <vector>

namespace ridgeline {

enum class LowpUnit { Avx512Bf16, Avx512Fp16, Avx512Vnni, AvxVnni, AmxBf16, AmxInt8 };

struct LowpUnitInfo {
    LowpUnit unit;
    QString precision;         // session precision name: "bf16", "fp16" or "int8"
    QString isa;               // session ISA name of the unit: "avx512_bf16", "avx512_fp16", "avx512_vnni",
                               // "avx_vnni" or "amx"
    QString label;             // for people: "AVX512_BF16", "AMX-INT8", ...
    QString instruction;       // what the ceiling loop runs, e.g. "vdpbf16ps zmm"
    QStringList cpuFlags;      // /proc/cpuinfo flags the unit needs, all of them
    double opsPerInstruction;  // per instruction, a multiply and an add counted as two operations
    bool integer;              // int8: operations, reported as TOPS rather than FLOP/s
};

// Every unit, in the order tables list them.
const std::vector<LowpUnitInfo>& lowpUnits();
const LowpUnitInfo& lowpUnitInfo(LowpUnit unit);

// What /proc/cpuinfo says about the first processor.
struct CpuDescription {
    QString vendor;  // "GenuineIntel", "AuthenticAMD"
    int family = 0;  // "cpu family": 6 on Intel cores, 25 (19h) on Zen 3/4, 26 (1Ah) on Zen 5
    int model = 0;   // often not the real model in a VM (a KVM guest here reports 167)
    QString modelName;
    QSet<QString> flags;
};

// Reads the first processor block of /proc/cpuinfo text. Missing fields stay empty or zero.
CpuDescription parseCpuinfo(const QString& text);

// This machine, read once from /proc/cpuinfo. A flag is kept only if the processor itself confirms it
// (cpuid, with the operating system's register-state support), so no kernel runs on a unit it lacks.
const CpuDescription& hostCpu();

enum class UnitState {
    Available,
    NotOnThisCpu,     // the CPU has no such unit: never a zero, always this
    RefusedByKernel,  // AMX: the CPU has tiles, Linux did not grant this process the tile state
};

struct UnitAvailability {
    UnitState state = UnitState::NotOnThisCpu;
    QString reason;  // empty when available; otherwise one sentence naming what is missing
    bool available() const { return state == UnitState::Available; }
};

// From the CPU's flags alone. AMX also needs the kernel's permission, asked by requestAmxTileData() (amx.h).
UnitAvailability unitAvailability(LowpUnit unit, const CpuDescription& cpu);

}  // namespace ridgeline
