// Which low-precision units a machine has and its documented rates, on fixtures of real machines read by the probe
// (tests/data/machines, and tests/data/lowp_cpus for a CPU that collection lacks), so the Intel and AMD paths
// are tested on any host.
#include "core/measure/lowp/lowp_units.h"
#include "core/measure/compute/peaks.h"
#include "core/measure/lowp/amx.h"
#include "core/measure/lowp/lowp_peaks.h"
#include "core/measure/machine/probe.h"

#include <gtest/gtest.h>

#include <QFile>

#include <cerrno>
#include <cstring>
#include <map>

using namespace ridgeline;

namespace {

MachineInfo fixture(const char* name)
{
    return probeMachine(ProbeSources::fixture(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/") + QString::fromLatin1(name)));
}

const char* const kIntelAmx = "machines/intel-xeon-amx-vm-480mib";
const char* const kZen4 = "machines/amd-zen4-vm";
const char* const kZen4Desktop = "machines/desktop-ryzen7-7700x-32mib";
const char* const kZen5 = "machines/amd-zen5-vm-508mib";
const char* const kAlderLake = "lowp_cpus/intel-alder-lake-i7-12700k";
const char* const kCascadeLake = "machines/one-cpu-vm-1gib";
const char* const kHaswell = "machines/haswell-avx2-desktop";
const char* const kZen3 = "machines/epyc-7543-64cpu";

}  // namespace

TEST(LowpUnits, AMachineWithoutFlagsHasNone)
{
    const MachineInfo empty;
    for (const LowpUnitInfo& info : lowpUnits()) {
        EXPECT_FALSE(unitAvailability(info.unit, empty).available());
        EXPECT_FALSE(documentedLowpRate(info.unit, empty));
    }
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
    std::size_t x86Units = 0;
    for (const LowpUnitInfo& info : lowpUnits()) {
        if (info.arch != CpuArch::X86_64)
            continue;  // ARM64's: Arm64LowpUnits in arm64_cpu_test.cpp
        ++x86Units;
        const auto& [precision, isa, ops, integer] = expected.at(info.unit);
        EXPECT_EQ(info.precision, QString::fromLatin1(precision));
        EXPECT_EQ(info.isa, QString::fromLatin1(isa));
        EXPECT_EQ(info.opsPerInstruction, ops) << info.label.toStdString();
        EXPECT_EQ(info.integer, integer);
    }
    EXPECT_EQ(x86Units, expected.size());
}

TEST(LowpUnits, EachMachineHasItsOwnUnits)
{
    using U = LowpUnit;
    // bf16, fp16, avx512_vnni, avx_vnni, amx bf16, amx int8
    const std::map<const char*, std::vector<bool>> expected = {
        {kIntelAmx, {true, true, true, true, true, true}},
        {kZen4, {true, false, true, false, false, false}},
        {kZen5, {true, false, true, true, false, false}},
        {kZen4Desktop, {true, false, true, false, false, false}},
        {kAlderLake, {false, false, false, true, false, false}},
        {kCascadeLake, {false, false, true, false, false, false}},
        {kHaswell, {false, false, false, false, false, false}},
        {kZen3, {false, false, false, false, false, false}},
    };
    const U units[] = {U::Avx512Bf16, U::Avx512Fp16, U::Avx512Vnni, U::AvxVnni, U::AmxBf16, U::AmxInt8};
    for (const auto& [name, has] : expected) {
        const MachineInfo machine = fixture(name);
        for (std::size_t i = 0; i < std::size(units); ++i) {
            const UnitAvailability availability = unitAvailability(units[i], machine);
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

TEST(LowpPeaks, DocumentedRatesOnTheKnownCoresFMARates)
{
    using U = LowpUnit;
    struct Case {
        const char* machine;
        U unit;
        double minOps;  // per core and cycle
        double maxOps;
    };
    const Case cases[] = {
        {kIntelAmx, U::AmxBf16, 1024, 1024},     {kIntelAmx, U::AmxInt8, 2048, 2048},
        {kIntelAmx, U::Avx512Bf16, 32, 32},      {kIntelAmx, U::Avx512Fp16, 128, 128},
        {kIntelAmx, U::Avx512Vnni, 256, 256},    {kIntelAmx, U::AvxVnni, 128, 128},
        {kZen4, U::Avx512Bf16, 64, 64},          {kZen4, U::Avx512Vnni, 128, 128},
        {kZen4Desktop, U::Avx512Bf16, 64, 64},   {kZen5, U::Avx512Bf16, 128, 128},
        {kZen5, U::Avx512Vnni, 256, 256},        {kZen5, U::AvxVnni, 128, 128},
        {kAlderLake, U::AvxVnni, 64, 128},        // E-cores one 256-bit pipe, P-cores two
        {kCascadeLake, U::Avx512Vnni, 128, 256},  // one or two 512-bit FMA units by SKU
    };
    for (const Case& c : cases) {
        const MachineInfo machine = fixture(c.machine);
        const auto rate = documentedLowpRate(c.unit, machine);
        ASSERT_TRUE(rate) << c.machine << " " << lowpUnitInfo(c.unit).label.toStdString();
        const double ops = lowpUnitInfo(c.unit).opsPerInstruction;
        EXPECT_DOUBLE_EQ(rate->instructionsPerCycle.min * ops, c.minOps) << c.machine;
        EXPECT_DOUBLE_EQ(rate->instructionsPerCycle.max * ops, c.maxOps) << c.machine;
        EXPECT_EQ(rate->core, coreOf(machine).name);
        EXPECT_FALSE(rate->source.isEmpty());
        const PeakSubject subject = lowpPeakSubject(c.unit, machine);
        EXPECT_EQ(subject.rate.max, rate->instructionsPerCycle.max);
        EXPECT_EQ(subject.rateUnit, lowpUnitInfo(c.unit).integer ? QStringLiteral("GOPS") : QStringLiteral("GFLOP/s"));
    }
}

TEST(LowpPeaks, TheRuleOfPeaksHoldsForTheUnits)
{
    const MachineInfo amx = fixture(kIntelAmx);
    // 2 threads at 3.6 GHz doing 0.98 tile products per 16 cycles: confirmed, 1/16 per cycle.
    const PeakSubject tiles = lowpPeakSubject(LowpUnit::AmxBf16, amx);
    const PeakAssessment confirmed = assessPeak(QStringLiteral("bf16 amx x2"), 2 * 3.6 * 1004, 2, 3.6, tiles);
    EXPECT_DOUBLE_EQ(confirmed.fmaPerCycle, 1.0 / 16.0);
    EXPECT_DOUBLE_EQ(confirmed.theoreticalGflops, 2 * 3.6 * 1024);
    EXPECT_TRUE(confirmed.findings.empty());
    EXPECT_TRUE(confirmed.basis.contains(QStringLiteral("(1/16 per cycle), confirmed by the measurement")))
        << confirmed.basis.toStdString();

    // vdpbf16ps twice as fast as documented: impossible, said with the figures.
    const PeakAssessment tooFast =
        assessPeak(QStringLiteral("bf16 avx512_bf16 x1"), 3.6 * 64, 1, 3.6, lowpPeakSubject(LowpUnit::Avx512Bf16, amx));
    ASSERT_FALSE(tooFast.findings.empty());
    EXPECT_EQ(tooFast.findings.front().kind, QStringLiteral("impossible"));
    EXPECT_TRUE(tooFast.findings.front().message.contains(QStringLiteral("vdpbf16ps zmm instructions per cycle")));

    // int8 is counted in GOPS.
    const PeakAssessment int8 =
        assessPeak(QStringLiteral("int8 amx x1"), 3.6 * 2048 * 1.1, 1, 3.6, lowpPeakSubject(LowpUnit::AmxInt8, amx));
    ASSERT_FALSE(int8.findings.empty());
    EXPECT_TRUE(int8.findings.back().message.contains(QStringLiteral("GOPS is 110 % of its theoretical peak")))
        << int8.findings.back().message.toStdString();
}

TEST(LowpPeaks, AClockReadLowBesideTheUnitGivesWayToThePlainClockThatExplainsIt)
{
    // A Zen 5 guest: one thread of vpdpbusd zmm at 1,000 GOPS, the adds beside it at 3.78 GHz, the plain chains at
    // 4.09. At 3.78 GHz that is 2.07 instructions per cycle where Zen 5 starts two: the beside reading is low.
    const PeakSubject vnni = lowpPeakSubject(LowpUnit::Avx512Vnni, fixture(kZen5));
    ASSERT_EQ(vnni.rate.max, 2.0);
    const CeilingClock clock = peakClock(1000.0, 1, 3.78, 4.09, QStringLiteral("vpdpbusd zmm"), vnni);
    EXPECT_DOUBLE_EQ(clock.ghz, 4.09);
    EXPECT_TRUE(clock.note.contains(QStringLiteral("read 3.78 GHz")));
    EXPECT_TRUE(
        clock.note.contains(QStringLiteral("2.07 vpdpbusd zmm instructions per cycle per core, more than the "
                                           "2 AMD Zen 5 starts")))
        << clock.note.toStdString();
    const PeakAssessment peak = assessPeak(QStringLiteral("int8 avx512_vnni x1"), 1000.0, 1, clock.ghz, vnni);
    EXPECT_DOUBLE_EQ(peak.theoreticalGflops, 4.09 * 256);  // 1,047 GOPS: the ceiling is 95.5 % of it
    EXPECT_TRUE(peak.findings.empty());

    // A real licence slows the unit with the adds: the reading beside it stands, without a note.
    const CeilingClock licence = peakClock(0.97 * 3.78 * 256, 1, 3.78, 4.09, QStringLiteral("vpdpbusd zmm"), vnni);
    EXPECT_DOUBLE_EQ(licence.ghz, 3.78);
    EXPECT_TRUE(licence.note.isEmpty());

    // Faster than even the plain clock explains: the rate is what is wrong, and the peak rule says so.
    const CeilingClock neither = peakClock(1.1 * 4.09 * 256, 1, 3.78, 4.09, QStringLiteral("vpdpbusd zmm"), vnni);
    EXPECT_DOUBLE_EQ(neither.ghz, 3.78);
    const PeakAssessment impossible =
        assessPeak(QStringLiteral("int8 avx512_vnni x1"), 1.1 * 4.09 * 256, 1, 3.78, vnni);
    ASSERT_FALSE(impossible.findings.empty());
    EXPECT_EQ(impossible.findings.front().kind, QStringLiteral("impossible"));

    // The FMA ceilings take the same rule: two threads of avx512 fp32 FMAs on Zen 5 (2 x 32 FLOP per cycle).
    const CoreModel zen5 = coreOf(fixture(kZen5));
    const PeakSubject fma = fmaPeakSubject(Isa::Avx512, Precision::Fp32, zen5);
    const CeilingClock fmaClock = peakClock(2 * 64 * 4.0, 2, 3.7, 4.0, QStringLiteral("avx512 FMAs"), fma);
    EXPECT_DOUBLE_EQ(fmaClock.ghz, 4.0);
}

TEST(LowpPeaks, AUnitWithoutATableEntryIsMeasuredAndSaysSo)
{
    EXPECT_FALSE(documentedLowpRate(LowpUnit::AmxBf16, fixture(kZen4)));  // not on the CPU at all
    MachineInfo cooperLake = fixture(kCascadeLake);
    cooperLake.isa.append(QStringLiteral("avx512_bf16"));  // Cooper Lake: the table has no vdpbf16ps rate
    EXPECT_TRUE(unitAvailability(LowpUnit::Avx512Bf16, cooperLake).available());
    EXPECT_FALSE(documentedLowpRate(LowpUnit::Avx512Bf16, cooperLake));
    const PeakAssessment measured = assessPeak(QStringLiteral("bf16 avx512_bf16 x1"), 2.5 * 64, 1, 2.5,
                                               lowpPeakSubject(LowpUnit::Avx512Bf16, cooperLake));
    EXPECT_DOUBLE_EQ(measured.fmaPerCycle, 1.0);
    EXPECT_EQ(
        measured.basis,
        QStringLiteral("measured (Intel Xeon Skylake-SP / Cascade Lake / Cooper Lake has no entry for AVX512_BF16)"));
}

TEST(LowpPeaks, TheCoreIsToldByTheKnownCoreTableNotTheModelNumber)
{
    MachineInfo machine = fixture(kIntelAmx);
    for (int model : {143, 207, 173, 167, 0}) {  // Sapphire, Emerald, Granite Rapids; this guest's; none
        machine.model = model;
        ASSERT_TRUE(documentedLowpRate(LowpUnit::AmxBf16, machine)) << model;
        EXPECT_DOUBLE_EQ(documentedLowpRate(LowpUnit::AmxBf16, machine)->instructionsPerCycle.max, 1.0 / 16.0);
        EXPECT_DOUBLE_EQ(documentedLowpRate(LowpUnit::Avx512Bf16, machine)->instructionsPerCycle.max, 0.5);
    }
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
    if (unitAvailability(LowpUnit::AmxBf16, hostMachine()).available()) {
        EXPECT_TRUE(permission.granted) << permission.reason.toStdString();
    } else {
        EXPECT_FALSE(permission.granted);
        EXPECT_FALSE(permission.reason.isEmpty());
    }
}

TEST(HostMachine, IsWhatTheProbeReadsOfThisMachine)
{
    const MachineInfo probed = probeMachine();
    EXPECT_EQ(hostMachine().isa, probed.isa);
    EXPECT_EQ(hostMachine().vendor, probed.vendor);
    EXPECT_EQ(hostMachine().family, probed.family);
}
