// oneDNN's matrix products as Ridgeline calls them, against software references computed from the same
// rounded or quantized inputs; AMX is used where this CPU has it.
#include "core/measure/lowp/onednn_matmul.h"
#include "core/measure/lowp/low_precision_numbers.h"
#include "core/measure/lowp/lowp_kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

using namespace ridgeline;

namespace {

std::vector<float> randomValues(std::size_t count, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> values(count);
    for (float& x : values)
        x = dist(rng);
    return values;
}

// C = A x B in double, row-major.
std::vector<double> reference(const std::vector<double>& a, const std::vector<double>& b, MatmulShape s)
{
    std::vector<double> c(static_cast<std::size_t>(s.m) * s.n, 0.0);
    for (int i = 0; i < s.m; ++i)
        for (int p = 0; p < s.k; ++p)
            for (int j = 0; j < s.n; ++j)
                c[static_cast<std::size_t>(i) * s.n + j] +=
                    a[static_cast<std::size_t>(i) * s.k + p] * b[static_cast<std::size_t>(p) * s.n + j];
    return c;
}

// The values each type's product actually multiplies, and the scale it multiplies back by.
std::vector<double> asComputed(const std::vector<float>& values, MatmulType type, double* scale)
{
    std::vector<double> out(values.size());
    *scale = 1.0;
    if (type == MatmulType::Int8) {
        float largest = 0.0f;
        for (float x : values)
            largest = std::max(largest, std::fabs(x));
        const float s = largest / 127.0f;
        *scale = s;
        for (std::size_t i = 0; i < values.size(); ++i)
            out[i] = std::clamp(std::nearbyint(values[i] / s), -127.0f, 127.0f);
        return out;
    }
    for (std::size_t i = 0; i < values.size(); ++i)
        out[i] = type == MatmulType::Bf16 ? floatFromBf16(bf16FromFloat(values[i])) : values[i];
    return out;
}

class EveryType : public ::testing::TestWithParam<MatmulType> {};

}  // namespace

TEST_P(EveryType, ProductMatchesTheReferenceOfItsRoundedInputs)
{
    const MatmulType type = GetParam();
    const MatmulShape shape{37, 96, 29};  // odd sizes: no tile or vector width divides them
    const std::vector<float> a = randomValues(static_cast<std::size_t>(shape.m) * shape.k, 1);
    const std::vector<float> b = randomValues(static_cast<std::size_t>(shape.k) * shape.n, 2);
    auto product = OneDnnMatmul::create(type, shape, a.data(), b.data(), 2);
    ASSERT_TRUE(product.ok()) << product.error().message.toStdString();
    OneDnnMatmul& mm = *product.value();
    mm.run();

    double scaleA = 1.0, scaleB = 1.0;
    const std::vector<double> expected = reference(asComputed(a, type, &scaleA), asComputed(b, type, &scaleB), shape);
    double worst = 0.0, largest = 0.0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const double want = expected[i] * scaleA * scaleB;
        worst = std::max(worst, std::fabs(mm.result()[i] - want));
        largest = std::max(largest, std::fabs(want));
    }
    // fp32 accumulation of 96 products (exact integers for int8, scaled once): a few ulps of the largest.
    EXPECT_LT(worst, 1e-5 * largest) << matmulTypeName(type).toStdString() << " via "
                                     << mm.implementation().toStdString();
    EXPECT_GT(largest, 1.0);

    EXPECT_DOUBLE_EQ(mm.flops(), 2.0 * 37 * 96 * 29);
    EXPECT_DOUBLE_EQ(mm.bytes(), bytesPerElement(type) * (37.0 * 96 + 96.0 * 29) + 4.0 * 37 * 29);
}

INSTANTIATE_TEST_SUITE_P(OneDnn, EveryType, ::testing::Values(MatmulType::Fp32, MatmulType::Bf16, MatmulType::Int8),
                         [](const auto& param) { return matmulTypeName(param.param).toStdString(); });

TEST(OneDnn, UsesAmxWhereThisCpuHasIt)
{
    const int n = 256;
    const std::vector<float> a = randomValues(static_cast<std::size_t>(n) * n, 3);
    for (MatmulType type : {MatmulType::Bf16, MatmulType::Int8}) {
        auto product = OneDnnMatmul::create(type, {n, n, n}, a.data(), a.data(), 1);
        ASSERT_TRUE(product.ok());
        const LowpUnit unit = type == MatmulType::Bf16 ? LowpUnit::AmxBf16 : LowpUnit::AmxInt8;
        const QString implementation = product.value()->implementation();
        EXPECT_EQ(implementation.contains(QStringLiteral("amx")), lowpAvailability(unit).available())
            << implementation.toStdString();
    }
    EXPECT_FALSE(oneDnnVersion().isEmpty());
    EXPECT_FALSE(oneDnnCpuIsa().isEmpty());
}

