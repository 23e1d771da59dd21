// The serving engine the batching tab models with, kept in the session: written and read back through a real file,
// absent from older files (the default), and refused in one line naming the file and the field when no engine has
// that name, with nothing else read from the file.
#include "core/model/llm/engine_profile.h"
#include "core/session/format/session_json.h"

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace ridgeline;

namespace {

const QString kExample = QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json");

QByteArray exampleBytes()
{
    QFile file(kExample);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// example.json (schema 2) with `member` ("key": value) as the first member of the top-level object, as a file.
QString writeWithMember(const QTemporaryDir& dir, const QByteArray& member)
{
    QByteArray json = exampleBytes();
    const qsizetype open = json.indexOf('{');
    json = json.left(open + 1) + member + ',' + json.mid(open + 1);
    const QString path = dir.filePath(QStringLiteral("engine.json"));
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(json);
    return path;
}

}  // namespace

TEST(SessionEngine, TheEngineSurvivesSavingAndLoadingAFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    Result<Session> example = loadSession(kExample);
    ASSERT_TRUE(example.ok()) << example.error().message.toStdString();
    for (const QString& engine :
         {QStringLiteral("llama.cpp"), QStringLiteral("vllm@0.12.1"), QStringLiteral("TRTLLM")}) {
        Session session = example.value();
        session.engine = engine;
        const QString path = dir.filePath(QStringLiteral("with-engine.json"));
        const auto saved = saveSession(session, path);
        ASSERT_FALSE(saved.has_value()) << saved->message.toStdString();
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        const QByteArray field = QByteArray("\"engine\": \"") + engine.toUtf8() + '"';
        EXPECT_TRUE(file.readAll().contains(field));
        const Result<Session> loaded = loadSession(path);
        ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
        EXPECT_EQ(loaded.value().engine, engine);
        EXPECT_EQ(sessionToJson(loaded.value()), sessionToJson(session));
    }
}

TEST(SessionEngine, OlderSessionsWithoutTheFieldLoadWithTheDefault)
{
    for (const char* name : {"example.json", "example_v1.json", "calibrated.json", "minimal.json"}) {
        const Result<Session> loaded =
            loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/") + QLatin1String(name));
        ASSERT_TRUE(loaded.ok()) << name << ": " << loaded.error().message.toStdString();
        EXPECT_TRUE(loaded.value().engine.isEmpty()) << name;
        EXPECT_FALSE(sessionToJson(loaded.value()).contains("\"engine\"")) << name;
    }
}

TEST(SessionEngine, AnEngineNoCatalogHasIsRefusedInOneLineNamingTheFileAndField)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    struct Case {
        QByteArray member;
        const char* says;
    };
    const std::vector<Case> cases = {
        {"\"engine\": \"deepspeed\"", "engine: no engine \"deepspeed\"; known: generic, vllm"},
        {"\"engine\": \"vllm@latest\"", "engine: engine vllm: the version must be dotted numbers"},
        {"\"engine\": 7", "engine"},
        {"\"engine\": null", "engine"},
        {"\"engine\": \"\"", "engine"},
        {"\"engine\": \"" + QByteArray(100000, 'x') + '"', "engine is 100000 characters long"},
        {"\"engine\": \"" + QByteArray(4000, 'x') + '"', "engine: no engine \"xxxx"},
    };
    for (const Case& c : cases) {
        const QString path = writeWithMember(dir, c.member);
        const Result<Session> loaded = loadSession(path);
        ASSERT_FALSE(loaded.ok()) << c.member.left(60).constData();
        const QString message = loaded.error().message;
        EXPECT_TRUE(message.startsWith(path + QStringLiteral(": "))) << message.toStdString();
        EXPECT_TRUE(message.contains(QLatin1String(c.says))) << message.left(300).toStdString();
        EXPECT_FALSE(message.contains(u'\n'));
        EXPECT_LT(message.size(), 600) << message.left(300).toStdString();
    }
    // A schema 1 file had no engine: there it is a field the format does not have.
    QFile minimal(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/minimal.json"));
    ASSERT_TRUE(minimal.open(QIODevice::ReadOnly));
    QByteArray v1 = minimal.readAll();
    v1.insert(v1.indexOf('{') + 1, "\"engine\": \"vllm\",");
    const Result<Session> old = sessionFromJson(v1, QStringLiteral("v1.json"));
    ASSERT_FALSE(old.ok());
    EXPECT_TRUE(old.error().message.contains(u"engine")) << old.error().message.toStdString();

    // Nor is a session naming one written: the file on disk stays as it was.
    Session session = loadSession(kExample).value();
    session.engine = QStringLiteral("deepspeed");
    const QString path = dir.filePath(QStringLiteral("kept.json"));
    ASSERT_FALSE(saveSession(loadSession(kExample).value(), path).has_value());
    const auto refused = saveSession(session, path);
    ASSERT_TRUE(refused.has_value());
    EXPECT_TRUE(refused->message.contains(u"engine: no engine \"deepspeed\"")) << refused->message.toStdString();
    EXPECT_TRUE(loadSession(path).value().engine.isEmpty());
}
