#include "core/json/strict_reader.h"
#include "core/session/format/session_json.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <limits>

#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace ridgeline;

namespace {

Session exampleSession()
{
    Result<Session> loaded = loadSession(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/example.json"));
    EXPECT_TRUE(loaded.ok()) << loaded.error().message.toStdString();
    return loaded.ok() ? std::move(loaded).value() : Session{};
}

QByteArray contentsOf(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

// Root ignores permission bits, so a chmod'ed folder is only read-only if creating a file in it fails.
bool canCreateFileIn(const QString& folder)
{
    QFile probe(folder + QStringLiteral("/.probe"));
    if (!probe.open(QIODevice::WriteOnly))
        return false;
    probe.remove();
    return true;
}

QStringList entriesOf(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

// Lowers the file size limit for the lifetime of this object: writes past it fail with EFBIG, for root
// too, which makes a disk that fills up half-way through a save reproducible.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes)
    {
        getrlimit(RLIMIT_FSIZE, &m_saved);
        m_oldHandler = std::signal(SIGXFSZ, SIG_IGN);  // otherwise the kernel kills us instead of failing write()
        rlimit limited = m_saved;
        limited.rlim_cur = bytes;
        m_active = setrlimit(RLIMIT_FSIZE, &limited) == 0;
    }
    ~FileSizeLimit()
    {
        setrlimit(RLIMIT_FSIZE, &m_saved);
        std::signal(SIGXFSZ, m_oldHandler);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
    bool active() const { return m_active; }

private:
    rlimit m_saved{};
    void (*m_oldHandler)(int) = SIG_DFL;
    bool m_active = false;
};

}  // namespace

TEST(SessionSave, WritesTheFileAndLeavesNoTemporaryBehind)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));
    const Session session = exampleSession();

    const auto error = saveSession(session, path);

    ASSERT_FALSE(error.has_value()) << error->message.toStdString();
    EXPECT_EQ(entriesOf(dir.path()), QStringList{QStringLiteral("session.json")});
    EXPECT_EQ(contentsOf(path), sessionToJson(session));
}

TEST(SessionSave, ReplacesAnExistingSession)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));
    ASSERT_TRUE(writeFile(path, "{\"old\": true}\n"));
    const Session session = exampleSession();

    const auto error = saveSession(session, path);

    ASSERT_FALSE(error.has_value()) << error->message.toStdString();
    EXPECT_EQ(contentsOf(path), sessionToJson(session));
    EXPECT_EQ(entriesOf(dir.path()), QStringList{QStringLiteral("session.json")});
}

