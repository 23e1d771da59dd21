#pragma once
// Intel AMX: asking Linux for the tile state, the tile-product loops behind the AMX ceilings, and single tile
// products for checking the data layout. Linux (5.16 and later) hands a process the 8 KiB tile data state
// only after arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA); until then a tile instruction faults.

#include "core/measure/lowp/lowp_run.h"
#include "core/measure/lowp/lowp_units.h"

#include <cstdint>

namespace ridgeline {

constexpr int kXfeatureXtileData = 18;  // the extended-state component number of the AMX tile data

struct XcompPermission {
    bool granted = false;
    QString reason;  // why not, naming the system call and the kernel's answer
};

// Asks the kernel for one dynamically enabled extended-state component (any component number).
XcompPermission requestXcompPermission(int feature);

// Asks for the AMX tile data once per process and remembers the answer.
const XcompPermission& requestAmxTileData();

// The CPU's flags (unitAvailability) and the kernel's answer together: RefusedByKernel when the CPU has the
// unit but the permission was refused.
UnitAvailability amxAvailability(LowpUnit unit, const MachineInfo& machine, const XcompPermission& permission);

// The AMX loop of runLowpKernel: four accumulator tiles, two A and two B tiles of a and b, `iterations` x four
// tile products; with `clockAdds`, also kClockAddsPerIteration (clock_adds.h) dependent adds per iteration.
// The caller has checked the unit and the permission.
LowpRun runAmxLoop(LowpUnit unit, std::int64_t iterations, LowpInputs inputs, bool clockAdds);

// B (K x 16, row-major) rearranged for a tile product: K / g rows of 16 columns x g consecutive K values,
// g = 2 for bf16 (K = 32) and g = 4 for int8 (K = 64), as TDPBF16PS and TDPBUSD read it.
void packTileB(const std::uint16_t* b, std::uint16_t* packed);  // bf16: 32 x 16 -> 16 x 32
void packTileB(const std::int8_t* b, std::int8_t* packed);      // int8: 64 x 16 -> 16 x 64

// One tile product on the AMX unit: C (16 x 16) = A (16 x K, row-major) x B (packed by packTileB).
// The caller has checked the unit and the permission.
void amxTileProduct(const std::uint16_t* a, const std::uint16_t* packedB, float* c);      // bf16, K = 32
void amxTileProduct(const std::uint8_t* a, const std::int8_t* packedB, std::int32_t* c);  // u8 x s8, K = 64

}  // namespace ridgeline
