// The measurement engine's pieces, each against real code: sysfs, OpenBLAS, the SIMD kernels.
#include "core/measure/engine.h"
#include "core/measure/machine/probe.h"
#include "core/measure/memory/bandwidth_levels.h"
#include "core/measure/memory/stream_kernels.h"
#include "core/measure/run/parallel.h"
#include "core/measure/run/repeatability.h"
#include "core/measure/run/statistics.h"
#include "core/measure/workloads/gemm.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <random>

using namespace ridgeline;

namespace {

// The cache layout of a 2-core Zen 4 guest: private 32 KiB L1d and 1 MiB L2, one 32 MiB L3.
std::vector<CacheInfo> zen4Caches()
{
    return {{1, QStringLiteral("Data"), 32 * 1024, 1},
            {2, QStringLiteral("Unified"), 1024 * 1024, 1},
            {3, QStringLiteral("Unified"), 32 * 1024 * 1024, 2}};
}

template <typename T>
std::vector<T> naiveMatmul(const std::vector<T>& a, const std::vector<T>& b, int n)
{
    std::vector<T> c(static_cast<size_t>(n) * n, T{});
    for (int i = 0; i < n; ++i)
        for (int k = 0; k < n; ++k)
            for (int j = 0; j < n; ++j)
                c[static_cast<size_t>(i) * n + j] +=
                    a[static_cast<size_t>(i) * n + k] * b[static_cast<size_t>(k) * n + j];
    return c;
}

template <typename T>
std::vector<T> randomMatrix(int n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<T> m(static_cast<size_t>(n) * n);
    for (T& x : m)
        x = static_cast<T>(dist(rng));
    return m;
}

}  // namespace

TEST(Probe, ReadsThisMachine)
{
    const MachineInfo machine = probeMachine();
    EXPECT_FALSE(machine.cpuModel.isEmpty());
    EXPECT_GE(machine.cores, 1);
#if defined(__aarch64__)
    EXPECT_TRUE(machine.isa.contains(QStringLiteral("asimd")));
#else
    EXPECT_TRUE(machine.isa.contains(QStringLiteral("sse2")));
#endif
    EXPECT_FALSE(machine.openblasCore.isEmpty());
    EXPECT_FALSE(machine.openblasVersion.isEmpty());
    EXPECT_GT(machine.memoryAvailableBytes, 0);
}

TEST(Probe, ThisMachinesCachesComeInLevelOrder)
{
    const SystemFacts facts = readSystemFacts(ProbeSources{});
    const std::vector<CacheInfo>& caches = facts.caches;
#if defined(__x86_64__)
    // From sysfs, or from cpuid where the system leaves sysfs's cache description out (and says so).
    ASSERT_FALSE(caches.empty()) << facts.notes.join(QLatin1Char('\n')).toStdString();
#endif
    for (size_t i = 1; i < caches.size(); ++i) {
        EXPECT_GT(caches[i].level, caches[i - 1].level);
        EXPECT_GE(caches[i].sizeBytes, caches[i - 1].sizeBytes);
    }
    for (const CacheInfo& cache : caches)
        EXPECT_NE(cache.type, QStringLiteral("Instruction"));
}

TEST(Isa, AnFmaDoesLanesTimesTwoFlops)
{
    for (Precision p : {Precision::Fp32, Precision::Fp64})
        EXPECT_DOUBLE_EQ(flopsPerFma(Isa::Scalar, p), 2.0);
    EXPECT_DOUBLE_EQ(flopsPerFma(Isa::Avx2, Precision::Fp32), 16.0);
    EXPECT_DOUBLE_EQ(flopsPerFma(Isa::Avx2, Precision::Fp64), 8.0);
    EXPECT_DOUBLE_EQ(flopsPerFma(Isa::Avx512, Precision::Fp32), 32.0);
    EXPECT_DOUBLE_EQ(flopsPerFma(Isa::Avx512, Precision::Fp64), 16.0);
    EXPECT_TRUE(fmaIsasFromFlags({QStringLiteral("avx2")}).empty()) << "no FMA, no FMA kernels";
}

TEST(Probe, AggregateCacheCountsPrivateCopiesPerThreadAndSharedOnce)
{
    const auto caches = zen4Caches();
    EXPECT_EQ(aggregateCacheBytes(caches[0], 2), 64 * 1024);
    EXPECT_EQ(aggregateCacheBytes(caches[2], 2), 32 * 1024 * 1024);
    EXPECT_EQ(aggregateCacheBytes(caches[2], 4), 64 * 1024 * 1024);
}

