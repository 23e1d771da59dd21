// The command line against special files: nothing hangs (a FIFO is refused, never opened).
#include "tests/app/cli_runner.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <sys/stat.h>

using namespace ridgeline;
using ridgeline::test::CliRun;
using ridgeline::test::runRidgeline;

namespace {

bool isFifo(const QString& path)
{
    struct stat info {};
    return lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISFIFO(info.st_mode);
}

}  // namespace

TEST(FilesCli, ImportOfAFifoIsRefusedAtOnceAndWritesNothing)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("profile.csv"));
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString out = dir.filePath(QStringLiteral("new.json"));

    QElapsedTimer timer;
    timer.start();
    const CliRun run = runRidgeline({QStringLiteral("import"), fifo, QStringLiteral("--out"), out});

    EXPECT_LT(timer.elapsed(), 10'000) << "import of a FIFO waited for a writer";
    EXPECT_EQ(run.exitCode, 1);
    EXPECT_TRUE(run.err.contains(fifo + QStringLiteral(": not a regular file (a FIFO, a device or a socket)")))
        << run.err.toStdString();
    EXPECT_FALSE(QFileInfo::exists(out));
    EXPECT_TRUE(isFifo(fifo));
}
