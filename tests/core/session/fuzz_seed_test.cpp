// The fuzzers' seeds for the session and deck readers (tests/fuzz/seeds/sessions, decks): ./scripts/fuzz cuts every
// input at -max_len=8192 bytes, so the fixtures in tests/data, most of them larger, reach a fuzzer as JSON cut short.
// These small files are what lets the structure-aware target edit whole sessions and decks and draw them; each must
// load as it is and stay within the cut, or the fuzzer quietly goes back to fuzzing refusals.
#include "core/scene/deck.h"
#include "core/session/format/session_json.h"

#include <QDir>
#include <QFileInfo>
#include <QString>

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

constexpr qint64 kFuzzMaxLen = 8192;  // scripts/fuzz: -max_len

QFileInfoList seedsIn(const QString& folder)
{
    return QDir(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/../fuzz/seeds/") + folder)
        .entryInfoList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
}

}  // namespace

TEST(FuzzSeeds, EverySessionSeedLoadsWithinTheFuzzersLengthLimit)
{
    const QFileInfoList seeds = seedsIn(QStringLiteral("sessions"));
    ASSERT_GE(seeds.size(), 8);
    bool anyImported = false, anyMeasured = false;
    for (const QFileInfo& seed : seeds) {
        SCOPED_TRACE(seed.fileName().toStdString());
        EXPECT_LE(seed.size(), kFuzzMaxLen);
        const Result<Session> session = loadSession(seed.filePath());
        ASSERT_TRUE(session.ok()) << session.error().message.toStdString();
        for (const KernelResult& kernel : session.value().kernels)
            (kernel.kind == QLatin1String("imported") ? anyImported : anyMeasured) = true;
    }
    EXPECT_TRUE(anyImported) << "no seed holds imported kernels";
    EXPECT_TRUE(anyMeasured) << "no seed holds measured kernels";
}

TEST(FuzzSeeds, EveryDeckSeedLoadsWithinTheFuzzersLengthLimit)
{
    const QFileInfoList seeds = seedsIn(QStringLiteral("decks"));
    ASSERT_GE(seeds.size(), 3);
    for (const QFileInfo& seed : seeds) {
        SCOPED_TRACE(seed.fileName().toStdString());
        EXPECT_LE(seed.size(), kFuzzMaxLen);
        const Result<Deck> deck = loadDeck(seed.filePath());
        ASSERT_TRUE(deck.ok()) << deck.error().message.toStdString();
        EXPECT_FALSE(deck.value().scenes.empty());
    }
}