TEST(BandwidthLevels, WorkingSetsAreLabelledFromCacheSizes)
{
    const auto caches = zen4Caches();
    EXPECT_EQ(levelForWorkingSet(16 * 1024, caches, 2), QStringLiteral("L1"));
    EXPECT_EQ(levelForWorkingSet(48 * 1024, caches, 2), QStringLiteral("L1"));
    EXPECT_EQ(levelForWorkingSet(96 * 1024, caches, 2), QString());  // between L1 and L2
    EXPECT_EQ(levelForWorkingSet(256 * 1024, caches, 2), QStringLiteral("L2"));
    EXPECT_EQ(levelForWorkingSet(1536 * 1024, caches, 2), QStringLiteral("L2"));
    EXPECT_EQ(levelForWorkingSet(4 * 1024 * 1024, caches, 2), QString());  // half of it still fits in L2
    EXPECT_EQ(levelForWorkingSet(8 * 1024 * 1024, caches, 2), QStringLiteral("L3"));
    EXPECT_EQ(levelForWorkingSet(24 * 1024 * 1024, caches, 2), QStringLiteral("L3"));
    EXPECT_EQ(levelForWorkingSet(64 * 1024 * 1024, caches, 2), QString());  // L3 to DRAM
    EXPECT_EQ(levelForWorkingSet(128 * 1024 * 1024, caches, 2), QStringLiteral("DRAM"));
    EXPECT_EQ(levelForWorkingSet(128 * 1024 * 1024, {}, 2), QString()) << "no cache sizes, no labels";
}

TEST(BandwidthLevels, CeilingIsTheBestPointOfEachLevelWithDramLast)
{
    std::vector<BandwidthPoint> curve;
    auto add = [&](const char* level, double gbps, const char* mix) {
        BandwidthPoint p;
        p.level = QString::fromLatin1(level);
        p.gbps = 0.9 * gbps;  // the curve's median
        p.spread = {0.8 * gbps, 0.9 * gbps, gbps};
        p.mix = QString::fromLatin1(mix);
        p.workingSetBytes = static_cast<std::int64_t>(gbps);
        curve.push_back(p);
    };
    add("L1", 300, "read");
    add("L1", 350, "triad");
    add("", 999, "read");  // a transition point never becomes a ceiling
    add("L2", 200, "read");
    add("DRAM", 40, "read");
    add("DRAM", 38, "triad");
    const auto ceilings = bandwidthCeilingsFromCurve(curve);
    ASSERT_EQ(ceilings.size(), 3u);
    EXPECT_EQ(ceilings[0].level, QStringLiteral("L1"));
    EXPECT_DOUBLE_EQ(ceilings[0].gbps, 350.0);
    EXPECT_EQ(ceilings[0].mix, QStringLiteral("triad"));
    EXPECT_EQ(ceilings[1].level, QStringLiteral("L2"));
    EXPECT_EQ(ceilings[2].level, QStringLiteral("DRAM"));
    EXPECT_DOUBLE_EQ(ceilings[2].gbps, 40.0);
}

TEST(BandwidthLevels, SweepStartsAt16KiBAndReachesTheMaximum)
{
    const auto sizes = sweepWorkingSets(128 * 1024 * 1024, 2);
    EXPECT_EQ(sizes.front(), 16 * 1024);
    EXPECT_GE(sizes.back(), 128 * 1024 * 1024);
    EXPECT_EQ(sizes.size(), 27u);  // 13 doublings, two steps each, plus the start
    for (size_t i = 1; i < sizes.size(); ++i)
        EXPECT_GT(sizes[i], sizes[i - 1]);
}

TEST(Gemm, OpenBlasSgemmMatchesNaiveProductWithAndWithoutPanels)
{
    const int n = 96;
    const auto a = randomMatrix<float>(n, 1);
    const auto b = randomMatrix<float>(n, 2);
    const auto expected = naiveMatmul(a, b, n);
    for (int parts : {1, 2, 3, 7}) {
        std::vector<float> c(static_cast<size_t>(n) * n, -7.0f);
        ASSERT_TRUE(gemmFp32(a.data(), b.data(), c.data(), n, parts));
        for (size_t i = 0; i < c.size(); ++i)
            ASSERT_NEAR(c[i], expected[i], 1e-4f) << parts << " parts, element " << i;
    }
}

TEST(Gemm, OpenBlasDgemmMatchesNaiveProduct)
{
    const int n = 80;
    const auto a = randomMatrix<double>(n, 3);
    const auto b = randomMatrix<double>(n, 4);
    const auto expected = naiveMatmul(a, b, n);
    std::vector<double> c(static_cast<size_t>(n) * n);
    ASSERT_TRUE(gemmFp64(a.data(), b.data(), c.data(), n, 3));
    for (size_t i = 0; i < c.size(); ++i)
        ASSERT_NEAR(c[i], expected[i], 1e-12);
}

