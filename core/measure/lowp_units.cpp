#include "core/measure/lowp_units.h"

#include "core/measure/probe.h"

#include <algorithm>

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
         QStringLiteral("bf16"),
         QStringLiteral("avx512_bf16"),
         QStringLiteral("AVX512_BF16"),
         QStringLiteral("vdpbf16ps zmm"),
         {flag("avx512f"), flag("avx512_bf16")},
         16 * 2 * 2,
         false},
        {LowpUnit::Avx512Fp16,
         QStringLiteral("fp16"),
         QStringLiteral("avx512_fp16"),
         QStringLiteral("AVX512_FP16"),
         QStringLiteral("vfmadd231ph zmm"),
         {flag("avx512f"), flag("avx512_fp16")},
         32 * 2,
         false},
        {LowpUnit::Avx512Vnni,
         QStringLiteral("int8"),
         QStringLiteral("avx512_vnni"),
         QStringLiteral("AVX512_VNNI"),
         QStringLiteral("vpdpbusd zmm"),
         {flag("avx512f"), flag("avx512_vnni")},
         16 * 4 * 2,
         true},
        {LowpUnit::AvxVnni,
         QStringLiteral("int8"),
         QStringLiteral("avx_vnni"),
         QStringLiteral("AVX-VNNI"),
         QStringLiteral("vpdpbusd ymm (VEX)"),
         {flag("avx2"), flag("avx_vnni")},
         8 * 4 * 2,
         true},
        {LowpUnit::AmxBf16,
         QStringLiteral("bf16"),
         QStringLiteral("amx"),
         QStringLiteral("AMX-BF16"),
         QStringLiteral("tdpbf16ps"),
         {flag("amx_tile"), flag("amx_bf16")},
         16 * 16 * 32 * 2,
         false},
        {LowpUnit::AmxInt8,
         QStringLiteral("int8"),
         QStringLiteral("amx"),
         QStringLiteral("AMX-INT8"),
         QStringLiteral("tdpbusd"),
         {flag("amx_tile"), flag("amx_int8")},
         16 * 16 * 64 * 2,
         true},
    };
}

}  // namespace

const std::vector<LowpUnitInfo>& lowpUnits()
{
    static const std::vector<LowpUnitInfo> units = makeUnits();
    return units;
}

const LowpUnitInfo& lowpUnitInfo(LowpUnit unit)
{
    const auto& units = lowpUnits();
    return *std::find_if(units.begin(), units.end(), [unit](const LowpUnitInfo& u) { return u.unit == unit; });
}

const MachineInfo& hostMachine()
{
    static const MachineInfo machine = machineFromFacts(readSystemFacts(ProbeSources{}));
    return machine;
}

UnitAvailability unitAvailability(LowpUnit unit, const MachineInfo& machine)
{
    const LowpUnitInfo& info = lowpUnitInfo(unit);
    QStringList missing;
    for (const QString& name : info.cpuFlags)
        if (!machine.isa.contains(name))
            missing.append(name);
    if (missing.isEmpty())
        return {UnitState::Available, {}};
    return {UnitState::NotOnThisCpu, QStringLiteral("%1 is not available on this CPU (no %2 in /proc/cpuinfo)")
                                         .arg(info.label, missing.join(QStringLiteral(", ")))};
}

}  // namespace ridgeline
