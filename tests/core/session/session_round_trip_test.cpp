#include "core/session/format/session_json.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimeZone>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace ridgeline;

namespace {

// Every field set, and set to a value unlike its default and unlike its neighbours, so a swapped or
// dropped key shows up as a mismatch.
Session makeFullSession()
{
    Session session;
    session.title = QStringLiteral("EPYC \u00e9t\u00e9 \"quoted\" run");  // non-ASCII and an escape on purpose
    session.created = QDateTime(QDate(2026, 11, 30), QTime(9, 41, 27, 512), QTimeZone(2 * 3600));
    session.generator = QStringLiteral("ridgeline 0.1.0 measure --quick");
    session.quick = true;
    session.complete = false;
    session.wallSeconds = 41.25;
    session.streamTriadGbps = 33.1;
    session.noisyMeasurements = {QStringLiteral("fp32 avx2 x2"), QStringLiteral("DRAM bandwidth")};

    MachineInfo& machine = session.machine;
    machine.cpuModel = QStringLiteral("AMD EPYC 9R14 96-Core Processor");
    machine.hostname = QStringLiteral("roofline-vm");
    machine.os = QStringLiteral("Debian GNU/Linux 12 (bookworm)");
    machine.cores = 2;
    machine.isa = {QStringLiteral("avx2"), QStringLiteral("fma"), QStringLiteral("avx512f")};
    machine.caches = {{1, QStringLiteral("Data"), 32768, 1}, {3, QStringLiteral("Unified"), 33554432, 2}};
    machine.openblasVersion = QStringLiteral("0.3.21");
    machine.openblasCore = QStringLiteral("Zen");
    machine.openblasConfig = QStringLiteral("OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Zen MAX_THREADS=64");
    machine.openblasThreads = 3;
    machine.clockGhz = 3.7;
    machine.memoryAvailableBytes = 7834206208;

    machine.vendor = QStringLiteral("AuthenticAMD");
    machine.family = 25;
    machine.model = 17;
    machine.hypervisor = true;
    machine.coreName = QStringLiteral("AMD Zen 4");
    machine.coreBasis = QStringLiteral("family 25 model 17 (11h)");
    machine.clock = {QStringLiteral("dependent register-register add chain"),
                     3.7,
                     3.69,
                     2.6,
                     2.6,
                     QStringLiteral("/proc/cpuinfo cpu MHz"),
                     true,
                     QStringLiteral("a made-up doubt, to carry every field")};
    machine.lastLevelCache = {3, 33554432, 25165824, QStringLiteral("the bandwidth curve")};

    ComputeCeiling avx512;
    avx512.name = QStringLiteral("fp32 avx512 x2 threads");
    avx512.precision = QStringLiteral("fp32");
    avx512.isa = QStringLiteral("avx512");
    avx512.threads = 2;
    avx512.gflops = 229.7;
    avx512.theoreticalGflops = 236.8;
    avx512.spread = {222.8, 229.7, 230.8};
    avx512.repetitions = 7;
    avx512.clockGhz = 3.65;
    avx512.flopsPerCycle = 31.46;
    avx512.fmaPerCycle = 1.0;
    avx512.peakBasis = QStringLiteral("table: AMD Zen 4 (1 per cycle), confirmed by the measurement");
    ComputeCeiling scalar;
    scalar.name = QStringLiteral("fp64 scalar x1 threads");
    scalar.precision = QStringLiteral("fp64");
    scalar.isa = QStringLiteral("scalar");
    scalar.threads = 1;
    scalar.gflops = 7.3;
    scalar.theoreticalGflops = 7.4;
    scalar.spread = {7.1, 7.3, 7.35};
    scalar.repetitions = 5;  // a version-1 style ceiling: no clock, no FLOP/cycle
    session.computeCeilings = {avx512, scalar};
    session.findings = {{QStringLiteral("clock"), QStringLiteral("doubtful"), QStringLiteral("why")},
                        {QStringLiteral("sgemm 4096"), QStringLiteral("impossible"), QStringLiteral("above its roof")}};
    session.skipped = {{QStringLiteral("add 8192"), QStringLiteral("needs 768 MiB")}};
    session.bandwidthCeilings = {
        {QStringLiteral("DRAM"), QStringLiteral("triad"), 33.1, 1073741824, 2, {31.9, 33.1, 33.4}, 9}};
    session.bandwidthCurve = {{8192, QStringLiteral("read"), QStringLiteral("L1"), 2, 408.5, {388.1, 408.5, 416.7}},
                              {32768, QStringLiteral("triad"), QString(), 1, 300.25, {285.0, 300.25, 306.0}}};

    KernelResult decode;
    decode.name = QStringLiteral("decode B=16");
    decode.kind = QStringLiteral("decode");
    decode.size = QStringLiteral("4096x4096 x B=16");
    decode.precision = QStringLiteral("fp32");
    decode.threads = 2;
    decode.batch = 16;
    decode.flops = 536870912.0;
    decode.bytes = 67633152.0;
    decode.seconds = 0.002686;
    decode.gflops = 199.9;
    decode.gbps = 25.18;
    decode.intensity = 0.1 + 0.2;  // not exactly 0.3: doubles must survive the text round trip bit for bit
    decode.tokensPerSecond = 5957.0;
    decode.repetitions = 11;
    decode.spread = {0.002659, 0.002686, 0.002847};
    session.kernels = {decode};

    session.fusion = {16777216, 402653184.0, 134217728.0, 0.01181, 0.004092, 2.886, 2.384185791015625e-07};
    return session;
}

void expectSameSpread(const Spread& a, const Spread& b)
{
    EXPECT_EQ(a.min, b.min);
    EXPECT_EQ(a.median, b.median);
    EXPECT_EQ(a.max, b.max);
}

void expectSameSession(const Session& a, const Session& b)
{
    EXPECT_EQ(a.title, b.title);
    EXPECT_EQ(a.created, b.created);
    EXPECT_EQ(a.generator, b.generator);
    EXPECT_EQ(a.quick, b.quick);
    EXPECT_EQ(a.complete, b.complete);
    EXPECT_EQ(a.wallSeconds, b.wallSeconds);
    EXPECT_EQ(a.streamTriadGbps, b.streamTriadGbps);
    EXPECT_EQ(a.noisyMeasurements, b.noisyMeasurements);

    EXPECT_EQ(a.machine.cpuModel, b.machine.cpuModel);
    EXPECT_EQ(a.machine.hostname, b.machine.hostname);
    EXPECT_EQ(a.machine.os, b.machine.os);
    EXPECT_EQ(a.machine.cores, b.machine.cores);
    EXPECT_EQ(a.machine.isa, b.machine.isa);
    ASSERT_EQ(a.machine.caches.size(), b.machine.caches.size());
    for (std::size_t i = 0; i < a.machine.caches.size(); ++i) {
        EXPECT_EQ(a.machine.caches[i].level, b.machine.caches[i].level);
        EXPECT_EQ(a.machine.caches[i].type, b.machine.caches[i].type);
        EXPECT_EQ(a.machine.caches[i].sizeBytes, b.machine.caches[i].sizeBytes);
        EXPECT_EQ(a.machine.caches[i].sharedByCpus, b.machine.caches[i].sharedByCpus);
    }
    EXPECT_EQ(a.machine.openblasVersion, b.machine.openblasVersion);
    EXPECT_EQ(a.machine.openblasCore, b.machine.openblasCore);
    EXPECT_EQ(a.machine.openblasConfig, b.machine.openblasConfig);
    EXPECT_EQ(a.machine.openblasThreads, b.machine.openblasThreads);
    EXPECT_EQ(a.machine.clockGhz, b.machine.clockGhz);
    EXPECT_EQ(a.machine.memoryAvailableBytes, b.machine.memoryAvailableBytes);
    EXPECT_EQ(a.machine.vendor, b.machine.vendor);
    EXPECT_EQ(a.machine.family, b.machine.family);
    EXPECT_EQ(a.machine.model, b.machine.model);
    EXPECT_EQ(a.machine.hypervisor, b.machine.hypervisor);
    EXPECT_EQ(a.machine.coreName, b.machine.coreName);
    EXPECT_EQ(a.machine.coreBasis, b.machine.coreBasis);
    const ClockMeasurement& ca = a.machine.clock;
    const ClockMeasurement& cb = b.machine.clock;
    EXPECT_EQ(ca.method, cb.method);
    EXPECT_EQ(ca.addChainGhz, cb.addChainGhz);
    EXPECT_EQ(ca.mulChainGhz, cb.mulChainGhz);
    EXPECT_EQ(ca.tscGhz, cb.tscGhz);
    EXPECT_EQ(ca.reportedGhz, cb.reportedGhz);
    EXPECT_EQ(ca.reportedSource, cb.reportedSource);
    EXPECT_EQ(ca.doubtful, cb.doubtful);
    EXPECT_EQ(ca.doubt, cb.doubt);
    EXPECT_EQ(a.machine.lastLevelCache.level, b.machine.lastLevelCache.level);
    EXPECT_EQ(a.machine.lastLevelCache.reportedBytes, b.machine.lastLevelCache.reportedBytes);
    EXPECT_EQ(a.machine.lastLevelCache.effectiveBytes, b.machine.lastLevelCache.effectiveBytes);
    EXPECT_EQ(a.machine.lastLevelCache.basis, b.machine.lastLevelCache.basis);
    ASSERT_EQ(a.findings.size(), b.findings.size());
    for (std::size_t i = 0; i < a.findings.size(); ++i) {
        EXPECT_EQ(a.findings[i].subject, b.findings[i].subject);
        EXPECT_EQ(a.findings[i].kind, b.findings[i].kind);
        EXPECT_EQ(a.findings[i].message, b.findings[i].message);
    }
    ASSERT_EQ(a.skipped.size(), b.skipped.size());
    for (std::size_t i = 0; i < a.skipped.size(); ++i) {
        EXPECT_EQ(a.skipped[i].experiment, b.skipped[i].experiment);
        EXPECT_EQ(a.skipped[i].reason, b.skipped[i].reason);
    }

    ASSERT_EQ(a.computeCeilings.size(), b.computeCeilings.size());
    for (std::size_t i = 0; i < a.computeCeilings.size(); ++i) {
        const ComputeCeiling& x = a.computeCeilings[i];
        const ComputeCeiling& y = b.computeCeilings[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.precision, y.precision);
        EXPECT_EQ(x.isa, y.isa);
        EXPECT_EQ(x.threads, y.threads);
        EXPECT_EQ(x.gflops, y.gflops);
        EXPECT_EQ(x.theoreticalGflops, y.theoreticalGflops);
        expectSameSpread(x.spread, y.spread);
        EXPECT_EQ(x.repetitions, y.repetitions);
        EXPECT_EQ(x.clockGhz, y.clockGhz);
        EXPECT_EQ(x.flopsPerCycle, y.flopsPerCycle);
        EXPECT_EQ(x.fmaPerCycle, y.fmaPerCycle);
        EXPECT_EQ(x.peakBasis, y.peakBasis);
    }
    ASSERT_EQ(a.bandwidthCeilings.size(), b.bandwidthCeilings.size());
    for (std::size_t i = 0; i < a.bandwidthCeilings.size(); ++i) {
        const BandwidthCeiling& x = a.bandwidthCeilings[i];
        const BandwidthCeiling& y = b.bandwidthCeilings[i];
        EXPECT_EQ(x.level, y.level);
        EXPECT_EQ(x.mix, y.mix);
        EXPECT_EQ(x.gbps, y.gbps);
        EXPECT_EQ(x.workingSetBytes, y.workingSetBytes);
        EXPECT_EQ(x.threads, y.threads);
        expectSameSpread(x.spread, y.spread);
        EXPECT_EQ(x.repetitions, y.repetitions);
    }
    ASSERT_EQ(a.bandwidthCurve.size(), b.bandwidthCurve.size());
    for (std::size_t i = 0; i < a.bandwidthCurve.size(); ++i) {
        const BandwidthPoint& x = a.bandwidthCurve[i];
        const BandwidthPoint& y = b.bandwidthCurve[i];
        EXPECT_EQ(x.workingSetBytes, y.workingSetBytes);
        EXPECT_EQ(x.mix, y.mix);
        EXPECT_EQ(x.level, y.level);
        EXPECT_EQ(x.threads, y.threads);
        EXPECT_EQ(x.gbps, y.gbps);
        expectSameSpread(x.spread, y.spread);
    }
    ASSERT_EQ(a.kernels.size(), b.kernels.size());
    for (std::size_t i = 0; i < a.kernels.size(); ++i) {
        const KernelResult& x = a.kernels[i];
        const KernelResult& y = b.kernels[i];
        EXPECT_EQ(x.name, y.name);
        EXPECT_EQ(x.kind, y.kind);
        EXPECT_EQ(x.size, y.size);
        EXPECT_EQ(x.precision, y.precision);
        EXPECT_EQ(x.threads, y.threads);
        EXPECT_EQ(x.batch, y.batch);
        EXPECT_EQ(x.flops, y.flops);
        EXPECT_EQ(x.bytes, y.bytes);
        EXPECT_EQ(x.seconds, y.seconds);
        EXPECT_EQ(x.gflops, y.gflops);
        EXPECT_EQ(x.gbps, y.gbps);
        EXPECT_EQ(x.intensity, y.intensity);
        EXPECT_EQ(x.tokensPerSecond, y.tokensPerSecond);
        EXPECT_EQ(x.repetitions, y.repetitions);
        expectSameSpread(x.spread, y.spread);
    }
    EXPECT_EQ(a.fusion.elements, b.fusion.elements);
    EXPECT_EQ(a.fusion.unfusedBytes, b.fusion.unfusedBytes);
    EXPECT_EQ(a.fusion.fusedBytes, b.fusion.fusedBytes);
    EXPECT_EQ(a.fusion.unfusedSeconds, b.fusion.unfusedSeconds);
    EXPECT_EQ(a.fusion.fusedSeconds, b.fusion.fusedSeconds);
    EXPECT_EQ(a.fusion.speedup, b.fusion.speedup);
    EXPECT_EQ(a.fusion.maxAbsDifference, b.fusion.maxAbsDifference);
}

QString dataPath(const char* relative)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/") + QLatin1String(relative);
}

}  // namespace

