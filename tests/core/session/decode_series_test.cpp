// The decode series by weight precision and their roofline predictions (core/session/decode_series.h), on
// sessions shaped as `ridgeline measure` writes them, and on a real measurement of an Intel Xeon with AMX.
#include "core/session/decode_series.h"
#include "core/session/format/session_json.h"
#include "core/session/mixed_precision.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace ridgeline;

namespace {

ComputeCeiling compute(const char* name, const char* precision, double gflops)
{
    ComputeCeiling c;
    c.name = QString::fromLatin1(name);
    c.precision = QString::fromLatin1(precision);
    c.threads = 2;
    c.gflops = gflops;
    return c;
}

// A decode step of d x d weights of `bytes` per element on `batch` vectors of the same type, fp32 results out,
// counted as the engine counts it (OneDnnMatmul::bytes), taking `seconds`.
KernelResult decode(const char* precision, int bytes, int d, int batch, double seconds)
{
    KernelResult k;
    k.precision = QString::fromLatin1(precision);
    k.kind = QStringLiteral("decode-") + k.precision;
    k.name = QStringLiteral("decode %1 B=%2").arg(k.precision).arg(batch);
    k.threads = 2;
    k.batch = batch;
    k.flops = 2.0 * d * static_cast<double>(d) * batch;
    k.bytes = bytes * (static_cast<double>(d) * d + static_cast<double>(d) * batch) + 4.0 * d * batch;
    k.seconds = seconds;
    k.gflops = k.flops / seconds / 1e9;
    k.tokensPerSecond = batch / seconds;
    return k;
}

// Roofs of the Xeon's kind (fp32 AVX-512, bf16 and int8 AMX) over 25 GB/s of DRAM, decode at d = 8192.
Session xeonLike()
{
    Session s;
    s.computeCeilings = {compute("fp32 avx512 x2", "fp32", 400.0), compute("bf16 amx x2", "bf16", 5000.0),
                         compute("int8 amx x2", "int8", 10000.0), compute("bf16 avx512_bf16 x2", "bf16", 200.0)};
    BandwidthCeiling dram;
    dram.level = QStringLiteral("DRAM");
    dram.mix = QStringLiteral("read");
    dram.gbps = 25.0;
    s.bandwidthCeilings = {dram};
    for (int batch : {256, 1, 16}) {  // out of order: the series sorts them
        s.kernels.push_back(decode("fp32", 4, 8192, batch, 0.011 * batch));
        s.kernels.push_back(decode("bf16", 2, 8192, batch, 0.006 * batch));
        s.kernels.push_back(decode("int8", 1, 8192, batch, 0.003 * batch));
    }
    KernelResult openblas = decode("fp32", 4, 4096, 1, 0.003);
    openblas.kind = QStringLiteral("decode");  // the batching experiment's own series, not one of these
    s.kernels.push_back(openblas);
    return s;
}

}  // namespace

TEST(DecodeSeries, OneSeriesPerWeightPrecisionWithItsCountsAndRoof)
{
    const Session s = xeonLike();
    const std::vector<DecodeSeries> all = decodeSeriesByPrecision(s);
    ASSERT_EQ(all.size(), 3u);
    const double d = 8192.0;
    for (const auto& [series, precision, bytes, roof] :
         {std::tuple{&all[0], "fp32", 4.0, "fp32 avx512 x2"}, std::tuple{&all[1], "bf16", 2.0, "bf16 amx x2"},
          std::tuple{&all[2], "int8", 1.0, "int8 amx x2"}}) {
        EXPECT_EQ(series->precision, QString::fromLatin1(precision));
        EXPECT_EQ(series->kind, QStringLiteral("decode-") + QString::fromLatin1(precision));
        ASSERT_EQ(series->measured.size(), 3u);
        EXPECT_EQ(series->measured[0]->batch, 1);
        EXPECT_EQ(series->measured[2]->batch, 256);
        EXPECT_EQ(series->at(16), series->measured[1]);
        EXPECT_EQ(series->at(2), nullptr);
        ASSERT_TRUE(series->counts);
        EXPECT_DOUBLE_EQ(series->counts->fixedBytes, bytes * d * d);  // the weights
        EXPECT_DOUBLE_EQ(series->counts->bytesPerVector, (bytes + 4.0) * d);
        EXPECT_DOUBLE_EQ(series->counts->flopsPerVector, 2.0 * d * d);
        ASSERT_TRUE(series->roof);
        EXPECT_EQ(series->roof->compute->name, QString::fromLatin1(roof));  // its own precision's best
        EXPECT_EQ(series->roof->memory->level, QStringLiteral("DRAM"));
    }
}

