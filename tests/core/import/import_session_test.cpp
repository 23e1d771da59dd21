// Imports in a session: the new kernel fields survive a save and a load, old files still load, and an
// import is all or nothing.
#include "core/import/import_session.h"
#include "core/session/session_json.h"
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
    const Session base = minimalSession();
    const auto imported = importBytes(importFixture(QStringLiteral("likwid_mem_dp.csv")), QStringLiteral("l.csv"));
    ASSERT_TRUE(imported.ok());
    const auto merged = sessionWithImports(base, {imported.value()});
    ASSERT_TRUE(merged.ok());
    EXPECT_EQ(merged.value().kernels.size(), base.kernels.size() + 2);
    EXPECT_EQ(merged.value().machine.cpuModel, base.machine.cpuModel);
    EXPECT_EQ(merged.value().computeCeilings.size(), base.computeCeilings.size());
    EXPECT_EQ(merged.value().kernels.back().name, QStringLiteral("dgemm"));
}

TEST(ImportSession, ErtCeilingsMakeANewMachineAndNeverJoinMeasuredOnes)
{
    const auto ert = importBytes(importFixture(QStringLiteral("ert_roofline.json")), QStringLiteral("roofline.json"));
    ASSERT_TRUE(ert.ok());
    const auto fresh = sessionWithImports(std::nullopt, {ert.value()});
    ASSERT_TRUE(fresh.ok());
    EXPECT_EQ(fresh.value().machine.cpuModel, QStringLiteral("ERT: roofline.json"));
    EXPECT_EQ(fresh.value().bandwidthCeilings.size(), 3u);

    const auto mixed = sessionWithImports(minimalSession(), {ert.value()});
    ASSERT_FALSE(mixed.ok());
    EXPECT_EQ(mixed.error().message, QStringLiteral("roofline.json: ceilings of another machine cannot join a session "
                                                    "that has its own; import them into a new session"));
    const auto twice = sessionWithImports(std::nullopt, {ert.value(), ert.value()});
    ASSERT_FALSE(twice.ok());
    EXPECT_TRUE(twice.error().message.contains(QStringLiteral("a second set of ceilings")));
}

TEST(ImportSession, EveryImportedFixtureSavesAndLoadsBack)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    std::vector<ImportResult> imports;
    for (const char* name : {"ncu_details.csv", "ncu_raw.csv", "likwid_mem_dp.csv", "likwid_mem_sp_single.csv",
                             "plain.csv", "ert_roofline.json"}) {
        const auto imported = importFile(importFixturePath(QString::fromLatin1(name)));
        ASSERT_TRUE(imported.ok()) << imported.error().message.toStdString();
        imports.push_back(imported.value());
    }
    const auto session = sessionWithImports(std::nullopt, imports);
    ASSERT_TRUE(session.ok());
    const QString path = dir.filePath(QStringLiteral("all.json"));
    const auto saveError = saveSession(session.value(), path);
    ASSERT_FALSE(saveError.has_value()) << saveError->message.toStdString();
    const auto loaded = loadSession(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().kernels.size(), 3u + 3u + 2u + 1u + 4u);
    EXPECT_EQ(loaded.value().computeCeilings.size(), 2u);
}
