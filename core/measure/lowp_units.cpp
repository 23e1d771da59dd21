#include "core/measure/lowp_units.h"

#include <QFile>

#include <cpuid.h>

#include <algorithm>
#include <cstdint>
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

QString fieldValue(const QString& line)
{
    const qsizetype colon = line.indexOf(QLatin1Char(':'));
    return colon < 0 ? QString() : line.mid(colon + 1).trimmed();
}

// The processor's own answer (cpuid), and the operating system's: XCR0 says which register state it saves, without
// which the instructions fault. Read directly, as compilers' __builtin_cpu_supports do not all know these flags.
std::uint64_t enabledRegisterState()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || (ecx & (1U << 27)) == 0)  // OSXSAVE
        return 0;
    std::uint32_t low = 0, high = 0;
    asm volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
    return (static_cast<std::uint64_t>(high) << 32) | low;
}

QSet<QString> confirmedByCpuid()
{
    QSet<QString> confirmed;
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
        return confirmed;
    const unsigned leaf7Ebx = ebx, leaf7Ecx = ecx, leaf7Edx = edx;
    unsigned leaf7Sub1Eax = 0;
    if (eax >= 1 && __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx))
        leaf7Sub1Eax = eax;
    const std::uint64_t xcr0 = enabledRegisterState();
    const bool ymm = (xcr0 & 0x6) == 0x6;                      // SSE and AVX state
    const bool zmm = ymm && (xcr0 & 0xE0) == 0xE0;             // opmask, ZMM_Hi256, Hi16_ZMM
    const bool tiles = (xcr0 & (3ULL << 17)) == (3ULL << 17);  // XTILECFG, XTILEDATA
    const auto bit = [](unsigned word, int index) { return (word >> index) & 1U; };
    const std::pair<const char*, bool> flags[] = {
        {"avx2", ymm && bit(leaf7Ebx, 5)},
        {"avx512f", zmm && bit(leaf7Ebx, 16)},
        {"avx512_vnni", zmm && bit(leaf7Ecx, 11)},
        {"avx512_fp16", zmm && bit(leaf7Edx, 23)},
        {"avx512_bf16", zmm && bit(leaf7Sub1Eax, 5)},
        {"avx_vnni", ymm && bit(leaf7Sub1Eax, 4)},
        {"amx_bf16", tiles && bit(leaf7Edx, 22)},
        {"amx_tile", tiles && bit(leaf7Edx, 24)},
        {"amx_int8", tiles && bit(leaf7Edx, 25)},
    };
    for (const auto& [name, has] : flags)
        if (has)
            confirmed.insert(QString::fromLatin1(name));
    return confirmed;
}

CpuDescription readHostCpu()
{
    QFile file(QStringLiteral("/proc/cpuinfo"));
    CpuDescription cpu;
    if (file.open(QIODevice::ReadOnly))
        cpu = parseCpuinfo(QString::fromUtf8(file.readAll()));
    // Only what both the kernel and the processor report: a flag the kernel shows but cpuid denies (or the
    // other way round) would mean an illegal instruction.
    const QSet<QString> confirmed = confirmedByCpuid();
    for (const LowpUnitInfo& unit : lowpUnits())
        for (const QString& name : unit.cpuFlags)
            if (!confirmed.contains(name))
                cpu.flags.remove(name);
    return cpu;
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

CpuDescription parseCpuinfo(const QString& text)
{
    CpuDescription cpu;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        if (line.trimmed().isEmpty()) {
            if (!cpu.vendor.isEmpty() || !cpu.flags.isEmpty())
                break;  // end of the first processor's block
            continue;
        }
        const QString key = line.section(QLatin1Char(':'), 0, 0).trimmed();
        if (key == QLatin1String("vendor_id"))
            cpu.vendor = fieldValue(line);
        else if (key == QLatin1String("cpu family"))
            cpu.family = fieldValue(line).toInt();
        else if (key == QLatin1String("model"))
            cpu.model = fieldValue(line).toInt();
        else if (key == QLatin1String("model name"))
            cpu.modelName = fieldValue(line);
        else if (key == QLatin1String("flags")) {
            const QStringList names = fieldValue(line).split(QLatin1Char(' '), Qt::SkipEmptyParts);
            cpu.flags = QSet<QString>(names.begin(), names.end());
        }
    }
    return cpu;
}

const CpuDescription& hostCpu()
{
    static const CpuDescription cpu = readHostCpu();
    return cpu;
}

UnitAvailability unitAvailability(LowpUnit unit, const CpuDescription& cpu)
{
    const LowpUnitInfo& info = lowpUnitInfo(unit);
    QStringList missing;
    for (const QString& name : info.cpuFlags)
        if (!cpu.flags.contains(name))
            missing.append(name);
    if (missing.isEmpty())
        return {UnitState::Available, {}};
    return {UnitState::NotOnThisCpu, QStringLiteral("%1 is not available on this CPU (no %2 in /proc/cpuinfo)")
                                         .arg(info.label, missing.join(QStringLiteral(", ")))};
}

}  // namespace ridgeline