TEST(DecodeSeries, BatchOneIsTheWeightsOverDramAndTheKneeIsWhereComputeTakesOver)
{
    const Session session = xeonLike();  // the series point into it: it must outlive them
    const std::vector<DecodeSeries> all = decodeSeriesByPrecision(session);
    ASSERT_EQ(all.size(), 3u);
    const double d = 8192.0;
    // Batch 1 reads the weights once: 25 GB/s over d^2 x (4, 2, 1) bytes, and a vector in and out.
    EXPECT_NEAR(all[0].predictedTokensPerSecond(1.0), 25e9 / (4.0 * d * d + 8.0 * d), 1e-9);
    EXPECT_NEAR(all[1].predictedTokensPerSecond(1.0), 25e9 / (2.0 * d * d + 6.0 * d), 1e-9);
    EXPECT_NEAR(all[2].predictedTokensPerSecond(1.0), 25e9 / (1.0 * d * d + 5.0 * d), 1e-9);
    // fp32: the closed form of the batching tab's CPU prediction, 2 ridge d / (d - 4 ridge).
    const double ridge = 400.0 / 25.0;
    ASSERT_TRUE(all[0].kneeBatch);
    EXPECT_NEAR(*all[0].kneeBatch, 2.0 * ridge * d / (d - 4.0 * ridge), 1e-9);
    for (const DecodeSeries& s : all) {
        ASSERT_TRUE(s.kneeBatch) << s.precision.toStdString();
        // At the knee the step's intensity is the ridge: its compute and its traffic take the same time.
        const Roof roof = s.roof->roof();
        EXPECT_NEAR(s.counts->intensity(*s.kneeBatch), ridgeIntensity(roof), 1e-9 * ridgeIntensity(roof));
        const double below = s.predictedTokensPerSecond(*s.kneeBatch / 2.0);
        const double at = s.predictedTokensPerSecond(*s.kneeBatch);
        const double above = s.predictedTokensPerSecond(*s.kneeBatch * 2.0);
        // Memory-bound below: twice the batch, twice the tokens but for the vectors' own traffic.
        const DecodeCounts& c = *s.counts;
        const double k = *s.kneeBatch;
        EXPECT_NEAR(at / below,
                    2.0 * (c.fixedBytes + c.bytesPerVector * k / 2.0) / (c.fixedBytes + c.bytesPerVector * k), 1e-9);
        EXPECT_GT(at / below, 1.8);
        EXPECT_NEAR(above, roof.peakGflops * 1e9 / s.counts->flopsPerVector, 1e-6 * above);  // compute-bound
    }
    // AMX moves the knee out: bf16's ridge at 5000 / 25 = 200 FLOP/byte is 12.5x fp32's at 16, and half the
    // bytes per weight bring half of that back: the knee moves from 32 to 216.
    EXPECT_GT(*all[1].kneeBatch, 6.0 * *all[0].kneeBatch);
    EXPECT_NEAR(*all[1].kneeBatch, 200.0 * 2.0 * d * d / (2.0 * d * d - 200.0 * 6.0 * d), 1e-9);
}

