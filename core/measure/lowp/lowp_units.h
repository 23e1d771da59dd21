#pragma once
// The CPU's low-precision units: bf16 and fp16 vector FMAs, int8 dot products and matrix tiles. x86-64: AVX512_BF16,
// AVX512_FP16, VNNI and AMX; ARM64: FMLA on fp16, BFDOT / BFMMLA, SDOT / SMMLA, on NEON and on SVE. What
// each unit is, which CPU features it needs (as /proc/cpuinfo names them), and whether a given machine has it.
// Everything here is a pure function of the probe's MachineInfo (its vendor, family and flags, read by
// readSystemFacts), so any machine can be described by a fixture (tests/data/machines); hostMachine() is the one
// this process runs on.

#include "core/measure/machine/probe.h"
#include "core/session/session.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace ridgeline {

enum class LowpUnit {
    Avx512Bf16,
    Avx512Fp16,
    Avx512Vnni,
    AvxVnni,
    AmxBf16,
    AmxInt8,
    NeonFp16,    // FMLA v.8h (FEAT_FP16)
    NeonBfdot,   // BFDOT v.4s (FEAT_BF16)
    NeonBfmmla,  // BFMMLA v.4s (FEAT_BF16)
    NeonSdot,    // SDOT v.4s (FEAT_DotProd)
    NeonSmmla,   // SMMLA v.4s (FEAT_I8MM)
    SveFp16,     // FMLA z.h
    SveBfdot,    // BFDOT z.s (SVE BF16)
    SveBfmmla,   // BFMMLA z.s (SVE BF16)
    SveSdot,     // SDOT z.s
    SveSmmla,    // SMMLA z.s (SVE I8MM)
};

struct LowpUnitInfo {
    LowpUnit unit;
    CpuArch arch;
    QString precision;         // session precision name: "bf16", "fp16" or "int8"
    QString isa;               // session ISA name of the unit: "avx512_bf16", "avx512_fp16", "avx512_vnni",
                               // "avx_vnni", "amx"; ARM64: "neon" / "sve" (FMLA, dot products) and "neon_mmla" /
                               // "sve_mmla" (the matrix products BFMMLA, SMMLA)
    QString label;             // for people: "AVX512_BF16", "AMX-INT8", "SVE BFMMLA", ...
    QString instruction;       // what the ceiling loop runs, e.g. "vdpbf16ps zmm"
    QStringList cpuFlags;      // /proc/cpuinfo flags the unit needs, all of them
    double opsPerInstruction;  // per instruction, a multiply and an add counted as two operations; SVE: per 128 bits
    bool integer;              // int8: operations, reported as TOPS rather than FLOP/s
    bool sve = false;          // its vectors are SVE's: opsPerInstruction x (this CPU's vector length / 128)
};

// Every unit of both architectures, in the order tables list them.
const std::vector<LowpUnitInfo>& lowpUnits();
const LowpUnitInfo& lowpUnitInfo(LowpUnit unit);

// Operations of one instruction of the unit on this CPU (an SVE unit's at this CPU's vector length).
double lowpOpsPerInstruction(LowpUnit unit);

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
