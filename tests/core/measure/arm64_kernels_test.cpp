// ARM64's compute loops, streaming loops and clock, on the CPU this runs on: under qemu-aarch64 in
// CI (`./scripts/test arm64`, SVE at 128 and at 512 bits), on real ARM64 machines natively. Built only for ARM64.
#include "core/measure/arm64/arm64_kernels.h"
#include "core/measure/arm64/arm64_clock.h"
#include "core/measure/arm64/arm64_cpu.h"
#include "core/measure/arm64/arm64_stream.h"

#include <sys/auxv.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace ridgeline;

namespace {

// Multiply-adds per accumulator lane per step, from the loops' documented semantics (arm64_kernels.h).
double productsPerLaneStep(const Arm64LoopInfo& info)
{
    const std::string instruction = info.instruction;
    if (instruction.rfind("bfdot", 0) == 0)
        return 2.0;
    if (instruction.rfind("bfmmla", 0) == 0 || instruction.rfind("sdot", 0) == 0)
        return 4.0;
    if (instruction.rfind("smmla", 0) == 0)
        return 8.0;
    return 1.0;  // fmadd, fmla
}

Arm64Hwcaps liveHwcaps()
{
    return {getauxval(AT_HWCAP), getauxval(AT_HWCAP2)};
}

}  // namespace

TEST(Arm64Loops, TheLoopsThisCpuRunsAgreeWithItsHwcaps)
{
    // Two independent readings of the same bits: the libc header's macros (arm64Has) and Ridgeline's own table.
    const Arm64Hwcaps caps = liveHwcaps();
    EXPECT_EQ(arm64Has(Arm64Loop::NeonFp32), caps.has(Arm64Feature::Asimd));
    EXPECT_EQ(arm64Has(Arm64Loop::NeonFp16), caps.has(Arm64Feature::AsimdHp));
    EXPECT_EQ(arm64Has(Arm64Loop::NeonSdot), caps.has(Arm64Feature::AsimdDp));
    EXPECT_EQ(arm64Has(Arm64Loop::NeonBfdot), caps.has(Arm64Feature::Bf16));
    EXPECT_EQ(arm64Has(Arm64Loop::NeonSmmla), caps.has(Arm64Feature::I8mm));
    EXPECT_EQ(arm64Has(Arm64Loop::SveFp32), caps.has(Arm64Feature::Sve));
    EXPECT_EQ(arm64Has(Arm64Loop::SveBfmmla), caps.has(Arm64Feature::Sve) && caps.has(Arm64Feature::SveBf16));
    EXPECT_EQ(arm64Has(Arm64Loop::SveSmmla), caps.has(Arm64Feature::Sve) && caps.has(Arm64Feature::SveI8mm));
    EXPECT_EQ(arm64SveBytes() > 0, caps.has(Arm64Feature::Sve));
    if (arm64SveBytes() > 0) {
        EXPECT_EQ(arm64SveBytes() % 16, 0) << "SVE vectors are multiples of 128 bits";
        EXPECT_LE(arm64SveBytes(), 256);
    }
}

TEST(Arm64Loops, EveryLoopComputesItsClosedForm)
{
    int ran = 0;
    for (const Arm64LoopInfo& info : arm64Loops()) {
        if (!arm64Has(info.loop))
            continue;
        ++ran;
        constexpr std::int64_t kSteps = 8;
        const Arm64LoopRun run = runArm64Loop(info.loop, kSteps, 0.5, 0.5);
        const double products = productsPerLaneStep(info);
        // int8 loops round their inputs to integers: s8(0.5) = 1 (round half away from zero).
        const double product = info.integer ? 1.0 : 0.25;
        const double lane = products * product * kSteps;
        SCOPED_TRACE(info.instruction);
        ASSERT_GT(run.lanes, 0);
        EXPECT_EQ(run.firstLane, lane);
        EXPECT_EQ(run.laneSum, lane * run.lanes);
        EXPECT_EQ(run.operations, 2.0 * products * run.lanes * kSteps);
        if (std::string(info.isa) == "sve") {
            const int bytesPerLane = std::string(info.precision) == "fp64"   ? 8
                                     : std::string(info.precision) == "fp16" ? 2
                                                                             : 4;
            EXPECT_EQ(run.lanes % (arm64SveBytes() / bytesPerLane), 0) << "every chain is one whole SVE vector";
        }
    }
    EXPECT_GE(ran, 4) << "scalar and NEON fp32/fp64 run on every ARM64 CPU";
}