TEST(DecodeSeries, WithoutItsCeilingOrWithCountsOfAnotherShapeNothingIsPredicted)
{
    Session s = xeonLike();
    // No int8 ceiling: the int8 series has no roof (never fp32's or bf16's in its place).
    s.computeCeilings.erase(s.computeCeilings.begin() + 2);
    // bf16 kernels whose bytes are not one weight matrix plus a line in the batch.
    for (KernelResult& k : s.kernels)
        if (k.kind == QLatin1String("decode-bf16") && k.batch == 16)
            k.bytes *= 3.0;
    const std::vector<DecodeSeries> all = decodeSeriesByPrecision(s);
    ASSERT_EQ(all.size(), 3u);
    EXPECT_FALSE(all[1].counts);
    EXPECT_FALSE(all[1].kneeBatch);
    EXPECT_EQ(all[1].predictedTokensPerSecond(1.0), 0.0);
    EXPECT_FALSE(all[2].roof);
    EXPECT_FALSE(all[2].kneeBatch);
    EXPECT_EQ(all[2].predictedTokensPerSecond(1.0), 0.0);
    EXPECT_TRUE(all[0].kneeBatch);

    // One batch only: no line to read the counts off.
    Session one;
    one.kernels.push_back(decode("int8", 1, 4096, 1, 0.001));
    const std::vector<DecodeSeries> single = decodeSeriesByPrecision(one);
    ASSERT_EQ(single.size(), 1u);
    EXPECT_FALSE(single[0].counts);

    // A session without low-precision decode (schema 1, or a CPU without bf16 and int8) has no series.
    Session fp32Only;
    fp32Only.kernels.push_back(decode("fp32", 4, 4096, 1, 0.003));
    fp32Only.kernels.back().kind = QStringLiteral("decode");
    EXPECT_TRUE(decodeSeriesByPrecision(fp32Only).empty());
}

TEST(DecodeSeries, ANoRidgeMachineNeverTurnsComputeBound)
{
    // A vector's own traffic outgrows its work when the ridge is above flopsPerVector / bytesPerVector
    // (d / 4 for fp32 here: 2048): the step never reaches the compute roof.
    Session s = xeonLike();
    s.bandwidthCeilings[0].gbps = 0.1;  // ridge 4000 FLOP/byte for fp32
    const std::vector<DecodeSeries> all = decodeSeriesByPrecision(s);
    ASSERT_FALSE(all.empty());
    EXPECT_FALSE(all[0].kneeBatch);
    EXPECT_GT(all[0].predictedTokensPerSecond(1.0), 0.0);
}

TEST(MixedPrecision, EachBf16ProductBesideTheSgemmOfItsSizeAndThreads)
{
    Session s;
    auto product = [](const char* kind, const char* size, int threads, double gflops) {
        KernelResult k;
        k.kind = QString::fromLatin1(kind);
        k.size = QString::fromLatin1(size);
        k.name = k.kind + u' ' + k.size;
        k.threads = threads;
        k.gflops = gflops;
        return k;
    };
    s.kernels = {product("sgemm", "2048x2048", 2, 400.0),      product("sgemm", "4096x4096", 2, 0.0),
                 product("sgemm", "1024x1024", 1, 200.0),      product("bf16-gemm", "2048x2048", 2, 1500.0),
                 product("bf16-gemm", "4096x4096", 2, 2000.0), product("bf16-gemm", "1024x1024", 2, 900.0),
                 product("dgemm", "2048x2048", 2, 200.0)};
    const std::vector<MixedPrecisionPair> pairs = mixedPrecisionPairs(s);
    // 4096: its sgemm measured nothing; 1024: its sgemm ran on one thread, the product on two.
    ASSERT_EQ(pairs.size(), 1u);
    EXPECT_EQ(pairs[0].bf16, &s.kernels[3]);
    EXPECT_EQ(pairs[0].sgemm, &s.kernels[0]);
    EXPECT_DOUBLE_EQ(pairs[0].speedup(), 3.75);
    EXPECT_EQ(sgemmBeside(s, s.kernels[4]), nullptr);
    EXPECT_EQ(sgemmBeside(s, s.kernels[5]), nullptr);
}
