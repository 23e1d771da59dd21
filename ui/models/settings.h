#pragma once
// Every persistent setting of the window, each key named once (heaptrack's Config::Entries, hotspot's
// Settings): widgets ask this class, never QSettings with a string literal.

#include "ui/plots/layout/chart_theme.h"

#include <QByteArray>
#include <QObject>
#include <QSize>
#include <QStringList>

namespace ridgeline::ui {

class Settings : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxRecentFiles = 8;

    explicit Settings(QObject* parent = nullptr);

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);

    QStringList recentFiles() const;
    void addRecentFile(const QString& path);  // most recent first, no duplicates, at most kMaxRecentFiles
    void removeRecentFile(const QString& path);

    ThemeKind theme() const;
    void setTheme(ThemeKind theme);
    bool sizeByTimeShare() const;  // imported kernels' dots sized by their share of the profile's time
    void setSizeByTimeShare(bool on);
    bool shadeRegions() const;
    void setShadeRegions(bool on);
    bool isoEfficiency() const;
    void setIsoEfficiency(bool on);
    bool allKernelNames() const;  // every kernel named where it has room, not only the points that matter
    void setAllKernelNames(bool on);

    QString lastDirectory() const;
    void setLastDirectory(const QString& directory);
    // The session file open when the window last closed (empty: none, or an unsaved one), and whether the next
    // start reopens it (default on).
    QString lastSession() const;
    void setLastSession(const QString& path);
    bool reopenLastSession() const;
    void setReopenLastSession(bool on);
    // Where the last export went (empty until the first one).
    QString lastExportDirectory() const;
    void setLastExportDirectory(const QString& directory);
    QSize exportSize() const;  // default 1920x1080: a slide
    void setExportSize(QSize size);
    double exportPixelRatio() const;
    void setExportPixelRatio(double ratio);

signals:
    void changed();
    void recentFilesChanged();
};

}  // namespace ridgeline::ui
