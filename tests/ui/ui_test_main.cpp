// GoogleTest main for the widget tests: offscreen unless told otherwise, and a QApplication (hotspot's trick).

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace {

// Each test starts with no preferences, as it does when ctest runs it in a process of its own: one test's saved
// theme, last session or export folder must not decide another's outcome when the whole suite runs in one process
// (the xvfb pass, or a developer's plain run of the binary).
class FreshSettingsForEachTest : public ::testing::EmptyTestEventListener {
    void OnTestStart(const ::testing::TestInfo&) override
    {
        QSettings settings;
        settings.clear();
        settings.sync();
    }
};

}  // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // Settings and recent files go to a test location, never the user's.
    QStandardPaths::setTestModeEnabled(true);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("RidgelineTests"));
    QApplication::setApplicationName(QStringLiteral("RidgelineUiTests"));
    // ctest runs test processes side by side: each gets settings of its own, or one test's window
    // would save its geometry and recent files between another's save and read.
    const QTemporaryDir settingsDir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir.path());
    // The user's own GPU and model catalogs (XDG_CONFIG_HOME/ridgeline) likewise: none unless a test writes one.
    const QTemporaryDir configDir;
    qputenv("XDG_CONFIG_HOME", configDir.path().toLocal8Bit());
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::UnitTest::GetInstance()->listeners().Append(new FreshSettingsForEachTest);
    return RUN_ALL_TESTS();
}
