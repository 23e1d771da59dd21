// The command line against special files and full disks: nothing lost (a failed write keeps the old file byte for
// byte and says why) and nothing hangs (a FIFO is refused, never opened).
#include "tests/app/cli_runner.h"
#include "tests/support/small_disk.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <csignal>
#include <utility>
#include <vector>

#include <sys/resource.h>
#include <sys/stat.h>

using namespace ridgeline;
using ridgeline::test::CliRun;
using ridgeline::test::contentsOf;
using ridgeline::test::data;
using ridgeline::test::environmentWithoutDisplay;
using ridgeline::test::fillDisk;
using ridgeline::test::runRidgeline;
using ridgeline::test::SmallTmpfs;

namespace {

bool isFifo(const QString& path)
{
    struct stat info {};
    return lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISFIFO(info.st_mode);
}

// Runs the command with no room left for what it writes: on a full 64 KiB tmpfs where the test may mount one,
// else with a file size limit of 64 bytes in the child (the same failure, injected), so that it always runs.
CliRun runOnAFullDisk(const QStringList& arguments, const QString& folder, bool mounted)
{
    if (mounted) {
        EXPECT_TRUE(fillDisk(folder + QStringLiteral("/filler")));
        return runRidgeline(arguments);
    }
    QProcess process;
    process.setChildProcessModifier([] {
        std::signal(SIGXFSZ, SIG_IGN);
        rlimit limit{64, 64};
        setrlimit(RLIMIT_FSIZE, &limit);
    });
    process.start(QStringLiteral(RIDGELINE_CLI_PATH), arguments);
    EXPECT_TRUE(process.waitForFinished(30000));
    return CliRun{process.exitCode(), QString::fromUtf8(process.readAllStandardOutput()),
                  QString::fromUtf8(process.readAllStandardError())};
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

TEST(FilesCli, ImportExportAndCalibrateOnAFullDiskKeepTheOldFilesAndSaySo)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("disk"));
    ASSERT_TRUE(QDir().mkdir(folder));
    const SmallTmpfs disk(folder, 64);
    const QString session = folder + QStringLiteral("/session.json");
    const QString tables = folder + QStringLiteral("/tables");
    const QString calibrated = folder + QStringLiteral("/calibrated.json");
    // The old files: small, so that the new ones are written in one buffered write flushed at the end.
    ASSERT_EQ(
        runRidgeline({QStringLiteral("import"), data("import/plain.csv"), QStringLiteral("--out"), session}).exitCode,
        0);
    ASSERT_EQ(runRidgeline({QStringLiteral("export"), data("sessions/minimal.json"), QStringLiteral("--csv"), tables})
                  .exitCode,
              0);
    ASSERT_EQ(runRidgeline({QStringLiteral("calibrate"), data("bench/llama_bench_2025.json"), QStringLiteral("--model"),
                            QStringLiteral("llama-3.1-8b"), QStringLiteral("--out"), calibrated})
                  .exitCode,
              0);
    const QByteArray oldSession = contentsOf(session);
    const QByteArray oldKernels = contentsOf(tables + QStringLiteral("/kernels.csv"));
    const QByteArray oldCalibrated = contentsOf(calibrated);

    const CliRun import =
        runOnAFullDisk({QStringLiteral("import"), data("import/ert_roofline.json"), QStringLiteral("--out"), session},
                       folder, disk.mounted());
    const CliRun exported =
        runOnAFullDisk({QStringLiteral("export"), data("sessions/example.json"), QStringLiteral("--csv"), tables},
                       folder, disk.mounted());
    const CliRun calibrate =
        runOnAFullDisk({QStringLiteral("calibrate"), data("bench/llama_bench_2025.csv"), QStringLiteral("--model"),
                        QStringLiteral("llama-3.1-8b"), QStringLiteral("--out"), calibrated},
                       folder, disk.mounted());

    for (const auto& [run, path] : {std::pair{import, session}, std::pair{calibrate, calibrated}}) {
        EXPECT_EQ(run.exitCode, 1) << run.out.toStdString();
        EXPECT_FALSE(run.out.contains(QStringLiteral("wrote"), Qt::CaseInsensitive)) << run.out.toStdString();
        EXPECT_TRUE(run.err.contains(path + QStringLiteral(": not saved, previous file kept: ")))
            << run.err.toStdString();
    }
    EXPECT_EQ(exported.exitCode, 1) << exported.out.toStdString();
    EXPECT_TRUE(exported.err.contains(QStringLiteral("not saved"))) << exported.err.toStdString();
    if (disk.mounted()) {
        for (const CliRun& run : {import, exported, calibrate})
            EXPECT_TRUE(run.err.contains(QStringLiteral("the disk is full"))) << run.err.toStdString();
    }
    EXPECT_EQ(contentsOf(session), oldSession);
    EXPECT_EQ(contentsOf(tables + QStringLiteral("/kernels.csv")), oldKernels);
    EXPECT_EQ(contentsOf(calibrated), oldCalibrated);
}

