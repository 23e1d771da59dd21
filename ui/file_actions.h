#pragma once
// The File menu: open, open recent, add an overlay, compare with another session, import profiles, save, save as,
// export the chart (PNG, SVG, PDF, CSV) and copy it. The document does the work; this asks for files and sizes.

#include <QObject>
#include <QPointer>

class QAction;
class QMenu;
class QMenuBar;
class QWidget;

namespace ridgeline {
struct Session;
}

namespace ridgeline::ui {

class CompareDialog;
class RooflineChart;
class SessionDocument;
class Settings;

class FileActions : public QObject {
    Q_OBJECT
public:
    // `window` parents the dialogs; `chart` is what Export and Copy draw.
    FileActions(QWidget* window, SessionDocument* document, Settings* settings, RooflineChart* chart);

    void addTo(QMenuBar* menus);
    QAction* openAction() const { return m_openAction; }
    QAction* saveAction() const { return m_saveAction; }
    QAction* exportPngAction() const { return m_exportPng; }
    QAction* compareAction() const { return m_compareAction; }
    // Before/after (issue 18): the primary session against the session file at `path`. A file that does not load
    // is reported (naming it and why) and nothing changes; the window's sessions stay as they are either way.
    bool compareWithFile(const QString& path);

signals:
    void errorOccurred(const QString& title, const QString& message);
    void statusMessage(const QString& text, int milliseconds);

private:
    void onOpen();
    void onAddOverlay();
    void onCompareWith();
    void compareWithOpen(int row);
    void showComparison(const QString& afterName, const Session& after);
    void updateCompareMenu();
    void onImport();
    void onSave();
    void onSaveAs();
    void onExport(const QString& filter, const QString& suffix);
    void onCopyChart();
    void updateRecentMenu();

    QWidget* m_window = nullptr;
    SessionDocument* m_document = nullptr;
    Settings* m_settings = nullptr;
    RooflineChart* m_chart = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_exportPng = nullptr;
    QAction* m_compareAction = nullptr;
    QMenu* m_compareOpenMenu = nullptr;  // the overlays, each to compare with the primary without a file dialog
    QPointer<CompareDialog> m_compare;
};

}  // namespace ridgeline::ui
