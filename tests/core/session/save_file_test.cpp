// The one writer of every file (core/save_file.h) against special files and full disks: a FIFO, a device, a symlink
// to a device and a disk with no room left are each refused with the path, and whatever was there stays byte for
// byte. The small writes are the point: QFileDevice buffers them, and only the flush at the end can fail.
#include "core/save_file.h"
#include "tests/support/small_disk.h"

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <csignal>

#include <sys/resource.h>
#include <sys/stat.h>

using namespace ridgeline;
using ridgeline::test::fillDisk;
using ridgeline::test::SmallTmpfs;

namespace {

QByteArray contentsOf(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

QStringList entriesOf(const QString& folder)
{
    return QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

bool isFifo(const QString& path)
{
    struct stat info {};
    return lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISFIFO(info.st_mode);
}

const QByteArray kOld = "name,flops,bytes,seconds\nold,1,1,1\n";
const QByteArray kNew = QByteArray("name,flops,bytes,seconds\n") + QByteArray(2000, 'n') + '\n';  // buffered: < 16 KiB

}  // namespace

TEST(SaveFile, AFifoADeviceAndSymlinksToThemAreRefusedAndLeftAlone)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("pipe.csv"));
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString toFifo = dir.filePath(QStringLiteral("to-pipe.csv"));
    const QString toNull = dir.filePath(QStringLiteral("to-null.csv"));
    ASSERT_TRUE(QFile::link(fifo, toFifo));
    ASSERT_TRUE(QFile::link(QStringLiteral("/dev/null"), toNull));

    // /dev/full is a device too: refused before a byte is written, so that it stays a device even for root.
    for (const QString& path : {fifo, toFifo, toNull, QStringLiteral("/dev/full"), QStringLiteral("/dev/null")}) {
        const std::optional<Error> error = saveFile(path, kNew);
        ASSERT_TRUE(error.has_value()) << path.toStdString();
        EXPECT_EQ(error->message, path + QStringLiteral(": not saved: not a regular file"));
        const std::optional<Error> encoded =
            saveEncoded(path, [](QIODevice& device) { return device.write("x") == 1; });
        ASSERT_TRUE(encoded.has_value()) << path.toStdString();
        EXPECT_EQ(encoded->message, error->message);
    }
    EXPECT_TRUE(isFifo(fifo));
    EXPECT_TRUE(QFileInfo(toFifo).isSymLink());
    EXPECT_TRUE(QFileInfo(toNull).isSymLink());
    struct stat info {};
    ASSERT_EQ(stat("/dev/null", &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
    EXPECT_EQ(entriesOf(dir.path()),
              (QStringList{QStringLiteral("pipe.csv"), QStringLiteral("to-null.csv"), QStringLiteral("to-pipe.csv")}));
}

TEST(SaveFile, ASmallFileOnAFullDiskKeepsThePreviousOneByteForByte)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("small-disk"));
    ASSERT_TRUE(QDir().mkdir(folder));
    const SmallTmpfs disk(folder, 64);
    if (!disk.mounted())
        GTEST_SKIP() << "cannot mount a 64 KiB tmpfs (" << disk.error()
                     << "); ABufferedWriteThatFailsAtTheEndKeepsThePreviousFile injects the failure instead";
    const QString path = folder + QStringLiteral("/kernels.csv");
    ASSERT_FALSE(saveFile(path, kOld).has_value());
    ASSERT_TRUE(fillDisk(folder + QStringLiteral("/filler")));

    const std::optional<Error> error = saveFile(path, kNew);

    ASSERT_TRUE(error.has_value()) << "a save on a full disk reported success";
    EXPECT_EQ(error->code, Error::Code::Io);
    EXPECT_TRUE(error->message.startsWith(path + QStringLiteral(": not saved, previous file kept: ")))
        << error->message.toStdString();
    EXPECT_TRUE(error->message.contains(QStringLiteral("the disk is full"))) << error->message.toStdString();
    EXPECT_EQ(contentsOf(path), kOld);
    EXPECT_EQ(entriesOf(folder), (QStringList{QStringLiteral("filler"), QStringLiteral("kernels.csv")}))
        << "temporary file left behind";

    // Encoded images (PNG, SVG, PDF) go the same way.
    const std::optional<Error> encoded =
        saveEncoded(path, [](QIODevice& device) { return device.write(kNew) == kNew.size(); });
    ASSERT_TRUE(encoded.has_value());
    EXPECT_EQ(contentsOf(path), kOld);

    // With room again, the same save goes through.
    ASSERT_TRUE(QFile::remove(folder + QStringLiteral("/filler")));
    ASSERT_FALSE(saveFile(path, kNew).has_value());
    EXPECT_EQ(contentsOf(path), kNew);
}

// The fallback where no tmpfs can be mounted: a file size limit makes the one flush at the end fail the same way.
TEST(SaveFile, ABufferedWriteThatFailsAtTheEndKeepsThePreviousFile)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("kernels.csv"));
    ASSERT_FALSE(saveFile(path, kOld).has_value());

    rlimit saved{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);  // else the kernel kills the test instead of failing
    rlimit limited = saved;
    limited.rlim_cur = 1024;  // kNew is about 2 KiB: one buffered write, flushed at the end
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
    const std::optional<Error> error = saveFile(path, kNew);
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, oldHandler);

    ASSERT_TRUE(error.has_value()) << "a save past the file size limit reported success";
    EXPECT_TRUE(error->message.startsWith(path + QStringLiteral(": not saved, previous file kept: ")))
        << error->message.toStdString();
    EXPECT_EQ(contentsOf(path), kOld);
    EXPECT_EQ(entriesOf(dir.path()), QStringList{QStringLiteral("kernels.csv")}) << "temporary file left behind";
}

TEST(SaveFile, AnEncoderThatFailsWritesNothing)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("chart.png"));
    ASSERT_FALSE(saveFile(path, kOld).has_value());

    const std::optional<Error> error = saveEncoded(path, [](QIODevice& device) {
        device.write("partial");
        return false;
    });

    ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->message, path + QStringLiteral(": not saved: the image could not be encoded"));
    EXPECT_EQ(contentsOf(path), kOld);
    EXPECT_EQ(entriesOf(dir.path()), QStringList{QStringLiteral("chart.png")});
}