TEST(Gemm, StopsBetweenCallsWhenAskedTo)
{
    const int n = 128;
    const auto a = randomMatrix<float>(n, 5);
    const auto b = randomMatrix<float>(n, 6);
    std::vector<float> c(static_cast<size_t>(n) * n);
    int asked = 0;
    EXPECT_FALSE(gemmFp32(a.data(), b.data(), c.data(), n, 2, [&] { return ++asked < 1; }));
    EXPECT_EQ(asked, 1);
}

TEST(Gemm, PartsKeepOneCallUnderItsTime)
{
    EXPECT_EQ(gemmParts(1024, 400.0, 0.12), 1);      // 2.1 GFLOP at 400 GFLOP/s: 5 ms
    const int parts = gemmParts(4096, 400.0, 0.12);  // 137 GFLOP: 0.34 s
    EXPECT_EQ(parts, 3);
    EXPECT_LE(2.0 * 4096.0 * 4096.0 * 4096.0 / parts / 400e9, 0.12);
    EXPECT_EQ(gemmParts(512, 0.001, 0.12), 8) << "never slices thinner than 64";
    EXPECT_EQ(gemmParts(512, 0.0, 0.12), 1);
}

TEST(Gemm, MatrixTimesBatchMatchesNaive)
{
    const int rows = 64, cols = 48, batch = 5;
    std::vector<float> w(static_cast<size_t>(rows) * cols), x(static_cast<size_t>(cols) * batch),
        y(static_cast<size_t>(rows) * batch);
    for (size_t i = 0; i < w.size(); ++i)
        w[i] = static_cast<float>(i % 7) - 3.0f;
    for (size_t i = 0; i < x.size(); ++i)
        x[i] = static_cast<float>(i % 5) * 0.5f;
    matrixTimesBatchFp32(w.data(), x.data(), y.data(), rows, cols, batch);
    for (int r = 0; r < rows; ++r)
        for (int b = 0; b < batch; ++b) {
            float expected = 0.0f;
            for (int c = 0; c < cols; ++c)
                expected += w[static_cast<size_t>(r) * cols + c] * x[static_cast<size_t>(c) * batch + b];
            ASSERT_NEAR(y[static_cast<size_t>(r) * batch + b], expected, 1e-3f);
        }
}

TEST(StreamKernels, AddAndTriadAndReadComputeTheRightValues)
{
    const size_t n = 1001;  // odd: exercises the vector loops' remainders
    std::vector<float> a(n), b(n), c(n);
    for (size_t i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i);
        b[i] = 0.5f;
    }
    addFp32(c.data(), a.data(), b.data(), n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_FLOAT_EQ(c[i], static_cast<float>(i) + 0.5f);

    std::vector<double> x(n, 0.0), y(n, 1.0), z(n, 2.0);
    streamTriad(x.data(), y.data(), z.data(), 3.0, n);
    for (double v : x)
        ASSERT_DOUBLE_EQ(v, 7.0);

    std::vector<std::uint64_t> values(n);
    for (size_t i = 0; i < n; ++i)
        values[i] = i;
    EXPECT_EQ(streamRead(values.data(), n), n * (n - 1) / 2);
}

TEST(StreamKernels, GeluApproximationStaysClose)
{
    for (double x = -6.0; x <= 6.0; x += 0.01) {
        const double exact = 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
        ASSERT_NEAR(geluApprox(static_cast<float>(x)), exact, 0.025) << "x = " << x;
    }
}

TEST(StreamKernels, FusedChainEqualsThreeSeparatePasses)
{
    const size_t columns = 100, rows = 37, n = columns * rows;
    std::vector<float> in(n), bias(columns), t1(n), t2(n), unfused(n), fused(n);
    for (size_t i = 0; i < n; ++i)
        in[i] = static_cast<float>(static_cast<double>(i % 23) / 5.0 - 2.0);
    for (size_t j = 0; j < columns; ++j)
        bias[j] = 0.01f * static_cast<float>(j);
    ChainParams params;
    params.bias = bias.data();
    params.columns = columns;
    // Two slices, as two threads would run them: the hash and bias must line up across the seam.
    const size_t seam = 1234;
    for (auto [begin, end] : {std::pair<size_t, size_t>{0, seam}, {seam, n}}) {
        params.firstIndex = begin;
        biasAddPass(t1.data() + begin, in.data() + begin, end - begin, params);
        geluPass(t2.data() + begin, t1.data() + begin, end - begin);
        dropoutPass(unfused.data() + begin, t2.data() + begin, end - begin, params);
        fusedBiasGeluDropout(fused.data() + begin, in.data() + begin, end - begin, params);
    }
    size_t dropped = 0;
    for (size_t i = 0; i < n; ++i) {
        ASSERT_NEAR(fused[i], unfused[i], 1e-6f) << i;
        dropped += unfused[i] == 0.0f && t2[i] != 0.0f;
    }
    EXPECT_NEAR(static_cast<double>(dropped) / n, 0.1, 0.03) << "dropout drops about 10 %";
}

