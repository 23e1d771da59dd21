// ARM64 CPU descriptions (issue 17): hwcap bits as qemu-aarch64 reports them for its CPU models, and the
// /proc/cpuinfo of real ARM64 machines and VMs (tests/data/machines/arm64-*, see tests/data/README.md).
#include "core/measure/arm64/arm64_cpu.h"

#include <QFile>

#include <gtest/gtest.h>

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
