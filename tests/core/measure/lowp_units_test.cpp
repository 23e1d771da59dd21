// Which low-precision units a CPU has and what each one's documented peak is, on fixtures of real machines
// (tests/data/lowp_cpus, see tests/data/README.md), so Intel and AMD paths are tested on any host.
#include "core/measure/lowp_units.h"
#include "core/measure/amx.h"
#include "core/measure/lowp_peaks.h"

#include <gtest/gtest.h>

#include <QFile>

#include <cerrno>
#include <cstring>
#include <map>

using namespace ridgeline;

namespace {

CpuDescription fixture(const char* name)
{
    QFile file(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/lowp_cpus/") + QString::fromLatin1(name));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << name;
    return parseCpuinfo(QString::fromUtf8(file.readAll()));
}

const char* const kIntelAmx = "intel-xeon-amx-kvm.cpuinfo";
const char* const kZen4 = "amd-zen4-epyc-9r14-kvm.cpuinfo";
const char* const kZen5 = "amd-zen5-epyc-9005-kvm.cpuinfo";
const char* const kAlderLake = "intel-alder-lake-i7-12700k.cpuinfo";
const char* const kCascadeLake = "intel-cascade-lake-8259cl-kvm.cpuinfo";
const char* const kHaswell = "intel-haswell-e5-2680v3.cpuinfo";

}  // namespace

TEST(Cpuinfo, ReadsTheFirstProcessor)
{
    const CpuDescription cpu = fixture(kIntelAmx);
    EXPECT_EQ(cpu.vendor, QStringLiteral("GenuineIntel"));
    EXPECT_EQ(cpu.family, 6);
    EXPECT_EQ(cpu.model, 167);  // what the KVM guest reports, not the real core's model
    EXPECT_EQ(cpu.modelName, QStringLiteral("Intel(R) Xeon(R) Processor"));
    EXPECT_TRUE(cpu.flags.contains(QStringLiteral("amx_tile")));
    EXPECT_TRUE(cpu.flags.contains(QStringLiteral("avx512_fp16")));
    EXPECT_FALSE(cpu.flags.contains(QStringLiteral("amx")));  // whole words only

    // A second processor's block is not merged into the first.
    const CpuDescription two =
        parseCpuinfo(QStringLiteral("processor : 0\nvendor_id : AuthenticAMD\nflags : avx2\n\n"
                                    "processor : 1\nvendor_id : GenuineIntel\nflags : avx512f\n"));
    EXPECT_EQ(two.vendor, QStringLiteral("AuthenticAMD"));
    EXPECT_EQ(two.flags, QSet<QString>({QStringLiteral("avx2")}));

    const CpuDescription empty = parseCpuinfo(QString());
    EXPECT_TRUE(empty.flags.isEmpty());
    EXPECT_FALSE(unitAvailability(LowpUnit::AvxVnni, empty).available());
}

TEST(LowpUnits, SessionNamesAndOperationsPerInstruction)
{
    const std::map<LowpUnit, std::tuple<const char*, const char*, double, bool>> expected = {
        {LowpUnit::Avx512Bf16, {"bf16", "avx512_bf16", 16 * 2 * 2, false}},
        {LowpUnit::Avx512Fp16, {"fp16", "avx512_fp16", 32 * 2, false}},
        {LowpUnit::Avx512Vnni, {"int8", "avx512_vnni", 16 * 4 * 2, true}},
        {LowpUnit::AvxVnni, {"int8", "avx_vnni", 8 * 4 * 2, true}},
        {LowpUnit::AmxBf16, {"bf16", "amx", 16 * 16 * 32 * 2, false}},
        {LowpUnit::AmxInt8, {"int8", "amx", 16 * 16 * 64 * 2, true}},
    };
    ASSERT_EQ(lowpUnits().size(), expected.size());
    for (const LowpUnitInfo& info : lowpUnits()) {
        const auto& [precision, isa, ops, integer] = expected.at(info.unit);
        EXPECT_EQ(info.precision, QString::fromLatin1(precision));
        EXPECT_EQ(info.isa, QString::fromLatin1(isa));
        EXPECT_EQ(info.opsPerInstruction, ops) << info.label.toStdString();
        EXPECT_EQ(info.integer, integer);
    }
}

TEST(LowpUnits, EachMachineHasItsOwnUnits)
{
    using U = LowpUnit;
    // bf16, fp16, avx512_vnni, avx_vnni, amx bf16, amx int8
    const std::map<const char*, std::vector<bool>> expected = {
        {kIntelAmx, {true, true, true, true, true, true}},
        {kZen4, {true, false, true, false, false, false}},
        {kZen5, {true, false, true, true, false, false}},
        {kAlderLake, {false, false, false, true, false, false}},
        {kCascadeLake, {false, false, true, false, false, false}},
        {kHaswell, {false, false, false, false, false, false}},
    };
    const U units[] = {U::Avx512Bf16, U::Avx512Fp16, U::Avx512Vnni, U::AvxVnni, U::AmxBf16, U::AmxInt8};
    for (const auto& [name, has] : expected) {
        const CpuDescription cpu = fixture(name);
        for (std::size_t i = 0; i < std::size(units); ++i) {
            const UnitAvailability availability = unitAvailability(units[i], cpu);
            EXPECT_EQ(availability.available(), has[i]) << name << " " << lowpUnitInfo(units[i]).label.toStdString();
            if (has[i]) {
                EXPECT_TRUE(availability.reason.isEmpty());
            } else {
                EXPECT_EQ(availability.state, UnitState::NotOnThisCpu);
                EXPECT_TRUE(availability.reason.contains(QStringLiteral("not available on this CPU")));
            }
        }
    }
    EXPECT_EQ(unitAvailability(U::AmxBf16, fixture(kZen4)).reason,
              QStringLiteral("AMX-BF16 is not available on this CPU (no amx_tile, amx_bf16 in /proc/cpuinfo)"));
    EXPECT_EQ(unitAvailability(U::Avx512Fp16, fixture(kZen5)).reason,
              QStringLiteral("AVX512_FP16 is not available on this CPU (no avx512_fp16 in /proc/cpuinfo)"));
}

TEST(LowpPeaks, DocumentedRatesPerCoreFamily)
{
    using U = LowpUnit;
    struct Case {
        const char* machine;
        U unit;
        double opsPerCycle;
    };
    const Case cases[] = {
        {kIntelAmx, U::AmxBf16, 1024},   {kIntelAmx, U::AmxInt8, 2048},   {kIntelAmx, U::Avx512Bf16, 32},
        {kIntelAmx, U::Avx512Fp16, 128}, {kIntelAmx, U::Avx512Vnni, 256}, {kIntelAmx, U::AvxVnni, 128},
        {kZen4, U::Avx512Bf16, 64},      {kZen4, U::Avx512Vnni, 128},     {kZen5, U::Avx512Bf16, 128},
        {kZen5, U::Avx512Vnni, 256},     {kZen5, U::AvxVnni, 128},        {kAlderLake, U::AvxVnni, 128},
    };
    for (const Case& c : cases) {
        const auto peak = documentedLowpPeak(c.unit, fixture(c.machine));
        ASSERT_TRUE(peak) << c.machine << " " << lowpUnitInfo(c.unit).label.toStdString();
        EXPECT_DOUBLE_EQ(peak->opsPerCycle, c.opsPerCycle) << c.machine;
        EXPECT_DOUBLE_EQ(peak->opsPerCycle, peak->instructionsPerCycle * lowpUnitInfo(c.unit).opsPerInstruction);
        EXPECT_FALSE(peak->source.isEmpty());
        EXPECT_FALSE(peak->core.isEmpty());
    }
}

TEST(LowpPeaks, AMissingUnitOrUnknownCoreHasNoPeakAndSaysWhy)
{
    EXPECT_FALSE(documentedLowpPeak(LowpUnit::AmxBf16, fixture(kZen4)));
    EXPECT_TRUE(lowpPeakUnknownReason(LowpUnit::AmxBf16, fixture(kZen4)).contains(QStringLiteral("not available")));

    // Cascade Lake's VNNI rate depends on the SKU's number of 512-bit FMA units: not in the table.
    const CpuDescription cascade = fixture(kCascadeLake);
    EXPECT_FALSE(documentedLowpPeak(LowpUnit::Avx512Vnni, cascade));
    EXPECT_EQ(lowpPeakUnknownReason(LowpUnit::Avx512Vnni, cascade),
              QStringLiteral("no documented AVX512_VNNI rate for this core (GenuineIntel, family 6, Intel(R) Xeon(R) "
                             "Platinum 8259CL CPU @ 2.50GHz): the ceiling is shown without a theoretical peak"));
    EXPECT_TRUE(lowpPeakUnknownReason(LowpUnit::AmxBf16, fixture(kIntelAmx)).isEmpty());
}

TEST(LowpPeaks, CoreFamilyIsToldWithoutTheModelNumber)
{
    CpuDescription cpu = fixture(kIntelAmx);
    for (int model : {143, 207, 173, 167, 0}) {  // Sapphire, Emerald, Granite Rapids; this guest's; none
        cpu.model = model;
        ASSERT_TRUE(documentedLowpPeak(LowpUnit::AmxBf16, cpu));
        EXPECT_DOUBLE_EQ(documentedLowpPeak(LowpUnit::AmxBf16, cpu)->opsPerCycle, 1024);
    }
    CpuDescription zen = fixture(kZen4);
    zen.model = 97;  // a Ryzen 7000 desktop part: the same core
    EXPECT_DOUBLE_EQ(documentedLowpPeak(LowpUnit::Avx512Bf16, zen)->opsPerCycle, 64);
}

TEST(AmxPermission, TheKernelsRefusalIsReportedAsSuch)
{
    // A component number no kernel grants: a real refusal from this machine's kernel.
    const XcompPermission refused = requestXcompPermission(63);
    EXPECT_FALSE(refused.granted);
    EXPECT_TRUE(refused.reason.contains(QStringLiteral("arch_prctl(ARCH_REQ_XCOMP_PERM)")))
        << refused.reason.toStdString();
    EXPECT_TRUE(refused.reason.contains(QString::fromLocal8Bit(std::strerror(EINVAL)))) << refused.reason.toStdString();

    const UnitAvailability onIntel = amxAvailability(LowpUnit::AmxBf16, fixture(kIntelAmx), refused);
    EXPECT_EQ(onIntel.state, UnitState::RefusedByKernel);
    EXPECT_TRUE(onIntel.reason.startsWith(QStringLiteral("AMX-BF16 is on this CPU but Linux refused")))
        << onIntel.reason.toStdString();

    // A CPU without tiles is "not available", whatever the kernel says.
    EXPECT_EQ(amxAvailability(LowpUnit::AmxInt8, fixture(kZen5), refused).state, UnitState::NotOnThisCpu);
    EXPECT_EQ(amxAvailability(LowpUnit::AmxInt8, fixture(kIntelAmx), XcompPermission{true, {}}).state,
              UnitState::Available);
}

TEST(AmxPermission, GrantedOnThisMachineWhenItHasTiles)
{
    const XcompPermission& permission = requestAmxTileData();
    if (unitAvailability(LowpUnit::AmxBf16, hostCpu()).available()) {
        EXPECT_TRUE(permission.granted) << permission.reason.toStdString();
    } else {
        EXPECT_FALSE(permission.granted);
        EXPECT_FALSE(permission.reason.isEmpty());
    }
}

TEST(HostCpu, TheProcessorConfirmsWhatTheKernelReports)
{
    QFile file(QStringLiteral("/proc/cpuinfo"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const CpuDescription reported = parseCpuinfo(QString::fromUtf8(file.readAll()));
    // cpuid and XCR0 are read independently of /proc/cpuinfo: on a real machine they agree on every flag the
    // units need (a disagreement would be a wrong cpuid bit here).
    for (const LowpUnitInfo& unit : lowpUnits())
        for (const QString& name : unit.cpuFlags)
            EXPECT_EQ(hostCpu().flags.contains(name), reported.flags.contains(name)) << name.toStdString();
    EXPECT_EQ(hostCpu().vendor, reported.vendor);
    EXPECT_EQ(hostCpu().family, reported.family);
}
