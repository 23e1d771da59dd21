// The window's docks as the tabs use them: their share of the window at the first show, and what each tab takes
// along when it becomes current (the docks, the export target, whether the view can be a scene).

#include "ui/file_actions.h"
#include "ui/kernel_dock.h"
#include "ui/mainwindow.h"
#include "ui/talk/talk_actions.h"

#include <QDockWidget>

#include <algorithm>

namespace ridgeline::ui {

void MainWindow::sizeDocks()
{
    // The chart is the point: the docks take a share of the window, not a fixed number of pixels, so that a
    // laptop's 1280x800 keeps most of it for the roofline (a saved layout overrides this).
    auto* sessions = findChild<QDockWidget*>(QStringLiteral("SessionsDock"));
    auto* explain = findChild<QDockWidget*>(QStringLiteral("ExplainDock"));
    resizeDocks({sessions, explain}, {std::max(70, height() / 10), height()}, Qt::Vertical);
    resizeDocks({m_kernelDock}, {std::clamp(height() / 5, 150, 260)}, Qt::Vertical);
    resizeDocks({explain}, {std::clamp(width() / 5, 240, 380)}, Qt::Horizontal);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_docksSized) {
        m_docksSized = true;
        sizeDocks();
    }
}

void MainWindow::onTabChanged(int index)
{
    const bool roofline = index == 0;
    const bool training = index == 2;
    m_file->setExportTarget(roofline   ? ExportTarget::Roofline
                            : training ? ExportTarget::Training
                                       : ExportTarget::Batching);
    m_talk->setViewSavable(!training, tr("A scene shows the roofline or the batching explorer; the training step has "
                                         "no scene yet. Export the training step as a picture instead (Ctrl+E)."));
    // The docks explain the roofline; on the explorers they only take its room. Each comes back as it was.
    // isHidden, not isVisible: the tab can change before the window is first shown.
    if (!roofline && m_docksHiddenForExplorer.isEmpty())
        m_rooflineState = saveState();  // what closing on the explorer saves, so the docks come back next time
    for (QDockWidget* dock : findChildren<QDockWidget*>()) {
        if (roofline) {
            if (m_docksHiddenForExplorer.contains(dock))
                dock->show();
        } else if (!dock->isHidden()) {
            m_docksHiddenForExplorer.append(dock);
            dock->hide();
        }
    }
    if (roofline) {
        m_docksHiddenForExplorer.clear();
        m_rooflineState.clear();
    }
}

}  // namespace ridgeline::ui
