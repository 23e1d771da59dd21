#include "core/measure/lowp/lowp_peaks.h"

#include "core/measure/machine/probe.h"

namespace ridgeline {

namespace {

// How a unit's rate relates to its core's entry in the table of known cores.
enum class Basis {
    Avx512Fma,  // a multiple of the core's 512-bit FMA rate
    Avx2Fma,    // a multiple of the core's 256-bit FMA rate
    NeonFma,    // ARM64: a multiple of the core's 128-bit NEON FMLA rate
    SveFma,     // ARM64: a multiple of the core's SVE FMLA rate (at its vector length)
    Absolute,   // its own unit (AMX tiles)
};

struct Row {
    const char* core;  // known_cores.cpp's name
    LowpUnit unit;
    Basis basis;
    double factor;  // x the FMA rate, or instructions per cycle when Absolute
    const char* source;
};

constexpr const char* kAmxXeon = "Intel Xeon with AMX (Sapphire Rapids or later)";
constexpr const char* kSprByModel = "Intel Xeon Sapphire Rapids / Emerald Rapids / Granite Rapids";
constexpr const char* kSkylakeSp = "Intel Xeon Skylake-SP / Cascade Lake / Cooper Lake";
constexpr const char* kIceLakeSp = "Intel Xeon Ice Lake-SP";
constexpr const char* kClientAvx512 = "Intel client core with AVX-512 (Cannon Lake to Rocket Lake)";
constexpr const char* kHybrid = "Intel hybrid client (Alder Lake and later)";
constexpr const char* kZen4 = "AMD Zen 4";
constexpr const char* kZen5 = "AMD Zen 5";
constexpr const char* kZen5Laptop = "AMD Zen 5 (laptop, 256-bit datapath)";

constexpr const char* kSprBf16 =
    "LLVM X86SchedSapphireRapids.td (Intel's port data): VDPBF16PS is 4 uops, two of them on port 5 alone, so one "
    "per 2 cycles: a quarter of the FP32 FMA rate in instructions, half in FLOP";
constexpr const char* kSprFp16 =
    "Intel 64 and IA-32 Architectures Optimization Reference Manual, AVX-512 FP16: VFMADD*PH zmm issue on the two "
    "512-bit FMA ports (0 and 5), as FP32 FMAs do";
constexpr const char* kIntelVnni =
    "Intel Optimization Reference Manual, Intel DL Boost: VPDPBUSD zmm runs on the 512-bit FMA units (ports 0 and 5 "
    "where the core has two)";
constexpr const char* kIntelAvxVnni =
    "Intel Optimization Reference Manual: VEX VPDPBUSD ymm on the two 256-bit FMA ports (0 and 1); E-cores one";
constexpr const char* kAmxBf16 =
    "Intel Optimization Reference Manual, Intel AMX: one TDPBF16PS (16 x 16 x 32) per 16 cycles, 1024 bf16 "
    "operations per cycle per core";
constexpr const char* kAmxInt8 =
    "Intel Optimization Reference Manual, Intel AMX: one TDPBUSD (16 x 16 x 64) per 16 cycles, 2048 int8 "
    "operations per cycle per core";
constexpr const char* kZen4Units =
    "AMD Software Optimization Guide for Family 19h (Zen 4): VDPBF16PS and VPDPBUSD issue on the FMA pipes; a "
    "512-bit operation takes two 256-bit pipes, as a 512-bit FMA does";
constexpr const char* kZen5Units =
    "AMD Software Optimization Guide for Family 1Ah (Zen 5): VDPBF16PS, VPDPBUSD and AVX-VNNI issue on the two "
    "FMA pipes at the datapath's width, as FMAs do";

// ARM64 cores: known_cores' names (arm64/arm64_cpu.cpp's table).
constexpr const char* kNeoverseN1 = "Neoverse N1";
constexpr const char* kNeoverseV1 = "Neoverse V1";
constexpr const char* kNeoverseV2 = "Neoverse V2";

constexpr const char* kN1Fp16 =
    "LLVM AArch64SchedNeoverseN1.td (from Arm's Neoverse N1 Software Optimization Guide): ASIMD FMLA of every element "
    "size, fp16 included, issues on the two FP/ASIMD pipes V0 and V1, as fp32 FMLA does";
constexpr const char* kV1Neon =
    "LLVM AArch64SchedNeoverseV1.td (from Arm's Neoverse V1 Software Optimization Guide): ASIMD FMLA (fp16 included), "
    "BFDOT, BFMMLA, SDOT and SMMLA each issue on any of the four 128-bit FP/ASIMD pipes V0-V3, as fp32 FMLA does";
constexpr const char* kV1Sve =
    "LLVM AArch64SchedNeoverseV1.td (from Arm's Neoverse V1 Software Optimization Guide): SVE FMLA (fp16 included), "
    "BFDOT, BFMMLA, SDOT and SMMLA each issue on the two 256-bit pipes V0 and V1, as SVE fp32 FMLA does";
constexpr const char* kV2Units =
    "LLVM AArch64SchedNeoverseV2.td (from Arm's Neoverse V2 Software Optimization Guide): FMLA (fp16 included), BFDOT, "
    "BFMMLA, SDOT and SMMLA, ASIMD and SVE (128-bit vectors), each issue on any of the four FP/ASIMD pipes V0-V3, as "
    "fp32 FMLA does";

constexpr Row kRows[] = {
    {kAmxXeon, LowpUnit::Avx512Bf16, Basis::Avx512Fma, 0.25, kSprBf16},
    {kAmxXeon, LowpUnit::Avx512Fp16, Basis::Avx512Fma, 1.0, kSprFp16},
    {kAmxXeon, LowpUnit::Avx512Vnni, Basis::Avx512Fma, 1.0, kIntelVnni},
    {kAmxXeon, LowpUnit::AvxVnni, Basis::Avx2Fma, 1.0, kIntelAvxVnni},
    {kAmxXeon, LowpUnit::AmxBf16, Basis::Absolute, 1.0 / 16.0, kAmxBf16},
    {kAmxXeon, LowpUnit::AmxInt8, Basis::Absolute, 1.0 / 16.0, kAmxInt8},
    {kSprByModel, LowpUnit::Avx512Bf16, Basis::Avx512Fma, 0.25, kSprBf16},
    {kSprByModel, LowpUnit::Avx512Fp16, Basis::Avx512Fma, 1.0, kSprFp16},
    {kSprByModel, LowpUnit::Avx512Vnni, Basis::Avx512Fma, 1.0, kIntelVnni},
    {kSprByModel, LowpUnit::AvxVnni, Basis::Avx2Fma, 1.0, kIntelAvxVnni},
    {kSprByModel, LowpUnit::AmxBf16, Basis::Absolute, 1.0 / 16.0, kAmxBf16},
    {kSprByModel, LowpUnit::AmxInt8, Basis::Absolute, 1.0 / 16.0, kAmxInt8},
    {kSkylakeSp, LowpUnit::Avx512Vnni, Basis::Avx512Fma, 1.0, kIntelVnni},
    {kIceLakeSp, LowpUnit::Avx512Vnni, Basis::Avx512Fma, 1.0, kIntelVnni},
    {kClientAvx512, LowpUnit::Avx512Vnni, Basis::Avx512Fma, 1.0, kIntelVnni},
    {kHybrid, LowpUnit::AvxVnni, Basis::Avx2Fma, 1.0, kIntelAvxVnni},
    {kZen4, LowpUnit::Avx512Bf16, Basis::Avx512Fma, 1.0, kZen4Units},
    {kZen4, LowpUnit::Avx512Vnni, Basis::Avx512Fma, 1.0, kZen4Units},
    {kZen5, LowpUnit::Avx512Bf16, Basis::Avx512Fma, 1.0, kZen5Units},
    {kZen5, LowpUnit::Avx512Vnni, Basis::Avx512Fma, 1.0, kZen5Units},
    {kZen5, LowpUnit::AvxVnni, Basis::Avx2Fma, 1.0, kZen5Units},
    {kZen5Laptop, LowpUnit::Avx512Bf16, Basis::Avx512Fma, 1.0, kZen5Units},
    {kZen5Laptop, LowpUnit::Avx512Vnni, Basis::Avx512Fma, 1.0, kZen5Units},
    {kZen5Laptop, LowpUnit::AvxVnni, Basis::Avx2Fma, 1.0, kZen5Units},
    {kNeoverseN1, LowpUnit::NeonFp16, Basis::NeonFma, 1.0, kN1Fp16},
    {kNeoverseV1, LowpUnit::NeonFp16, Basis::NeonFma, 1.0, kV1Neon},
    {kNeoverseV1, LowpUnit::NeonBfdot, Basis::NeonFma, 1.0, kV1Neon},
    {kNeoverseV1, LowpUnit::NeonBfmmla, Basis::NeonFma, 1.0, kV1Neon},
    {kNeoverseV1, LowpUnit::NeonSdot, Basis::NeonFma, 1.0, kV1Neon},
    {kNeoverseV1, LowpUnit::NeonSmmla, Basis::NeonFma, 1.0, kV1Neon},
    {kNeoverseV1, LowpUnit::SveFp16, Basis::SveFma, 1.0, kV1Sve},
    {kNeoverseV1, LowpUnit::SveBfdot, Basis::SveFma, 1.0, kV1Sve},
    {kNeoverseV1, LowpUnit::SveBfmmla, Basis::SveFma, 1.0, kV1Sve},
    {kNeoverseV1, LowpUnit::SveSdot, Basis::SveFma, 1.0, kV1Sve},
    {kNeoverseV1, LowpUnit::SveSmmla, Basis::SveFma, 1.0, kV1Sve},
    {kNeoverseV2, LowpUnit::NeonFp16, Basis::NeonFma, 1.0, kV2Units},
    {kNeoverseV2, LowpUnit::NeonBfdot, Basis::NeonFma, 1.0, kV2Units},
    {kNeoverseV2, LowpUnit::NeonBfmmla, Basis::NeonFma, 1.0, kV2Units},
    {kNeoverseV2, LowpUnit::NeonSdot, Basis::NeonFma, 1.0, kV2Units},
    {kNeoverseV2, LowpUnit::NeonSmmla, Basis::NeonFma, 1.0, kV2Units},
    {kNeoverseV2, LowpUnit::SveFp16, Basis::SveFma, 1.0, kV2Units},
    {kNeoverseV2, LowpUnit::SveBfdot, Basis::SveFma, 1.0, kV2Units},
    {kNeoverseV2, LowpUnit::SveBfmmla, Basis::SveFma, 1.0, kV2Units},
    {kNeoverseV2, LowpUnit::SveSdot, Basis::SveFma, 1.0, kV2Units},
    {kNeoverseV2, LowpUnit::SveSmmla, Basis::SveFma, 1.0, kV2Units},
};

FmaRate scaled(const FmaRate& rate, double factor)
{
    return {rate.min * factor, rate.max * factor};
}

}  // namespace

std::optional<LowpRate> documentedLowpRate(LowpUnit unit, const MachineInfo& machine)
{
    if (!unitAvailability(unit, machine).available())
        return std::nullopt;
    const CoreModel core = coreOf(machine);
    for (const Row& row : kRows) {
        if (row.unit != unit || core.name != QLatin1String(row.core))
            continue;
        LowpRate rate;
        switch (row.basis) {
            case Basis::Avx512Fma:
                rate.instructionsPerCycle = scaled(core.avx512, row.factor);
                break;
            case Basis::Avx2Fma:
                rate.instructionsPerCycle = scaled(core.avx2, row.factor);
                break;
            case Basis::NeonFma:
                rate.instructionsPerCycle = scaled(core.neon, row.factor);
                break;
            case Basis::SveFma:
                rate.instructionsPerCycle = scaled(core.sve, row.factor);
                break;
            case Basis::Absolute:
                rate.instructionsPerCycle = {row.factor, row.factor};
                break;
        }
        if (!rate.instructionsPerCycle.known())
            return std::nullopt;
        rate.core = core.name;
        rate.source = QString::fromLatin1(row.source);
        return rate;
    }
    return std::nullopt;
}

PeakSubject lowpPeakSubject(LowpUnit unit, const MachineInfo& machine)
{
    const LowpUnitInfo& info = lowpUnitInfo(unit);
    PeakSubject subject;
    subject.opsPerInstruction = lowpOpsPerInstruction(unit);
    subject.entry = info.label;
    subject.instruction = info.instruction;
    subject.rateUnit = info.integer ? QStringLiteral("GOPS") : QStringLiteral("GFLOP/s");
    if (const std::optional<LowpRate> rate = documentedLowpRate(unit, machine)) {
        subject.rate = rate->instructionsPerCycle;
        subject.core = rate->core;
    } else {
        subject.core = coreOf(machine).name;
    }
    return subject;
}

}  // namespace ridgeline
