// Faults while saving: a process killed in the middle of a save and a disk that is full. Either
// way the file on disk is a whole session that loads (the previous one, or the new one if the save had
// already been committed), and the user is told when a save did not happen.
// Read-only folders and a file size limit hit half-way are covered in session_save_test.cpp.
#include "core/session/format/session_json.h"
#include "tests/support/small_disk.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <utility>

#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ridgeline;
using ridgeline::test::SmallTmpfs;

namespace {

Session exampleSession()
{
    Result<Session> loaded = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
    EXPECT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    return loaded.ok() ? std::move(loaded).value() : Session{};
}

// The example session with its kernels repeated until the file is about `bytes` long.
Session bigSession(qsizetype bytes, const QString& title)
{
    Session session = exampleSession();
    session.title = title;
    const std::vector<KernelResult> kernels = session.kernels;
    const qsizetype perKernel = sessionToJson(session).size() / static_cast<qsizetype>(kernels.size() + 4);
    while (static_cast<qsizetype>(session.kernels.size()) * perKernel < bytes)
        session.kernels.insert(session.kernels.end(), kernels.begin(), kernels.end());
    return session;
}

QByteArray contentsOf(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

QStringList entriesOf(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

}  // namespace

TEST(SessionFault, KillingASaveHalfWayLeavesAWholeSessionAndNoTornFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));
    const Session previous = exampleSession();
    ASSERT_FALSE(saveSession(previous, path).has_value());
    // Two different big sessions saved in turn, so that every kill lands in the middle of some save.
    const Session first = bigSession(2 * 1024 * 1024, QStringLiteral("first"));
    const Session second = bigSession(2 * 1024 * 1024, QStringLiteral("second"));
    const QByteArray previousJson = sessionToJson(previous);
    const QByteArray firstJson = sessionToJson(first);
    const QByteArray secondJson = sessionToJson(second);

    QElapsedTimer timer;
    timer.start();
    ASSERT_FALSE(saveSession(first, path).has_value());
    ASSERT_FALSE(saveSession(previous, path).has_value());
    // Kill at delays spread over two save cycles, so that some kills hit the write and some the commit.
    const qint64 cycleUs = std::max<qint64>(timer.nsecsElapsed() / 1000, 1000);

    constexpr int kKills = 10;
    int leftLinks = 0;
    const QRegularExpression saveFileLink(QStringLiteral("^session\\.json\\.[A-Za-z0-9]{6}$"));
    for (int attempt = 0; attempt < kKills; ++attempt) {
        const pid_t child = fork();
        ASSERT_GE(child, 0) << std::strerror(errno);
        if (child == 0) {
            for (bool odd = false;; odd = !odd) {
                if (saveSession(odd ? second : first, path).has_value())
                    _exit(3);
            }
        }
        usleep(static_cast<useconds_t>(cycleUs / 2 + cycleUs * attempt * 2 / kKills));
        ASSERT_EQ(kill(child, SIGKILL), 0);
        int status = 0;
        ASSERT_EQ(waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFSIGNALED(status)) << "the saving child stopped by itself: a save failed";

        const Result<Session> loaded = loadSession(path);
        ASSERT_TRUE(loaded.ok()) << "after kill " << attempt << ": " << loaded.error().message.toStdString();
        const QByteArray onDisk = contentsOf(path);
        EXPECT_TRUE(onDisk == previousJson || onDisk == firstJson || onDisk == secondJson)
            << "after kill " << attempt << " the file is none of the sessions that were saved (" << onDisk.size()
            << " bytes)";
        // QSaveFile writes into an unnamed O_TMPFILE, so a killed write leaves nothing. Over an existing file
        // it links it in as session.json.XXXXXX and renames that: a kill between the two leaves that link, a
        // whole session, which the next save does not remove. Anything else is a torn temporary file.
        for (const QString& entry : entriesOf(dir.path())) {
            if (entry == QStringLiteral("session.json"))
                continue;
            ASSERT_TRUE(saveFileLink.match(entry).hasMatch())
                << "after kill " << attempt << ": unexpected file " << entry.toStdString();
            EXPECT_TRUE(loadSession(dir.filePath(entry)).ok()) << "a torn temporary file " << entry.toStdString();
            ++leftLinks;
            QFile::remove(dir.filePath(entry));
        }
    }

    RecordProperty("links_left_between_link_and_rename", leftLinks);

    // And the next save works as if nothing had happened.
    ASSERT_FALSE(saveSession(previous, path).has_value());
    EXPECT_EQ(contentsOf(path), previousJson);
    EXPECT_EQ(entriesOf(dir.path()), QStringList{QStringLiteral("session.json")});
}

TEST(SessionFault, AFullDiskKeepsThePreviousFileAndSaysSo)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("small-disk"));
    ASSERT_TRUE(QDir().mkdir(folder));
    const SmallTmpfs disk(folder, 64);
    if (!disk.mounted())
        GTEST_SKIP() << "cannot mount a 64 KiB tmpfs on " << folder.toStdString() << " (" << disk.error()
                     << "; needs root or CAP_SYS_ADMIN); SessionSave.FailingMidwayKeepsThePreviousFile covers a "
                        "write that stops half-way with a file size limit instead";

    const QString path = folder + QStringLiteral("/session.json");
    const Session previous = exampleSession();  // about 24 KiB: fits
    ASSERT_FALSE(saveSession(previous, path).has_value());
    const Session big = bigSession(256 * 1024, QStringLiteral("too big for this disk"));

    const auto error = saveSession(big, path);

    ASSERT_TRUE(error.has_value()) << "a 256 KiB session was saved on a 64 KiB disk";
    EXPECT_EQ(error->code, Error::Code::Io);
    EXPECT_TRUE(error->message.startsWith(path + QStringLiteral(": not saved, previous file kept: ")))
        << error->message.toStdString();
    EXPECT_TRUE(error->message.endsWith(QStringLiteral("No space left on device"))) << error->message.toStdString();
    const Result<Session> loaded = loadSession(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    EXPECT_EQ(sessionToJson(loaded.value()), sessionToJson(previous));
    EXPECT_EQ(entriesOf(folder), QStringList{QStringLiteral("session.json")}) << "temporary file left behind";

    // The failed save gave its space back: the disk is as empty as before it.
    struct statvfs stats {};
    ASSERT_EQ(statvfs(QFile::encodeName(folder).constData(), &stats), 0);
    EXPECT_GT(static_cast<qint64>(stats.f_bavail * stats.f_frsize), 32 * 1024);
    Session edited = previous;
    edited.title = QStringLiteral("saved after the disk was full");
    ASSERT_FALSE(saveSession(edited, path).has_value());
    EXPECT_EQ(loadSession(path).value().title, edited.title);
}
