// The low-precision experiments' plan and sizes: which units a machine's ceilings are measured for,
// on fixtures of real machines, and the one d of the decode series by weight precision.
#include "core/measure/lowp/lowp_experiments.h"
#include "core/measure/lowp/lowp_ceilings.h"
#include "core/measure/lowp/lowp_kernels.h"
#include "core/measure/machine/probe.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace ridgeline;

namespace {

constexpr std::int64_t kMiB = 1024 * 1024;

MachineInfo fixture(const char* name)
{
    return probeMachine(ProbeSources::fixture(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/") + QString::fromLatin1(name)));
}

}  // namespace

TEST(LowpPlan, AZen4MeasuresItsBf16AndVnniAndSaysWhyNotAmx)
{
    // AMD Zen 4 has AVX512_BF16 and AVX512_VNNI, no AVX512_FP16, AVX-VNNI or AMX. Whatever the host, what the
    // fixture lacks is skipped with the fixture's reason; what it has is planned unless this processor lacks it.
    for (const char* name : {"machines/amd-zen4-vm", "machines/amd-zen5-vm-508mib", "machines/intel-xeon-amx-vm-480mib",
                             "machines/haswell-avx2-desktop"}) {
        const MachineInfo machine = fixture(name);
        const LowpPlan plan = planLowpCeilings(machine);
        std::size_t x86Units = 0;
        for (const LowpUnitInfo& info : lowpUnits())
            x86Units += info.arch == CpuArch::X86_64 ? 1 : 0;
        EXPECT_EQ(plan.units.size() + plan.skipped.size(), x86Units) << name << ": no ARM64 unit on an x86-64 CPU";
        for (const LowpUnitInfo& info : lowpUnits()) {
            if (info.arch != CpuArch::X86_64)
                continue;
            const QString experiment = QStringLiteral("%1 %2 ceiling").arg(info.precision, info.isa);
            const auto skipped = std::find_if(plan.skipped.begin(), plan.skipped.end(),
                                              [&](const SkippedExperiment& s) { return s.experiment == experiment; });
            const bool planned = std::find(plan.units.begin(), plan.units.end(), info.unit) != plan.units.end();
            EXPECT_NE(planned, skipped != plan.skipped.end()) << name << " " << experiment.toStdString();
            if (!unitAvailability(info.unit, machine).available()) {
                ASSERT_NE(skipped, plan.skipped.end()) << name << " " << experiment.toStdString();
                EXPECT_EQ(skipped->reason, unitAvailability(info.unit, machine).reason);
                EXPECT_TRUE(skipped->reason.contains(QStringLiteral("not available on this CPU")));
            } else if (!planned) {
                EXPECT_FALSE(skipped->reason.isEmpty()) << "this processor's reason";
            }
        }
    }
    const LowpPlan zen4 = planLowpCeilings(fixture("machines/amd-zen4-vm"));
    const auto amx = std::find_if(zen4.skipped.begin(), zen4.skipped.end(), [](const SkippedExperiment& s) {
        return s.experiment == QLatin1String("bf16 amx ceiling");
    });
    ASSERT_NE(amx, zen4.skipped.end());
    EXPECT_EQ(amx->reason,
              QStringLiteral("AMX-BF16 is not available on this CPU (no amx_tile, amx_bf16 in /proc/cpuinfo)"));
}

TEST(LowpDecode, OneDWhoseInt8WeightsAreADramWorkingSet)
{
    const std::int64_t plenty = 6 * 1024 * kMiB;
    // This Xeon guest: DRAM from 45 MiB on, so 4096^2 int8 weights (16 MiB) would sit in a cache; 8192^2 (64 MiB)
    // do not.
    LowpDecodeSize size = lowpDecodeSize(4096, 45 * kMiB, plenty, 256);
    EXPECT_EQ(size.dim, 8192);
    EXPECT_FALSE(size.note);
    // A small cache: the fp32 decode's d already is.
    size = lowpDecodeSize(4096, 10 * kMiB, plenty, 256);
    EXPECT_EQ(size.dim, 4096);
    EXPECT_FALSE(size.note);
    // A huge cache (a whole host's L3 visible to a guest): d stops at its limit, and a note says so.
    size = lowpDecodeSize(4096, 1024 * kMiB, plenty, 256);
    EXPECT_EQ(size.dim, kMaxLowpDecodeDim);
    ASSERT_TRUE(size.note);
    EXPECT_EQ(size.note->subject, QStringLiteral("decode int8"));
    EXPECT_TRUE(
        size.note->message.contains(QStringLiteral("8192 x 8192 int8 weights (64 MiB) are smaller than a "
                                                   "DRAM working set of this machine (1024 MiB)")))
        << size.note->message.toStdString();
    // A small memory budget: fp32 weights twice and 256 vectors in and out at 8192 need 4 x 8192 x (2 x 8192 +
    // 512) bytes, 528 MiB.
    size = lowpDecodeSize(4096, 45 * kMiB, 528 * kMiB, 256);
    EXPECT_EQ(size.dim, 8192);
    size = lowpDecodeSize(4096, 45 * kMiB, 527 * kMiB, 256);
    EXPECT_EQ(size.dim, 4096);
    EXPECT_TRUE(size.note);
    // Not even the fp32 decode's d fits, or there is no decode: no series.
    EXPECT_EQ(lowpDecodeSize(4096, 45 * kMiB, 100 * kMiB, 256).dim, 0);
    EXPECT_EQ(lowpDecodeSize(0, 45 * kMiB, plenty, 256).dim, 0);
}

TEST(LowpDecode, BatchesOfAFullAndAQuickRun)
{
    EXPECT_EQ(lowpDecodeBatches(false, 256), (std::vector<int>{1, 2, 4, 8, 16, 32, 64, 128, 256}));
    EXPECT_EQ(lowpDecodeBatches(true, 256), (std::vector<int>{1, 4, 16, 64, 256}));
    EXPECT_EQ(lowpDecodeKind(MatmulType::Fp32), QStringLiteral("decode-fp32"));
    EXPECT_EQ(lowpDecodeKind(MatmulType::Int8), QStringLiteral("decode-int8"));
}
