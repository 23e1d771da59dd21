#include "core/measure/lowp_peaks.h"

#include <array>

namespace ridgeline {

namespace {

enum class CoreFamily { Unknown, IntelAmxServer, IntelHybridAvxVnni, AmdZen4, AmdZen5 };

CoreFamily coreFamilyOf(const CpuDescription& cpu)
{
    if (cpu.vendor == QLatin1String("GenuineIntel") && cpu.family == 6) {
        if (cpu.flags.contains(QStringLiteral("amx_tile")))
            return CoreFamily::IntelAmxServer;
        if (cpu.flags.contains(QStringLiteral("avx_vnni")) && !cpu.flags.contains(QStringLiteral("avx512f")))
            return CoreFamily::IntelHybridAvxVnni;
    }
    if (cpu.vendor == QLatin1String("AuthenticAMD") && cpu.flags.contains(QStringLiteral("avx512f"))) {
        if (cpu.family == 0x19)
            return CoreFamily::AmdZen4;
        if (cpu.family == 0x1A)
            return CoreFamily::AmdZen5;
    }
    return CoreFamily::Unknown;
}

struct Row {
    CoreFamily family;
    LowpUnit unit;
    double instructionsPerCycle;
    const char* core;
    const char* source;
};

constexpr const char* kIntelAmxCore = "Intel Xeon core with AMX (Sapphire Rapids, Emerald Rapids, Granite Rapids)";
constexpr const char* kIntelHybridCore = "Intel P-core with AVX-VNNI and no AVX-512 (Alder Lake, Raptor Lake)";
constexpr const char* kZen4Core = "AMD Zen 4 (family 19h with AVX-512)";
constexpr const char* kZen5Core = "AMD Zen 5 (family 1Ah), 512-bit datapath";

// Per core and cycle. Where the table and a measurement disagree, the measurement says so (a ceiling is never
// allowed above its theoretical peak); the sources name where each figure is written down.
constexpr std::array<Row, 12> kRows = {{
    {CoreFamily::IntelAmxServer, LowpUnit::Avx512Bf16, 0.5, kIntelAmxCore,
     "LLVM X86SchedSapphireRapids.td (Intel's port data): VDPBF16PS is 4 uops, two of them on port 5 alone, so "
     "one per 2 cycles; a quarter of the FP32 FMA rate in instructions, half in FLOP"},
    {CoreFamily::IntelAmxServer, LowpUnit::Avx512Fp16, 2.0, kIntelAmxCore,
     "Intel 64 and IA-32 Architectures Optimization Reference Manual, AVX-512 FP16: VFMADD*PH zmm issue on the two "
     "512-bit FMA ports (0 and 5), as FP32 FMAs do"},
    {CoreFamily::IntelAmxServer, LowpUnit::Avx512Vnni, 2.0, kIntelAmxCore,
     "Intel Optimization Reference Manual, Intel DL Boost: VPDPBUSD zmm on the two 512-bit FMA ports (0 and 5)"},
    {CoreFamily::IntelAmxServer, LowpUnit::AvxVnni, 2.0, kIntelAmxCore,
     "Intel Optimization Reference Manual: 256-bit VPDPBUSD (VEX) on ports 0 and 1"},
    {CoreFamily::IntelAmxServer, LowpUnit::AmxBf16, 1.0 / 16.0, kIntelAmxCore,
     "Intel Optimization Reference Manual, Intel AMX: one TDPBF16PS (16 x 16 x 32) per 16 cycles, "
     "1024 bf16 operations per cycle per core"},
    {CoreFamily::IntelAmxServer, LowpUnit::AmxInt8, 1.0 / 16.0, kIntelAmxCore,
     "Intel Optimization Reference Manual, Intel AMX: one TDPBUSD (16 x 16 x 64) per 16 cycles, "
     "2048 int8 operations per cycle per core"},
    {CoreFamily::IntelHybridAvxVnni, LowpUnit::AvxVnni, 2.0, kIntelHybridCore,
     "Intel Optimization Reference Manual, Golden Cove: 256-bit integer multiplies (VPDPBUSD) on ports 0 and 1; "
     "the E-cores are slower"},
    {CoreFamily::AmdZen4, LowpUnit::Avx512Bf16, 1.0, kZen4Core,
     "AMD Software Optimization Guide for Family 19h (Zen 4): a 512-bit operation takes two of the 256-bit FP "
     "pipes, so one VDPBF16PS zmm per cycle (two ymm)"},
    {CoreFamily::AmdZen4, LowpUnit::Avx512Vnni, 1.0, kZen4Core,
     "AMD Software Optimization Guide for Family 19h (Zen 4): VPDPBUSD zmm as two 256-bit halves, one per cycle"},
    {CoreFamily::AmdZen5, LowpUnit::Avx512Bf16, 2.0, kZen5Core,
     "AMD Software Optimization Guide for Family 1Ah (Zen 5): four 512-bit FP pipes, two for FMA and "
     "multiply-accumulate, so two VDPBF16PS zmm per cycle (mobile Zen 5 splits 512-bit operations: half)"},
    {CoreFamily::AmdZen5, LowpUnit::Avx512Vnni, 2.0, kZen5Core,
     "AMD Software Optimization Guide for Family 1Ah (Zen 5): two VPDPBUSD zmm per cycle on the 512-bit "
     "multiply pipes"},
    {CoreFamily::AmdZen5, LowpUnit::AvxVnni, 2.0, kZen5Core,
     "AMD Software Optimization Guide for Family 1Ah (Zen 5): AVX-VNNI VPDPBUSD ymm on the same two pipes"},
}};

}  // namespace

std::optional<LowpPeak> documentedLowpPeak(LowpUnit unit, const CpuDescription& cpu)
{
    if (!unitAvailability(unit, cpu).available())
        return std::nullopt;
    const CoreFamily family = coreFamilyOf(cpu);
    if (family == CoreFamily::Unknown)
        return std::nullopt;
    for (const Row& row : kRows) {
        if (row.family == family && row.unit == unit) {
            LowpPeak peak;
            peak.instructionsPerCycle = row.instructionsPerCycle;
            peak.opsPerCycle = row.instructionsPerCycle * lowpUnitInfo(unit).opsPerInstruction;
            peak.core = QString::fromLatin1(row.core);
            peak.source = QString::fromLatin1(row.source);
            return peak;
        }
    }
    return std::nullopt;
}

QString lowpPeakUnknownReason(LowpUnit unit, const CpuDescription& cpu)
{
    const UnitAvailability availability = unitAvailability(unit, cpu);
    if (!availability.available())
        return availability.reason;
    if (documentedLowpPeak(unit, cpu))
        return {};
    return QStringLiteral(
               "no documented %1 rate for this core (%2, family %3%4): the ceiling is shown without a "
               "theoretical peak")
        .arg(lowpUnitInfo(unit).label, cpu.vendor.isEmpty() ? QStringLiteral("unknown vendor") : cpu.vendor)
        .arg(cpu.family)
        .arg(cpu.modelName.isEmpty() ? QString() : QStringLiteral(", ") + cpu.modelName);
}

}  // namespace ridgeline
