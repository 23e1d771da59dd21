// The deck format: the default deck, round trips, and decks that are refused with a reason.
#include "core/scene/deck.h"

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace ridgeline;

TEST(Deck, DefaultDeckHasTheTwelveScenesOfTheSourceText)
{
    const Result<Deck> deck = defaultDeck();
    ASSERT_TRUE(deck.ok()) << deck.error().message.toStdString();
    const QStringList expected{QStringLiteral("two-kinds"),
                               QStringLiteral("intensity-table"),
                               QStringLiteral("cpu-experiment"),
                               QStringLiteral("one-token"),
                               QStringLiteral("batch-fills"),
                               QStringLiteral("cost-per-token"),
                               QStringLiteral("batch-wait"),
                               QStringLiteral("kv-cost"),
                               QStringLiteral("fusion"),
                               QStringLiteral("training-moves"),
                               QStringLiteral("training-hierarchy"),
                               QStringLiteral("tensor-parallel")};
    QStringList ids;
    for (const Scene& scene : deck.value().scenes) {
        ids.append(scene.id);
        EXPECT_FALSE(scene.title.isEmpty());
        EXPECT_FALSE(scene.caption.isEmpty());
    }
    EXPECT_EQ(ids, expected);
}

TEST(Deck, RoundTripsThroughAFile)
{
    const Deck original = defaultDeck().value();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("talk.json"));
    ASSERT_FALSE(saveDeck(original, path).has_value());
    const Result<Deck> loaded = loadDeck(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(deckToJson(loaded.value()), deckToJson(original));
    EXPECT_EQ(loaded.value().scenes.size(), 12u);
    EXPECT_EQ(loaded.value().scenes[4].batches, (std::vector<std::int64_t>{1, 4, 16, 64, 256}));
    EXPECT_EQ(loaded.value().scenes[5].gpuHourPrice, std::optional<double>(2.5));
    EXPECT_FALSE(loaded.value().scenes[6].gpuHourPrice);
    // The training scenes' choices: a 7B model on an 80 GiB card, its sequence and batches, the boxes.
    const Scene& moves = loaded.value().scenes[9];
    EXPECT_EQ(moves.kind, QStringLiteral("training-moves"));
    EXPECT_EQ(moves.view, QStringLiteral("training"));
    EXPECT_EQ(moves.modelId, QStringLiteral("llama-2-7b"));
    EXPECT_EQ(moves.gpu.catalogId, QStringLiteral("h100-sxm"));
    EXPECT_EQ(moves.sequence, 4096);
    EXPECT_EQ(moves.microBatch, 4);
    EXPECT_EQ(moves.globalBatch, 0);  // the scene's default: one micro-batch
    const Scene& hierarchy = loaded.value().scenes[10];
    EXPECT_EQ(hierarchy.tensorParallel, 8);
    EXPECT_EQ(hierarchy.boxes, 2);
    EXPECT_EQ(hierarchy.globalBatch, 64);
}

