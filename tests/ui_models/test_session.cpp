#include "tests/ui_models/test_session.h"

#include <QTimeZone>

#include <algorithm>
#include <array>
#include <cmath>

namespace ridgeline::fixtures {

namespace {

ComputeCeiling compute(const QString& name, const QString& precision, double gflops, double theoretical)
{
    ComputeCeiling c;
    c.name = name;
    c.precision = precision;
    c.isa = QStringLiteral("avx512");
    c.threads = 2;
    c.gflops = gflops;
    c.theoreticalGflops = theoretical;
    c.spread = {gflops * 0.98, gflops, gflops * 1.01};
    c.repetitions = 9;
    return c;
}

BandwidthCeiling bandwidth(const QString& level, double gbps, std::int64_t workingSet)
{
    BandwidthCeiling b;
    b.level = level;
    b.mix = QStringLiteral("read");
    b.gbps = gbps;
    b.workingSetBytes = workingSet;
    b.threads = 2;
    b.spread = {gbps * 0.96, gbps, gbps * 1.02};
    b.repetitions = 9;
    return b;
}

KernelResult kernel(const QString& name, const QString& kind, const QString& size, double flops, double bytes,
                    double gflops, double spreadFraction)
{
    KernelResult k;
    k.name = name;
    k.kind = kind;
    k.size = size;
    k.precision = QStringLiteral("fp32");
    k.threads = 2;
    k.flops = flops;
    k.bytes = bytes;
    k.gflops = gflops;
    k.seconds = flops / (gflops * 1e9);
    k.gbps = bytes / k.seconds / 1e9;
    k.intensity = flops / bytes;
    k.repetitions = 7;
    k.spread = {k.seconds * (1.0 - spreadFraction), k.seconds, k.seconds * (1.0 + 2.0 * spreadFraction)};
    return k;
}

}  // namespace

Session zen4Session()
{
    Session s;
    s.title = QStringLiteral("AMD EPYC 9R14 (Zen 4), 2 threads");
    s.created = QDateTime(QDate(2026, 12, 2), QTime(16, 0), Qt::UTC);
    s.generator = QStringLiteral("test_session.cpp");
    s.machine.cpuModel = QStringLiteral("AMD EPYC 9R14 96-Core Processor");
    s.machine.hostname = QStringLiteral("zen4-test");
    s.machine.os = QStringLiteral("Debian GNU/Linux 12");
    s.machine.cores = 2;
    s.machine.isa = {QStringLiteral("avx2"), QStringLiteral("fma"), QStringLiteral("avx512f")};
    s.machine.caches = {{1, QStringLiteral("Data"), 32 * 1024, 2},
                        {2, QStringLiteral("Unified"), 1024 * 1024, 2},
                        {3, QStringLiteral("Unified"), 32 * 1024 * 1024, 16}};
    s.machine.clockGhz = 3.7;
    s.computeCeilings = {compute(QStringLiteral("fp32 avx512 x2"), QStringLiteral("fp32"), 230.0, 236.8),
                         compute(QStringLiteral("fp64 avx512 x2"), QStringLiteral("fp64"), 115.0, 118.4)};
    s.bandwidthCeilings = {bandwidth(QStringLiteral("L1"), 500.0, 16 * 1024),
                           bandwidth(QStringLiteral("L2"), 250.0, 512 * 1024),
                           bandwidth(QStringLiteral("L3"), 120.0, 8 * 1024 * 1024),
                           bandwidth(QStringLiteral("DRAM"), 40.0, std::int64_t{1} << 30)};
    // The staircase: 4 KiB .. 1 GiB in factor-2 steps.
    for (std::int64_t bytes = 4 * 1024; bytes <= (std::int64_t{1} << 30); bytes *= 2) {
        BandwidthPoint p;
        p.workingSetBytes = bytes;
        p.mix = QStringLiteral("read");
        p.threads = 2;
        double gbps = 40.0;
        if (bytes <= 48 * 1024)
            gbps = 500.0;
        else if (bytes <= 1536 * 1024)
            gbps = 250.0;
        else if (bytes <= 24 * 1024 * 1024)
            gbps = 120.0;
        else if (bytes <= 64 * 1024 * 1024)
            gbps = 70.0;
        p.level = bytes <= 32 * 1024          ? QStringLiteral("L1")
                  : bytes <= 1024 * 1024      ? QStringLiteral("L2")
                  : bytes <= 32 * 1024 * 1024 ? QStringLiteral("L3")
                                              : QStringLiteral("DRAM");
        p.gbps = gbps;
        p.spread = {gbps * 0.95, gbps, gbps * 1.03};
        s.bandwidthCurve.push_back(p);
    }
    const std::array<std::pair<int, double>, 4> sgemm = {{{512, 150.0}, {1024, 180.0}, {2048, 195.0}, {4096, 200.0}}};
    for (const auto& [n, gflops] : sgemm) {
        const double dn = n;
        s.kernels.push_back(kernel(QStringLiteral("sgemm %1").arg(n), QStringLiteral("sgemm"),
                                   QStringLiteral("%1x%1").arg(n), 2.0 * dn * dn * dn, 12.0 * dn * dn, gflops, 0.02));
    }
    const std::array<std::pair<int, double>, 3> add = {{{2048, 3.4}, {4096, 3.3}, {8192, 3.2}}};
    for (const auto& [n, gflops] : add) {
        const double dn = n;
        s.kernels.push_back(kernel(QStringLiteral("add %1").arg(n), QStringLiteral("add"),
                                   QStringLiteral("%1x%1").arg(n), dn * dn, 12.0 * dn * dn, gflops, 0.04));
    }
    // Decode: a 1 GiB fp32 weight matrix read once per step, 2 FLOPs per weight per vector in the batch.
    const double weights = 256.0 * 1024 * 1024;
    const std::array<std::pair<int, double>, 9> decode = {{{1, 17.0},
                                                           {2, 33.0},
                                                           {4, 62.0},
                                                           {8, 105.0},
                                                           {16, 140.0},
                                                           {32, 160.0},
                                                           {64, 170.0},
                                                           {128, 178.0},
                                                           {256, 185.0}}};
    for (const auto& [batch, gflops] : decode) {
        KernelResult k =
            kernel(QStringLiteral("decode B=%1").arg(batch), QStringLiteral("decode"),
                   QStringLiteral("16384x16384 x B=%1").arg(batch), 2.0 * weights * batch, 4.0 * weights, gflops, 0.03);
        k.batch = batch;
        k.tokensPerSecond = batch / k.seconds;
        s.kernels.push_back(k);
    }
    s.fusion.elements = 1 << 24;
    s.fusion.unfusedBytes = 6.0 * 4 * (1 << 24);
    s.fusion.fusedBytes = 2.0 * 4 * (1 << 24);
    s.fusion.unfusedSeconds = 0.0101;
    s.fusion.fusedSeconds = 0.0035;
    s.fusion.speedup = s.fusion.unfusedSeconds / s.fusion.fusedSeconds;
    s.streamTriadGbps = 38.5;
    s.wallSeconds = 31.0;
    return s;
}

Session zen4FasterDramSession()
{
    Session s = zen4Session();
    s.title = QStringLiteral("Zen 4 after DDR5-6000 upgrade");
    for (BandwidthCeiling& b : s.bandwidthCeilings)
        if (b.level == QLatin1String("DRAM"))
            b.gbps = 62.0;
    for (KernelResult& k : s.kernels)
        if (k.intensity < 5.0)
            k.gflops *= 1.5;
    s.kernels.resize(7);  // sgemm and add only: keeps the overlay readable
    return s;
}

Session zen4SlowerFp32FasterSgemmSession()
{
    Session s = zen4Session();
    s.title = QStringLiteral("Zen 4, a day later");
    s.created = s.created.addDays(1);
    s.quick = true;
    for (ComputeCeiling& c : s.computeCeilings)
        if (c.precision == QLatin1String("fp32")) {
            c.gflops *= 0.8;
            c.spread = {c.spread.min * 0.8, c.spread.median * 0.8, c.spread.max * 0.8};
        }
    for (KernelResult& k : s.kernels)
        if (k.name == QLatin1String("sgemm 4096")) {
            k.gflops *= 1.25;
            k.gbps *= 1.25;
            k.seconds /= 1.25;
            k.spread = {k.spread.min / 1.25, k.spread.median / 1.25, k.spread.max / 1.25};
        }
    return s;
}

Session manyKernelSession(int count)
{
    Session s = zen4Session();
    s.kernels.clear();
    for (int i = 0; i < count; ++i) {
        const double intensity = std::pow(10.0, -1.5 + 4.5 * (i % 997) / 997.0);
        const double roof = std::min(230.0, 40.0 * intensity);
        const double gflops = roof * (0.2 + 0.75 * ((i * 7919) % 1000) / 1000.0);
        s.kernels.push_back(kernel(QStringLiteral("k%1").arg(i),
                                   i % 2 ? QStringLiteral("sgemm") : QStringLiteral("add"), QString(),
                                   gflops * 1e9 * 0.01, gflops * 1e9 * 0.01 / intensity, gflops, 0.02));
    }
    return s;
}

}  // namespace ridgeline::fixtures
