#include "core/measure/lowp/lowp_units.h"

#include "core/measure/machine/isa.h"
#include "core/measure/machine/probe.h"

#include <algorithm>
#include <utility>

namespace ridgeline {

namespace {

QString flag(const char* name)
{
    return QString::fromLatin1(name);
}

// Multiply-adds per instruction x 2. A vdpbf16ps lane adds two bf16 products to an fp32 lane; a vpdpbusd lane
// adds four u8 x s8 products to an int32 lane; an AMX tile product is 16 x 16 outputs of K = 32 (bf16) or
// K = 64 (int8) products each.
std::vector<LowpUnitInfo> makeUnits()
{
    return {
        {LowpUnit::Avx512Bf16,
         CpuArch::X86_64,
         QStringLiteral("bf16"),
         QStringLiteral("avx512_bf16"),
         QStringLiteral("AVX512_BF16"),
         QStringLiteral("vdpbf16ps zmm"),
         {flag("avx512f"), flag("avx512_bf16")},
         16 * 2 * 2,
         false},
        {LowpUnit::Avx512Fp16,
         CpuArch::X86_64,
         QStringLiteral("fp16"),
         QStringLiteral("avx512_fp16"),
         QStringLiteral("AVX512_FP16"),
         QStringLiteral("vfmadd231ph zmm"),
         {flag("avx512f"), flag("avx512_fp16")},
         32 * 2,
         false},
        {LowpUnit::Avx512Vnni,
         CpuArch::X86_64,
         QStringLiteral("int8"),
         QStringLiteral("avx512_vnni"),
         QStringLiteral("AVX512_VNNI"),
         QStringLiteral("vpdpbusd zmm"),
         {flag("avx512f"), flag("avx512_vnni")},
         16 * 4 * 2,
         true},
        {LowpUnit::AvxVnni,
         CpuArch::X86_64,
         QStringLiteral("int8"),
         QStringLiteral("avx_vnni"),
         QStringLiteral("AVX-VNNI"),
         QStringLiteral("vpdpbusd ymm (VEX)"),
         {flag("avx2"), flag("avx_vnni")},
         8 * 4 * 2,
         true},
        {LowpUnit::AmxBf16,
         CpuArch::X86_64,
         QStringLiteral("bf16"),
         QStringLiteral("amx"),
         QStringLiteral("AMX-BF16"),
         QStringLiteral("tdpbf16ps"),
         {flag("amx_tile"), flag("amx_bf16")},
         16 * 16 * 32 * 2,
         false},
        {LowpUnit::AmxInt8,
         CpuArch::X86_64,
         QStringLiteral("int8"),
         QStringLiteral("amx"),
         QStringLiteral("AMX-INT8"),
         QStringLiteral("tdpbusd"),
         {flag("amx_tile"), flag("amx_int8")},
         16 * 16 * 64 * 2,
         true},
    };
}

// ARM64: NEON at 128 bits; SVE's operations are per 128 bits of the vector. FMLA on fp16 is 8 lanes x 2; BFDOT adds
// two bf16 products to each of 4 fp32 lanes; SDOT four s8 products to each of 4 int32 lanes; BFMMLA and SMMLA
// multiply a 2 x 4 (bf16) or 2 x 8 (int8) matrix by a 4 x 2 or 8 x 2 one into a 2 x 2 tile: 16 or 32 multiply-adds.
LowpUnitInfo arm64Unit(LowpUnit unit, const char* precision, const char* isa, const char* label,
                       const char* instruction, QStringList flags, double ops, bool sve)
{
    const bool integer = QLatin1String(precision) == QLatin1String("int8");
    return {unit,
            CpuArch::Arm64,
            QString::fromLatin1(precision),
            QString::fromLatin1(isa),
            QString::fromLatin1(label),
            QString::fromLatin1(instruction),
            std::move(flags),
            ops,
            integer,
            sve};
}

std::vector<LowpUnitInfo> makeArm64Units()
{
    const QString fp16 = flag("asimdhp"), bf16 = flag("bf16"), dot = flag("asimddp"), i8mm = flag("i8mm");
    const QString sve = flag("sve"), sveBf16 = flag("svebf16"), sveI8mm = flag("svei8mm");
    return {
        arm64Unit(LowpUnit::NeonFp16, "fp16", "neon", "NEON FP16", "fmla v.8h", {fp16}, 8 * 2, false),
        arm64Unit(LowpUnit::NeonBfdot, "bf16", "neon", "NEON BFDOT", "bfdot v.4s", {bf16}, 4 * 2 * 2, false),
        arm64Unit(LowpUnit::NeonBfmmla, "bf16", "neon_mmla", "NEON BFMMLA", "bfmmla v.4s", {bf16}, 16 * 2, false),
        arm64Unit(LowpUnit::NeonSdot, "int8", "neon", "NEON SDOT", "sdot v.4s", {dot}, 4 * 4 * 2, false),
        arm64Unit(LowpUnit::NeonSmmla, "int8", "neon_mmla", "NEON SMMLA", "smmla v.4s", {i8mm}, 32 * 2, false),
        arm64Unit(LowpUnit::SveFp16, "fp16", "sve", "SVE FP16", "fmla z.h", {sve, fp16}, 8 * 2, true),
        arm64Unit(LowpUnit::SveBfdot, "bf16", "sve", "SVE BFDOT", "bfdot z.s", {sve, sveBf16}, 4 * 2 * 2, true),
        arm64Unit(LowpUnit::SveBfmmla, "bf16", "sve_mmla", "SVE BFMMLA", "bfmmla z.s", {sve, sveBf16}, 16 * 2, true),
        arm64Unit(LowpUnit::SveSdot, "int8", "sve", "SVE SDOT", "sdot z.s", {sve}, 4 * 4 * 2, true),
        arm64Unit(LowpUnit::SveSmmla, "int8", "sve_mmla", "SVE SMMLA", "smmla z.s", {sve, sveI8mm}, 32 * 2, true),
    };
}

}  // namespace

const std::vector<LowpUnitInfo>& lowpUnits()
{
    static const std::vector<LowpUnitInfo> units = [] {
        std::vector<LowpUnitInfo> all = makeUnits();
        for (LowpUnitInfo& unit : makeArm64Units())
            all.push_back(std::move(unit));
        return all;
    }();
    return units;
}

const LowpUnitInfo& lowpUnitInfo(LowpUnit unit)
{
    const auto& units = lowpUnits();
    return *std::find_if(units.begin(), units.end(), [unit](const LowpUnitInfo& u) { return u.unit == unit; });
}

double lowpOpsPerInstruction(LowpUnit unit)
{
    const LowpUnitInfo& info = lowpUnitInfo(unit);
    return info.sve ? info.opsPerInstruction * sveVectorBits() / 128.0 : info.opsPerInstruction;
}

const MachineInfo& hostMachine()
{
    static const MachineInfo machine = machineFromFacts(readSystemFacts(ProbeSources{}));
    return machine;
}

UnitAvailability unitAvailability(LowpUnit unit, const MachineInfo& machine)
{
    const LowpUnitInfo& info = lowpUnitInfo(unit);
    const bool arm64 = info.arch == CpuArch::Arm64;
    if (machineArch(machine) != info.arch)
        return {UnitState::NotOnThisCpu,
                QStringLiteral("%1 is not available on this CPU (a unit of %2 CPUs)")
                    .arg(info.label, arm64 ? QStringLiteral("ARM64") : QStringLiteral("x86-64"))};
    QStringList missing;
    for (const QString& name : info.cpuFlags)
        if (!machine.isa.contains(name))
            missing.append(name);
    if (missing.isEmpty())
        return {UnitState::Available, {}};
    // ARM64's features are the kernel's hwcaps (its /proc/cpuinfo Features line prints them).
    return {UnitState::NotOnThisCpu, QStringLiteral("%1 is not available on this CPU (no %2 in %3)")
                                         .arg(info.label, missing.join(QStringLiteral(", ")),
                                              arm64 ? QStringLiteral("the hwcaps") : QStringLiteral("/proc/cpuinfo"))};
}

}  // namespace ridgeline
