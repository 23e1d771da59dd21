// ARM64 CPU descriptions: hwcap bits as qemu-aarch64 reports them for its CPU models, the /proc/cpuinfo
// of real ARM64 machines and VMs (tests/data/machines/arm64-*, see tests/data/README.md), and the low-precision units
// and documented rates those machines have.
#include "core/measure/arm64/arm64_cpu.h"
#include "core/measure/lowp/lowp_ceilings.h"
#include "core/measure/lowp/lowp_peaks.h"
#include "core/measure/machine/probe.h"

#include <QFile>

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <tuple>

using namespace ridgeline;

namespace {

Arm64Cpuinfo machineCpuinfo(const char* machine)
{
    QFile file(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/machines/") + QString::fromLatin1(machine) +
               QStringLiteral("/proc/cpuinfo"));
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << machine;
    return parseArm64Cpuinfo(QString::fromUtf8(file.readAll()));
}

QStringList names(std::initializer_list<const char*> list)
{
    QStringList out;
    for (const char* name : list)
        out.append(QString::fromLatin1(name));
    return out;
}

}  // namespace

// AT_HWCAP / AT_HWCAP2 as getauxval returned them inside qemu-aarch64 7.2 for each -cpu model.
TEST(Arm64Hwcaps, QemuMaxHasEveryVectorFeature)
{
    const Arm64Hwcaps max{0xecfffffbULL, 0x7f877fffULL};
    EXPECT_EQ(arm64FeatureNames(max),
              names({"asimd", "asimdhp", "asimddp", "sve", "sve2", "bf16", "i8mm", "svebf16", "svei8mm", "sme"}));
}

TEST(Arm64Hwcaps, OlderCoresLackTheNewerFeatures)
{
    EXPECT_EQ(arm64FeatureNames({0x119ffbULL, 0}), names({"asimd", "asimdhp", "asimddp"}));  // neoverse-n1
    EXPECT_EQ(arm64FeatureNames({0x8fbULL, 0}), names({"asimd"}));                           // cortex-a57
    EXPECT_EQ(arm64FeatureNames({0x415ffbULL, 0}), names({"asimd", "asimdhp", "sve"}));      // a64fx: SVE, no dot
    EXPECT_TRUE(arm64FeatureNames({0, 0}).isEmpty());
}

TEST(Arm64Hwcaps, FeaturesLineGivesTheSameBitsAsTheAuxiliaryVector)
{
    // qemu's neoverse-n1 model and a real Graviton2 (Neoverse N1) agree on the vector features.
    const Arm64Hwcaps fromText = arm64HwcapsFromFeatureNames(machineCpuinfo("arm64-graviton2").features);
    const Arm64Hwcaps fromQemu{0x119ffbULL, 0};
    EXPECT_EQ(arm64FeatureNames(fromText), arm64FeatureNames(fromQemu));
    EXPECT_FALSE(fromText.has(Arm64Feature::Sve));
    EXPECT_TRUE(fromText.has(Arm64Feature::AsimdDp));
}

TEST(Arm64Hwcaps, GraceHasSve2WithBf16AndInt8MatrixUnits)
{
    const Arm64Hwcaps grace = arm64HwcapsFromFeatureNames(machineCpuinfo("arm64-grace").features);
    for (Arm64Feature f : {Arm64Feature::Sve, Arm64Feature::Sve2, Arm64Feature::Bf16, Arm64Feature::I8mm,
                           Arm64Feature::SveBf16, Arm64Feature::SveI8mm, Arm64Feature::AsimdHp})
        EXPECT_TRUE(grace.has(f)) << arm64FeatureName(f).toStdString();
    EXPECT_FALSE(grace.has(Arm64Feature::Sme));
}

TEST(Arm64Cpuinfo, ReadsEveryProcessorsIdentification)
{
    const Arm64Cpuinfo graviton = machineCpuinfo("arm64-graviton2");
    ASSERT_EQ(graviton.cpus.size(), 2u);
    EXPECT_EQ(graviton.cpus[0], (Arm64CpuId{0x41, 0x3, 0xd0c, 1}));
    EXPECT_TRUE(graviton.modelName.isEmpty()) << "ARM64 kernels print no model name";
    EXPECT_EQ(arm64CpuModel(graviton), QStringLiteral("Neoverse N1"));
    EXPECT_EQ(arm64CpuModel(machineCpuinfo("arm64-grace")), QStringLiteral("Neoverse V2"));
}

