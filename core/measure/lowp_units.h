#pragma once
// The CPU's low-precision units: bf16 and fp16 vector FMAs, int8 dot products (VNNI) and AMX tiles. What each
// unit is, which /proc/cpuinfo flags it needs, and whether a given machine has it. Everything here is a pure
// function of the probe's MachineInfo (its vendor, family and flags, read by readSystemFacts), so any machine
// can be described by a fixture (tests/data/machines); hostMachine() is the one this process runs on.

#include "core/session/session.h"

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

// This machine as the probe describes it (readSystemFacts, machineFromFacts), read once.
const MachineInfo& hostMachine();

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
UnitAvailability unitAvailability(LowpUnit unit, const MachineInfo& machine);

}  // namespace ridgeline