TEST(Statistics, MedianAndSpread)
{
    EXPECT_DOUBLE_EQ(median({3.0, 1.0, 2.0}), 2.0);
    EXPECT_DOUBLE_EQ(median({4.0, 1.0, 2.0, 3.0}), 2.5);
    const Spread rate = rateSpread({2.0, 1.0, 4.0}, 8.0);
    EXPECT_DOUBLE_EQ(rate.min, 2.0);
    EXPECT_DOUBLE_EQ(rate.median, 4.0);
    EXPECT_DOUBLE_EQ(rate.max, 8.0);
    EXPECT_DOUBLE_EQ(relativeSpread(rate), 1.5);
}

TEST(Parallel, EveryThreadRunsEveryRepetitionAndCancelStopsIt)
{
    std::atomic<int> calls{0};
    const ParallelRun run = runParallel(2, 5, [&](int, int) { ++calls; }, {});
    EXPECT_EQ(calls.load(), 10);
    EXPECT_EQ(run.repSeconds.size(), 5u);
    EXPECT_FALSE(run.cancelled);

    calls = 0;
    int asked = 0;
    const ParallelRun stopped = runParallel(
        2, 100, [&](int, int) { ++calls; }, [&] { return ++asked < 3; });
    EXPECT_TRUE(stopped.cancelled);
    EXPECT_EQ(stopped.repSeconds.size(), 3u);
    EXPECT_EQ(calls.load(), 6);
}

TEST(Noise, CeilingsThatSpreadMoreThanTheThresholdAreFlagged)
{
    Session session;
    ComputeCeiling steady;
    steady.name = QStringLiteral("fp32 avx2 x1");
    steady.spread = {99.0, 100.0, 101.0};
    ComputeCeiling busy;
    busy.name = QStringLiteral("fp32 avx2 x2");
    busy.spread = {150.0, 200.0, 205.0};  // 27 % between the slowest and fastest repetition
    BandwidthCeiling dram;
    dram.level = QStringLiteral("DRAM");
    dram.spread = {30.0, 40.0, 41.0};
    session.computeCeilings = {steady, busy};
    session.bandwidthCeilings = {dram};
    EXPECT_EQ(noisyMeasurements(session),
              QStringList({QStringLiteral("fp32 avx2 x2"), QStringLiteral("DRAM bandwidth")}));
    session.computeCeilings = {steady};
    session.bandwidthCeilings.clear();
    EXPECT_TRUE(noisyMeasurements(session).isEmpty());
}

TEST(Repeatability, ComparesEveryCeilingPresentInAllRuns)
{
    auto run = [](double fp32, double dram, bool withL1) {
        Session s;
        ComputeCeiling c;
        c.name = QStringLiteral("fp32 avx2 x2");
        c.gflops = fp32;
        s.computeCeilings.push_back(c);
        BandwidthCeiling d;
        d.level = QStringLiteral("DRAM");
        d.gbps = dram;
        s.bandwidthCeilings.push_back(d);
        if (withL1) {
            BandwidthCeiling l1;
            l1.level = QStringLiteral("L1");
            l1.gbps = 400.0;
            s.bandwidthCeilings.push_back(l1);
        }
        return s;
    };
    const auto rows = compareRuns({run(200.0, 40.0, true), run(210.0, 40.0, false), run(205.0, 42.0, true)});
    ASSERT_EQ(rows.size(), 2u) << "L1 is missing from one run";
    EXPECT_EQ(rows[0].name, QStringLiteral("fp32 avx2 x2"));
    EXPECT_EQ(rows[0].unit, QStringLiteral("GFLOP/s"));
    EXPECT_DOUBLE_EQ(rows[0].relativeDifference(), 0.05);
    EXPECT_EQ(rows[1].name, QStringLiteral("DRAM bandwidth"));
    EXPECT_DOUBLE_EQ(rows[1].relativeDifference(), 0.05);
}
