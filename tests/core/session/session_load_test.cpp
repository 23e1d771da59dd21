#include "core/read_file.h"
#include "core/session/format/session_json.h"

#include <QFile>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ridgeline;

namespace {

QString dataPath(const char* relative)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/") + QLatin1String(relative);
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

TEST(SessionLoad, MissingFileIsNotFoundAndNamed)
{
    const QString path = QStringLiteral("/nonexistent/ridgeline/session.json");
    const Result<Session> loaded = loadSession(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().code, Error::Code::NotFound);
    EXPECT_EQ(loaded.error().message, path + QStringLiteral(": no such file"));
}

TEST(SessionLoad, FolderIsRefused)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const Result<Session> loaded = loadSession(dir.path());
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().code, Error::Code::Io);
    EXPECT_TRUE(loaded.error().message.contains(QStringLiteral("is a folder, not a session file")));
}

TEST(SessionLoad, DeviceOrPipeIsRefusedWithoutReading)
{
    // A FIFO with no writer would block a reader forever; the loader must not even open it.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("session.json"));
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    for (const QString& path : {fifo, QStringLiteral("/dev/zero")}) {
        const Result<Session> loaded = loadSession(path);
        ASSERT_FALSE(loaded.ok());
        EXPECT_EQ(loaded.error().message,
                  path + QStringLiteral(": not a regular file (a FIFO, a device or a socket): a "
                                        "session file is read from a file"));
    }
}

TEST(SessionLoad, UnreadableFileIsAnIoError)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));
    ASSERT_TRUE(QFile::copy(dataPath("sessions/minimal.json"), path));
    ASSERT_TRUE(QFile::setPermissions(path, QFileDevice::Permissions()));
    const auto loadAndCheck = [&path] {
        const Result<Session> loaded = loadSession(path);
        ASSERT_FALSE(loaded.ok());
        EXPECT_EQ(loaded.error().code, Error::Code::Io);
        EXPECT_TRUE(loaded.error().message.contains(QStringLiteral(": cannot open: ")))
            << loaded.error().message.toStdString();
    };
    if (geteuid() != 0) {
        loadAndCheck();
        return;
    }
    // Root reads through any permission bits (and CI runs as root): load in a child that became "nobody".
    ASSERT_TRUE(QFile::setPermissions(
        dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ExeOther));
    constexpr uid_t kNobody = 65534;
    EXPECT_EXIT(
        {
            if (setgroups(0, nullptr) != 0 || setgid(kNobody) != 0 || setuid(kNobody) != 0)
                std::_Exit(2);
            const Result<Session> loaded = loadSession(path);
            if (!loaded.ok())
                std::fprintf(stderr, "%s\n", qPrintable(loaded.error().message));
            std::_Exit(!loaded.ok() && loaded.error().code == Error::Code::Io ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "session.json: cannot open: ");
}

TEST(SessionLoad, FileLargerThan256MiBIsRefusedBeforeReading)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("huge.json"));
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    ASSERT_TRUE(file.resize(kMaxSessionFileBytes + 1));  // sparse: costs no disk and no time
    file.close();

    // The message names the size, which is known only from the file's metadata: nothing was read.
    const Result<Session> loaded = loadSession(path);
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().code, Error::Code::Range);
    EXPECT_EQ(loaded.error().message, path + QStringLiteral(": the file is 268435457 bytes; session files larger "
                                                            "than 256 MiB are refused"));
}