TEST(SessionSave, IntoAFolderThatIsNotWritableFailsAndCreatesNothing)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QString folder = dir.filePath(QStringLiteral("locked"));
    ASSERT_TRUE(QDir().mkdir(folder));
    ASSERT_TRUE(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    // As root the chmod is ignored: /proc refuses new files to everyone, root included.
    if (canCreateFileIn(folder))
        folder = QStringLiteral("/proc");
    const QString path = folder + QStringLiteral("/ridgeline-session-test.json");

    const auto error = saveSession(exampleSession(), path);

    ASSERT_TRUE(error.has_value()) << "saving into " << folder.toStdString() << " succeeded";
    EXPECT_EQ(error->code, Error::Code::Io);
    EXPECT_TRUE(error->message.startsWith(path + QStringLiteral(": not saved: cannot write in this folder: ")))
        << error->message.toStdString();
    EXPECT_FALSE(QFileInfo::exists(path));
    if (folder != QStringLiteral("/proc")) {
        EXPECT_TRUE(entriesOf(folder).isEmpty()) << entriesOf(folder).join(u' ').toStdString();
    }
    QFile::setPermissions(dir.filePath(QStringLiteral("locked")),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

TEST(SessionSave, OverAFileInAFolderThatIsNotWritableKeepsTheOldFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("locked"));
    ASSERT_TRUE(QDir().mkdir(folder));
    const QString path = folder + QStringLiteral("/session.json");
    ASSERT_TRUE(writeFile(path, "old session\n"));
    ASSERT_TRUE(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    if (canCreateFileIn(folder)) {
        QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        GTEST_SKIP() << "running as root, which writes through chmod; FailingMidwayKeepsThePreviousFile covers root";
    }

    const auto error = saveSession(exampleSession(), path);

    ASSERT_TRUE(error.has_value());
    EXPECT_TRUE(error->message.startsWith(path + QStringLiteral(": not saved"))) << error->message.toStdString();
    EXPECT_EQ(contentsOf(path), QByteArray("old session\n"));
    EXPECT_EQ(entriesOf(folder), QStringList{QStringLiteral("session.json")});
    QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

// Root writes through chmod, so as root (CI) the save runs in a child that has dropped to "nobody":
// the folder is root's and read-only to everyone else, as it is to a user saving into /usr/share.
TEST(SessionSave, ByAUserWhoCannotWriteTheFolderKeepsTheOldFile)
{
    if (geteuid() != 0)
        GTEST_SKIP() << "not root: OverAFileInAFolderThatIsNotWritableKeepsTheOldFile covers this user";
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const auto readable = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                          QFileDevice::ReadGroup | QFileDevice::ExeGroup | QFileDevice::ReadOther |
                          QFileDevice::ExeOther;
    ASSERT_TRUE(QFile::setPermissions(dir.path(), readable));
    const QString path = dir.filePath(QStringLiteral("session.json"));
    ASSERT_TRUE(writeFile(path, "old session\n"));
    // The file itself is writable by everyone: only the folder stands in the way of the atomic save.
    ASSERT_TRUE(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup |
                                                QFileDevice::WriteGroup | QFileDevice::ReadOther |
                                                QFileDevice::WriteOther));
    const Session session = exampleSession();

    constexpr uid_t kNobody = 65534;
    EXPECT_EXIT(
        {
            if (setgroups(0, nullptr) != 0 || setgid(kNobody) != 0 || setuid(kNobody) != 0)
                std::_Exit(2);
            const auto error = saveSession(session, path);
            if (error)
                std::fprintf(stderr, "%s\n", qPrintable(error->message));
            std::_Exit(error ? 0 : 1);
        },
        ::testing::ExitedWithCode(0), "session.json: not saved");
    EXPECT_EQ(contentsOf(path), QByteArray("old session\n"));
    EXPECT_EQ(entriesOf(dir.path()), QStringList{QStringLiteral("session.json")});
}

// The file is written a piece at a time: a kernel refused after earlier pieces reached the temporary file still
// leaves the previous file as it was, and no temporary behind.
TEST(SessionSave, AKernelRefusedAfterPiecesWereWrittenKeepsThePreviousFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));
    ASSERT_TRUE(writeFile(path, "old session\n"));
    Session session = exampleSession();
    const std::vector<KernelResult> kernels = session.kernels;
    // About 3 MiB of kernels: the writer's pieces are a MiB.
    Session doubled = session;
    doubled.kernels.insert(doubled.kernels.end(), kernels.begin(), kernels.end());
    const qsizetype bytesPerCopy = sessionToJson(doubled).size() - sessionToJson(session).size();
    for (qsizetype copies = 3 * 1024 * 1024 / bytesPerCopy; copies > 0; --copies)
        session.kernels.insert(session.kernels.end(), kernels.begin(), kernels.end());
    ASSERT_GT(sessionToJson(session).size(), 2 * 1024 * 1024);
    const std::size_t last = session.kernels.size() - 1;
    session.kernels[last].seconds = -1.0;

    const auto error = saveSession(session, path);

    ASSERT_TRUE(error.has_value());
    EXPECT_TRUE(error->message.startsWith(path + QStringLiteral(": not saved: kernels[") + QString::number(last) +
                                          QStringLiteral("].seconds")))
        << error->message.toStdString();
    EXPECT_EQ(contentsOf(path), QByteArray("old session\n"));
    EXPECT_EQ(entriesOf(dir.path()), QStringList{QStringLiteral("session.json")}) << "temporary file left behind";

    session.kernels[last] = kernels.back();
    ASSERT_FALSE(saveSession(session, path).has_value());
    EXPECT_EQ(contentsOf(path), sessionToJson(session));
}

// The loader refuses files past 256 MiB, so the writer stops there: the bound is met part way through the kernels,
// after many pieces reached the temporary file, and the previous file stays as it was.
TEST(SessionSave, ASessionPastTheLoadersBoundIsRefusedAndKeepsThePreviousFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));
    ASSERT_TRUE(writeFile(path, "old session\n"));
    Session session = exampleSession();
    ASSERT_FALSE(session.kernels.empty());
    KernelResult kernel = session.kernels.front();
    // The longest name a session holds, three UTF-8 bytes a character: about 12 KiB a kernel, with the name shared in
    // memory, so the test holds a few MiB while the file would pass 256 MiB.
    kernel.name = QString(kMaxTextChars, QChar(0x754C));
    session.kernels.assign(100, kernel);
    ASSERT_FALSE(saveSession(session, path).has_value()) << "the kernels themselves are fine";
    const qsizetype hundredKernels = QFileInfo(path).size();
    ASSERT_GT(hundredKernels, 100 * 3 * kMaxTextChars);
    ASSERT_TRUE(writeFile(path, "old session\n"));

    const std::size_t pastTheBound = static_cast<std::size_t>(kMaxSessionFileBytes / (3 * kMaxTextChars)) + 100;
    session.kernels.assign(pastTheBound, kernel);
    const auto error = saveSession(session, path);

    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, Error::Code::Range);
    EXPECT_EQ(error->message, path + QStringLiteral(": not saved: the session would be larger than 256 MiB, the most "
                                                    "a session file may be (save fewer kernels)"));
    EXPECT_EQ(contentsOf(path), QByteArray("old session\n"));
    EXPECT_EQ(entriesOf(dir.path()), QStringList{QStringLiteral("session.json")}) << "temporary file left behind";
}

