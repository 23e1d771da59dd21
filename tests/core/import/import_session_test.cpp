// Imports in a session: the new kernel fields survive a save and a load, old files still load, and an
// import is all or nothing.
#include "core/import/import_session.h"
#include "core/session/format/session_json.h"
#include "tests/core/import/import_test_support.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline;
using ridgeline::test::importFixture;
using ridgeline::test::importFixturePath;

namespace {

Session minimalSession()
{
    return loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/minimal.json")).value();
}

}  // namespace

TEST(ImportSession, ImportedKernelFieldsSurviveSaveAndLoad)
{
    const auto imported =
        importBytes(importFixture(QStringLiteral("ncu_raw_roofline_set.csv")), QStringLiteral("ncu.csv"));
    ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
    const auto session = sessionWithImports(std::nullopt, {imported.value()});
    ASSERT_TRUE(session.ok());
    const auto loaded = sessionFromJson(sessionToJson(session.value()), QStringLiteral("mem"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    ASSERT_EQ(loaded.value().kernels.size(), 4u);
    const KernelResult& cutlass = loaded.value().kernels[0];
    const KernelResult& original = imported.value().kernels[0];
    EXPECT_EQ(cutlass.name, original.name);
    EXPECT_EQ(cutlass.fullName, original.fullName);
    EXPECT_EQ(cutlass.source, QStringLiteral("ncu.csv (ncu)"));
    EXPECT_EQ(cutlass.level, QStringLiteral("DRAM"));
    EXPECT_TRUE(cutlass.tensorFlopsCounted);
    const auto plain = importBytes(importFixture(QStringLiteral("ncu_details.csv")), QStringLiteral("d.csv"));
    ASSERT_TRUE(plain.ok());
    EXPECT_FALSE(plain.value().kernels[0].tensorFlopsCounted);
    ASSERT_EQ(cutlass.levels.size(), 2u);
    EXPECT_EQ(cutlass.levels[1].level, QStringLiteral("L1"));
    EXPECT_EQ(cutlass.levels[1].bytes, original.levels[1].bytes);
    EXPECT_EQ(cutlass.levels[1].intensity, original.levels[1].intensity);
    EXPECT_EQ(cutlass.flops, original.flops);
    // A re-save is byte for byte the same.
    EXPECT_EQ(sessionToJson(loaded.value()), sessionToJson(session.value()));
}

TEST(ImportSession, GroupIsSavedAndMeasuredKernelsGetNoNewKeys)
{
    const auto imported = importBytes(importFixture(QStringLiteral("plain.csv")), QStringLiteral("plain.csv"));
    ASSERT_TRUE(imported.ok());
    const QByteArray json = sessionToJson(sessionWithImports(minimalSession(), {imported.value()}).value());
    EXPECT_TRUE(json.contains("\"group\": \"after\""));
    const QJsonObject measured = sessionToJsonObject(minimalSession());
    for (const QJsonValue kernel : measured.value(QStringLiteral("kernels")).toArray())
        for (const char* key : {"full_name", "source", "level", "group", "tensor_flops_counted", "levels"})
            EXPECT_FALSE(kernel.toObject().contains(QLatin1String(key))) << key;
}

TEST(ImportSession, UnknownKeysInALevelPointAreRefused)
{
    Session session = minimalSession();
    session.kernels[0].levels.push_back(LevelPoint{QStringLiteral("L2"), 100.0, 1.0, 2.0});
    QByteArray json = sessionToJson(session);
    json.replace("\"intensity\": 2", "\"intensity\": 2, \"colour\": \"red\"");
    const auto loaded = sessionFromJson(json, QStringLiteral("s.json"));
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().message, QStringLiteral("s.json: unknown field kernels[0].levels[0].colour"));
}

TEST(ImportSession, KernelsAreAppendedToACopyOfTheBase)
{
    // likwid_mem_sp_single.csv ran on the CPU minimal.json measured (an EPYC 9R14): its kernel joins that session.
    const Session base = minimalSession();
    const auto imported =
        importBytes(importFixture(QStringLiteral("likwid_mem_sp_single.csv")), QStringLiteral("l.csv"));
    ASSERT_TRUE(imported.ok());
    const auto merged = sessionWithImports(base, {imported.value()});
    ASSERT_TRUE(merged.ok()) << merged.error().message.toStdString();
    EXPECT_EQ(merged.value().kernels.size(), base.kernels.size() + 1);
    EXPECT_EQ(merged.value().machine.cpuModel, base.machine.cpuModel);
    EXPECT_EQ(merged.value().computeCeilings.size(), base.computeCeilings.size());
    EXPECT_EQ(merged.value().kernels.back().name, QStringLiteral("l"));
}

TEST(ImportSession, ErtCeilingsMakeANewMachineAndNeverJoinMeasuredOnes)
{
    const auto ert = importBytes(importFixture(QStringLiteral("ert_roofline.json")), QStringLiteral("roofline.json"));
    ASSERT_TRUE(ert.ok());
    const auto fresh = sessionWithImports(std::nullopt, {ert.value()});
    ASSERT_TRUE(fresh.ok());
    EXPECT_EQ(fresh.value().machine.cpuModel, QStringLiteral("ERT: roofline.json"));
    EXPECT_EQ(fresh.value().bandwidthCeilings.size(), 3u);

    // Beside a measured session, and twice: a session of their own each time, never merged.
    const PlacedImports mixed = placeImports(minimalSession(), {ert.value()});
    ASSERT_EQ(mixed.sessions.size(), 2u);
    EXPECT_EQ(mixed.sessions[0].computeCeilings.size(), minimalSession().computeCeilings.size());
    EXPECT_EQ(mixed.sessions[1].computeCeilings.size(), 2u);
    EXPECT_EQ(mixed.sessionOf, std::vector<int>({1}));
    const PlacedImports twice = placeImports(std::nullopt, {ert.value(), ert.value()});
    ASSERT_EQ(twice.sessions.size(), 2u);
    EXPECT_EQ(twice.sessions[0].bandwidthCeilings.size(), 3u);
    EXPECT_EQ(twice.sessions[1].bandwidthCeilings.size(), 3u);
    const auto one = sessionWithImports(std::nullopt, {ert.value(), ert.value()});
    ASSERT_FALSE(one.ok());
    EXPECT_TRUE(one.error().message.startsWith(QStringLiteral("the imports need 2 sessions, not one")))
        << one.error().message.toStdString();
}

TEST(ImportSession, EveryImportedFixtureSavesAndLoadsBack)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    std::vector<ImportResult> imports;
    for (const char* name :
         {"ncu_details.csv", "ncu_raw.csv", "likwid_mem_dp.csv", "likwid_mem_sp_single.csv", "plain.csv",
          "ert_roofline.json", "likwid_epyc7763_mem_dp.csv", "likwid_unknown_cpu_ascii.txt"}) {
        const auto imported = importFile(importFixturePath(QString::fromLatin1(name)));
        ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
        imports.push_back(imported.value());
    }
    // ncu and plain CSV in one new session; each likwid CPU, and ERT's ceilings, in one of their own.
    const PlacedImports placed = placeImports(std::nullopt, imports);
    ASSERT_EQ(placed.sessions.size(), 6u);
    EXPECT_EQ(placed.sessionOf, std::vector<int>({0, 0, 1, 2, 0, 3, 4, 5}));
    const std::vector<std::size_t> kernels = {3u + 3u + 4u, 2u, 1u, 0u, 2u, 1u};
    const std::vector<std::size_t> computeCeilings = {0u, 0u, 0u, 2u, 2u, 0u};
    for (std::size_t i = 0; i < placed.sessions.size(); ++i) {
        const QString path = dir.filePath(QStringLiteral("s%1.json").arg(i));
        const auto saveError = saveSession(placed.sessions[i], path);
        ASSERT_FALSE(saveError.has_value()) << saveError->message.toStdString();
        const auto loaded = loadSession(path);
        ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
        EXPECT_EQ(loaded.value().kernels.size(), kernels[i]) << i;
        EXPECT_EQ(loaded.value().computeCeilings.size(), computeCeilings[i]) << i;
        EXPECT_EQ(sessionToJson(loaded.value()), sessionToJson(placed.sessions[i])) << i;
    }
}
