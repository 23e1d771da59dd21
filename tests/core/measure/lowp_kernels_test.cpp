// The low-precision loops on this machine's real units: each computes exactly what its instruction defines
// (checked against software references), and a unit this CPU lacks is refused, never measured as zero.
#include "core/measure/lowp/lowp_kernels.h"
#include "core/measure/lowp/amx.h"
#include "core/measure/lowp/low_precision_numbers.h"
#include "core/measure/lowp/lowp_ceilings.h"
#include "core/measure/machine/probe.h"
#include "core/measure/run/parallel.h"

#include <gtest/gtest.h>

#include <QFile>

#include <algorithm>
#include <cmath>
#include <random>

using namespace ridgeline;

namespace {

MachineInfo fixture(const char* name)
{
    return probeMachine(ProbeSources::fixture(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/") + QString::fromLatin1(name)));
}

std::string labelOf(LowpUnit unit)
{
    return lowpUnitInfo(unit).label.toStdString();
}

// Software fp16 FMA: the product of two halves is exact in double and so is the sum at these magnitudes,
// so one rounding of the double result is the fused multiply-add.
double fp16Recurrence(double a, double b, int steps)
{
    const double ha = doubleFromFp16(fp16FromDouble(a));
    const double hb = doubleFromFp16(fp16FromDouble(b));
    double acc = 0.0;
    for (int i = 0; i < steps; ++i)
        acc = doubleFromFp16(fp16FromDouble(acc * ha + hb));
    return acc;
}

class EveryUnit : public ::testing::TestWithParam<LowpUnit> {};

}  // namespace

TEST_P(EveryUnit, ComputesWhatItsInstructionDefinesOrIsRefused)
{
    const LowpUnit unit = GetParam();
    const LowpUnitInfo& info = lowpUnitInfo(unit);
    const UnitAvailability availability = lowpAvailability(unit);
    const bool bf16 = info.precision == QLatin1String("bf16");
    const bool fp16 = info.precision == QLatin1String("fp16");
    const bool amx = info.isa == QLatin1String("amx");
    // bf16: 1.01 is not a bf16; it rounds to 1.0078125, which an fp32 computation would not show.
    const LowpInputs inputs = bf16 ? LowpInputs{1.01, 1.0} : fp16 ? LowpInputs{0.999, 0.01} : LowpInputs{200, -3};
    const int iterations = amx ? 10 : fp16 ? 1000 : 100;
    const Result<LowpRun> run = runLowpKernel(unit, iterations, inputs);
    if (!availability.available()) {
        ASSERT_FALSE(run.ok()) << labelOf(unit);
        EXPECT_EQ(run.error().code, Error::Code::Unsupported);
        EXPECT_EQ(run.error().message, availability.reason);
        return;
    }
    ASSERT_TRUE(run.ok()) << run.error().message.toStdString();
    const LowpRun& r = run.value();

    double expected = 0.0;  // every lane's final value
    if (bf16)               // K products of bf16(1.01) x 1 per step: K = 2 per vdpbf16ps lane, 32 per tile row
        expected = iterations * (amx ? 32 : 2) * 1.0078125;
    else if (fp16)
        expected = fp16Recurrence(inputs.a, inputs.b, iterations);
    else  // u8(200) x s8(-3), K = 4 per vpdpbusd lane, 64 per tile row; 200 read as signed would give +56 x 3
        expected = iterations * (amx ? 64 : 4) * 200.0 * -3.0;
    EXPECT_EQ(r.firstLane, expected) << labelOf(unit);
    EXPECT_EQ(r.laneSum, expected * r.lanes) << labelOf(unit);
    EXPECT_NE(r.firstLane, 0.0);

    const double instructions = r.operations / info.opsPerInstruction;
    EXPECT_DOUBLE_EQ(instructions, iterations * (amx ? 4.0 : unit == LowpUnit::AvxVnni ? 12.0 : 16.0));
    EXPECT_GT(r.seconds, 0.0);
}

INSTANTIATE_TEST_SUITE_P(LowpKernels, EveryUnit,
                         ::testing::Values(LowpUnit::Avx512Bf16, LowpUnit::Avx512Fp16, LowpUnit::Avx512Vnni,
                                           LowpUnit::AvxVnni, LowpUnit::AmxBf16, LowpUnit::AmxInt8),
                         [](const auto& param) {
                             QString name = lowpUnitInfo(param.param).label;
                             return name.remove(QLatin1Char('-')).remove(QLatin1Char('_')).toStdString();
                         });

TEST(LowpKernels, AUnitTheDescribedCpuLacksIsRefusedEvenIfThisOneHasIt)
{
    const MachineInfo zen4 = fixture("machines/amd-zen4-vm");
    for (LowpUnit unit : {LowpUnit::AmxBf16, LowpUnit::AmxInt8, LowpUnit::Avx512Fp16, LowpUnit::AvxVnni}) {
        const Result<LowpRun> run = runLowpKernel(unit, 10, {}, zen4);
        ASSERT_FALSE(run.ok()) << labelOf(unit);
        EXPECT_TRUE(run.error().message.contains(QStringLiteral("is not available on this CPU")));
        EXPECT_FALSE(measureClockUnderLoad(unit, 0.001, zen4).ok());
    }
    // What Zen 4 has runs wherever this processor has it too.
    const Result<LowpRun> bf16 = runLowpKernel(LowpUnit::Avx512Bf16, 10, {1.5, 0.25}, zen4);
    EXPECT_EQ(bf16.ok(), lowpAvailability(LowpUnit::Avx512Bf16).available());
    if (bf16.ok()) {
        EXPECT_EQ(bf16.value().firstLane, 10 * 2 * 0.375);
    }
}

TEST(LowpKernels, AmxTileProductsMatchASoftwareMatrixProduct)
{
    if (!lowpAvailability(LowpUnit::AmxBf16).available() || !lowpAvailability(LowpUnit::AmxInt8).available())
        GTEST_SKIP() << lowpAvailability(LowpUnit::AmxBf16).reason.toStdString();
    std::mt19937 rng(16);
    std::uniform_int_distribution<int> small(-8, 8), unsignedByte(0, 255), signedByte(-128, 127);

    // bf16: small integers are exact in bf16 and their sums exact in fp32.
    std::vector<std::uint16_t> a(16 * 32), b(32 * 16), packed(16 * 32);
    std::vector<float> av(a.size()), bv(b.size()), c(256);
    for (std::size_t i = 0; i < a.size(); ++i)
        a[i] = bf16FromFloat(av[i] = static_cast<float>(small(rng)));
    for (std::size_t i = 0; i < b.size(); ++i)
        b[i] = bf16FromFloat(bv[i] = static_cast<float>(small(rng)));
    packTileB(b.data(), packed.data());
    amxTileProduct(a.data(), packed.data(), c.data());
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            float reference = 0.0f;
            for (int k = 0; k < 32; ++k)
                reference += av[i * 32 + k] * bv[k * 16 + j];
            ASSERT_EQ(c[i * 16 + j], reference) << i << "," << j;
        }

    // int8: unsigned A, signed B, exact int32 sums.
    std::vector<std::uint8_t> a8(16 * 64);
    std::vector<std::int8_t> b8(64 * 16), packed8(64 * 16);
    std::vector<std::int32_t> c8(256);
    for (auto& x : a8)
        x = static_cast<std::uint8_t>(unsignedByte(rng));
    for (auto& x : b8)
        x = static_cast<std::int8_t>(signedByte(rng));
    packTileB(b8.data(), packed8.data());
    amxTileProduct(a8.data(), packed8.data(), c8.data());
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            std::int32_t reference = 0;
            for (int k = 0; k < 64; ++k)
                reference += static_cast<std::int32_t>(a8[i * 64 + k]) * b8[k * 16 + j];
            ASSERT_EQ(c8[i * 16 + j], reference) << i << "," << j;
        }
}

