#pragma once
// Throughput loops of the low-precision units: independent chains of vdpbf16ps, vfmadd231ph and vpdpbusd,
// and AMX tile products (amx.h). The loop bodies are inline assembly of exactly the instruction named; their
// set-up is compiled with target attributes (avx2, avx512f, amx-*), so the program needs only baseline x86-64
// and runs a loop only where the CPU has the unit.
//
// The loops compute something checkable. Every lane of every chain (every element of every AMX accumulator
// tile) starts at zero and, per iteration, becomes:
//   bf16 (vdpbf16ps, tdpbf16ps):  acc += K x bf16(a) x bf16(b)      K = 2 per vdpbf16ps lane, 32 per tile row
//   fp16 (vfmadd231ph):           acc  = fp16(acc x fp16(a) + fp16(b)), one rounding per step (a fused FMA)
//   int8 (vpdpbusd, tdpbusd):     acc += K x u8(a) x s8(b)         K = 4 per vpdpbusd lane, 64 per tile row;
//                                                                   int32, wrapping as the instructions do
// bf16(x) and fp16(x) round to nearest even; u8(a) and s8(b) are the low byte of the integer a and b.

#include "core/measure/lowp/lowp_run.h"
#include "core/measure/lowp/lowp_units.h"
#include "core/result.h"

#include <cstdint>

namespace ridgeline {

// Runs `iterations` rounds of the unit's loop on the calling thread. `machine` is what the CPU is said to have
// (hostMachine(), or a fixture of another machine); the unit must be in it and on this processor. An error, never
// a zero, when the unit is not on the CPU or, for AMX, when Linux refused the tile state.
Result<LowpRun> runLowpKernel(LowpUnit unit, std::int64_t iterations, LowpInputs inputs = {},
                              const MachineInfo& machine = hostMachine());

// The core clock while the unit is busy, in GHz: the unit's loop interleaved with a dependent chain of
// register adds (one cycle each) long enough to be the bottleneck, so the adds count the cycles while the
// unit keeps the core in whatever frequency licence its instructions need (AMX runs lower than scalar code).
Result<double> measureClockUnderLoad(LowpUnit unit, double seconds, const MachineInfo& machine = hostMachine());

// Whether the unit can run here: in `machine`, on this processor, and for AMX with the tile state granted.
UnitAvailability lowpAvailability(LowpUnit unit, const MachineInfo& machine = hostMachine());

}  // namespace ridgeline
