// The decode batches' energy in a session: written and read back through a real file, absent from older files,
// refused when a reading cannot be one, and in the measurement report a J/token column where RAPL was read and one
// line saying why where it was not. The energy figures below are set by the test (a server's package and DRAM
// watts of the order RAPL reports), on the decode kernels of the example session, a real 2-vCPU measurement.
#include "core/session/format/session_json.h"
#include "core/session/measure_report.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <functional>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace Qt::Literals::StringLiterals;

namespace {

const QString kExample = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json");
const QString kNoRapl = QStringLiteral("this machine exposes no RAPL counters (no /sys/class/powercap)");

Session example()
{
    const Result<Session> loaded = loadSession(kExample);
    EXPECT_TRUE(loaded.ok()) << (loaded.ok() ? "" : loaded.error().message.toStdString());
    return loaded.ok() ? loaded.value() : Session{};
}

// The example with every fp32 decode batch given `packageWatts` (and `dramWatts`) over 0.1 s.
Session withEnergy(double packageWatts, double dramWatts)
{
    Session session = example();
    session.energy = {true, QStringLiteral("RAPL package-0 + package-1 and dram x2 (whole sockets: idle cores and "
                                           "other processes count too)")};
    for (KernelResult& k : session.kernels)
        if (k.kind == QLatin1String("decode"))
            k.energy = {0.1, packageWatts, dramWatts, (packageWatts + dramWatts) / k.tokensPerSecond};
    return session;
}

const KernelResult& decodeBatch(const Session& session, int batch)
{
    for (const KernelResult& k : session.kernels)
        if (k.kind == QLatin1String("decode") && k.batch == batch)
            return k;
    ADD_FAILURE() << "no decode batch " << batch;
    static const KernelResult none;
    return none;
}

// The example's JSON with `edit` applied to its first decode kernel's energy object.
Result<Session> loadEdited(const std::function<void(QJsonObject& root, QJsonObject& energy)>& edit)
{
    QJsonObject root = sessionToJsonObject(withEnergy(95.0, 12.0));
    QJsonArray kernels = root.value(QLatin1String("kernels")).toArray();
    for (qsizetype i = 0; i < kernels.size(); ++i) {
        QJsonObject k = kernels[i].toObject();
        if (k.value(QLatin1String("kind")).toString() != QLatin1String("decode"))
            continue;
        QJsonObject energy = k.value(QLatin1String("energy")).toObject();
        edit(root, energy);
        k.insert(QLatin1String("energy"), energy);
        kernels[i] = k;
        break;
    }
    root.insert(QLatin1String("kernels"), kernels);
    return sessionFromJson(QJsonDocument(root).toJson(), QStringLiteral("edited.json"));
}

}  // namespace

TEST(SessionEnergy, TheDecodeBatchesEnergySurvivesSavingAndLoadingAFile)
{
    const Session original = withEnergy(95.0, 12.0);
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("energy.json"));
    ASSERT_FALSE(saveSession(original, path).has_value());
    const Result<Session> loaded = loadSession(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_TRUE(loaded.value().energy.measured);
    EXPECT_EQ(loaded.value().energy.basis, original.energy.basis);
    const KernelEnergy& e = decodeBatch(loaded.value(), 16).energy;
    EXPECT_EQ(e.seconds, 0.1);
    EXPECT_EQ(e.packageWatts, 95.0);
    EXPECT_EQ(e.dramWatts, 12.0);
    EXPECT_EQ(e.joulesPerToken, decodeBatch(original, 16).energy.joulesPerToken);
    // Kernels that are not decode batches carry no energy, and write none.
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(QString::fromUtf8(file.readAll()).count(QStringLiteral("\"j_per_token\"")), 9);
}

