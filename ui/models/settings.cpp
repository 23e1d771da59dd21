#include "ui/models/settings.h"

#include <QSettings>

namespace ridgeline::ui {

namespace {

// The one list of keys.
namespace Key {
const QString Geometry = QStringLiteral("window/geometry");
const QString State = QStringLiteral("window/state");
const QString RecentFiles = QStringLiteral("files/recent");
const QString LastDirectory = QStringLiteral("files/lastDirectory");
const QString LastSession = QStringLiteral("files/lastSession");
const QString ReopenLastSession = QStringLiteral("files/reopenLastSession");
const QString LastExportDirectory = QStringLiteral("export/lastDirectory");
const QString Theme = QStringLiteral("chart/theme");
const QString ShadeRegions = QStringLiteral("chart/shadeRegions");
const QString IsoEfficiency = QStringLiteral("chart/isoEfficiency");
const QString AllKernelNames = QStringLiteral("chart/allKernelNames");
const QString SizeByTimeShare = QStringLiteral("chart/sizeByTimeShare");
const QString ExportSize = QStringLiteral("export/size");
const QString ExportPixelRatio = QStringLiteral("export/pixelRatio");
}  // namespace Key

}  // namespace

Settings::Settings(QObject* parent) : QObject(parent) {}

QByteArray Settings::windowGeometry() const
{
    return QSettings().value(Key::Geometry).toByteArray();
}

void Settings::setWindowGeometry(const QByteArray& geometry)
{
    QSettings().setValue(Key::Geometry, geometry);
}

QByteArray Settings::windowState() const
{
    return QSettings().value(Key::State).toByteArray();
}

void Settings::setWindowState(const QByteArray& state)
{
    QSettings().setValue(Key::State, state);
}

QStringList Settings::recentFiles() const
{
    return QSettings().value(Key::RecentFiles).toStringList();
}

void Settings::addRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(Key::RecentFiles, files);
    emit recentFilesChanged();
}

void Settings::removeRecentFile(const QString& path)
{
    QStringList files = recentFiles();
    if (files.removeAll(path) == 0)
        return;
    QSettings().setValue(Key::RecentFiles, files);
    emit recentFilesChanged();
}

ThemeKind Settings::theme() const
{
    ThemeKind kind = ThemeKind::Light;
    parseThemeKind(QSettings().value(Key::Theme, QStringLiteral("light")).toString(), &kind);
    return kind;
}

void Settings::setTheme(ThemeKind theme)
{
    QSettings().setValue(Key::Theme, themeKindName(theme));
    emit changed();
}

bool Settings::shadeRegions() const
{
    return QSettings().value(Key::ShadeRegions, false).toBool();
}

void Settings::setShadeRegions(bool on)
{
    QSettings().setValue(Key::ShadeRegions, on);
    emit changed();
}

bool Settings::sizeByTimeShare() const
{
    return QSettings().value(Key::SizeByTimeShare, false).toBool();
}

void Settings::setSizeByTimeShare(bool on)
{
    QSettings().setValue(Key::SizeByTimeShare, on);
    emit changed();
}

bool Settings::isoEfficiency() const
{
    return QSettings().value(Key::IsoEfficiency, false).toBool();
}

void Settings::setIsoEfficiency(bool on)
{
    QSettings().setValue(Key::IsoEfficiency, on);
    emit changed();
}

bool Settings::allKernelNames() const
{
    return QSettings().value(Key::AllKernelNames, false).toBool();
}

void Settings::setAllKernelNames(bool on)
{
    QSettings().setValue(Key::AllKernelNames, on);
    emit changed();
}

QString Settings::lastDirectory() const
{
    return QSettings().value(Key::LastDirectory).toString();
}

void Settings::setLastDirectory(const QString& directory)
{
    QSettings().setValue(Key::LastDirectory, directory);
}

QString Settings::lastSession() const
{
    return QSettings().value(Key::LastSession).toString();
}

void Settings::setLastSession(const QString& path)
{
    QSettings().setValue(Key::LastSession, path);
}

bool Settings::reopenLastSession() const
{
    return QSettings().value(Key::ReopenLastSession, true).toBool();
}

void Settings::setReopenLastSession(bool on)
{
    QSettings().setValue(Key::ReopenLastSession, on);
}

QString Settings::lastExportDirectory() const
{
    return QSettings().value(Key::LastExportDirectory).toString();
}

void Settings::setLastExportDirectory(const QString& directory)
{
    QSettings().setValue(Key::LastExportDirectory, directory);
}

QSize Settings::exportSize() const
{
    const QSize size = QSettings().value(Key::ExportSize, QSize(1920, 1080)).toSize();
    return size.isValid() ? size : QSize(1920, 1080);
}

void Settings::setExportSize(QSize size)
{
    QSettings().setValue(Key::ExportSize, size);
}

double Settings::exportPixelRatio() const
{
    const double ratio = QSettings().value(Key::ExportPixelRatio, 1.0).toDouble();
    return ratio >= 0.5 && ratio <= 4.0 ? ratio : 1.0;
}

void Settings::setExportPixelRatio(double ratio)
{
    QSettings().setValue(Key::ExportPixelRatio, ratio);
}

}  // namespace ridgeline::ui