TEST(Deck, BadDecksAreRefusedWithTheirReason)
{
    const std::vector<std::pair<const char*, const char*>> cases{
        {"", "the file holds no JSON value"},
        {"[]", "the top level must be a JSON object, got an array"},
        {R"({"format":"ridgeline-session","schema_version":1,"scenes":[]})", "not a Ridgeline deck"},
        {R"({"format":"ridgeline-deck","schema_version":9,"scenes":[]})", "newer Ridgeline"},
        {R"({"format":"ridgeline-deck","schema_version":1})", "missing required field scenes"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[]})", "scenes is empty"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[7]})", "scenes[0] must be an object"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"magic","view":"roofline","title":"t"}]})",
         "scenes[0].kind is \"magic\""},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"pie","title":"t"}]})",
         "scenes[0].view must be"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"training-moves","view":"training","title":"t","micro_batch":0}]})",
         "scenes[0].micro_batch must be a whole number from 1 to "},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"training-hierarchy","view":"training","title":"t","boxes":2.5}]})",
         "scenes[0].boxes must be a whole number"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t","batch":0}]})",
         "scenes[0].batch must be a whole number from 1 to 65536, got 0"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"batching","view":"batching","title":"t","batches":[1,-4]}]})",
         "scenes[0].batches must hold whole numbers"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t","gpu":{"peak_tflops":-1}}]})",
         "scenes[0].gpu.peak_tflops must be a finite number >= 0, got -1"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t","intensity_range":[10,1]}]})",
         "intensity_range must be [min, max]"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t"},{"id":"a","kind":"ridge","view":"roofline","title":"u"}]})",
         "scenes[1].id \"a\" is used twice"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"kind":"ridge","view":"roofline","title":"t"}]})",
         "missing required field scenes[0].id"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"serving-cost","view":"batching","title":"t","gpu_hour_price":0}]})",
         "scenes[0].gpu_hour_price must be a number of US dollars above 0"},
        // The strict reader the sessions use: no key twice, no key the format does not have (A1).
        {R"({"format":"ridgeline-deck","schema_version":1,"title":"a","title":"b","scenes":[]})",
         "line 1, column 59: duplicate key title"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t","batch":2,"batch":4}]})",
         "duplicate key scenes[0].batch"},
        {R"({"format":"ridgeline-deck","schema_version":1,"subtitle":"x","scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t"}]})",
         "unknown field subtitle"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t","batchsize":8}]})",
         "unknown field scenes[0].batchsize"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t","gpu":{"id":"h100-sxm","tdp":700}}]})",
         "unknown field scenes[0].gpu.tdp"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t","highlight":["sgemm",3]}]})",
         "scenes[0].highlight[1] must be a string, got 3"},
        // The one physical rule: a ridge of 1e308 FLOP/byte overflowed the chart's log axis.
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t","gpu":{"peak_tflops":989,"bandwidth_tbs":1e-305}}]})",
         "talk.json: scenes[0].gpu.bandwidth_tbs must be between 1e-09 and 1e+06 TB/s, got 1e-305"},
        {R"({"format":"ridgeline-deck","schema_version":1,"scenes":[{"id":"a","kind":"ridge","view":"roofline","title":"t","gpu":{"peak_tflops":5e-324,"bandwidth_tbs":3.35}}]})",
         "talk.json: scenes[0].gpu.peak_tflops must be between 1e-09 and 1e+06 TFLOP/s, got 5e-324"},
    };
    for (const auto& [json, expected] : cases) {
        const Result<Deck> deck = deckFromJson(QByteArray(json), QStringLiteral("talk.json"));
        ASSERT_FALSE(deck.ok()) << json;
        EXPECT_TRUE(deck.error().message.startsWith(QStringLiteral("talk.json: ")))
            << deck.error().message.toStdString();
        EXPECT_TRUE(deck.error().message.contains(QString::fromUtf8(expected)))
            << json << "\n  gave: " << deck.error().message.toStdString();
    }
}

// Found by fuzz_deck_loader: a raw line break inside a string was quoted into the message, which then ran over two
// lines. JSON writes control characters escaped: a raw one is refused by its place, in a one-line message.
TEST(Deck, AControlCharacterInAValueIsRefusedInAOneLineMessage)
{
    const QByteArray json =
        "{\"format\":\"ridgeline-deck\",\"schema_version\":1,\"scenes\":[{\"id\":\"a\","
        "\"kind\":\"tensor-parallel\n \",\"view\":\"batching\",\"title\":\"t\"}]}";
    const Result<Deck> deck = deckFromJson(json, QStringLiteral("talk.json"));
    ASSERT_FALSE(deck.ok());
    EXPECT_FALSE(deck.error().message.contains(u'\n'));
    EXPECT_EQ(deck.error().message,
              QStringLiteral("talk.json: line 1, column 90: a raw control character (U+000a) inside a string; JSON "
                             "writes it escaped"));
}

TEST(Deck, MissingFileIsNotFound)
{
    const Result<Deck> deck = loadDeck(QStringLiteral("/nonexistent/talk.json"));
    ASSERT_FALSE(deck.ok());
    EXPECT_EQ(deck.error().code, Error::Code::NotFound);
}

// A FIFO or a device is not "no such file": it is named for what it is, and never opened (a FIFO would block).
TEST(Deck, AFifoOrADeviceIsNamedAsNotARegularFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("talk.json"));
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const QString& path : {fifo, QStringLiteral("/dev/urandom")}) {
        const Result<Deck> deck = loadDeck(path);
        ASSERT_FALSE(deck.ok()) << path.toStdString();
        EXPECT_EQ(deck.error().code, Error::Code::Io);
        EXPECT_EQ(
            deck.error().message,
            path + QStringLiteral(": not a regular file (a FIFO, a device or a socket): a deck is read from a file"));
    }
    const Result<Deck> folder = loadDeck(dir.path());
    ASSERT_FALSE(folder.ok());
    EXPECT_EQ(folder.error().message, dir.path() + QStringLiteral(": is a folder, not a deck"));
}

TEST(Deck, AnAppendedSceneGetsAnIdOfItsOwnFromItsTitle)
{
    Deck deck;
    Scene scene;
    scene.title = QStringLiteral("KV cache at 8k!");
    appendScene(deck, scene);
    appendScene(deck, scene);
    scene.title.clear();
    appendScene(deck, scene);
    ASSERT_EQ(deck.scenes.size(), 3u);
    EXPECT_EQ(deck.scenes[0].id, QStringLiteral("kv-cache-at-8k-"));
    EXPECT_EQ(deck.scenes[1].id, QStringLiteral("kv-cache-at-8k--2"));
    EXPECT_EQ(deck.scenes[2].id, QStringLiteral("scene"));
}