// Every image kind the command line writes, and a deck's PDF, on a disk with no room left: each refused with the
// path, the old file byte for byte.
TEST(FilesCli, RenderOnAFullDiskKeepsTheOldImagesAndSaysSo)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("disk"));
    ASSERT_TRUE(QDir().mkdir(folder));
    const SmallTmpfs disk(folder, 1024);
    const QString session = data("sessions/minimal.json");
    const QStringList outs = {folder + QStringLiteral("/chart.png"), folder + QStringLiteral("/chart.svg"),
                              folder + QStringLiteral("/chart.pdf"), folder + QStringLiteral("/chart.csv")};
    const QString deck = folder + QStringLiteral("/talk.pdf");
    for (const QString& out : outs)
        ASSERT_EQ(runRidgeline({QStringLiteral("render"), session, QStringLiteral("--size"), QStringLiteral("640x400"),
                                QStringLiteral("--out"), out},
                               environmentWithoutDisplay())
                      .exitCode,
                  0)
            << out.toStdString();
    ASSERT_EQ(runRidgeline({QStringLiteral("render"), QStringLiteral("--deck"), QStringLiteral("default"), session,
                            QStringLiteral("--size"), QStringLiteral("640x360"), QStringLiteral("--out"), deck},
                           environmentWithoutDisplay())
                  .exitCode,
              0);
    std::vector<QByteArray> before;
    for (const QString& out : outs + QStringList{deck})
        before.push_back(contentsOf(out));

    if (disk.mounted()) {
        ASSERT_TRUE(fillDisk(folder + QStringLiteral("/filler")));
    }
    for (const QString& out : outs) {
        // The dark theme and an added roof: different bytes, so that a half-written file would show.
        const QStringList arguments = {QStringLiteral("render"),  session,
                                       QStringLiteral("--size"),  QStringLiteral("640x400"),
                                       QStringLiteral("--theme"), QStringLiteral("dark"),
                                       QStringLiteral("--roof"),  QStringLiteral("A100:19.5:1.555"),
                                       QStringLiteral("--out"),   out};
        const CliRun run = disk.mounted() ? runRidgeline(arguments, environmentWithoutDisplay())
                                          : runOnAFullDisk(arguments, folder, false);
        EXPECT_EQ(run.exitCode, 1) << out.toStdString() << ": " << run.out.toStdString();
        EXPECT_TRUE(run.err.contains(out + QStringLiteral(": not saved, previous file kept: ")))
            << run.err.toStdString();
    }
    const QStringList deckArguments = {QStringLiteral("render"),  QStringLiteral("--deck"),
                                       QStringLiteral("default"), session,
                                       QStringLiteral("--size"),  QStringLiteral("640x360"),
                                       QStringLiteral("--theme"), QStringLiteral("dark"),
                                       QStringLiteral("--out"),   deck};
    const CliRun deckRun = disk.mounted() ? runRidgeline(deckArguments, environmentWithoutDisplay())
                                          : runOnAFullDisk(deckArguments, folder, false);
    EXPECT_EQ(deckRun.exitCode, 1) << deckRun.out.toStdString();
    EXPECT_TRUE(deckRun.err.contains(deck + QStringLiteral(": not saved, previous file kept: ")))
        << deckRun.err.toStdString();
    const QStringList all = outs + QStringList{deck};
    for (qsizetype i = 0; i < all.size(); ++i)
        EXPECT_EQ(contentsOf(all[i]), before[static_cast<std::size_t>(i)]) << all[i].toStdString();
}

TEST(FilesCli, RenderNeverReplacesAFifoADeviceOrTheDeviceBehindASymlink)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("pipe.png"));
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString deckFifo = dir.filePath(QStringLiteral("talk.pdf"));
    ASSERT_EQ(mkfifo(QFile::encodeName(deckFifo).constData(), 0600), 0);
    const QString toNull = dir.filePath(QStringLiteral("null.svg"));
    ASSERT_TRUE(QFile::link(QStringLiteral("/dev/null"), toNull));
    const QString session = data("sessions/minimal.json");

    for (const QString& out : {fifo, toNull}) {
        const CliRun run = runRidgeline({QStringLiteral("render"), session, QStringLiteral("--out"), out},
                                        environmentWithoutDisplay());
        EXPECT_EQ(run.exitCode, 1) << out.toStdString() << ": " << run.out.toStdString();
        EXPECT_TRUE(run.err.contains(out + QStringLiteral(": not saved: not a regular file"))) << run.err.toStdString();
    }
    const CliRun deck = runRidgeline({QStringLiteral("render"), QStringLiteral("--deck"), QStringLiteral("default"),
                                      session, QStringLiteral("--out"), deckFifo},
                                     environmentWithoutDisplay());
    EXPECT_NE(deck.exitCode, 0);
    EXPECT_TRUE(deck.err.contains(deckFifo + QStringLiteral(": not saved: not a regular file")))
        << deck.err.toStdString();

    EXPECT_TRUE(isFifo(fifo));
    EXPECT_TRUE(isFifo(deckFifo));
    EXPECT_TRUE(QFileInfo(toNull).isSymLink());
    struct stat info {};
    ASSERT_EQ(stat("/dev/null", &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
}
