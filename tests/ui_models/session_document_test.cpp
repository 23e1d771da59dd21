// The window's document without a window (ui/models/session_document.h): open, overlay, save, import's
// join-or-overlay policy, and that a failure changes nothing and says why once.

#include "ui/models/session_document.h"
#include "ui/models/settings.h"

#include <QFile>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QUrl>

#include <gtest/gtest.h>

using namespace ridgeline;
using namespace ridgeline::ui;

namespace {

QString sessionFixture(const char* name)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/sessions/") + QLatin1String(name);
}

QString importFixture(const char* name)
{
    return QStringLiteral(RIDGELINE_TEST_DATA_DIR "/import/") + QLatin1String(name);
}

}  // namespace

TEST(SessionDocument, OpenThenOverlayThenSaveMovesThePrimaryToItsNewFile)
{
    Settings settings;
    SessionDocument doc(&settings);
    QSignalSpy changed(&doc, &SessionDocument::changed);
    QSignalSpy replaced(&doc, &SessionDocument::replaced);
    ASSERT_TRUE(doc.open(sessionFixture("example.json")));
    EXPECT_EQ(changed.count(), 1);
    EXPECT_EQ(replaced.count(), 1);
    EXPECT_FALSE(doc.isDirty());
    EXPECT_TRUE(doc.currentPath().endsWith(QLatin1String("example.json")));
    EXPECT_EQ(settings.recentFiles().value(0), doc.currentPath());
    ASSERT_TRUE(doc.addOverlay(sessionFixture("minimal.json")));
    EXPECT_EQ(doc.model()->sessions().size(), 2u);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("copy.json"));
    ASSERT_TRUE(doc.save(path));
    EXPECT_EQ(doc.currentPath(), path);
    EXPECT_EQ(doc.model()->sessions().size(), 2u);  // saving keeps the overlay
}

TEST(SessionDocument, AFileThatDoesNotLoadChangesNothingAndIsReportedOnce)
{
    Settings settings;
    SessionDocument doc(&settings);
    ASSERT_TRUE(doc.open(sessionFixture("example.json")));
    const QString before = doc.currentPath();
    QSignalSpy errors(&doc, &SessionDocument::errorOccurred);
    QSignalSpy changed(&doc, &SessionDocument::changed);
    EXPECT_FALSE(doc.open(QStringLiteral(RIDGELINE_TEST_DATA_DIR "/bad/nan_literal.json")));
    EXPECT_FALSE(doc.importFiles({importFixture("ncu_details.csv"), QStringLiteral("/nonexistent/profile.csv")}));
    EXPECT_EQ(errors.count(), 2);
    EXPECT_EQ(changed.count(), 0);
    EXPECT_EQ(doc.currentPath(), before);
    EXPECT_EQ(doc.model()->sessions().size(), 1u);
    EXPECT_FALSE(doc.isDirty());
}

TEST(SessionDocument, ImportedKernelsJoinThePrimaryAndCeilingsOfAnotherMachineOverlayIt)
{
    Settings settings;
    SessionDocument doc(&settings);
    QSignalSpy imported(&doc, &SessionDocument::imported);
    // No session open: the import becomes one, once the GPU its kernels ran on is known (the file names none).
    QSignalSpy question(&doc, &SessionDocument::gpuQuestion);
    ASSERT_TRUE(doc.importFiles({importFixture("ncu_details.csv")}));
    ASSERT_EQ(question.count(), 1);
    EXPECT_EQ(question.front().at(0).toInt(), 3);
    EXPECT_EQ(question.front().at(1).toStringList(), QStringList{QString()});
    EXPECT_TRUE(doc.importWaiting());
    EXPECT_EQ(doc.model()->sessions().size(), 0u);
    EXPECT_EQ(imported.count(), 0);
    doc.answerGpu(QStringLiteral("a100-40gb-sxm"));
    EXPECT_FALSE(doc.importWaiting());
    EXPECT_EQ(doc.model()->sessions().size(), 1u);
    EXPECT_EQ(doc.primary()->kernels.front().device.gpu, QStringLiteral("a100-40gb-sxm"));
    EXPECT_TRUE(doc.isDirty());
    EXPECT_TRUE(doc.currentPath().isEmpty());
    ASSERT_EQ(imported.count(), 1);
    EXPECT_FALSE(imported.front().front().toStringList().isEmpty());
    // A measured session with ceilings: kernels join it, ERT ceilings (another machine) come as an overlay.
    ASSERT_TRUE(doc.open(sessionFixture("example.json")));
    const std::size_t kernels = doc.primary()->kernels.size();
    ASSERT_TRUE(doc.importFiles({importFixture("plain.csv")}));
    EXPECT_GT(doc.primary()->kernels.size(), kernels);
    EXPECT_TRUE(doc.isDirty());
    ASSERT_TRUE(doc.importFiles({importFixture("ert_roofline.json")}));
    EXPECT_EQ(doc.model()->sessions().size(), 2u);
}