TEST(SessionJson, RoundTripThroughAFileKeepsEveryField)
{
    const Session original = makeFullSession();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));

    const auto saveError = saveSession(original, path);
    ASSERT_FALSE(saveError.has_value()) << saveError->message.toStdString();
    const Result<Session> loaded = loadSession(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();

    expectSameSession(original, loaded.value());
}

TEST(SessionJson, SavingALoadedSessionReproducesTheSameBytes)
{
    const QByteArray first = sessionToJson(makeFullSession());
    const Result<Session> loaded = sessionFromJson(first, QStringLiteral("first"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(sessionToJson(loaded.value()), first);
}

// The file is written a kernel at a time; its bytes must be those Qt writes for the whole document.
TEST(SessionJson, TheFileWrittenPieceByPieceIsQtsWholeDocument)
{
    Session session = makeFullSession();
    ASSERT_FALSE(session.kernels.empty());
    KernelResult second = session.kernels.front();
    second.name = QStringLiteral("a second kernel");
    second.levels.clear();
    session.kernels.push_back(second);
    const auto whole = [](const Session& s) {
        return QJsonDocument(sessionToJsonObject(s)).toJson(QJsonDocument::Indented);
    };
    EXPECT_EQ(sessionToJson(session), whole(session));
    const Session two = session;
    session.kernels.resize(1);
    EXPECT_EQ(sessionToJson(session), whole(session));
    session.kernels.clear();
    EXPECT_EQ(sessionToJson(session), whole(session));
    // Enough kernels to pass the writer's pieces of a MiB.
    session = two;
    Session doubled = session;
    doubled.kernels.insert(doubled.kernels.end(), two.kernels.begin(), two.kernels.end());
    const qsizetype bytesPerCopy = sessionToJson(doubled).size() - sessionToJson(session).size();
    for (qsizetype copies = 3 * 1024 * 1024 / bytesPerCopy; copies > 0; --copies)
        session.kernels.insert(session.kernels.end(), two.kernels.begin(), two.kernels.end());
    ASSERT_GT(sessionToJson(session).size(), 2 * 1024 * 1024);
    EXPECT_EQ(sessionToJson(session), whole(session));
}

TEST(SessionJson, CarriesTheFormatTagAndSchemaVersion)
{
    const QJsonObject root = sessionToJsonObject(makeFullSession());
    EXPECT_EQ(root.value(QLatin1String("format")).toString(), QStringLiteral("ridgeline-session"));
    EXPECT_EQ(root.value(QLatin1String("schema_version")).toInteger(), Session::kSchemaVersion);
    const QByteArray text = sessionToJson(makeFullSession());
    EXPECT_TRUE(text.contains("\"format\": \"ridgeline-session\"")) << text.constData();
    EXPECT_TRUE(text.contains("\"schema_version\": 2,"));
}

TEST(SessionJson, WritesKeysSortedAndIndented)
{
    const QString text = QString::fromUtf8(sessionToJson(makeFullSession()));
    // Top-level keys are the ones indented by exactly four spaces.
    const QRegularExpression topLevelKey(QStringLiteral("^    \"([a-z_]+)\":"), QRegularExpression::MultilineOption);
    QStringList keys;
    for (auto it = topLevelKey.globalMatch(text); it.hasNext();)
        keys.append(it.next().captured(1));
    QStringList sorted = keys;
    sorted.sort();
    EXPECT_EQ(keys, sorted);
    EXPECT_EQ(keys, (QStringList{
                        QStringLiteral("bandwidth_curve"), QStringLiteral("ceilings"), QStringLiteral("complete"),
                        QStringLiteral("created"), QStringLiteral("findings"), QStringLiteral("format"),
                        QStringLiteral("fusion"), QStringLiteral("generator"), QStringLiteral("kernels"),
                        QStringLiteral("machine"), QStringLiteral("noisy_measurements"), QStringLiteral("quick"),
                        QStringLiteral("schema_version"), QStringLiteral("skipped"),
                        QStringLiteral("stream_triad_gbps"), QStringLiteral("title"), QStringLiteral("wall_seconds")}));
}

TEST(SessionJson, FlattensTheSpreadIntoEachEntryWithSnakeCaseKeys)
{
    const QJsonObject root = sessionToJsonObject(makeFullSession());
    const QJsonObject kernel = root.value(QLatin1String("kernels")).toArray().at(0).toObject();
    EXPECT_EQ(
        kernel.keys(),
        (QStringList{QStringLiteral("batch"), QStringLiteral("bytes"), QStringLiteral("flops"), QStringLiteral("gbps"),
                     QStringLiteral("gflops"), QStringLiteral("intensity"), QStringLiteral("kind"),
                     QStringLiteral("max"), QStringLiteral("median"), QStringLiteral("min"), QStringLiteral("name"),
                     QStringLiteral("precision"), QStringLiteral("repetitions"), QStringLiteral("seconds"),
                     QStringLiteral("size"), QStringLiteral("threads"), QStringLiteral("tokens_per_s")}));
    EXPECT_EQ(kernel.value(QLatin1String("median")).toDouble(), 0.002686);
    const QJsonObject machine = root.value(QLatin1String("machine")).toObject();
    EXPECT_EQ(machine.value(QLatin1String("memory_available_bytes")).toInteger(), 7834206208);
    const QJsonObject cache = machine.value(QLatin1String("caches")).toArray().at(1).toObject();
    EXPECT_EQ(cache.value(QLatin1String("size_bytes")).toInteger(), 33554432);
    EXPECT_EQ(cache.value(QLatin1String("shared_by_cpus")).toInt(), 2);
    const QJsonObject ceilings = root.value(QLatin1String("ceilings")).toObject();
    EXPECT_EQ(ceilings.keys(), (QStringList{QStringLiteral("bandwidth"), QStringLiteral("compute")}));
}

TEST(SessionJson, WritesCreatedAsUtcIso8601)
{
    const QJsonObject root = sessionToJsonObject(makeFullSession());
    // 09:41:27.512 at +02:00 is 07:41:27.512 UTC.
    EXPECT_EQ(root.value(QLatin1String("created")).toString(), QStringLiteral("2026-11-30T07:41:27.512Z"));
}

TEST(SessionJson, LeavesOutCreatedWhenUnknown)
{
    Session session = makeFullSession();
    session.created = QDateTime();
    EXPECT_FALSE(sessionToJsonObject(session).contains(QLatin1String("created")));
    const Result<Session> loaded = sessionFromJson(sessionToJson(session), QStringLiteral("no-date"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_FALSE(loaded.value().created.isValid());
}

TEST(SessionJson, ExtremeButLegalDoublesSurviveExactly)
{
    Session session = makeFullSession();
    session.fusion.maxAbsDifference = std::numeric_limits<double>::denorm_min();
    session.kernels[0].intensity = 1.0 / 3.0;
    session.kernels[0].flops = 1e21;  // the largest count a kernel may claim
    const Result<Session> loaded = sessionFromJson(sessionToJson(session), QStringLiteral("extreme"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().fusion.maxAbsDifference, std::numeric_limits<double>::denorm_min());
    EXPECT_EQ(loaded.value().kernels[0].intensity, 1.0 / 3.0);
    EXPECT_EQ(loaded.value().kernels[0].flops, 1e21);
}

TEST(SessionJson, OptionalFieldsMayBeAbsentAndTakeTheirDefaults)
{
    const Result<Session> loaded = loadSession(dataPath("sessions/minimal.json"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    const Session& session = loaded.value();
    const Session defaults;
    EXPECT_EQ(session.title, defaults.title);
    EXPECT_FALSE(session.created.isValid());
    EXPECT_EQ(session.quick, defaults.quick);
    EXPECT_EQ(session.complete, defaults.complete);
    EXPECT_TRUE(session.bandwidthCurve.empty());
    EXPECT_EQ(session.fusion.elements, 0);
    EXPECT_EQ(session.fusion.speedup, 0.0);
    EXPECT_EQ(session.machine.hostname, QString());
    ASSERT_EQ(session.kernels.size(), 4u);
    EXPECT_EQ(session.kernels[0].threads, 1);  // absent threads means one thread
    EXPECT_EQ(session.kernels[3].batch, 16);
    // No min/median/max at all is fine: the spread stays zero.
    EXPECT_EQ(session.kernels[0].spread.median, 0.0);
}

TEST(SessionJson, AFusionThatDidNotRunIsNoObjectOfZeros)
{
    Session session = makeFullSession();
    session.fusion = FusionResult{};
    session.skipped.push_back({QStringLiteral("fusion"), QStringLiteral("needs 20 MiB of memory")});
    const QJsonObject root = sessionToJsonObject(session);
    EXPECT_FALSE(root.contains(QLatin1String("fusion")));
    const Result<Session> loaded = sessionFromJson(sessionToJson(session), QStringLiteral("no-fusion"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().fusion.elements, 0);
    EXPECT_EQ(loaded.value().skipped.back().experiment, QStringLiteral("fusion"));
}

TEST(SessionJson, VersionOneFilesLoadWithoutTheFieldsOfVersionTwo)
{
    // A version-1 file, byte for byte as Ridgeline wrote it before schema 2 (tests/data/README.md).
    const Result<Session> loaded = loadSession(dataPath("sessions/example_v1.json"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    const Session& session = loaded.value();
    EXPECT_DOUBLE_EQ(session.machine.clockGhz, 3.7);
    EXPECT_TRUE(session.machine.clock.method.isEmpty());
    EXPECT_EQ(session.machine.lastLevelCache.effectiveBytes, 0);
    EXPECT_TRUE(session.findings.empty());
    EXPECT_GT(session.fusion.elements, 0);
    for (const ComputeCeiling& c : session.computeCeilings)
        EXPECT_EQ(c.clockGhz, 0.0);
    // Saved again, it is a version-2 file that loads back the same.
    const QByteArray again = sessionToJson(session);
    EXPECT_TRUE(again.contains("\"schema_version\": 2,"));
    const Result<Session> reloaded = sessionFromJson(again, QStringLiteral("again"));
    ASSERT_TRUE(reloaded.ok()) << reloaded.error().message.toStdString();
    expectSameSession(session, reloaded.value());
}

TEST(SessionJson, AVersionOneFileWithAVersionTwoFieldIsRefusedByName)
{
    QJsonObject root = sessionToJsonObject(makeFullSession());
    root.insert(QLatin1String("schema_version"), 1);
    const Result<Session> loaded = sessionFromJson(QJsonDocument(root).toJson(), QStringLiteral("mixed"));
    ASSERT_FALSE(loaded.ok());
    EXPECT_TRUE(loaded.error().message.contains(QStringLiteral("unknown field")))
        << loaded.error().message.toStdString();
}
