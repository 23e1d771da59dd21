#include "core/session/format/session_json.h"

#include <QFile>

#include <gtest/gtest.h>

#include <algorithm>

using namespace ridgeline;

namespace {

const QString kExamplePath = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json");

const KernelResult* findKernel(const Session& session, const QString& name)
{
    const auto it = std::find_if(session.kernels.begin(), session.kernels.end(),
                                 [&name](const KernelResult& kernel) { return kernel.name == name; });
    return it == session.kernels.end() ? nullptr : &*it;
}

}  // namespace

TEST(SessionExample, LoadsWithEveryPart)
{
    const Result<Session> loaded = loadSession(kExamplePath);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    const Session& session = loaded.value();

    EXPECT_TRUE(session.machine.cpuModel.contains(QStringLiteral("EPYC")));
    EXPECT_EQ(session.machine.cores, 2);
    EXPECT_TRUE(session.machine.isa.contains(QStringLiteral("avx512f")));
    EXPECT_EQ(session.machine.caches.size(), 4u);
    EXPECT_TRUE(session.created.isValid());
    EXPECT_TRUE(session.complete);

    const auto fp32 =
        std::find_if(session.computeCeilings.begin(), session.computeCeilings.end(),
                     [](const ComputeCeiling& c) { return c.name == QStringLiteral("fp32 avx512 x2 threads"); });
    ASSERT_NE(fp32, session.computeCeilings.end());
    EXPECT_NEAR(fp32->gflops, 230.0, 10.0);
    EXPECT_LE(fp32->gflops, fp32->theoreticalGflops);

    const auto dram = std::find_if(
        session.bandwidthCeilings.begin(), session.bandwidthCeilings.end(),
        [](const BandwidthCeiling& c) { return c.level == QStringLiteral("DRAM") && c.mix == QStringLiteral("read"); });
    ASSERT_NE(dram, session.bandwidthCeilings.end());
    EXPECT_NEAR(dram->gbps, 40.0, 5.0);
    EXPECT_FALSE(session.bandwidthCurve.empty());

    for (const char* kind : {"sgemm", "dgemm"}) {
        for (int n : {512, 1024, 2048, 4096})
            EXPECT_NE(findKernel(session, QLatin1String(kind) + u' ' + QString::number(n)), nullptr) << kind << n;
    }
    for (int n : {2048, 4096, 8192})
        EXPECT_NE(findKernel(session, QStringLiteral("add ") + QString::number(n)), nullptr) << n;
    for (int batch = 1; batch <= 256; batch *= 2) {
        const KernelResult* decode = findKernel(session, QStringLiteral("decode B=") + QString::number(batch));
        ASSERT_NE(decode, nullptr) << batch;
        EXPECT_EQ(decode->batch, batch);
        EXPECT_NEAR(decode->tokensPerSecond, batch / decode->seconds, decode->tokensPerSecond * 0.01);
    }
    EXPECT_GT(session.fusion.speedup, 1.0);
    EXPECT_EQ(session.fusion.unfusedBytes, 3 * session.fusion.fusedBytes);
}

TEST(SessionExample, IsStoredExactlyAsRidgelineWritesIt)
{
    // So the fixture doubles as a sample of the real output: sorted keys, 4-space indent, shortest numbers.
    QFile file(kExamplePath);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    const Result<Session> loaded = sessionFromJson(bytes, kExamplePath);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(sessionToJson(loaded.value()), bytes);
}
