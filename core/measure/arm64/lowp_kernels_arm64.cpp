// ARM64's low-precision loops (lowp_kernels.h): FMLA on fp16, BFDOT and BFMMLA on bf16, SDOT and SMMLA on int8,
// NEON at 128 bits and SVE at the hardware's vector length, from arm64_kernels. The x86-64 units are not in this
// build: asked for one, it says so.
#include "core/measure/arm64/arm64_kernels.h"
#include "core/measure/clock/clock.h"
#include "core/measure/lowp/lowp_kernels.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace ridgeline {

namespace {

std::optional<Arm64Loop> loopOf(LowpUnit unit)
{
    switch (unit) {
        case LowpUnit::NeonFp16:
            return Arm64Loop::NeonFp16;
        case LowpUnit::NeonBfdot:
            return Arm64Loop::NeonBfdot;
        case LowpUnit::NeonBfmmla:
            return Arm64Loop::NeonBfmmla;
        case LowpUnit::NeonSdot:
            return Arm64Loop::NeonSdot;
        case LowpUnit::NeonSmmla:
            return Arm64Loop::NeonSmmla;
        case LowpUnit::SveFp16:
            return Arm64Loop::SveFp16;
        case LowpUnit::SveBfdot:
            return Arm64Loop::SveBfdot;
        case LowpUnit::SveBfmmla:
            return Arm64Loop::SveBfmmla;
        case LowpUnit::SveSdot:
            return Arm64Loop::SveSdot;
        case LowpUnit::SveSmmla:
            return Arm64Loop::SveSmmla;
        default:
            return std::nullopt;  // an x86-64 unit
    }
}

}  // namespace

UnitAvailability lowpAvailability(LowpUnit unit, const MachineInfo& machine)
{
    const UnitAvailability described = unitAvailability(unit, machine);
    if (!described.available())
        return described;
    const std::optional<Arm64Loop> loop = loopOf(unit);
    if (!loop)
        return {UnitState::NotOnThisCpu,
                QStringLiteral("%1 is an x86-64 unit; this is an ARM64 build").arg(lowpUnitInfo(unit).label)};
    const UnitAvailability here = unitAvailability(unit, hostMachine());
    if (!here.available())
        return here;
    if (!arm64Has(*loop))  // the hwcaps again, directly: a described machine may not be this one
        return {UnitState::NotOnThisCpu,
                QStringLiteral("%1 is not available on this processor (the kernel's hwcaps lack it)")
                    .arg(lowpUnitInfo(unit).label)};
    return here;
}

Result<LowpRun> runLowpKernel(LowpUnit unit, std::int64_t iterations, LowpInputs inputs, const MachineInfo& machine)
{
    const UnitAvailability availability = lowpAvailability(unit, machine);
    if (!availability.available())
        return makeError(Error::Code::Unsupported, availability.reason);
    const auto start = std::chrono::steady_clock::now();
    const Arm64LoopRun loop = runArm64Loop(*loopOf(unit), std::max<std::int64_t>(iterations, 0), inputs.a, inputs.b);
    LowpRun run;
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    run.operations = loop.operations;
    run.lanes = loop.lanes;
    run.firstLane = loop.firstLane;
    run.laneSum = loop.laneSum;
    return run;
}

// The add chain beside FMLAs of the unit's register file (clock_chains_arm64.cpp), not beside the unit's own
// instruction: the dot and matrix products issue on the same vector pipes as FMLA (Arm's optimisation guides), and
// the chain's inline assembly is written once per register file rather than once per instruction.
Result<double> measureClockUnderLoad(LowpUnit unit, double seconds, const MachineInfo& machine)
{
    const UnitAvailability availability = lowpAvailability(unit, machine);
    if (!availability.available())
        return makeError(Error::Code::Unsupported, availability.reason);
    return measureClockBesideFma(lowpUnitInfo(unit).sve ? Isa::Sve : Isa::Neon, seconds);
}

}  // namespace ridgeline