TEST(Arm64Cpuinfo, MixedClustersNameEachKindOfCoreWithItsCount)
{
    const Arm64Cpuinfo m1 = machineCpuinfo("arm64-asahi-m1");
    ASSERT_EQ(m1.cpus.size(), 8u);
    EXPECT_EQ(arm64CpuModel(m1), QStringLiteral("4x Apple Icestorm (M1) + 4x Apple Firestorm (M1)"));
}

TEST(Arm64Cpuinfo, HypervisorsThatHideTheCoreAreNotGuessed)
{
    const Arm64Cpuinfo utm = machineCpuinfo("arm64-utm-m1");
    ASSERT_EQ(utm.cpus.size(), 2u);
    EXPECT_FALSE(knownArm64Core(utm.cpus[0]).has_value());
    EXPECT_EQ(arm64CpuModel(utm), QStringLiteral("Apple core (part hidden by the hypervisor)"));
    EXPECT_EQ(arm64CpuModel(machineCpuinfo("arm64-parallels-m3")),
              QStringLiteral("Arm core (part hidden by the hypervisor)"));
}

TEST(Arm64Cpuinfo, UnknownPartsAreNamedByTheirNumbersAndAModelNameLineWins)
{
    EXPECT_EQ(arm64CpuModel(machineCpuinfo("arm64-thunderx2")),
              QStringLiteral("Cavium part 0x0af (not in Ridgeline's table)"));
    const Arm64Cpuinfo phytium = machineCpuinfo("arm64-phytium-d2000");
    EXPECT_EQ(phytium.cpus.front().implementer, 0x70);
    EXPECT_EQ(arm64CpuModel(phytium), QStringLiteral("Phytium,D2000/8"));
    EXPECT_EQ(arm64CpuModel(Arm64Cpuinfo{}), QStringLiteral("ARM64 core (not identified)"));
}

TEST(Arm64Cpuinfo, MidrFieldsAsQemuReportsThem)
{
    // qemu-user's /proc/cpuinfo is the host's, so the probe reads MIDR_EL1 itself (HWCAP_CPUID).
    EXPECT_EQ(arm64CpuIdFromMidr(0x414fd0c1), (Arm64CpuId{0x41, 0x4, 0xd0c, 1}));  // -cpu neoverse-n1
    EXPECT_EQ(arm64CpuIdFromMidr(0x461f0010), (Arm64CpuId{0x46, 0x1, 0x001, 0}));  // -cpu a64fx
    const Arm64CpuId max = arm64CpuIdFromMidr(0x000f0510);                         // -cpu max: no implementer
    EXPECT_EQ(max.implementer, 0);
    EXPECT_EQ(arm64CpuModel(Arm64Cpuinfo{{max}, {}, {}}),
              QStringLiteral("unnamed core (implementer 0: an emulator or a hypervisor hides it)"));
}

TEST(Arm64KnownCores, PipesMatchThePublishedPeaks)
{
    // FLOP/cycle = pipes x lanes x 2. M1 Firestorm: 102.4 fp32 GFLOP/s at 3.2 GHz = 32 per cycle = 4 x 128-bit.
    const auto firestorm = knownArm64Core({0x61, 0x1, 0x023, 1});
    ASSERT_TRUE(firestorm.has_value());
    EXPECT_DOUBLE_EQ(firestorm->neonPipes * 4 * 2 * 3.2, 102.4);
    // Neoverse V1: two native 256-bit SVE pipes, the same FLOPs as four 128-bit NEON pipes.
    const auto v1 = knownArm64Core({0x41, 0x1, 0xd40, 1});
    ASSERT_TRUE(v1.has_value());
    EXPECT_EQ(v1->svePipes * v1->sveBits, v1->neonPipes * 128);
    const auto n1 = knownArm64Core({0x41, 0x3, 0xd0c, 1});
    ASSERT_TRUE(n1.has_value());
    EXPECT_EQ(n1->neonPipes, 2);
    EXPECT_EQ(n1->svePipes, 0);
}

