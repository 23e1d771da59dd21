// The window's document without a window (ui/models/session_document.h): open, overlay, save, import's
// join-or-overlay policy, and that a failure changes nothing and says why once.

#include "ui/models/session_document.h"
#include "ui/models/settings.h"

#include <QSignalSpy>
#include <QTemporaryDir>

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
    // No session open: the import becomes one.
    ASSERT_TRUE(doc.importFiles({importFixture("ncu_details.csv")}));
    EXPECT_EQ(doc.model()->sessions().size(), 1u);
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

TEST(SessionDocument, ASessionFileIsKnownByItsFormatTagNotItsSuffix)
{
    EXPECT_TRUE(SessionDocument::isSessionFile(sessionFixture("example.json")));
    EXPECT_FALSE(SessionDocument::isSessionFile(importFixture("ert_roofline.json")));
    EXPECT_FALSE(SessionDocument::isSessionFile(importFixture("plain.csv")));
}