// Ceilings never join a session, even one without ceilings of its own (kernels only): they come as an overlay, and
// the primary keeps its kernels and stays without roofs.
TEST(SessionDocument, ErtCeilingsOverlayAnImportedSessionRatherThanJoinIt)
{
    Settings settings;
    SessionDocument doc(&settings);
    QSignalSpy imported(&doc, &SessionDocument::imported);
    ASSERT_TRUE(doc.importFiles({importFixture("plain.csv")}));
    ASSERT_TRUE(doc.importFiles({importFixture("ert_roofline.json")}));
    ASSERT_EQ(doc.model()->sessions().size(), 2u);
    EXPECT_TRUE(doc.primary()->computeCeilings.empty());
    EXPECT_EQ(doc.primary()->kernels.size(), 4u);
    EXPECT_EQ(doc.model()->sessions()[1].session.machine.cpuModel, QStringLiteral("ERT: ert_roofline.json"));
    ASSERT_EQ(imported.count(), 2);
    EXPECT_EQ(imported.back().front().toStringList().back(),
              QStringLiteral("  into     a session of its own ceilings, \"ERT: ert_roofline.json\" (ceilings of "
                             "another machine never join a session)"));
}

TEST(SessionDocument, ASessionFileIsKnownByItsFormatTagNotItsSuffix)
{
    EXPECT_TRUE(SessionDocument::isSessionFile(sessionFixture("example.json")));
    EXPECT_FALSE(SessionDocument::isSessionFile(importFixture("ert_roofline.json")));
    EXPECT_FALSE(SessionDocument::isSessionFile(importFixture("plain.csv")));
}

namespace {

// One likwid group per file, as `likwid-perfctr -g GROUP -m -O ./prog > GROUP_N.log` writes it (likwid 4.3).
QString writeOneGroupLog(const QTemporaryDir& dir, const QString& name, const char* group, const char* rows)
{
    QFile file(dir.filePath(name));
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray("--------------------------------------------------------------------------------\n"
                          "CPU name:\tIntel(R) Core(TM) i5-7500 CPU @ 3.40GHz\n"
                          "--------------------------------------------------------------------------------\n"
                          "TABLE,Region mv,Group 1 Metric,") +
               group + ",2\nMetric,Core 3,\n" + rows);
    return file.fileName();
}

}  // namespace