TEST(SessionSave, FailingMidwayKeepsThePreviousFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));
    ASSERT_TRUE(writeFile(path, "old session\n"));
    const Session session = exampleSession();
    ASSERT_GT(sessionToJson(session).size(), 4096);

    std::optional<Error> error;
    {
        const FileSizeLimit limit(4096);  // the example session is about 24 KiB
        ASSERT_TRUE(limit.active());
        error = saveSession(session, path);
    }

    ASSERT_TRUE(error.has_value()) << "a save larger than the file size limit succeeded";
    EXPECT_EQ(error->code, Error::Code::Io);
    EXPECT_TRUE(error->message.startsWith(path + QStringLiteral(": not saved, previous file kept: wrote only ")))
        << error->message.toStdString();
    EXPECT_TRUE(error->message.endsWith(QStringLiteral(": File too large"))) << error->message.toStdString();
    EXPECT_EQ(contentsOf(path), QByteArray("old session\n"));
    EXPECT_EQ(entriesOf(dir.path()), QStringList{QStringLiteral("session.json")}) << "temporary file left behind";
}

TEST(SessionSave, IntoAMissingFolderFailsAndCreatesNoFolder)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("missing/deeper"));
    const QString path = folder + QStringLiteral("/session.json");

    const auto error = saveSession(exampleSession(), path);

    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, Error::Code::NotFound);
    EXPECT_EQ(error->message,
              path + QStringLiteral(": not saved: the folder ") + folder + QStringLiteral(" does not exist"));
    EXPECT_TRUE(entriesOf(dir.path()).isEmpty());
}

TEST(SessionSave, OverAFolderOrAPipeIsRefusedAndLeavesThemAlone)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("session.json"));
    ASSERT_TRUE(QDir().mkdir(folder));
    // QSaveFile would otherwise rename its temporary file over the pipe (or over /dev/full).
    const QString fifo = dir.filePath(QStringLiteral("pipe.json"));
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);

    for (const QString& path : {folder, fifo}) {
        const auto error = saveSession(exampleSession(), path);
        ASSERT_TRUE(error.has_value()) << path.toStdString();
        EXPECT_EQ(error->message, path + QStringLiteral(": not saved: not a regular file"));
    }
    EXPECT_TRUE(QFileInfo(folder).isDir());
    struct stat info {};
    ASSERT_EQ(stat(QFile::encodeName(fifo).constData(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode));
    EXPECT_EQ(entriesOf(dir.path()), (QStringList{QStringLiteral("pipe.json"), QStringLiteral("session.json")}));
}

TEST(SessionSave, RefusesASessionThatCouldNotBeLoadedBack)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("session.json"));
    Session session = exampleSession();
    // JSON has no NaN: the bytes about to be written hold null, and the check reads those bytes.
    session.kernels[3].gflops = std::numeric_limits<double>::quiet_NaN();

    auto error = saveSession(session, path);

    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, Error::Code::Schema);
    EXPECT_EQ(error->message, path + QStringLiteral(": not saved: kernels[3].gflops must be a finite number >= 0, "
                                                    "got null"));
    EXPECT_FALSE(QFileInfo::exists(path));

    session = exampleSession();
    session.computeCeilings[1].spread.min = std::numeric_limits<double>::infinity();
    error = saveSession(session, path);
    ASSERT_TRUE(error.has_value());
    EXPECT_TRUE(
        error->message.contains(QStringLiteral("ceilings.compute[1].min must be a finite number >= 0, got null")))
        << error->message.toStdString();

    session = exampleSession();
    session.machine.cores = 0;  // a default MachineInfo: the probe never ran
    error = saveSession(session, path);
    ASSERT_TRUE(error.has_value());
    EXPECT_TRUE(error->message.contains(QStringLiteral("machine.cores must be a whole number from 1 to 65536, got 0")));
    EXPECT_FALSE(QFileInfo::exists(path));
}
