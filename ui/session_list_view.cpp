#include "ui/session_list_view.h"

#include "ui/models/session_document.h"

#include <QAction>

namespace ridgeline::ui {

SessionListView::SessionListView(SessionDocument* document, QWidget* parent) : QListView(parent), m_document(document)
{
    setModel(document->model());
    setAccessibleName(tr("Sessions"));
    setAccessibleDescription(
        tr("The open session and its overlays; a check shows one on the chart, Delete takes "
           "an overlay off it"));
    m_remove = new QAction(tr("&Remove From Chart"), this);
    m_remove->setShortcut(QKeySequence::Delete);
    m_remove->setShortcutContext(Qt::WidgetShortcut);  // Delete in the kernel table removes a kernel
    connect(m_remove, &QAction::triggered, this, [this] { m_document->removeOverlay(currentIndex().row()); });
    addAction(m_remove);
    setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(selectionModel(), &QItemSelectionModel::currentChanged, this, &SessionListView::updateRemove);
    connect(document, &SessionDocument::changed, this, &SessionListView::updateRemove);
    updateRemove();
}

// The open session itself is not an overlay: it closes with Close Session, which asks about unsaved work.
void SessionListView::updateRemove()
{
    const int row = currentIndex().row();
    m_remove->setEnabled(row >= 1);
    m_remove->setToolTip(row == 0 ? tr("The open session closes with File > Close Session")
                                  : tr("Take this overlay off the chart"));
}

}  // namespace ridgeline::ui