// How every file is read under its size limit (sessions, imports, config.json): whole when it fits, one byte past
// the limit when it does not, and whole too when it says its size is 0, as /proc files do.
TEST(SessionLoad, AFileIsReadWholeOrToOneBytePastTheLimit)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const auto read = [&dir](const QByteArray& content, qint64 limit) {
        const QString path = dir.filePath(QStringLiteral("f.json"));
        QFile out(path);
        EXPECT_TRUE(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
        out.write(content);
        out.close();
        QFile in(path);
        EXPECT_TRUE(in.open(QIODevice::ReadOnly));
        return readAtMost(in, limit);
    };
    const QByteArray text(5000, 'x');
    EXPECT_EQ(read(text.left(10), 100), text.left(10));
    EXPECT_EQ(read(text.left(100), 100), text.left(100));
    EXPECT_EQ(read(text.left(101), 100), text.left(101));
    EXPECT_EQ(read(text, 100), text.left(101));
    EXPECT_EQ(read(QByteArray(), 100), QByteArray());

    QFile version(QStringLiteral("/proc/version"));
    if (!version.open(QIODevice::ReadOnly))
        GTEST_SKIP() << "no /proc/version";
    ASSERT_EQ(version.size(), 0);  // what /proc says of its files
    const QByteArray whole = readAtMost(version, 1 << 20);
    EXPECT_GT(whole.size(), 1);
    EXPECT_EQ(whole, readAll(QStringLiteral("/proc/version")));
    version.close();
    ASSERT_TRUE(version.open(QIODevice::ReadOnly));
    EXPECT_EQ(readAtMost(version, 4), whole.left(5));
}

TEST(SessionLoad, MoreThanAMillionKernelsAreRefusedByCount)
{
    // Built here rather than kept as a 3 MB fixture.
    QByteArray json = readAll(dataPath("sessions/minimal.json"));
    ASSERT_FALSE(json.isEmpty());
    const qsizetype kernels = json.indexOf("\"kernels\": [");
    ASSERT_GT(kernels, 0);
    QByteArray entries = "\"kernels\": [{}";
    entries.reserve(3'000'100);
    for (int i = 0; i < 1'000'000; ++i)
        entries += ",{}";
    json = json.left(kernels) + entries + "]}\n";

    const Result<Session> loaded = sessionFromJson(json, QStringLiteral("many.json"));
    ASSERT_FALSE(loaded.ok());
    EXPECT_EQ(loaded.error().code, Error::Code::Range);
    EXPECT_EQ(loaded.error().message,
              QStringLiteral("many.json: kernels has 1000001 entries; at most 1000000 are allowed"));
}

TEST(SessionLoad, EveryTruncationOfAGoodFileIsAnErrorNotACrash)
{
    const QByteArray json = readAll(dataPath("sessions/minimal.json"));
    const qsizetype lastBrace = json.lastIndexOf('}');
    ASSERT_GT(lastBrace, 0);
    for (qsizetype length = 0; length < lastBrace; ++length) {
        const Result<Session> loaded = sessionFromJson(json.left(length), QStringLiteral("cut.json"));
        ASSERT_FALSE(loaded.ok()) << "a " << length << "-byte prefix loaded";
        EXPECT_TRUE(loaded.error().message.startsWith(QStringLiteral("cut.json: ")));
    }
}

TEST(SessionLoad, CorruptingAnyByteNeverCrashesAndNeverHalfLoads)
{
    const QByteArray json = readAll(dataPath("sessions/minimal.json"));
    ASSERT_FALSE(json.isEmpty());
    int refused = 0;
    for (qsizetype i = 0; i < json.size(); ++i) {
        for (const char replacement : {'\0', '"', '9', '-', '{', '\xff'}) {
            QByteArray corrupt = json;
            corrupt[i] = replacement;
            const Result<Session> loaded = sessionFromJson(corrupt, QStringLiteral("corrupt.json"));
            if (loaded.ok())
                continue;  // e.g. a digit changed inside a number: still a valid session
            ++refused;
            EXPECT_FALSE(loaded.error().message.isEmpty());
            EXPECT_FALSE(loaded.error().message.contains(u'\n'));
        }
    }
    EXPECT_GT(refused, json.size());
}

TEST(SessionLoad, TheMinimalFixtureIsValidSoEachBadFileHasExactlyOneDefect)
{
    const Result<Session> loaded = loadSession(dataPath("sessions/minimal.json"));
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(loaded.value().machine.cores, 2);
    EXPECT_EQ(loaded.value().kernels.size(), 4u);
}

TEST(SessionLoad, AUtf8ByteOrderMarkIsAccepted)
{
    // Some Windows editors add one when a user hand-edits a session.
    const QByteArray json = "\xEF\xBB\xBF" + readAll(dataPath("sessions/minimal.json"));
    const Result<Session> loaded = sessionFromJson(json, QStringLiteral("bom.json"));
    EXPECT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
}