TEST(LowpKernels, TheClockUnderEachUnitsLoadIsPlausible)
{
    for (const LowpUnitInfo& info : lowpUnits()) {
        const Result<double> ghz = measureClockUnderLoad(info.unit, 0.005);
        if (!lowpAvailability(info.unit).available()) {
            EXPECT_FALSE(ghz.ok());
            continue;
        }
        ASSERT_TRUE(ghz.ok()) << ghz.error().message.toStdString();
        // A plausibility band for any x86-64 core, not a timing: the adds count cycles one per cycle.
        EXPECT_GT(ghz.value(), 0.3) << info.label.toStdString();
        EXPECT_LT(ghz.value(), 7.0) << info.label.toStdString();
    }
}

TEST(LowpCeilings, EveryAvailableUnitOnOneAndAllThreads)
{
    MeasureControl control(true, {});
    const int all = static_cast<int>(allowedCpus().size());
    for (const LowpUnitInfo& info : lowpUnits()) {
        for (int threads : {1, all}) {
            const Result<LowpCeiling> ceiling = measureLowpCeiling(info.unit, threads, control);
            if (!lowpAvailability(info.unit).available()) {
                ASSERT_FALSE(ceiling.ok());
                EXPECT_EQ(ceiling.error().code, Error::Code::Unsupported);
                continue;
            }
            ASSERT_TRUE(ceiling.ok()) << ceiling.error().message.toStdString();
            const ComputeCeiling& c = ceiling.value().ceiling;
            EXPECT_EQ(c.name, lowpCeilingName(info.unit, threads));
            EXPECT_EQ(c.precision, info.precision);
            EXPECT_EQ(c.isa, info.isa);
            EXPECT_EQ(c.threads, threads);
            EXPECT_EQ(c.repetitions, control.reps());
            EXPECT_GT(c.gflops, 0.0) << info.label.toStdString();
            EXPECT_GE(c.gflops, c.spread.median);
            EXPECT_GT(c.clockGhz, 0.3);
            // The peak rule of peaks.h: theoretical = threads x clock x instructions per cycle x operations each.
            EXPECT_NEAR(c.theoreticalGflops, threads * c.clockGhz * c.fmaPerCycle * info.opsPerInstruction,
                        1e-9 * c.theoreticalGflops);
            EXPECT_NEAR(c.flopsPerCycle, c.gflops / threads / c.clockGhz, 1e-9 * c.flopsPerCycle);
            EXPECT_FALSE(c.peakBasis.isEmpty());
        }
    }
}

TEST(LowpCeilings, ACancelStopsTheMeasurement)
{
    const auto unit = std::find_if(lowpUnits().begin(), lowpUnits().end(),
                                   [](const LowpUnitInfo& info) { return lowpAvailability(info.unit).available(); });
    if (unit == lowpUnits().end())
        GTEST_SKIP() << "this CPU has no low-precision unit";
    MeasureControl control(true, [](const MeasureProgress&) { return false; });
    const Result<LowpCeiling> ceiling = measureLowpCeiling(unit->unit, 1, control);
    ASSERT_FALSE(ceiling.ok());
    EXPECT_EQ(ceiling.error().code, Error::Code::Cancelled);
}