TEST(Arm64Loops, Int8AccumulatorsWrapAsTheInstructionsDo)
{
    for (Arm64Loop loop : {Arm64Loop::NeonSdot, Arm64Loop::SveSdot, Arm64Loop::NeonSmmla, Arm64Loop::SveSmmla}) {
        if (!arm64Has(loop))
            continue;
        const Arm64LoopInfo& info = arm64LoopInfo(loop);
        constexpr std::int64_t kSteps = 60000;  // 100 x 100 x 4 or 8 per step passes 2^31 on the way
        const Arm64LoopRun run = runArm64Loop(loop, kSteps, 100.0, 100.0);
        const auto exact = static_cast<std::int64_t>(productsPerLaneStep(info)) * 10000 * kSteps;
        const auto wrapped = static_cast<std::int32_t>(static_cast<std::uint32_t>(exact & 0xFFFFFFFF));
        EXPECT_EQ(run.firstLane, static_cast<double>(wrapped)) << info.instruction;
    }
}

TEST(Arm64Loops, Bf16InputsAreRoundedToBf16)
{
    // 1 + 2^-9 has no bf16 (8-bit significand) form and rounds to 1; the fp32 accumulator keeps the sums exact.
    for (Arm64Loop loop : {Arm64Loop::NeonBfdot, Arm64Loop::SveBfdot}) {
        if (!arm64Has(loop))
            continue;
        const Arm64LoopRun run = runArm64Loop(loop, 16, 1.0 + std::ldexp(1.0, -9), 0.75);
        EXPECT_EQ(run.firstLane, 2.0 * 1.0 * 0.75 * 16) << arm64LoopInfo(loop).instruction;
    }
}

TEST(Arm64Loops, Fp16AccumulatesInHalfPrecision)
{
    // 2048 + 1 is not a half-precision number (11-bit significand): the chain stops growing at 2048.
    if (!arm64Has(Arm64Loop::NeonFp16))
        GTEST_SKIP() << "this CPU has no FEAT_FP16 (asimdhp)";
    const Arm64LoopRun run = runArm64Loop(Arm64Loop::NeonFp16, 3000, 1.0, 1.0);
    EXPECT_EQ(run.firstLane, 2048.0);
    const Arm64LoopRun fp32 = runArm64Loop(Arm64Loop::NeonFp32, 3000, 1.0, 1.0);
    EXPECT_EQ(fp32.firstLane, 3000.0);
}

TEST(Arm64Stream, NeonAndSveLoopsComputeEveryElementIncludingTails)
{
    std::vector<Arm64StreamIsa> isas = {Arm64StreamIsa::Neon};
    if (arm64StreamIsa() == Arm64StreamIsa::Sve)
        isas.push_back(Arm64StreamIsa::Sve);
    for (Arm64StreamIsa isa : isas) {
        for (std::size_t n : {0, 1, 7, 33, 1000, 1027}) {
            SCOPED_TRACE(std::string(arm64StreamIsaName(isa)) + " n=" + std::to_string(n));
            std::vector<std::uint64_t> data(n);
            std::uint64_t sum = 0;
            for (std::size_t i = 0; i < n; ++i)
                sum += data[i] = 3 * i + 1;
            EXPECT_EQ(arm64StreamRead(isa, data.data(), n), sum);

            std::vector<double> a(n + 1, -1.0), b(n), c(n);
            for (std::size_t i = 0; i < n; ++i) {
                b[i] = static_cast<double>(i);
                c[i] = 2.0 * static_cast<double>(i);
            }
            arm64StreamTriad(isa, a.data(), b.data(), c.data(), 0.5, n);
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_EQ(a[i], 2.0 * static_cast<double>(i)) << i;
            EXPECT_EQ(a[n], -1.0) << "nothing written past the end";

            std::vector<float> x(n, 1.5f), y(n, 2.0f), z(n + 1, -1.0f);
            arm64AddFp32(isa, z.data(), x.data(), y.data(), n);
            for (std::size_t i = 0; i < n; ++i)
                ASSERT_EQ(z[i], 3.5f) << i;
            EXPECT_EQ(z[n], -1.0f);
        }
    }
}

TEST(Arm64Clock, TheGenericTimerTimesTheAddChain)
{
    const std::uint64_t before = arm64TimerTicks();
    const Arm64ChainClock clock = measureArm64ChainClock(0.01);
    EXPECT_GT(arm64TimerTicks(), before) << "CNTVCT_EL0 counts up";
    EXPECT_GT(clock.timerHz, 0u);
    EXPECT_TRUE(std::isfinite(clock.ghz));
    EXPECT_GT(clock.ghz, 0.0);
    EXPECT_GE(clock.timerTicksPerWindow, 99.0) << "each window spans enough timer ticks to resolve 1 %";
    EXPECT_EQ(arm64DependentAdds(3), 48u);
}