TEST(OneDnn, RefusesAShapeWithoutElements)
{
    const float one = 1.0f;
    for (MatmulShape shape : {MatmulShape{0, 4, 4}, MatmulShape{4, -1, 4}, MatmulShape{4, 4, 0}}) {
        auto product = OneDnnMatmul::create(MatmulType::Bf16, shape, &one, &one, 1);
        ASSERT_FALSE(product.ok());
        EXPECT_EQ(product.error().code, Error::Code::InvalidArgument);
    }
    EXPECT_FALSE(OneDnnMatmul::create(MatmulType::Fp32, {1, 1, 1}, &one, &one, 0).ok());
}

TEST(OpenBlasSbgemm, ComputesWhenTheLibraryHasItAndSaysSoWhenNot)
{
    const int n = 64;
    const std::vector<float> a = randomValues(static_cast<std::size_t>(n) * n, 4);
    std::vector<std::uint16_t> bits(a.size());
    for (std::size_t i = 0; i < a.size(); ++i)
        bits[i] = bf16FromFloat(a[i]);
    std::vector<float> c(a.size(), -7.0f);
    const bool computed = openBlasSbgemm(bits.data(), bits.data(), c.data(), n);
    EXPECT_EQ(computed, openBlasHasSbgemm());
    if (!computed) {
        EXPECT_TRUE(std::all_of(c.begin(), c.end(), [](float x) { return x == -7.0f; }));  // nothing written
        return;
    }
    double scale = 1.0;
    const std::vector<double> rounded = asComputed(a, MatmulType::Bf16, &scale);
    const std::vector<double> expected = reference(rounded, rounded, {n, n, n});
    for (std::size_t i = 0; i < c.size(); ++i)
        ASSERT_NEAR(c[i], expected[i], 1e-4) << i;
}

TEST(OneDnn, RowPanelsOfOneProductShareItsPackedWeights)
{
    // The engine runs a large bf16 product as row panels, one oneDNN call each, so a cancel stays prompt.
    const int n = 128, rows = 32;
    const std::vector<float> a = randomValues(static_cast<std::size_t>(n) * n, 5);
    const std::vector<float> b = randomValues(static_cast<std::size_t>(n) * n, 6);
    const MatmulOperand aBf16 = MatmulOperand::from(MatmulType::Bf16, a.data(), a.size());
    const MatmulOperand bBf16 = MatmulOperand::from(MatmulType::Bf16, b.data(), b.size());
    auto whole = OneDnnMatmul::create({n, n, n}, aBf16, bBf16, 1);
    auto panel = OneDnnMatmul::create({rows, n, n}, MatmulOperand{MatmulType::Bf16, {}, 1.0f}, bBf16, 1);
    ASSERT_TRUE(whole.ok() && panel.ok());
    whole.value()->run();
    std::vector<float> c(static_cast<std::size_t>(n) * n, 0.0f);
    const std::size_t panelElements = static_cast<std::size_t>(rows) * n;
    for (int p = 0; p < n / rows; ++p)
        panel.value()->run(aBf16.bytes.data() + 2 * panelElements * p, c.data() + panelElements * p);
    for (std::size_t i = 0; i < c.size(); ++i)
        ASSERT_EQ(c[i], whole.value()->result()[i]) << i;

    // Operands of the wrong shape or of two types are refused.
    const MatmulOperand aInt8 = MatmulOperand::from(MatmulType::Int8, a.data(), a.size());
    EXPECT_EQ(OneDnnMatmul::create({n, n, n}, aInt8, bBf16, 1).error().code, Error::Code::InvalidArgument);
    EXPECT_EQ(OneDnnMatmul::create({n, n, n + 1}, aBf16, bBf16, 1).error().code, Error::Code::InvalidArgument);
}

TEST(OneDnn, DecodeStepsOfSeveralBatchesShareTheirPackedWeights)
{
    const int dim = 256;
    const std::vector<float> w = randomValues(static_cast<std::size_t>(dim) * dim, 7);
    for (MatmulType type : {MatmulType::Bf16, MatmulType::Int8}) {
        const MatmulOperand weights = MatmulOperand::from(type, w.data(), w.size());
        const std::vector<float> x1 = randomValues(dim, 8), x8 = randomValues(8 * static_cast<std::size_t>(dim), 9);
        auto one = OneDnnMatmul::create({1, dim, dim}, MatmulOperand::from(type, x1.data(), x1.size()), weights, 1);
        ASSERT_TRUE(one.ok());
        const MatmulOperand activations = MatmulOperand::from(type, x8.data(), x8.size());
        auto shared = OneDnnMatmul::create({8, dim, dim}, activations, weights, 1, one.value().get());
        auto own = OneDnnMatmul::create({8, dim, dim}, activations, weights, 1);
        ASSERT_TRUE(shared.ok() && own.ok());
        shared.value()->run();
        own.value()->run();
        for (int i = 0; i < 8 * dim; ++i)
            ASSERT_EQ(shared.value()->result()[i], own.value()->result()[i]) << matmulTypeName(type).toStdString();
    }
}