// The window reads likwid's one-group logs of one run together, as `ridgeline import` does; read one by one
// each lacks FLOPs or traffic and the import was refused.
TEST(SessionDocument, OneGroupLikwidLogsOfOneRunImportAsOneKernelWithFlopsAndBytes)
{
    QTemporaryDir dir;
    const QString flops = writeOneGroupLog(dir, QStringLiteral("FLOPS_DP_128.log"), "FLOPS_DP",
                                           "Runtime (RDTSC) [s],0.25,\nDP MFLOP/s,2000,\n");
    const QString l3 = writeOneGroupLog(dir, QStringLiteral("L3_128.log"), "L3",
                                        "Runtime (RDTSC) [s],0.26,\nL3 data volume [GBytes],4,\n");
    Settings settings;
    SessionDocument doc(&settings);
    QSignalSpy errors(&doc, &SessionDocument::errorOccurred);
    QSignalSpy imported(&doc, &SessionDocument::imported);
    ASSERT_TRUE(doc.importFiles({flops, l3})) << errors.value(0).value(1).toString().toStdString();
    ASSERT_NE(doc.primary(), nullptr);
    ASSERT_EQ(doc.primary()->kernels.size(), 1u);
    const KernelResult& kernel = doc.primary()->kernels.front();
    EXPECT_EQ(kernel.name, QStringLiteral("mv"));
    EXPECT_DOUBLE_EQ(kernel.flops, 2000e6 * 0.25);  // FLOPS_DP: 2000 MFLOP/s for 0.25 s
    EXPECT_DOUBLE_EQ(kernel.bytes, 4e9);            // L3: 4 GB
    EXPECT_EQ(kernel.level, QStringLiteral("L3"));
    ASSERT_EQ(imported.count(), 1);
    EXPECT_TRUE(imported.front().front().toStringList().front().startsWith(
        QStringLiteral("FLOPS_DP_128.log + L3_128.log (likwid): 1 kernel")))
        << imported.front().front().toStringList().front().toStdString();
    // One of them alone is still refused, with the group it lacks.
    EXPECT_FALSE(doc.importFiles({flops}));
    EXPECT_EQ(errors.count(), 1);
    EXPECT_EQ(doc.primary()->kernels.size(), 1u);
}

TEST(SessionDocument, ADropTakesLikwidLogsAndTextOutputBesideSessionsAndTables)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(QStringLiteral("/tmp/FLOPS_DP_4.log")),
                  QUrl::fromLocalFile(QStringLiteral("/tmp/run.TXT")),
                  QUrl::fromLocalFile(QStringLiteral("/tmp/a.csv")), QUrl::fromLocalFile(QStringLiteral("/tmp/s.json")),
                  QUrl::fromLocalFile(QStringLiteral("/tmp/x.png")),
                  QUrl(QStringLiteral("https://example.org/b.csv"))});
    EXPECT_EQ(SessionDocument::droppedFiles(&mime),
              QStringList({QStringLiteral("/tmp/FLOPS_DP_4.log"), QStringLiteral("/tmp/run.TXT"),
                           QStringLiteral("/tmp/a.csv"), QStringLiteral("/tmp/s.json")}));
}

// A file that names its GPU is imported at once; a question nobody answers changes nothing, and cancelling
// it imports nothing.
TEST(SessionDocument, AGpuProfileThatNamesItsGpuImportsAtOnceAndACancelledQuestionImportsNothing)
{
    Settings settings;
    SessionDocument doc(&settings);
    QSignalSpy question(&doc, &SessionDocument::gpuQuestion);
    QSignalSpy imported(&doc, &SessionDocument::imported);
    ASSERT_TRUE(doc.importFiles({importFixture("ncu_raw_roofline_set.csv")}));
    EXPECT_EQ(question.count(), 0);
    ASSERT_EQ(imported.count(), 1);
    EXPECT_EQ(doc.primary()->kernels.front().device.gpu, QStringLiteral("h100-sxm"));
    const std::size_t kernels = doc.primary()->kernels.size();

    ASSERT_TRUE(doc.importFiles({importFixture("ncu_details.csv")}));
    EXPECT_EQ(question.count(), 1);
    doc.cancelImport();
    EXPECT_FALSE(doc.importWaiting());
    doc.answerGpu(QStringLiteral("a100-40gb-sxm"));  // too late: nothing waits any more
    EXPECT_EQ(doc.primary()->kernels.size(), kernels);
    EXPECT_EQ(imported.count(), 1);
}