TEST(SessionEnergy, NoRaplIsSavedAsTheReasonWithNoReadings)
{
    Session session = example();
    session.energy = {false, kNoRapl};
    const QByteArray json = sessionToJson(session);
    EXPECT_FALSE(json.contains("\"j_per_token\""));
    const Result<Session> loaded = sessionFromJson(json, QStringLiteral("vm.json"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_FALSE(loaded.value().energy.measured);
    EXPECT_EQ(loaded.value().energy.basis, kNoRapl);
    EXPECT_FALSE(decodeBatch(loaded.value(), 1).energy.measured());
}

TEST(SessionEnergy, OlderSessionsLoadWithoutEnergy)
{
    const Session session = example();  // written before energy was measured
    EXPECT_TRUE(session.energy.basis.isEmpty());
    EXPECT_FALSE(session.energy.measured);
    for (const KernelResult& k : session.kernels)
        EXPECT_FALSE(k.energy.measured()) << k.name.toStdString();
    EXPECT_FALSE(sessionToJson(session).contains("\"energy\""));
}

TEST(SessionEnergy, AReadingThatCannotBeOneIsRefusedByName)
{
    const Result<Session> zero = loadEdited([](QJsonObject&, QJsonObject& e) { e.insert("package_w"_L1, 0.0); });
    ASSERT_FALSE(zero.ok());
    EXPECT_TRUE(zero.error().message.contains(QStringLiteral("energy.package_w must be above 0")))
        << zero.error().message.toStdString();

    const Result<Session> missing = loadEdited([](QJsonObject&, QJsonObject& e) { e.remove("j_per_token"_L1); });
    ASSERT_FALSE(missing.ok());
    EXPECT_TRUE(missing.error().message.contains(QStringLiteral("j_per_token")))
        << missing.error().message.toStdString();

    const Result<Session> unknown = loadEdited([](QJsonObject&, QJsonObject& e) { e.insert("psys_w"_L1, 3.0); });
    ASSERT_FALSE(unknown.ok());
    EXPECT_TRUE(unknown.error().message.contains(QStringLiteral("psys_w"))) << unknown.error().message.toStdString();

    const Result<Session> blank = loadEdited([](QJsonObject& root, QJsonObject&) {
        root.insert("energy"_L1, QJsonObject{{u"measured"_s, false}, {u"basis"_s, u"  "_s}});
    });
    ASSERT_FALSE(blank.ok());
    EXPECT_TRUE(blank.error().message.contains(QStringLiteral("energy.basis"))) << blank.error().message.toStdString();

    // Energy is a field of schema 2: a version 1 file that has it is refused.
    const Result<Session> old = loadEdited([](QJsonObject& root, QJsonObject&) {
        root.insert("schema_version"_L1, 1);
        root.remove("energy"_L1);
    });
    ASSERT_FALSE(old.ok());
    EXPECT_TRUE(old.error().message.contains(QStringLiteral("unknown field"))) << old.error().message.toStdString();
}

TEST(SessionEnergy, TheReportGivesJoulesPerTokenForEachBatchWhereRaplWasRead)
{
    const Session session = withEnergy(95.0, 12.0);
    const QString report = measureReportText(session);
    EXPECT_TRUE(report.contains(QStringLiteral("intensity    J/token   package W    DRAM W\n")))
        << report.toStdString();
    // Batch 1: 107 W at 556.2 tokens/s, 0.192 J; batch 256: the same power at 5,956 tokens/s, 0.0180 J per token.
    EXPECT_TRUE(report.contains(QStringLiteral("556        1.0x         0.5      0.192        95.0      12.0\n")))
        << report.toStdString();
    EXPECT_TRUE(report.contains(QStringLiteral("  0.0180        95.0      12.0\n"))) << report.toStdString();
    EXPECT_EQ(report.count(QStringLiteral("  0.0180        95.0      12.0\n")), 5);  // B = 16 ... 256
    EXPECT_TRUE(
        report.contains(QStringLiteral("energy: RAPL package-0 + package-1 and dram x2 (whole sockets: idle "
                                       "cores and other processes count too), read across each batch's runs "
                                       "(100.00 ms; the counters step about every 1 ms)\n")))
        << report.toStdString();
}

TEST(SessionEnergy, TheReportSaysInOneLineWhyThereIsNoEnergy)
{
    Session session = example();
    EXPECT_TRUE(
        measureReportText(session).contains(QStringLiteral("energy per token: not recorded in this session\n")));
    session.energy = {false, kNoRapl};
    const QString report = measureReportText(session);
    EXPECT_TRUE(report.contains(QStringLiteral("energy per token: not measured: ") + kNoRapl + u'\n'))
        << report.toStdString();
    EXPECT_FALSE(report.contains(QStringLiteral("J/token")));
}