namespace {

MachineInfo fixtureMachine(const char* name)
{
    return probeMachine(
        ProbeSources::fixture(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/machines/") + QString::fromLatin1(name)));
}

}  // namespace

// The low-precision units of ARM64 machines: from the features each fixture's kernel reports.
TEST(Arm64LowpUnits, EachMachineHasItsOwnUnits)
{
    using U = LowpUnit;
    const U units[] = {U::NeonFp16, U::NeonBfdot, U::NeonBfmmla, U::NeonSdot, U::NeonSmmla,
                       U::SveFp16,  U::SveBfdot,  U::SveBfmmla,  U::SveSdot,  U::SveSmmla};
    const std::map<const char*, std::vector<bool>> expected = {
        // fp16, bfdot, bfmmla, sdot, smmla on NEON, then on SVE
        {"arm64-grace", {true, true, true, true, true, true, true, true, true, true}},
        {"arm64-graviton2", {true, false, false, true, false, false, false, false, false, false}},
        {"arm64-asahi-m1", {true, false, false, true, false, false, false, false, false, false}},
        {"arm64-thunderx2", {false, false, false, false, false, false, false, false, false, false}},
    };
    for (const auto& [name, has] : expected) {
        const MachineInfo m = fixtureMachine(name);
        for (std::size_t i = 0; i < std::size(units); ++i) {
            const UnitAvailability availability = unitAvailability(units[i], m);
            EXPECT_EQ(availability.available(), has[i]) << name << " " << lowpUnitInfo(units[i]).label.toStdString();
            if (!has[i]) {
                EXPECT_TRUE(availability.reason.contains(QStringLiteral("in the hwcaps")))
                    << availability.reason.toStdString();
            }
        }
        // x86-64 units are never an ARM64 machine's, and the other way round.
        EXPECT_FALSE(unitAvailability(U::AmxBf16, m).available());
        EXPECT_TRUE(unitAvailability(U::AmxBf16, m).reason.contains(QStringLiteral("x86-64"))) << name;
    }
    const MachineInfo zen4 = fixtureMachine("amd-zen4-vm");
    EXPECT_FALSE(unitAvailability(U::NeonSdot, zen4).available());
    EXPECT_TRUE(unitAvailability(U::NeonSdot, zen4).reason.contains(QStringLiteral("ARM64"))) << "a unit of ARM64 CPUs";
}

TEST(Arm64LowpUnits, OperationsPerInstructionAndSessionNames)
{
    // NEON: 8 fp16 lanes x 2; BFDOT 4 lanes x 2 products x 2; BFMMLA 2x4 by 4x2: 16 multiply-adds; SDOT 4 lanes x 4
    // products x 2; SMMLA 2x8 by 8x2: 32 multiply-adds. SVE's are the same per 128 bits.
    const std::map<LowpUnit, std::tuple<const char*, const char*, double>> expected = {
        {LowpUnit::NeonFp16, {"fp16", "neon", 16}},        {LowpUnit::NeonBfdot, {"bf16", "neon", 16}},
        {LowpUnit::NeonBfmmla, {"bf16", "neon_mmla", 32}}, {LowpUnit::NeonSdot, {"int8", "neon", 32}},
        {LowpUnit::NeonSmmla, {"int8", "neon_mmla", 64}},  {LowpUnit::SveFp16, {"fp16", "sve", 16}},
        {LowpUnit::SveBfdot, {"bf16", "sve", 16}},         {LowpUnit::SveBfmmla, {"bf16", "sve_mmla", 32}},
        {LowpUnit::SveSdot, {"int8", "sve", 32}},          {LowpUnit::SveSmmla, {"int8", "sve_mmla", 64}},
    };
    for (const auto& [unit, values] : expected) {
        const auto& [precision, isa, ops] = values;
        const LowpUnitInfo& info = lowpUnitInfo(unit);
        EXPECT_EQ(info.arch, CpuArch::Arm64);
        EXPECT_EQ(info.precision, QString::fromLatin1(precision));
        EXPECT_EQ(info.isa, QString::fromLatin1(isa));
        EXPECT_DOUBLE_EQ(info.opsPerInstruction, ops) << info.label.toStdString();
        EXPECT_EQ(info.integer, info.precision == QLatin1String("int8"));
        EXPECT_EQ(info.sve, info.isa.startsWith(QLatin1String("sve")));
        // At this CPU's vector length (0 without SVE): an SVE unit's operations scale with it.
        EXPECT_DOUBLE_EQ(lowpOpsPerInstruction(unit), info.sve ? ops * sveVectorBits() / 128.0 : ops);
    }
}

TEST(Arm64LowpPeaks, NeoverseCoresDocumentEachUnitAtTheirFmaRate)
{
    // Grace (Neoverse V2): every unit on the four 128-bit pipes, as FMLA.
    const MachineInfo grace = fixtureMachine("arm64-grace");
    for (const LowpUnitInfo& info : lowpUnits()) {
        if (info.arch != CpuArch::Arm64)
            continue;
        const std::optional<LowpRate> rate = documentedLowpRate(info.unit, grace);
        ASSERT_TRUE(rate.has_value()) << info.label.toStdString();
        EXPECT_DOUBLE_EQ(rate->instructionsPerCycle.max, 4.0) << info.label.toStdString();
        EXPECT_EQ(rate->core, QStringLiteral("Neoverse V2"));
        EXPECT_TRUE(rate->source.contains(QStringLiteral("NeoverseV2"))) << rate->source.toStdString();
    }
    // Graviton2 (Neoverse N1): fp16 FMLA on both pipes; SDOT is on the CPU but no rate is documented here, so the
    // measurement stands alone rather than against a guess.
    const MachineInfo graviton2 = fixtureMachine("arm64-graviton2");
    const std::optional<LowpRate> fp16 = documentedLowpRate(LowpUnit::NeonFp16, graviton2);
    ASSERT_TRUE(fp16.has_value());
    EXPECT_DOUBLE_EQ(fp16->instructionsPerCycle.max, 2.0);
    EXPECT_TRUE(unitAvailability(LowpUnit::NeonSdot, graviton2).available());
    EXPECT_FALSE(documentedLowpRate(LowpUnit::NeonSdot, graviton2).has_value());
    // A core the table does not know has no documented rate for any unit.
    EXPECT_FALSE(documentedLowpRate(LowpUnit::NeonFp16, fixtureMachine("arm64-asahi-m1")).has_value());
}

TEST(Arm64LowpPlan, AnArm64MachinePlansItsOwnUnitsOnlyAndSaysWhyNotTheOthers)
{
    // Whatever the host: every ARM64 unit is planned or skipped with a reason, and no x86-64 unit is listed.
    const MachineInfo graviton2 = fixtureMachine("arm64-graviton2");
    const LowpPlan plan = planLowpCeilings(graviton2);
    std::size_t arm64Units = 0;
    for (const LowpUnitInfo& info : lowpUnits())
        arm64Units += info.arch == CpuArch::Arm64 ? 1 : 0;
    EXPECT_EQ(plan.units.size() + plan.skipped.size(), arm64Units);
    for (LowpUnit unit : plan.units)
        EXPECT_EQ(lowpUnitInfo(unit).arch, CpuArch::Arm64);
    for (const SkippedExperiment& s : plan.skipped) {
        EXPECT_FALSE(s.experiment.contains(QStringLiteral("avx"))) << s.experiment.toStdString();
        EXPECT_FALSE(s.experiment.contains(QStringLiteral("amx"))) << s.experiment.toStdString();
        EXPECT_FALSE(s.reason.isEmpty()) << s.experiment.toStdString();
    }
    // Graviton2 lacks BF16, I8MM and SVE: those are skipped for the fixture's own reason on any host.
    const auto bfdot = std::find_if(plan.skipped.begin(), plan.skipped.end(), [](const SkippedExperiment& s) {
        return s.experiment == QLatin1String("bf16 neon ceiling");
    });
    ASSERT_NE(bfdot, plan.skipped.end());
    EXPECT_EQ(bfdot->reason, QStringLiteral("NEON BFDOT is not available on this CPU (no bf16 in the hwcaps)"));
}
